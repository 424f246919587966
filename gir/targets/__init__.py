"""gir's targets: GPU-level IR printed as source code.

- `walker`: what both printers share: value names, literals, dead ops, and
  `scf.if` / `scf.for` / `scf.while` as structured statements, over small
  per-language syntax hooks.
- `c_printer`: the walker in C syntax over `gir_gpu.kernel` bodies; `cuda` and
  `opencl` are the two small flavours it is printed in (keywords, builtins,
  atomics).
- `host_python`: the walker in Python syntax: the host function `@main` printed
  once as a function `run(rt, K)` calling the runtime protocol of
  `gir.protocol`.
- `cuda_host`: the kernel printer's C syntax over `@main`: a complete CUDA program
  (kernels, the C++ runtime of `cuda_host_runtime`, and `main(argc, argv)`).

`print_kernels(module, "cuda" | "opencl")` is the entry point for kernels;
`kernel_source` also says which OpenCL extensions they need and where.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp

TARGETS = ("cuda", "opencl")
"""The kernel languages gir prints."""


@dataclass(frozen=True)
class KernelSource:
    """A module's kernels printed for one target, and what they need of a device."""

    text: str
    extensions: tuple[tuple[str, str], ...]
    """Each OpenCL extension the kernels enable and the source position
    (`file:line:col`, or "" where unknown) of the first statement needing it."""


def print_kernels(module: ModuleOp, target: str, extern: str | None = None) -> str:
    """The kernels of a GPU-level `module` as one CUDA or OpenCL C source file;
    `extern` is the text of the user's `--extern` file (see `gir.targets.externs`)."""
    return kernel_source(module, target, extern).text


def kernel_source(module: ModuleOp, target: str, extern: str | None = None) -> KernelSource:
    """`print_kernels`' text and the extensions it enables, each with the source
    position of the statement that needs it."""
    from gir.diagnostics import source_position
    from gir.targets.c_printer import KernelPrinter

    if target == "cuda":
        from gir.targets.cuda import CudaFlavour

        flavour = CudaFlavour()
    elif target == "opencl":
        from gir.targets.opencl import OpenCLFlavour

        flavour = OpenCLFlavour()
    else:
        raise ValueError(f"unknown target {target!r}; expected one of {TARGETS}")
    printer = KernelPrinter(flavour, extern)
    text = printer.print_module(module)
    sites = []
    for extension in sorted(printer.needs.extensions):
        op = printer.needs.extension_sites.get(extension)
        position = None if op is None else source_position(op)
        sites.append((extension, "" if position is None else "{}:{}:{}".format(*position)))
    return KernelSource(text, tuple(sites))
