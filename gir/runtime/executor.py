"""Compile a GPU-level module once, run it many times.

```python
program = compile_program(module, "opencl")        # prints kernels + host, once
device = open_device("opencl")                      # or "cuda"
result = program.run(device, ["bfs", "rmat:10", "0"], sys.stdout)
result.globals["parent"], result.elapsed, result.wall
```

`compile_program` checks that the module is at the GPU level (else: lower it first
with `gir-opt --pass-pipeline=lower-to-gpu`), prints the kernels for the target and
the host function `@main` as Python (`gir.targets.host_python`), and compiles that
Python once. `CompiledProgram.run` builds the kernels on the device (once per device
and program), calls the printed `run(rt, argv)` with the device as `rt`, and
returns the bound global vectors and the times.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Operation

from gir.diagnostics import UserError
from gir.dialects import gir_gpu
from gir.runtime.device import (
    CudaDevice,
    Device,
    DeviceUnavailable,
    KernelArg,
    KernelSignatures,
    OpenCLDevice,
    cuda_unavailable_reason,
)
from gir.targets import TARGETS, print_kernels
from gir.targets.host_python import dtype_name, print_host_python

_GPU_LEVEL_DIALECTS = frozenset(
    {"builtin", "arith", "math", "scf", "memref", "gir_gpu", "host", "func"}
)

__all__ = [
    "CompiledProgram",
    "RunResult",
    "compile_program",
    "cuda_unavailable_reason",
    "first_non_gpu_op",
    "is_gpu_level",
    "open_device",
]


def first_non_gpu_op(module: ModuleOp) -> Operation | None:
    """The first op of `module` that the GPU level does not have, or None."""
    for op in module.walk():
        if op.dialect_name() not in _GPU_LEVEL_DIALECTS:
            return op
        if op.dialect_name() == "func" and not isinstance(op, func.FuncOp | func.ReturnOp):
            return op
    return None


def is_gpu_level(module: ModuleOp) -> bool:
    """Whether `module` is at the GPU level (ready for the printers)."""
    return first_non_gpu_op(module) is None


def kernel_signatures(module: ModuleOp) -> dict[str, list[KernelArg]]:
    """Each kernel's parameters as the runtime sees them."""
    signatures = {}
    for op in module.ops:
        if isinstance(op, gir_gpu.KernelOp):
            signatures[op.sym_name.data] = [
                KernelArg(True, dtype_name(t.element_type)) if isinstance(t, MemRefType)
                else KernelArg(False, dtype_name(t))
                for t in op.function_type.inputs.data
            ]  # fmt: skip
    return signatures


def check_gpu_level(module: ModuleOp) -> None:
    """Raises a UserError unless `module` is at the GPU level with a `@main`."""
    op = first_non_gpu_op(module)
    if op is not None:
        raise UserError(
            f"error: the module is not at the GPU level (it has '{op.name}'); lower it "
            "first with gir-opt --pass-pipeline=lower-to-gpu"
        )
    if not any(isinstance(op, func.FuncOp) and op.sym_name.data == "main" for op in module.ops):
        raise UserError("error: the module has no host function 'func.func @main'")


@dataclass(frozen=True)
class RunResult:
    """What one run of a program gives back."""

    globals: dict[str, np.ndarray]
    """The bound global vectors (`host.bind_global`), copied to the host."""
    elapsed: float | None
    """Seconds between the program's start and stop timer, if it used them."""
    wall: float
    """Seconds of the whole run, minus loading graphs and copying them to the device."""


@dataclass(frozen=True)
class CompiledProgram:
    """A GPU-level program printed for one target: kernel source and host Python."""

    target: str
    kernel_source: str
    host_source: str
    signatures: KernelSignatures
    host_run: Any
    """The printed `run(rt, argv)` function."""

    def run(self, device: Device, argv: list[str], stdout: TextIO) -> RunResult:
        """Runs the program on `device` with the program's `argv` (argv[0] is its
        name, argv[1] usually the graph) printing to `stdout`."""
        if device.target != self.target:
            raise UserError(
                f"error: the program was compiled for {self.target}, the device is {device.target}"
            )
        program = device.load_program(self.kernel_source, self.signatures)
        device.begin_run(program, stdout)
        started = time.perf_counter()
        try:
            self.host_run(device, argv)
            vectors = device.end_run()
        except BaseException:
            device.abort_run()
            raise
        wall = time.perf_counter() - started - device.load_seconds
        return RunResult(vectors, device.last_interval, wall)


def compile_program(module: ModuleOp, target: str, source_name: str = "<module>") -> CompiledProgram:
    """Prints a GPU-level `module`'s kernels for `target` ("cuda" or "opencl") and
    its host function as Python, once."""
    if target not in TARGETS:
        raise UserError(f"error: unknown target '{target}' (expected cuda or opencl)")
    check_gpu_level(module)
    kernel_source = print_kernels(module, target)
    host_source = print_host_python(module, source_name)
    namespace: dict[str, Any] = {"__name__": "gir_host_program"}
    exec(compile(host_source, f"<host program of {source_name}>", "exec"), namespace)
    return CompiledProgram(
        target, kernel_source, host_source, kernel_signatures(module), namespace["run"]
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

