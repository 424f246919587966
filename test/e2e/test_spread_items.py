"""End to end: kernels whose blocks share their items evenly
(`gir_gpu.spread_items`: CM, WM and TWCE) give the CPU reference's results on any
grid of at least the blocks they are launched on. `gpu-fuse-loops` relies on
that when it runs them over a whole persistent grid; OpenCL never fuses, so
here every launch of such a kernel is widened to `3 * grid + 5` blocks (most
blocks then take a few items or none), on every available target,
bounds-checked. Parametrized over the load-balance registry: a strategy whose
kernels spread is tested as soon as it is registered."""

from __future__ import annotations

import pytest
from test_programs import (
    PROGRAMS,
    STRATEGIES,
    TARGETS,
    generated_graphs,
    hand_made_graphs,
    with_load_balance,
)
from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.rewriter import InsertPoint

from gir.api import lower_for_run
from gir.dialects import gir_gpu, host
from gir.passes.gpu_kernels import constant
from gir.executor import compile_program
from gir.tools.run import parse_program
from gir.validate import find_validator

WIDER = (3, 5)
"""A spread kernel's launch of `g` blocks runs on `3 * g + 5` blocks."""


def widen_spread_launches(module: ModuleOp) -> int:
    """Widens every launch of a `spread_items` kernel of `module`; how many."""
    spread = {
        op.sym_name.data
        for op in module.walk()
        if isinstance(op, gir_gpu.KernelOp) and gir_gpu.spreads_items(op)
    }
    launches = [
        op
        for op in module.walk()
        if isinstance(op, host.LaunchOp) and op.kernel.root_reference.data in spread
    ]
    for launch in launches:
        b = Builder(InsertPoint.before(launch))
        scaled = b.insert(arith.MuliOp(launch.grid, constant(b, WIDER[0]))).result
        wider = b.insert(arith.AddiOp(scaled, constant(b, WIDER[1]))).result
        launch.operands[0] = wider
    return len(launches)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize(
    ("program", "weighted"), [("bfs.gt", False), ("sssp_bf.gt", True), ("pagerank_default.gt", False)]
)
def test_spread_kernels_run_on_wider_grids(program, weighted, strategy, target, check_program, tmp_path):
    def compiled(program: str, target_name: str, strategy: str, block_size: int | None):
        module = with_load_balance(parse_program(str(PROGRAMS / program)), strategy, block_size)
        validator = find_validator(module)
        assert validator is not None
        lowered = lower_for_run(module, check_bounds=True)
        if widen_spread_launches(lowered) == 0:
            pytest.skip(f"{strategy} forms no spread_items kernel for {program}")
        return compile_program(lowered, target_name), validator

    graphs = {**hand_made_graphs(tmp_path, weighted), **generated_graphs(weighted)}
    check_program(compiled, program, strategy, target, graphs)
