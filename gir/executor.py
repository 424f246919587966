"""Compile a GPU-level module once, run it many times.

This module sits above both `gir.targets` (which prints the kernels and the host
program) and `gir.runtime` (which runs them), so that neither imports the other.

```python
program = compile_program(module, "opencl")        # prints kernels + host, once
device = open_device("opencl")                      # or "cuda"
result = program.run(device, ["bfs", "rmat:10", "0"], sys.stdout)
result.globals["parent"], result.elapsed, result.wall
```

`compile_program` checks that the module is at the GPU level (else: lower it first
with `gir-opt --pass-pipeline=lower-to-gpu`), prints the kernels for the target and
the host function `@main` as Python (`gir.targets.host_python`), and compiles that
Python once (`gir.runtime.program.CompiledProgram`). `CompiledProgram.run` builds
the kernels on the device (once per device and program), calls the printed
`run(rt, K)` with a fresh `gir.runtime.run.Run` as `rt` and the program's constants
as `K`, and returns the bound global vectors and the times (`RunResult`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TextIO

from xdsl.dialects.builtin import MemRefType, ModuleOp

from gir.diagnostics import UserError
from gir.dialects import gir_gpu, host
from gir.dialects.host import edge_index_width
from gir.dialects.levels import Level, check_level
from gir.ir_walk import walk
from gir.protocol import DType
from gir.runtime.device import (
    CudaDevice,
    Device,
    DeviceUnavailable,
    KernelArg,
    OpenCLDevice,
    cuda_unavailable_reason,
)
from gir.runtime.footprint import DeviceFootprint
from gir.runtime.program import CompiledProgram, GraphLoad
from gir.runtime.run import RunResult
from gir.targets import TARGETS, kernel_source
from gir.targets.host_externs import HostExterns, bind_host_externs
from gir.targets.host_python import host_program

__all__ = [
    "CompiledProgram",
    "RunResult",
    "compile_program",
    "cuda_unavailable_reason",
    "open_device",
    "open_devices",
    "run_program",
]


def kernel_signatures(module: ModuleOp) -> dict[str, list[KernelArg]]:
    """Each kernel's parameters as the runtime sees them (`index` as wide as the
    module's edge indices)."""
    width = edge_index_width(module)
    signatures = {}
    for op in module.ops:
        if isinstance(op, gir_gpu.KernelOp):
            signatures[op.sym_name.data] = [
                KernelArg(True, DType.of(t.element_type, width)) if isinstance(t, MemRefType)
                else KernelArg(False, DType.of(t, width))
                for t in op.function_type.inputs.data
            ]  # fmt: skip
    return signatures


def graph_load(module: ModuleOp) -> GraphLoad | None:
    """What the module's one `host.load_graph` loads, whole or partitioned
    (None: no load, or several)."""
    loads = [op for op in walk(module) if isinstance(op, host.LoadGraphOp)]
    if len(loads) != 1:
        return None
    load = loads[0]
    return GraphLoad(
        None if load.argv is None else load.argv.value.data,
        None if load.path is None else load.path.data,
        load.weighted is not None,
        None if load.reorder is None else load.reorder.data,
    )


def compile_program(
    module: ModuleOp,
    target: str,
    source_name: str = "<module>",
    extern: str | None = None,
    host_externs: HostExterns | None = None,
    widen: Callable[[], ModuleOp] | None = None,
) -> CompiledProgram:
    """Prints a GPU-level `module`'s kernels for `target` ("cuda" or "opencl") and
    its host function as Python, once; `extern` is the user's device code of the
    program's extern functions (`gir-run --extern FILE`), `host_externs` the
    Python functions implementing those the host calls (`--host-extern FILE`,
    checked against their declarations). `widen` lowers the same program with
    64-bit edge indices (`lower_for_run`'s `edge_index_width`), which the result
    compiles when a graph needs them (`CompiledProgram.for_edges`)."""
    if target not in TARGETS:
        raise UserError(f"error: unknown target '{target}' (expected cuda or opencl)")
    check_level(module, Level.GPU)
    bound = bind_host_externs(module, host_externs)
    kernels = kernel_source(module, target, extern)
    host_code = host_program(module)
    namespace: dict[str, Any] = {"__name__": "gir_host_program"}
    exec(compile(host_code.source, f"<host program of {source_name}>", "exec"), namespace)
    wide_program = None
    if widen is not None and edge_index_width(module) == 32:
        wide_program = lambda: compile_program(widen(), target, source_name, extern, host_externs)  # noqa: E731
    return CompiledProgram(
        target,
        kernels.text,
        host_code.source,
        kernel_signatures(module),
        namespace["run"],
        host_code.constants,
        gir_gpu.bounds_sites(module),
        kernels.extensions,
        bound,
        edge_index_width(module),
        graph_load(module),
        wide_program,
        footprint=DeviceFootprint.of(module),
        source_name=source_name,
    )


def open_device(target: str, device_index: int | None = None) -> Device:
    """A device of `target`; a UserError with one line saying why when the target
    cannot run here."""
    try:
        if target == "cuda":
            return CudaDevice(device_index)
        if target == "opencl":
            return OpenCLDevice(device_index)
    except DeviceUnavailable as reason:
        alternative = "; use --target opencl" if target == "cuda" else ""
        label = "CUDA" if target == "cuda" else "OpenCL"
        raise UserError(f"error: {label} is not available: {reason}{alternative}") from None
    raise UserError(f"error: unknown target '{target}' (expected cuda or opencl)")



def open_devices(target: str, count: int, first: int | None = None) -> list[Device]:
    """`count` devices of `target`, from index `first` (default 0) on, for a
    partitioned run; one device: `open_device(target, first)`."""
    if count < 1:
        raise UserError(f"error: --devices must be at least 1, not {count}")
    if count == 1:
        return [open_device(target, first)]
    start = first or 0
    return [open_device(target, start + offset) for offset in range(count)]


def run_program(
    program: CompiledProgram, devices: Sequence[Device], argv: list[str], stdout: TextIO
) -> RunResult:
    """Runs `program` on one device, or partitioned over several (compiled with
    `host-partition`: `gir.runtime.multi_device`)."""
    if len(devices) == 1:
        return program.run(devices[0], argv, stdout)
    from gir.runtime.multi_device import run_partitioned

    return run_partitioned(program, devices, argv, stdout)
