"""End to end: edge blocking (`configLoadBalance(EDGE_ONLY, B, size)`, B each
blocked walk: BLOCKED, BLOCKED_SWEEP) on every available target, bounds-checked,
against the CPU reference: PageRank pushing (tiles by destination) and G2's
PageRank schedule (pulling: tiles of the transpose by source) with blocking sizes
from one vertex per block to one block for the whole graph, on the hand-made
corner-case graphs and on rmat and road graphs, and at both ends of the
thread-block-size range (BLOCKED's kernel has a barrier per block of edges); the
sweep after a degree ordering (the graphs it was made for), and on a grid so small
that each block takes many chunks of edges; and G2's schedule
unblocked (pulling, EDGE_ONLY)."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import IntegerAttr, i64

from gir.dialects import graph as graph_dialect
from gir.dialects.schedule import (
    MAX_BLOCK_SIZE,
    MIN_BLOCK_SIZE,
    EdgeBlocking,
    EdgeBlockingAttr,
    SimpleScheduleAttr,
)
from gir.api import lower_for_run, widening
from gir.tools.run import parse_program
from gir.validate import find_validator
from test_programs import (
    EDGE_INDEX_WIDTHS,
    PROGRAMS,
    TARGETS,
    generated_graphs,
    hand_made_graphs,
)

BLOCKED_PROGRAMS = [
    pytest.param("pagerank_blocked.gt", id="push"),
    pytest.param("pagerank_pull_blocked.gt", id="pull"),
]

WALKS = [pytest.param(walk, id=walk.lower()) for walk in EdgeBlocking if walk.blocked]
"""Every walk of the blocked layout (`EdgeBlocking.blocked`)."""


def with_blocking(module, program: str, walk: EdgeBlocking, blocking_size: int, block_size: int | None):
    """`module` with every blocked edgeset apply walked by `walk`, blocked by
    `blocking_size` (and run in blocks of `block_size` threads, if given)."""
    options = {"edge_blocking": EdgeBlockingAttr(walk), "blocking_size": IntegerAttr(blocking_size, i64)}
    if block_size is not None:
        options["block_size"] = IntegerAttr(block_size, i64)
    blocked = 0
    for op in module.walk():
        if isinstance(op, graph_dialect.EdgeSetApplyOp):
            schedule = op.schedule
            assert isinstance(schedule, SimpleScheduleAttr)
            if schedule.edge_blocking.data.blocked:
                op.properties["schedule"] = schedule.with_options(**options)
                blocked += 1
    assert blocked, f"{program} blocks no traversal"
    return module


def check_blocked(
    program: str, target, check_runs, graphs, walk: EdgeBlocking, blocking_size: int,
    block_size: int | None = None,
):
    """Runs `program` walked by `walk`, blocked by `blocking_size`, on every graph
    of `graphs` and checks each result against the reference."""
    module = parse_program(str(PROGRAMS / program))
    module = with_blocking(module, program, walk, blocking_size, block_size)
    check_module(target, check_runs, graphs, module, program)


def check_module(target, check_runs, graphs, module, program: str):
    """Runs `module` (parsed from `program`) on every graph of `graphs` and checks
    each result against the reference (with 64-bit edge indices where a run asks
    for them: the `edge_index_width` fixture)."""
    from gir.executor import compile_program

    validator = find_validator(module)
    assert validator is not None, f"no validator recognises {program}"
    widen = widening(module, check_bounds=True)
    executable = compile_program(lower_for_run(module, check_bounds=True), target[0], widen=widen)
    without_start = {name: (spec, None) for name, (spec, _) in graphs.items()}
    check_runs(program, executable, validator, target, without_start)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("blocking_size", [1, 100, 0x42000])
@pytest.mark.parametrize("walk", WALKS)
@pytest.mark.parametrize("program", BLOCKED_PROGRAMS)
def test_blocked_pagerank_matches_reference(
    program, walk, blocking_size, target, check_runs, tmp_path: Path
):
    graphs = {**hand_made_graphs(tmp_path, weighted=False), **generated_graphs(weighted=False)}
    check_blocked(program, target, check_runs, graphs, walk, blocking_size)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("block_size", [MIN_BLOCK_SIZE, MAX_BLOCK_SIZE])
@pytest.mark.parametrize("walk", WALKS)
@pytest.mark.parametrize("program", BLOCKED_PROGRAMS)
def test_blocked_pagerank_at_both_block_sizes(
    program, walk, block_size, target, check_runs, tmp_path: Path
):
    graphs = {"hub": hand_made_graphs(tmp_path, weighted=False)["hub"]}
    check_blocked(program, target, check_runs, graphs, walk, 64, block_size)


@pytest.mark.parametrize("target", TARGETS)
def test_sweep_after_a_degree_ordering_matches_reference(target, check_runs, tmp_path: Path):
    """G2's PageRank schedule as one sweep over tiles of 64 sources, on graphs
    relabelled by degree at load (`configReorder(DEGREE)`): the ranks come back
    in the user's order."""
    program = "pagerank_pull_blocked.gt"
    source = (PROGRAMS / program).read_text()
    blocking = "configLoadBalance(EDGE_ONLY, BLOCKED, 0x42000);"
    assert blocking in source
    path = tmp_path / "pagerank_pull_sweep_degree.gt"
    path.write_text(
        source.replace(blocking, "configLoadBalance(EDGE_ONLY, BLOCKED_SWEEP, 64);")
        + "    program->configReorder(DEGREE);\n"
    )
    module = parse_program(str(path))
    assert "BLOCKED_SWEEP" in str(module) and "DEGREE" in str(module)
    check_module(target, check_runs, generated_graphs(weighted=False), module, program)


@pytest.mark.parametrize("edge_index_width", EDGE_INDEX_WIDTHS, indirect=True)
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("program", BLOCKED_PROGRAMS)
def test_sweep_on_a_small_grid_takes_many_chunks(
    program, target, edge_index_width, check_runs, tmp_path: Path, monkeypatch
):
    """The sweep's chunks on a grid far smaller than the edges: one block of 32
    threads (the sweep's thread cap lowered to 32) takes every chunk in turn,
    SWEEP_CHUNKS_PER_BLOCK of them of many strides, the last one cut short, as
    every block does on a graph of millions of edges; with 32- and 64-bit edge
    indices."""
    from gir.passes import frontier_edge_blocking

    monkeypatch.setattr(frontier_edge_blocking, "SWEEP_THREADS", 32)
    graphs = {**hand_made_graphs(tmp_path, weighted=False), **generated_graphs(weighted=False)}
    check_blocked(program, target, check_runs, graphs, EdgeBlocking.BLOCKED_SWEEP, 100, MIN_BLOCK_SIZE)


PULL_PROGRAM = "pagerank_pull_edge_only.gt"
"""G2's PageRank schedule without its blocking (PULL, EDGE_ONLY): one thread per
in-edge, each reading its destination from the per-edge `csc_dst` array."""


@pytest.mark.parametrize("edge_index_width", EDGE_INDEX_WIDTHS, indirect=True)
@pytest.mark.parametrize("target", TARGETS)
def test_pull_edge_only_pagerank_matches_reference(target, edge_index_width, check_runs, tmp_path: Path):
    """With 32- and 64-bit edge indices (64: one thread an edge, striding)."""
    graphs = {**hand_made_graphs(tmp_path, weighted=False), **generated_graphs(weighted=False)}
    module = parse_program(str(PROGRAMS / PULL_PROGRAM))
    check_module(target, check_runs, graphs, module, PULL_PROGRAM)
