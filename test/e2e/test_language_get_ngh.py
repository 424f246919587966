"""End to end: `edges.getNgh(v)` (`test/programs/lang_get_ngh.gt`), the set of
v's out-neighbours built in main and in a function main calls, run on OpenCL
(PoCL in CI) and CUDA where present and checked against scipy's adjacency
matrix: at a hub, at the first and last vertex and at a vertex with no
out-neighbours; an id outside the graph stops the run at the getNgh line."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from gir.diagnostics import UserError
from gir.runtime.graph import Graph, load_graph
from test_language import PROGRAMS, graphs
from test_programs import TARGETS

PROGRAM = "lang_get_ngh.gt"


def adjacency(graph: Graph) -> sparse.csr_matrix:
    """The 0/1 adjacency matrix of `graph` (row u holds u's out-neighbours once)."""
    ones = np.ones(graph.num_edges, dtype=np.int64)
    shape = (graph.num_vertices, graph.num_vertices)
    matrix = sparse.csr_matrix((ones, (graph.src, graph.dst)), shape=shape)
    matrix.data[:] = 1
    return matrix


def get_ngh_expected(matrix: sparse.csr_matrix, root: int) -> list[str]:
    """What `lang_get_ngh.gt GRAPH ROOT` prints: ROOT's out-neighbour count and
    id sum, the sum of those neighbours' out-degrees, and the number of distinct
    vertices two hops from ROOT."""
    first = matrix[root].indices
    second = matrix[first]
    two_hops = np.count_nonzero(np.asarray(second.sum(axis=0)).ravel())
    return [str(int(value)) for value in (first.size, first.sum(), second.nnz, two_hops)]


def roots(graph: Graph, matrix: sparse.csr_matrix) -> list[int]:
    """The vertices to ask about: the hub, the first and last, and the first
    without out-neighbours where there is one."""
    chosen = [graph.largest_degree_vertex(), 0, graph.num_vertices - 1]
    without = np.flatnonzero(np.diff(matrix.indptr) == 0)
    return chosen + [int(without[0])] if without.size else chosen


@pytest.mark.parametrize("target", TARGETS)
def test_get_ngh_gives_the_out_neighbours(target, run_program, tmp_path):
    failures = []
    lonely = 0
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        matrix = adjacency(graph)
        for root in roots(graph, matrix):
            lonely += matrix[root].nnz == 0
            printed = run_program(PROGRAM, target, [spec, str(root)])
            expected = get_ngh_expected(matrix, root)
            if printed != expected:
                failures.append(f"{name} {root}: printed {printed}, expected {expected}")
    assert lonely > 0, "no graph has a vertex without out-neighbours"
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_get_ngh_of_a_vertex_outside_the_graph(target, run_program):
    """As with `addVertex`, a bounds-checked run reports the out-of-range id at
    the statement that gave it."""
    line = (PROGRAMS / PROGRAM).read_text().splitlines().index(
        "    var neighbours : vertexset{Vertex} = edges.getNgh(root);"
    ) + 1
    for root in ("-1", "4096"):
        with pytest.raises(UserError) as raised:
            run_program(PROGRAM, target, ["road:8:8", root])
        assert f"{PROGRAM}:{line}:5: error: out-of-bounds access" in str(raised.value)
