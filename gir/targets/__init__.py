"""gir's targets: GPU-level IR printed as source code.

- `c_printer`: one walker over `gir_gpu.kernel` bodies that prints C-family code;
  `cuda` and `opencl` are the two small flavours it is printed in (keywords,
  builtins, atomics).
- `host_python`: the host function `@main` printed once as Python source, a
  function `run(rt, argv)` calling the runtime interface of `gir.runtime.device`.

`print_kernels(module, "cuda" | "opencl")` is the entry point for kernels.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

TARGETS = ("cuda", "opencl")
"""The kernel languages gir prints."""


def print_kernels(module: ModuleOp, target: str) -> str:
    """The kernels of a GPU-level `module` as one CUDA or OpenCL C source file."""
    from gir.targets.c_printer import KernelPrinter

    if target == "cuda":
        from gir.targets.cuda import CudaFlavour

        flavour = CudaFlavour()
    elif target == "opencl":
        from gir.targets.opencl import OpenCLFlavour

        flavour = OpenCLFlavour()
    else:
        raise ValueError(f"unknown target {target!r}; expected one of {TARGETS}")
    return KernelPrinter(flavour).print_module(module)
