"""End to end: vectors passed by reference to functors and host functions, and
GraphIt's `par_for` and empty statement (`test/programs/lang_vector_params.gt`,
`lang_for_forms.gt`), run on OpenCL (PoCL in CI) and CUDA where present,
compared with values computed on the CPU."""

from __future__ import annotations

import numpy as np
import pytest

from gir.runtime import reference
from gir.runtime.graph import load_graph
from test_language import graphs
from test_programs import TARGETS


def vector_params_expected(src: np.ndarray, dst: np.ndarray, n: int, rounds: int, shift: int) -> list[str]:
    """What `lang_vector_params.gt GRAPH ROUNDS SHIFT` prints."""
    indegree = np.bincount(dst, minlength=n) * max(rounds, 0)
    degree = np.bincount(src, minlength=n)
    marks = (indegree > 0).astype(int) + (degree > 0).astype(int)
    return [
        str(int(indegree.sum())),
        str(int((degree + shift).sum())),
        str(int(degree.sum()) * 2),
        str(int(marks.sum())),
        str(int((degree + shift).sum())),
    ]


@pytest.mark.parametrize("target", TARGETS)
def test_vectors_by_reference(target, run_program, tmp_path):
    """Each functor or call gets the vectors it names: one function writes and
    reads several vectors, program-level and local, across several uses; a
    function returns a vector of its own, copied into the caller's."""
    failures = []
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        for rounds, shift in ((0, 0), (3, 2), (1, -1)):
            printed = run_program("lang_vector_params.gt", target, [spec, str(rounds), str(shift)])
            expected = vector_params_expected(
                graph.src, graph.dst, graph.num_vertices, rounds, shift
            )
            if printed != expected:
                failures.append(f"{name} {rounds} {shift}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_vertex_count_without_graph(target, run_program):
    """A program that loads no graph sizes its vertex vectors and sets by its
    program-level `new vertexset{Vertex}(6)`, vectors declared before it too."""
    failures = []
    for factor, limit in ((3, 7), (0, 0), (-2, -5), (1, 100)):
        printed = run_program("lang_vertex_count.gt", target, [str(factor), str(limit)])
        scaled = [v * factor for v in range(6)]
        expected = [str(sum(scaled)), str(sum(value > limit for value in scaled)), "6"]
        if printed != expected:
            failures.append(f"{factor} {limit}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_old_graphit_spellings(target, run_program, tmp_path):
    """`f[values](args)` calls a functor with its captures (a scalar stored
    before the call, vectors bound by reference), and `.apply(f).modified(v)`
    runs as `applyModified(f, v)`: the BFS reaches what a CPU BFS reaches."""
    failures = []
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        for root, step in ((0, 2), (graph.num_vertices - 1, -3)):
            printed = run_program("lang_old_syntax.gt", target, [spec, str(root), str(step)])
            levels = reference.bfs_levels(graph, root)
            n = graph.num_vertices
            expected = [
                str(step * 3 * n + 1),
                str(5 * n),
                str(int((levels >= 0).sum())),
                str(int(levels.max())),
            ]
            if printed != expected:
                failures.append(f"{name} {root} {step}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_empty_vertex_sets_without_graph(target, run_program):
    """A program that loads no graph and declares no vertices runs with vertex
    sets made empty, kept in a list and popped again (GraphIt's
    simple_vertexset_list.gt)."""
    for arg in (0, 5, -7):
        assert run_program("lang_empty_vertexsets.gt", target, [str(arg)]) == ["0", "0", str(arg + 2)]


@pytest.mark.parametrize("target", TARGETS)
def test_compare_and_swap_on_a_bool_vector(target, run_program, tmp_path):
    """Every vertex with an in-edge is claimed by exactly one swap of its bool
    from false to true, though its neighbours in the same 32-bit word are
    swapped at the same time (the swap is on that word)."""
    failures = []
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        claimed = str(len(np.unique(graph.dst)))
        printed = run_program("lang_bool_cas.gt", target, [spec])
        if printed != [claimed, claimed]:
            failures.append(f"{name}: printed {printed}, expected {[claimed, claimed]}")
    assert not failures, "\n".join(failures)
