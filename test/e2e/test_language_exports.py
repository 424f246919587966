"""End to end: exports written as GraphIt's own (`test/programs/lang_export_graphit_style.gt`):
a file of exports only, globals set inside the export from its edgeset parameter,
`new vector{Vertex}(T)()`, and outputs that are numbers, called through
`gir.compile(...)` on OpenCL (PoCL in CI) and compared with BFS on the CPU."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import gir
from gir.runtime import reference
from gir.runtime.graph import load_graph
from test_language import graphs
from test_programs import TARGETS

PROGRAMS = Path(__file__).parents[1] / "programs"


@pytest.fixture(scope="module")
def program() -> gir.Program:
    return gir.compile(str(PROGRAMS / "lang_export_graphit_style.gt"))


def test_signature_lists_scalar_and_vector_outputs(program: gir.Program) -> None:
    assert str(program.levels.signature) == "levels(input_edges, root : int) -> (level, reached, deepest)"
    assert program.levels.signature.scalar_outputs == (False, True, True)


def test_graphit_style_export_gives_vectors_and_numbers(program: gir.Program, tmp_path: Path) -> None:
    failures = []
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        for root in (0, graph.num_vertices - 1):
            level, reached, deepest = program.levels(spec, root, target="opencl")
            expected = reference.bfs_levels(graph, root)
            if not np.array_equal(level, expected):
                failures.append(f"{name} {root}: levels differ")
            if (reached, deepest) != (int((expected >= 0).sum()), int(expected.max())):
                failures.append(f"{name} {root}: reached {reached}, deepest {deepest}")
            if not (isinstance(reached, int) and isinstance(deepest, int)):
                failures.append(f"{name} {root}: outputs are {type(reached)}, {type(deepest)}")
    assert not failures, "\n".join(failures)


def test_program_of_exports_only_has_no_run(program: gir.Program) -> None:
    with pytest.raises(gir.UserError, match="has no 'main' function: call its exports"):
        program.run("rmat:4")


@pytest.mark.parametrize("target", TARGETS)
def test_exports_share_state_across_calls(target: tuple[str, int | None], tmp_path: Path) -> None:
    """lang_export_session.gt: `start(graph, initial)` sets the state up (a
    vector parameter among it), each `step()` runs on the graph and the values
    the call before it left, as GraphIt's `set_graph`/`do_pagerank_delta` do."""
    name, device = target
    session = gir.compile(str(PROGRAMS / "lang_export_session.gt"))
    assert str(session.step.signature) == "step() -> (ranks, count)"
    with pytest.raises(gir.UserError, match="takes no graph: it runs on the graph an earlier export call"):
        session.step(target=name, device=device)
    failures = []
    for graph_name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        n = graph.num_vertices
        degree = np.bincount(graph.src, minlength=n)
        rank = np.arange(n, dtype=np.float64) / n
        session.start(spec, rank, target=name, device=device)
        for call in (1, 2, 3):
            gathered = np.zeros(n)
            np.add.at(gathered, graph.dst, rank[graph.src] / degree[graph.src])
            rank = gathered + 1.0 / n
            ranks, count = session.step(target=name, device=device)
            if count != call or not np.allclose(ranks, rank, rtol=1e-12, atol=1e-15):
                failures.append(f"{graph_name} call {call}: count {count}, ranks differ by {np.abs(ranks - rank).max()}")
    assert not failures, "\n".join(failures)


def test_vector_parameter_of_the_wrong_length(tmp_path: Path) -> None:
    session = gir.compile(str(PROGRAMS / "lang_export_session.gt"))
    with pytest.raises(gir.UserError, match="'initial' has 16 elements in this run, but 3 were given"):
        session.start("rmat:4", np.zeros(3), target="opencl")
