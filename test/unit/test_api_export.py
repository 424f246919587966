"""GraphIt `export func` entry points as methods of `gir.Program`, on OpenCL:
PageRank-delta (test/programs/export_pagerank_delta.gt) against a numpy
reference on every kind of graph input, typed scalar arguments, an export whose
output is a vector of its own next to a `main`, and the errors a caller meets."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import gir
from gpu_testing import opencl_device_count

pytestmark = pytest.mark.skipif(opencl_device_count() == 0, reason="no OpenCL device")

PAGERANK_DELTA = Path(__file__).parents[2] / "test" / "programs" / "export_pagerank_delta.gt"

LEVELS = """
element Vertex end
element Edge end
const noted : edgeset{Edge}(Vertex,Vertex) = load (argv[1]);
const level : vector{Vertex}(int) = -1;
const seen : vector{Vertex}(int) = 0;

func fresh(v : Vertex) -> yes : bool
    yes = level[v] == -1;
end

func reach(u : Vertex, w : Vertex)
    level[w] = level[u] + 1;
    hops[w] = level[u] + 1;
end

func note(u : Vertex, w : Vertex)
    seen[w] = 1;
end

export func levels(edges : edgeset{Edge}(Vertex,Vertex), source : int) -> hops : vector{Vertex}(int)
    var wave : vertexset{Vertex} = new vertexset{Vertex}(0);
    wave.addVertex(source);
    level[source] = 0;
    while (wave.getVertexSetSize() != 0)
        #step# var next : vertexset{Vertex} = edges.from(wave).to(fresh).applyModified(reach, level, true);
        delete wave;
        wave = next;
    end
    delete wave;
end

func main()
    #all# noted.apply(note);
end

schedule:
    SimpleGPUSchedule by_edge;
    by_edge.configLoadBalance(EDGE_ONLY);
    program->applyGPUSchedule("step", by_edge);
    program->applyGPUSchedule("all", by_edge);
"""


def pagerank_delta(graph: sp.csr_array, rounds: int, damp: float, epsilon2: float = 0.1) -> np.ndarray:
    """GraphIt's PageRankDelta in numpy: each round pushes the deltas of the
    active vertices along their out-edges, then every vertex folds in what it got."""
    n = graph.shape[0]
    src, dst = graph.nonzero()
    out_degree = np.bincount(src, minlength=n)
    rank, delta = np.zeros(n), np.full(n, 1.0 / n)
    active = np.ones(n, dtype=bool)
    for round_ in range(1, rounds + 1):
        pushed = active[src]
        received = np.bincount(dst[pushed], weights=delta[src[pushed]] / out_degree[src[pushed]], minlength=n)
        if round_ == 1:
            delta = damp * received + (1.0 - damp) / n
            rank += delta
            delta = delta - 1.0 / n
        else:
            delta = received * damp
            rank += delta
        active = np.abs(delta) > epsilon2 * rank
    return rank


@pytest.fixture(scope="module")
def prd() -> gir.Program:
    return gir.compile(PAGERANK_DELTA)


@pytest.mark.parametrize("seed", range(3))
def test_pagerank_delta_matches_numpy(prd: gir.Program, seed: int) -> None:
    G = nx.gnm_random_graph(300, 2400, seed=seed, directed=True)
    G_csr = nx.to_scipy_sparse_array(G, format="csr")
    ranks = prd.pagerank_delta(G_csr, 20, 0.85)
    assert isinstance(ranks, np.ndarray) and ranks.dtype == np.float64 and ranks.shape == (300,)
    np.testing.assert_allclose(ranks, pagerank_delta(G_csr, 20, 0.85), rtol=1e-9, atol=1e-12)


def test_pagerank_delta_takes_every_graph_input(prd: gir.Program) -> None:
    G = nx.gnm_random_graph(120, 700, seed=7, directed=True)
    G_csr = nx.to_scipy_sparse_array(G, format="csr")
    expected = pagerank_delta(G_csr, 6, 0.5)
    src, dst = G_csr.nonzero()
    loaded = prd.load_graph(G)
    for graph in (G, (src, dst), loaded, G_csr):
        np.testing.assert_allclose(prd.pagerank_delta(graph, 6, 0.5), expected, rtol=1e-9, atol=1e-12)
    # an int where the parameter is a double is that number
    np.testing.assert_allclose(prd.pagerank_delta(loaded, 3, 1), pagerank_delta(G_csr, 3, 1.0), rtol=1e-9)
    result = prd.pagerank_delta.run(loaded, 6, 0.5, trials=2)
    assert len(result.times) == 2
    np.testing.assert_allclose(result["cur_rank"], expected, rtol=1e-9, atol=1e-12)
    loaded.release()


def test_scalar_arguments_are_typed(prd: gir.Program) -> None:
    graph = (np.array([0, 1]), np.array([1, 0]))
    with pytest.raises(gir.UserError, match=r"argument 'rounds' of pagerank_delta is int, not float 2\.5"):
        prd.pagerank_delta(graph, 2.5, 0.85)
    with pytest.raises(gir.UserError, match=r"argument 'damp' of pagerank_delta is double, not str"):
        prd.pagerank_delta(graph, 2, "0.85")
    with pytest.raises(gir.UserError, match=r"takes 2 argument\(s\) after the graph, got 1"):
        prd.pagerank_delta(graph, 2)
    with pytest.raises(gir.UserError, match=r"does not fit the program's i32"):
        prd.pagerank_delta(graph, 2**40, 0.85)


def test_program_of_exports_only_has_no_run(prd: gir.Program) -> None:
    assert "pagerank_delta" in dir(prd)
    assert repr(prd.pagerank_delta) == "Export(pagerank_delta(edges, rounds : int, damp : double) -> rank)"
    with pytest.raises(gir.UserError, match=r"has no 'main' function: call its exports \(pagerank_delta"):
        prd.run((np.array([0]), np.array([1])))
    with pytest.raises(AttributeError, match="no attribute or export 'pagerank'"):
        prd.pagerank


def test_export_output_of_its_own_beside_main() -> None:
    prog = gir.compile(LEVELS)
    G = nx.gnm_random_graph(80, 240, seed=2, directed=True)
    hops = prog.levels(G, 5)
    expected = nx.single_source_shortest_path_length(G, 5)
    assert {v: int(hops[v]) for v in range(80) if v in expected} == expected
    assert all(hops[v] == 0 for v in range(80) if v not in expected)  # the output starts at zero
    seen = prog.run(G)["seen"]  # main runs without the export
    assert set(np.flatnonzero(seen)) == {w for _, w in G.edges}


def test_export_schedule_given_from_python() -> None:
    schedule = """
    SimpleGPUSchedule push_edges;
    push_edges.configLoadBalance(EDGE_ONLY);
    program->applyGPUSchedule("push", push_edges);
    """
    prog = gir.compile(PAGERANK_DELTA, schedule=schedule)
    G_csr = nx.to_scipy_sparse_array(nx.gnm_random_graph(60, 300, seed=4, directed=True), format="csr")
    np.testing.assert_allclose(prog.pagerank_delta(G_csr, 5, 0.85), pagerank_delta(G_csr, 5, 0.85), rtol=1e-9)
    with pytest.raises(gir.UserError, match=r"<schedule>:\d+:\d+: error: no statement is labelled 'pull'"):
        gir.compile(PAGERANK_DELTA, schedule=schedule.replace('"push"', '"pull"'))


TABLE = """
element Vertex end
export func table(base : int) -> output : vector[4](vector[3](int))
    var grid : vector[4](vector[3](int)) = new vector[4](vector[3](int))();
    for i in 0:4
        for j in 0:3
            grid[i][j] = base + i * j;
        end
    end
    output = grid;
end
export func firsts() -> output : vector[5](int)
    var row : vector[5](int) = new vector[5](int)();
    for i in 0:5
        row[i] = i + 1;
    end
    output = row;
end
"""


def test_export_in_a_file_without_graph_takes_its_numbers_alone() -> None:
    """GraphIt's export_constant_size_vector(_of_vector)_return.gt: a file that
    declares no edgeset runs its exports without a graph; a fixed-size vector of
    vectors comes back as one row per element."""
    prog = gir.compile(TABLE)
    assert prog.table.signature.own_graph and prog.table.signature.lanes == (("output", 3),)
    grid = prog.table(7, target="opencl")
    np.testing.assert_array_equal(grid, 7 + np.outer(np.arange(4), np.arange(3)))
    np.testing.assert_array_equal(prog.firsts(target="opencl"), np.arange(1, 6))
    with pytest.raises(gir.UserError, match=r"table\(base : int\) -> output takes 1 argument\(s\), got 2"):
        prog.table(nx.path_graph(3), 7, target="opencl")


ROWS = """
element Vertex end
element Edge end
const edges : edgeset{Edge}(Vertex,Vertex);
const vertices : vertexset{Vertex};
const data : vector{Vertex}(vector[3](float));
const K : int = 3;

func bump(v : Vertex)
    for i in 0:K
        data[v][i] += v * i;
    end
end

export func shifted(input_edges : edgeset{Edge}(Vertex,Vertex), rows : vector{Vertex}(vector[K](float)), scale : vector[3](float)) -> output : vector{Vertex}(vector[3](float))
    edges = input_edges;
    vertices = edges.getVertices();
    data = rows;
    vertices.apply(bump);
    output = data;
end
"""


def test_vectors_of_vectors_are_passed_and_returned_as_rows() -> None:
    """GraphIt's export_vector_of_vector.gt: a `vector{Vertex}(vector[K](float))`
    parameter takes an array of one row per vertex, and such an output comes
    back so; an array of another shape is a `UserError` naming the parameter."""
    prog = gir.compile(ROWS)
    G = nx.gnm_random_graph(6, 12, seed=1, directed=True)
    rows = np.arange(18, dtype=np.float64).reshape(6, 3)
    out = prog.shifted(G, rows, np.ones(3), target="opencl")
    np.testing.assert_allclose(out, rows + np.outer(np.arange(6), np.arange(3)))
    with pytest.raises(gir.UserError, match=r"argument 'rows' of shifted is a vector: give a two-dimensional array of numbers with 3 columns \(one row per element\), not ndarray of shape \(18,\)"):
        prog.shifted(G, rows.reshape(-1), np.ones(3), target="opencl")


FIXED_FILE = """
element Vertex end
element Edge end
const edges : edgeset{Edge}(Vertex,Vertex,int);
const degrees : vector{Vertex}(int);
const total : vector[1](int) = 0;

func add_weight(src : Vertex, dst : Vertex, weight : int)
    total[0] += weight;
end

export func count(scale : int) -> sum : int
    edges = load ("graphs/fixed.wel");
    degrees = edges.getOutDegrees();
    sum = degrees.sum() * scale;
end

export func weigh(input_edges : edgeset{Edge}(Vertex,Vertex,float)) -> sum : int
    edges = input_edges;
    edges.apply(add_weight);
    sum = total[0];
end
"""


def test_export_that_loads_its_own_graph_and_float_weighted_parameters(monkeypatch) -> None:
    """GraphIt's simple_export_func.gt loads a fixed file in its export: the
    caller gives no graph. export_cf_vector_input_with_return.gt gives a
    float-weighted edgeset parameter to an int-weighted global: the graph is
    read as the global declares (integral weights; gir never rounds)."""
    monkeypatch.chdir(PAGERANK_DELTA.parent)
    prog = gir.compile(FIXED_FILE)
    assert prog.count.signature.own_graph and prog.count.signature.graph is None
    edges = sum(1 for line in open("graphs/fixed.wel") if line.strip() and not line.startswith("#"))
    assert prog.count(3, target="opencl") == 3 * edges
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 2.0), (1, 2, 5.0), (2, 0, 4.0)])
    assert prog.weigh(G, target="opencl") == 11
