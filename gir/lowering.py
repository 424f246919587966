"""From a module at any level to printed source: what `gir-translate`, the xDSL
plugin's targets (`gir.universe`) and the tests share.

`lower_to_gpu` runs the `lower-to-gpu` pipeline on a module above the GPU level;
`translate` prints a module for a target (CUDA, OpenCL C or the host Python), as
`gir-translate --to-<target>` does. It lives below the tools so that the plugin
and the API need not import them.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from gir.diagnostics import UserError
from gir.dialects import register_dialects
from gir.verifier import verify_module

LOWERING_PIPELINE = "lower-to-gpu"
"""The named pipeline that takes a module from any level to the GPU level."""


def lower_to_gpu(module: ModuleOp) -> ModuleOp:
    """`module` at the GPU level: lowered with `lower-to-gpu` unless it already is."""
    from gir.passes.registry import PIPELINES, parse_pipeline
    from gir.dialects.levels import Level, check_level, level_of, level_violation

    level = level_of(module)
    if level == Level.GPU:
        return module
    if level is None:
        check_level(module, Level.GPU)  # a module mixing levels cannot be lowered
    violation = level_violation(module, Level.GPU)
    if violation is None:  # only ops every level has: already GPU-level text
        check_level(module, Level.GPU)
        return module
    op = violation[0]
    import gir.passes  # noqa: F401  (fills the registry)

    if LOWERING_PIPELINE not in PIPELINES:
        raise UserError(
            f"error: '{op.name}' is above the GPU level and the '{LOWERING_PIPELINE}' "
            "pipeline is not available to lower it"
        )
    ctx = Context()
    register_dialects(ctx)
    parse_pipeline(LOWERING_PIPELINE).apply(ctx, module)
    verify_module(module)
    return module


def translate(
    module: ModuleOp,
    to: str,
    source_name: str = "<module>",
    *,
    kernels_only: bool = False,
    extern: str | None = None,
    devices: int = 1,
    host_extern: str | None = None,
) -> str:
    """The text `gir-translate --to-<to>` prints for a module at any level: for
    "cuda", a complete program unless `kernels_only` or the module has no `@main`;
    `extern` is the text of the `--extern` file, `host_extern` of the C++
    `--host-extern` file (complete CUDA programs only); `devices` above 1
    partitions the module (`host-partition`) for that many devices."""
    from gir.dialects.levels import Level, check_level
    from gir.targets import print_kernels
    from gir.targets.cuda_host import print_cuda_program
    from gir.targets.host_python import print_host_python

    module = lower_to_gpu(module)
    if devices < 1:
        raise UserError(f"error: --devices must be at least 1, not {devices}")
    if devices > 1:
        _partition(module)
    if to == "host-python":
        check_level(module, Level.GPU)
        return print_host_python(module)
    if to == "cuda" and not kernels_only and _has_main(module):
        check_level(module, Level.GPU)
        return print_cuda_program(module, extern, devices, host_extern)
    return print_kernels(module, to, extern)


def _partition(module: ModuleOp) -> None:
    """Runs `host-partition` on a GPU-level `module`."""
    from gir.passes.registry import parse_pipeline

    import gir.passes  # noqa: F401  (fills the registry)

    ctx = Context()
    register_dialects(ctx)
    parse_pipeline(partition_pass()).apply(ctx, module)
    verify_module(module)


def partition_pass() -> str:
    """`host-partition`, with `$GIR_EXCHANGE_FORMAT`'s format where it is set:
    a changed-elements format needs the base (a clone) that the pass inserts
    only when it is asked for that format."""
    from gir.runtime.multi_device import exchange_override

    wanted = exchange_override()
    return "host-partition" if wanted is None else f"host-partition{{exchange={wanted.value}}}"


def _has_main(module: ModuleOp) -> bool:
    """Whether `module` has a host function `@main` to print."""
    from xdsl.dialects import func

    return any(isinstance(op, func.FuncOp) and op.sym_name.data == "main" for op in module.ops)
