"""End to end: `GroupMapped` (the strategy base of docs/tutorial.md: a group of
threads per frontier vertex) when the frontier has more items than the launch has
groups, so that groups stride over the items. Two groupings stand in for WM and
CM here (a warp and a block per vertex); the thread cap
(`group_mapped.MAX_THREADS`, 2^26 in use) is lowered to a few groups so that the
small test graphs take that path; the programs run on every available target
against the CPU references, bounds-checked."""

from __future__ import annotations

import pytest
from test_programs import (
    PROGRAMS,
    TARGETS,
    generated_graphs,
    hand_made_graphs,
    with_load_balance,
)

from xdsl.dialects import arith

from gir.dialects import frontier, gir_gpu
from gir.passes.gpu_kernels import constant
from gir.passes.load_balance import LOAD_BALANCES, group_mapped
from gir.executor import compile_program
from gir.api import lower_for_run
from gir.tools.run import parse_program
from gir.validate import find_validator

GROUP_MAPPED = [
    pytest.param("WM", id="wm"),
    pytest.param("CM", id="cm"),
]

CAP_THREADS = 64
"""Two warps, or two blocks of 32 threads: far fewer groups than items."""

BLOCK_SIZE = 32


class WarpPerVertex(group_mapped.GroupMapped):
    """A warp of 32 threads per frontier vertex."""

    value = "WM"

    def width(self, edge_map):
        return gir_gpu.SUBGROUP_SIZE

    def coordinates(self, b, edge_map):
        gid = b.insert(gir_gpu.IdOp(gir_gpu.Dimension.GLOBAL)).result
        width = constant(b, gir_gpu.SUBGROUP_SIZE)
        grid = b.insert(gir_gpu.IdOp(gir_gpu.Dimension.GRID_DIM)).result
        per_block = frontier.block_size_of(edge_map) // gir_gpu.SUBGROUP_SIZE
        warps = b.insert(arith.MuliOp(grid, constant(b, per_block))).result
        return b.insert(arith.DivUIOp(gid, width)).result, b.insert(arith.RemUIOp(gid, width)).result, warps


class BlockPerVertex(group_mapped.GroupMapped):
    """A block per frontier vertex."""

    value = "CM"

    def width(self, edge_map):
        return frontier.block_size_of(edge_map)

    def coordinates(self, b, edge_map):
        ids = (gir_gpu.Dimension.BLOCK, gir_gpu.Dimension.THREAD, gir_gpu.Dimension.GRID_DIM)
        return tuple(b.insert(gir_gpu.IdOp(d)).result for d in ids)


@pytest.fixture
def few_groups(monkeypatch):
    """WM and CM lowered by the group-per-vertex strategies, with few groups."""
    monkeypatch.setattr(group_mapped, "MAX_THREADS", CAP_THREADS)
    monkeypatch.setitem(LOAD_BALANCES._instances, "WM", WarpPerVertex())
    monkeypatch.setitem(LOAD_BALANCES._instances, "CM", BlockPerVertex())


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("strategy", GROUP_MAPPED)
@pytest.mark.parametrize(
    ("program", "weighted"), [("bfs.gt", False), ("sssp_bf.gt", True), ("pagerank_default.gt", False)]
)
def test_groups_stride_over_items(program, weighted, strategy, target, few_groups, check_program, tmp_path):
    def compiled(program: str, target_name: str, strategy: str, block_size: int | None):
        module = with_load_balance(parse_program(str(PROGRAMS / program)), strategy, block_size)
        validator = find_validator(module)
        assert validator is not None
        return compile_program(lower_for_run(module, check_bounds=True), target_name), validator

    graphs = {**hand_made_graphs(tmp_path, weighted), **generated_graphs(weighted)}
    check_program(compiled, program, strategy, target, graphs, BLOCK_SIZE)
