"""A compiled program: its kernel source, the printed host function and the
constants that function reads, built on a device once and run many times.

```python
program = compile_program(module, "opencl")        # gir.executor
result = program.run(device, ["bfs", "rmat:10", "0"], sys.stdout)
```
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from gir.diagnostics import UserError
from gir.dialects.gir_gpu import BoundsSite
from gir.protocol import HostRuntime
from gir.runtime.device import Device, KernelSignatures
from gir.runtime.run import Run, RunResult

EXTENSION_USES = {
    "cl_khr_fp64": "double values",
    "cl_khr_int64_base_atomics": "64-bit atomic add, exchange or compare-and-swap",
    "cl_khr_int64_extended_atomics": "64-bit atomic min, max or or: min= / max= on int64 or uint_64",
}
"""What a program uses each OpenCL extension for, in the error of a device without it."""

HostFunction = Callable[[HostRuntime, tuple[Any, ...]], None]
"""The printed `run(rt, K)`: the host program over a runtime and its constants."""


@dataclass(frozen=True)
class CompiledProgram:
    """A GPU-level program printed for one target: kernel source, host Python and
    the constants table (every string of the IR) the host function is given."""

    target: str
    kernel_source: str
    host_source: str
    signatures: KernelSignatures
    host_run: HostFunction
    constants: tuple[Any, ...]
    bounds_sites: tuple[BoundsSite, ...] | None = None
    """The accesses `gpu-check-bounds` guarded, or None when it did not run."""
    extensions: tuple[tuple[str, str], ...] = ()
    """The OpenCL extensions the kernels enable, each with the `file:line:col` of
    the first statement that needs it ("" where unknown)."""
    host_externs: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    """The Python implementations of the extern functions the host calls, by
    name (`gir.targets.host_externs`), handed to each `Run`."""

    def kernels(self, device: Device) -> Any:
        """The program's kernels built on `device` (once per device and source);
        a located `UserError` when the device lacks an extension they need."""
        if device.target != self.target:
            raise UserError(
                f"error: the program was compiled for {self.target}, the device is {device.target}"
            )
        missing = device.missing_extensions([name for name, _ in self.extensions])
        if missing:
            name, position = next((n, p) for n, p in self.extensions if n == missing[0])
            what = EXTENSION_USES.get(name, "it")
            message = (
                f"error: {device.name} lacks the OpenCL extension {name}, which this "
                f"statement needs ({what})"
            )
            raise UserError(f"{position}: {message}" if position else message)
        return device.load_program(self.kernel_source, self.signatures)

    def run(self, device: Device, argv: list[str], stdout: TextIO) -> RunResult:
        """Runs the program on `device` with the program's `argv` (argv[0] is its
        name, argv[1] usually the graph) printing to `stdout`."""
        run = Run(device, self.kernels(device), argv, stdout, self.bounds_sites, host_externs=self.host_externs)
        try:
            self.host_run(run, self.constants)
            return run.finish()
        except BaseException:
            run.abort()
            raise
