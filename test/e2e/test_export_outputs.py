"""End to end on OpenCL: an `export func` with several outputs
(`test/programs/export_bfs_levels.gt`, GraphIt's `-> (tree : ..., weight : ...)`)
returns a tuple of numpy arrays in declaration order, checked against a CPU BFS
(scipy) on random graphs; the located errors for bad output declarations."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path

import gir
from gir.runtime.device import DeviceUnavailable, opencl_devices


def _has_opencl() -> bool:
    try:
        return bool(opencl_devices())
    except (DeviceUnavailable, ImportError):
        return False


needs_opencl = pytest.mark.skipif(not _has_opencl(), reason="no OpenCL device")

PROGRAM = Path(__file__).parents[1] / "programs" / "export_bfs_levels.gt"

HEADER = """element Vertex end
element Edge end
const level : vector{Vertex}(int) = 0;
const rank : vector{Vertex}(double) = 0.0;
"""


@pytest.fixture(scope="module")
def bfs() -> gir.Program:
    return gir.compile(PROGRAM, name="bfs_export")


def _hops(graph: sp.csr_array, source: int) -> np.ndarray:
    """Unweighted distances from `source` (inf where unreached), on the CPU."""
    return shortest_path(graph, method="D", unweighted=True, indices=source)


@needs_opencl
@pytest.mark.parametrize("seed", range(3))
def test_two_outputs_are_a_tuple_in_declaration_order(bfs: gir.Program, seed: int) -> None:
    G = nx.gnm_random_graph(400, 1600, seed=seed, directed=True)
    csr = nx.to_scipy_sparse_array(G, format="csr")
    source, scale = seed * 17, 0.25 + seed
    outputs = bfs.bfs(csr, source, scale, target="opencl")
    assert isinstance(outputs, tuple) and len(outputs) == 2
    tree, weight = outputs
    assert tree.dtype == np.int32 and weight.dtype == np.float64
    hops = _hops(csr, source)
    reached = np.isfinite(hops)
    # weight: scale times the distance, zero where not reached
    np.testing.assert_allclose(weight, np.where(reached, hops * scale, 0.0), rtol=1e-12)
    # tree: a BFS tree (any parent one level up along an edge), -1 where not reached
    assert tree[source] == source
    assert np.all(tree[~reached] == -1)
    others = np.flatnonzero(reached & (np.arange(400) != source))
    assert all(csr[tree[v], v] != 0 and hops[tree[v]] == hops[v] - 1 for v in others)


@needs_opencl
def test_run_gives_every_vector_and_the_signature_names_the_outputs(bfs: gir.Program) -> None:
    src, dst = np.array([0, 1, 2]), np.array([1, 2, 3])
    assert repr(bfs.bfs) == "Export(bfs(edges, source : int, scale : double) -> (tree, weight))"
    assert bfs.bfs.signature.results == ("parent", "weight")
    result = bfs.bfs.run((src, dst), 0, 2.0, target="opencl")
    np.testing.assert_array_equal(result["parent"], [0, 0, 1, 2])
    np.testing.assert_array_equal(result["weight"], [0.0, 2.0, 4.0, 6.0])


@needs_opencl
def test_one_vector_bound_to_two_outputs_gives_two_arrays() -> None:
    prog = gir.compile(
        HEADER
        + """
func mark(u : Vertex, w : Vertex)
    level[w] = 1;
end

export func both(edges : edgeset{Edge}(Vertex,Vertex)) -> (a : vector{Vertex}(int), b : vector{Vertex}(int), c : vector{Vertex}(double))
    edges.apply(mark);
    a = level;
    b = level;
    c = rank;
end
"""
    )
    a, b, c = prog.both((np.array([0, 2]), np.array([1, 1])), target="opencl")
    np.testing.assert_array_equal(a, [0, 1, 0])
    np.testing.assert_array_equal(b, a)
    assert a is not b and not np.shares_memory(a, b)
    np.testing.assert_array_equal(c, [0.0, 0.0, 0.0])


@pytest.mark.parametrize(
    ("outputs", "at", "message"),
    [
        ("(a : vector{Vertex}(int), n : string)", "n : string", "export output 'n' must be a vector of numbers"),
        ("(a : vector{Vertex}(int), a : vector{Vertex}(int))", "a : vector{Vertex}(int))", "export output 'a' is already an output of 'f'"),
        ("(edges : vector{Vertex}(int))", "edges : vector", "export output 'edges' is already a parameter of 'f'"),
        ("()", ")", "expected an output name after '\\(', found '\\)'"),
        ("(a : vector{Vertex}(int) b : vector{Vertex}(int))", "b : vector", "expected"),
    ],
)
def test_bad_output_lists_are_located(outputs: str, at: str, message: str) -> None:
    line = f"export func f(edges : edgeset{{Edge}}(Vertex,Vertex)) -> {outputs}"
    column = line.rindex(at) + 1
    with pytest.raises(gir.UserError, match=rf"^<string>:5:{column}: error: {message}"):
        gir.compile(HEADER + line + "\nend\n")


def test_output_bound_to_a_vector_of_another_type_is_located() -> None:
    source = HEADER + (
        "export func f(edges : edgeset{Edge}(Vertex,Vertex)) -> (a : vector{Vertex}(int), b : vector{Vertex}(int))\n"
        "    a = level;\n"
        "    b = rank;\n"
        "end\n"
    )
    with pytest.raises(gir.UserError, match=r"^<string>:7:5: error: export output 'b' holds vector\{Vertex\}\(int\), but 'rank' holds vector\{Vertex\}\(double\)"):
        gir.compile(source)


def test_only_an_export_declares_outputs_in_parentheses() -> None:
    source = HEADER + "func g(v : Vertex) -> (x : int, y : int)\nend\nfunc main()\nend\n"
    with pytest.raises(gir.UserError, match=r"^<string>:5:23: error: only an 'export func' declares its outputs"):
        gir.compile(source)
