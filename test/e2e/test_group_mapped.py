"""End to end: the group-mapped load balances (WM, CM) when the frontier has more
items than the launch has groups, so that groups stride over the items. The
thread cap (`warp_mapped.MAX_THREADS`, 2^26 in use) is lowered to a few groups
here so that the small test graphs take that path; the programs run on every
available target against the CPU references, bounds-checked."""

from __future__ import annotations

import pytest
from test_programs import (
    PROGRAMS,
    TARGETS,
    check_program,
    generated_graphs,
    hand_made_graphs,
    with_load_balance,
)

from gir.dialects.schedule import LoadBalance
from gir.passes.load_balance import warp_mapped
from gir.runtime.executor import compile_program, open_device
from gir.api import lower_for_run
from gir.tools.run import parse_program
from gir.validate import find_validator

GROUP_MAPPED = [
    pytest.param(LoadBalance.WM, id="wm"),
    pytest.param(LoadBalance.CM, id="cm"),
]

CAP_THREADS = 64
"""Two warps, or two blocks of 32 threads: far fewer groups than items."""

BLOCK_SIZE = 32


@pytest.fixture
def few_groups(monkeypatch):
    monkeypatch.setattr(warp_mapped, "MAX_THREADS", CAP_THREADS)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("strategy", GROUP_MAPPED)
@pytest.mark.parametrize(
    ("program", "weighted"), [("bfs.gt", False), ("sssp_bf.gt", True), ("pagerank_default.gt", False)]
)
def test_groups_stride_over_items(program, weighted, strategy, target, few_groups, tmp_path):
    def compiled(program: str, target_name: str, strategy: LoadBalance, block_size: int | None):
        module = with_load_balance(parse_program(str(PROGRAMS / program)), strategy, block_size)
        validator = find_validator(module)
        assert validator is not None
        return compile_program(lower_for_run(module, check_bounds=True), target_name), validator

    graphs = {**hand_made_graphs(tmp_path, weighted), **generated_graphs(weighted)}
    check_program(compiled, open_device, program, strategy, target, graphs, BLOCK_SIZE)
