"""End to end: GraphIt programs compiled with every registered load-balance
strategy (the rest of the schedule as written), run on every available target
(OpenCL on each platform found — PoCL in CI, NVIDIA's where present — and CUDA
where pycuda sees a GPU), checked against the CPU references, with every device
access bounds-checked (`gpu-check-bounds`). A strategy added to the registry runs
here with no change to this file."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import IntegerAttr, i64

from gir.api import lower_for_run, widening
from gir.dialects import graph as graph_dialect
from gir.dialects.schedule import (
    MAX_BLOCK_SIZE,
    MIN_BLOCK_SIZE,
    LoadBalanceAttr,
    SimpleScheduleAttr,
)
from gir.passes.load_balance import LOAD_BALANCES, load_balance
from gir.runtime.graph import load_graph
from gir.tools.run import parse_program
from gir.validate import find_validator

PROGRAMS = Path(__file__).parents[1] / "programs"


def _opencl_devices() -> list[tuple[int, str]]:
    try:
        import pyopencl as cl
    except ImportError:
        return []
    devices = [device for platform in cl.get_platforms() for device in platform.get_devices()]
    return [(index, f"{device.platform.name}:{device.name}") for index, device in enumerate(devices)]


def _cuda_reason() -> str | None:
    from gir.executor import cuda_unavailable_reason

    return cuda_unavailable_reason()


TARGETS = [
    pytest.param(("opencl", index), id=f"opencl{index}") for index, _ in _opencl_devices()
] + [
    pytest.param(
        ("cuda", None),
        id="cuda",
        marks=pytest.mark.skipif(
            _cuda_reason() is not None, reason=f"no CUDA: {_cuda_reason()}"
        ),
    )
]


def _write_el(path: Path, edges: list[tuple[int, int]], weights: list[int] | None = None) -> str:
    lines = ["# hand-made test graph"]
    for position, (source, target) in enumerate(edges):
        suffix = f" {weights[position]}" if weights is not None else ""
        lines.append(f"{source} {target}{suffix}")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


HUB_DEGREE = 4 * 1024 + 3
"""The out-degree of the hand-made hub graph's vertex 0: more than four blocks of
the largest block size, and not a multiple of a sub-group."""


def hand_made_graphs(tmp: Path, weighted: bool) -> dict[str, tuple[str, int]]:
    """Small graphs with the corner cases, as (spec, start vertex)."""
    ext = ".wel" if weighted else ".el"

    def weights(count: int) -> list[int] | None:
        return [1 + (7 * i) % 5 for i in range(count)] if weighted else None

    hub_edges = [(0, leaf) for leaf in range(1, HUB_DEGREE + 1)]
    hub_edges += [(leaf, 0) for leaf in range(1, HUB_DEGREE + 1, 7)]
    hub_edges += [(HUB_DEGREE, HUB_DEGREE + 1), (HUB_DEGREE + 1, HUB_DEGREE + 2)]
    path_edges = [(0, 1), (1, 2), (2, 3), (3, 4)]
    path_edges += [(b, a) for a, b in path_edges]
    graphs = {
        "path": (_write_el(tmp / f"path{ext}", path_edges, weights(len(path_edges))), 0),
        # vertex 5 is isolated, so the first frontier's traversal is empty
        "isolated_start": (
            _write_el(tmp / f"iso{ext}", [(0, 1), (1, 0), (1, 2), (2, 1), (5, 5)], weights(5)),
            4,
        ),
        "self_loops": (
            _write_el(tmp / f"loops{ext}", [(0, 0), (0, 1), (1, 1), (1, 2), (2, 0)], weights(5)),
            0,
        ),
        "one_vertex": (_write_el(tmp / f"one{ext}", [(0, 0)], weights(1)), 0),
        "disconnected": (
            _write_el(
                tmp / f"two{ext}",
                [(0, 1), (1, 0), (2, 3), (3, 2), (3, 4), (4, 3)],
                weights(6),
            ),
            2,
        ),
        # a hub whose degree is many times the largest block size, so the
        # cooperative (warp and block) paths of the strategies run, with a tail
        "hub": (_write_el(tmp / f"hub{ext}", hub_edges, weights(len(hub_edges))), 0),
    }
    return graphs


def generated_graphs(weighted: bool) -> dict[str, tuple[str, int]]:
    suffix = ",w" if weighted else ""
    specs = {"rmat10": f"rmat:10{suffix}", "road16": f"road:16:12{suffix}"}
    return {
        name: (spec, load_graph(spec).largest_degree_vertex()) for name, spec in specs.items()
    }


def with_schedule(module, **options):
    """`module` with every edgeset apply's schedule given `options` (attributes of
    `SimpleScheduleAttr.with_options`)."""
    for op in module.walk():
        if isinstance(op, graph_dialect.EdgeSetApplyOp):
            schedule = op.schedule or SimpleScheduleAttr.default()
            assert isinstance(schedule, SimpleScheduleAttr)
            op.properties["schedule"] = schedule.with_options(**options)
    return module


def compile_checked(module, program: str, target: str) -> tuple[object, object]:
    """`module` (the program `program`) lowered bounds-checked and compiled for
    `target`, with the validator that recognises it."""
    from gir.executor import compile_program

    validator = find_validator(module)
    assert validator is not None, f"no validator recognises {program}"
    widen = widening(module, check_bounds=True)
    return compile_program(lower_for_run(module, check_bounds=True), target, widen=widen), validator


def with_load_balance(module, strategy: str, block_size: int | None = None):
    """`module` with every edgeset apply scheduled with `strategy` (and `block_size`
    threads per block, if given)."""
    options = {"load_balance": LoadBalanceAttr(strategy)}
    if block_size is not None:
        options["block_size"] = IntegerAttr(block_size, i64)
    return with_schedule(module, **options)


STRATEGIES = [pytest.param(value, id=value.lower()) for value in LOAD_BALANCES]

EDGE_INDEX_WIDTHS = [pytest.param(32, id="edges32"), pytest.param(64, id="edges64")]
"""For `@pytest.mark.parametrize("edge_index_width", EDGE_INDEX_WIDTHS, indirect=True)`
(the `edge_index_width` fixture): a test runs with today's 32-bit edge indices
and with 64-bit ones forced (`$GIR_EDGE_INDEX_WIDTH`) on its small graphs, as
a graph of more than 2^31 edges runs."""


PROGRAM_CASES = [
    ("bfs.gt", False),
    ("sssp_bf.gt", True),
    ("cc_default.gt", False),
    ("pagerank_default.gt", False),
    ("pagerank_double.gt", False),
]


@pytest.mark.parametrize("edge_index_width", EDGE_INDEX_WIDTHS, indirect=True)
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize(("program", "weighted"), PROGRAM_CASES)
def test_program_matches_reference(
    program, weighted, strategy, target, edge_index_width, compiled, check_program, tmp_path
):
    """Each program and strategy, with 32-bit edge indices and with 64-bit ones
    (where the strategy lowers them: `wide_edges`)."""
    if edge_index_width == 64 and not load_balance(strategy).wide_edges:
        pytest.skip(f"{strategy} keeps edge positions in 32 bits (refused with 64-bit edge indices)")
    graphs = {**hand_made_graphs(tmp_path, weighted), **generated_graphs(weighted)}
    check_program(compiled, program, strategy, target, graphs)
    executable, _ = compiled(program, target[0], strategy)
    assert executable.for_edges(1).edge_index_width == edge_index_width


@pytest.mark.parametrize("edge_index_width", [pytest.param(64, id="edges64")], indirect=True)
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("strategy", ["EDGE_ONLY", "STRICT", "MERGE_PATH"])
@pytest.mark.parametrize(("program", "weighted"), [("bfs.gt", False), ("pagerank_default.gt", False)])
def test_wide_edge_offsets_stride_over_their_edges(
    program, weighted, strategy, target, edge_index_width, check_runs, tmp_path, monkeypatch
):
    """The load balances over the frontier's scanned edge offsets, with 64-bit
    edge indices, launch at most STRIDED_THREADS threads (EDGE_ONLY: each
    taking every edge a grid apart; STRICT: each block every chunk a grid
    apart; MERGE_PATH: each thread every share of the path a grid apart); with
    the cap lowered to 32 threads each takes many, from a frontier (BFS) and
    over all vertices (PageRank), as on a graph of more than 2^31 edges."""
    from gir.passes import kernel_builder

    monkeypatch.setattr(kernel_builder, "STRIDED_THREADS", 32)
    module = with_load_balance(parse_program(str(PROGRAMS / program)), strategy)
    executable, validator = compile_checked(module, program, target[0])
    graphs = {**hand_made_graphs(tmp_path, weighted), **generated_graphs(weighted)}
    check_runs(program, executable, validator, target, graphs)
    assert executable.for_edges(1).edge_index_width == 64


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("block_size", [MIN_BLOCK_SIZE, MAX_BLOCK_SIZE])
def test_block_size_matches_reference(block_size, strategy, target, compiled, check_program, tmp_path):
    """`configBlockSize` at both ends of its range, with every strategy (BFS)."""
    graphs = hand_made_graphs(tmp_path, weighted=False)
    check_program(compiled, "bfs.gt", strategy, target, graphs, block_size)



@pytest.mark.skipif(not _opencl_devices(), reason="no OpenCL device")
@pytest.mark.parametrize("edge_index_width", EDGE_INDEX_WIDTHS, indirect=True)
def test_the_python_api_specialises_a_program_on_its_graph(edge_index_width):
    """`Program.run` chooses the edge index width per graph, for a graph given by
    spec and for one given as a `Graph` (then resident, `LoadedGraph`)."""
    import gir

    program = gir.compile(str(PROGRAMS / "bfs.gt"))
    for graph in ("rmat:8", load_graph("road:12:9")):
        program.run(graph, 0, target="opencl", validate=True)
    assert program.compiled("opencl").for_edges(1).edge_index_width == edge_index_width
