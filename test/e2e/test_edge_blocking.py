"""End to end: edge blocking (`configLoadBalance(EDGE_ONLY, BLOCKED, size)`) on
every available target, bounds-checked, against the CPU reference: PageRank
pushing (tiles by destination) and G2's PageRank schedule (pulling: tiles of the
transpose by source) with blocking sizes from one vertex per block to one block for
the whole graph, on the hand-made corner-case graphs and on rmat and road graphs,
and at both ends of the thread-block-size range (the blocked kernel has a barrier
per block of edges); and G2's schedule unblocked (pulling, EDGE_ONLY)."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import IntegerAttr, i64

from gir.dialects import graph as graph_dialect
from gir.dialects.schedule import MAX_BLOCK_SIZE, MIN_BLOCK_SIZE, EdgeBlocking, SimpleScheduleAttr
from gir.api import lower_for_run
from gir.tools.run import parse_program
from gir.validate import find_validator
from test_programs import (
    PROGRAMS,
    TARGETS,
    generated_graphs,
    hand_made_graphs,
)

BLOCKED_PROGRAMS = [
    pytest.param("pagerank_blocked.gt", id="push"),
    pytest.param("pagerank_pull_blocked.gt", id="pull"),
]


def with_blocking(module, program: str, blocking_size: int, block_size: int | None):
    """`module` with every blocked edgeset apply blocked by `blocking_size` (and run
    in blocks of `block_size` threads, if given)."""
    options = {"blocking_size": IntegerAttr(blocking_size, i64)}
    if block_size is not None:
        options["block_size"] = IntegerAttr(block_size, i64)
    blocked = 0
    for op in module.walk():
        if isinstance(op, graph_dialect.EdgeSetApplyOp):
            schedule = op.schedule
            assert isinstance(schedule, SimpleScheduleAttr)
            if schedule.edge_blocking.data == EdgeBlocking.BLOCKED:
                op.properties["schedule"] = schedule.with_options(**options)
                blocked += 1
    assert blocked, f"{program} blocks no traversal"
    return module


def check_blocked(
    program: str, target, check_runs, graphs, blocking_size: int, block_size: int | None = None
):
    """Runs `program` blocked by `blocking_size` on every graph of `graphs` and checks
    each result against the reference."""
    module = parse_program(str(PROGRAMS / program))
    module = with_blocking(module, program, blocking_size, block_size)
    check_module(target, check_runs, graphs, module, program)


def check_module(target, check_runs, graphs, module, program: str):
    """Runs `module` (parsed from `program`) on every graph of `graphs` and checks
    each result against the reference."""
    from gir.executor import compile_program

    validator = find_validator(module)
    assert validator is not None, f"no validator recognises {program}"
    executable = compile_program(lower_for_run(module, check_bounds=True), target[0])
    without_start = {name: (spec, None) for name, (spec, _) in graphs.items()}
    check_runs(program, executable, validator, target, without_start)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("blocking_size", [1, 100, 0x42000])
@pytest.mark.parametrize("program", BLOCKED_PROGRAMS)
def test_blocked_pagerank_matches_reference(
    program, blocking_size, target, check_runs, tmp_path: Path
):
    graphs = {**hand_made_graphs(tmp_path, weighted=False), **generated_graphs(weighted=False)}
    check_blocked(program, target, check_runs, graphs, blocking_size)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("block_size", [MIN_BLOCK_SIZE, MAX_BLOCK_SIZE])
@pytest.mark.parametrize("program", BLOCKED_PROGRAMS)
def test_blocked_pagerank_at_both_block_sizes(
    program, block_size, target, check_runs, tmp_path: Path
):
    graphs = {"hub": hand_made_graphs(tmp_path, weighted=False)["hub"]}
    check_blocked(program, target, check_runs, graphs, 64, block_size)


PULL_PROGRAM = "pagerank_pull_edge_only.gt"
"""G2's PageRank schedule without its blocking (PULL, EDGE_ONLY): one thread per
in-edge, each reading its destination from the per-edge `csc_dst` array."""


@pytest.mark.parametrize("target", TARGETS)
def test_pull_edge_only_pagerank_matches_reference(target, check_runs, tmp_path: Path):
    graphs = {**hand_made_graphs(tmp_path, weighted=False), **generated_graphs(weighted=False)}
    module = parse_program(str(PROGRAMS / PULL_PROGRAM))
    check_module(target, check_runs, graphs, module, PULL_PROGRAM)
