"""gir's NetworkX backend on PoCL: each algorithm's result equals NetworkX's own on
random graphs of both shapes, under the auto model's schedules and under both
shapes' shipped schedules; arguments gir does not
support are refused the way NetworkX expects (`can_run`, `NotImplementedError`).

The graphs are converted as NetworkX's dispatcher converts them
(`BackendInterface.convert_from_nx` with the function's edge attributes); the
dispatch itself, through the entry points pyproject.toml declares, is
test_nx_dispatch.py's."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

import networkx as nx
import pytest

from gir.nx_backend import interface, programs
from gir.nx_backend.graph import SHAPES
from gir.nx_backend.interface import BackendInterface

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

GRAPHS = 10


def _random_graph(seed: int, directed: bool) -> nx.Graph:
    """A small random graph: power-law (preferential attachment), mesh-like
    (a grid or a long path with chords) or uniform, with isolated nodes, self
    loops and, for some seeds, string node names in a shuffled order."""
    rng = random.Random(seed)
    kind = seed % 3
    if kind == 0:
        graph: nx.Graph = nx.barabasi_albert_graph(rng.randint(15, 40), rng.randint(1, 2), seed=seed)
    elif kind == 1:
        graph = nx.grid_2d_graph(rng.randint(2, 5), rng.randint(3, 8))
        graph = nx.convert_node_labels_to_integers(graph)
    else:
        n = rng.randint(10, 40)
        graph = nx.gnm_random_graph(n, rng.randint(0, 3 * n), seed=seed)
    if directed:
        graph = nx.DiGraph((u, v) if rng.random() < 0.6 else (v, u) for u, v in graph.edges)
    graph.add_nodes_from(range(graph.number_of_nodes(), graph.number_of_nodes() + rng.randint(0, 3)))
    if rng.random() < 0.3 and graph.number_of_nodes():
        node = rng.choice(list(graph.nodes))
        graph.add_edge(node, node)
    if seed % 4 == 3:
        names = list(graph.nodes)
        rng.shuffle(names)
        relabelled = type(graph)()
        relabelled.add_nodes_from(f"v{node}" for node in names)
        relabelled.add_edges_from((f"v{u}", f"v{v}") for u, v in graph.edges)
        graph = relabelled
    return graph


def _weighted(graph: nx.Graph, seed: int, *, floats: bool = False) -> nx.Graph:
    """`graph` with integer 'weight's in 0..9 (as floats when `floats`)."""
    rng = random.Random(seed)
    for _, _, data in graph.edges(data=True):
        value = rng.randint(0, 9)
        data["weight"] = float(value) if floats else value
    return graph


@pytest.fixture(params=("auto", *SHAPES))
def shape(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Every test runs under the auto model's schedules (these small graphs are
    all social to it: test_nx_auto.py runs road ones) and under each shape's
    shipped schedules, whatever its graphs' shapes."""
    config = nx.utils.Config(schedule=request.param, target="opencl", device=None, min_edges=None)
    monkeypatch.setattr(programs, "config", lambda: config)
    yield request.param


def _gir(graph: nx.Graph, edge_attrs: dict[str, Any] | None = None) -> Any:
    return BackendInterface.convert_from_nx(graph, edge_attrs=edge_attrs)


@pytest.mark.parametrize("directed", [False, True])
def test_bfs_levels_equal_networkx(shape: str, directed: bool) -> None:
    for seed in range(GRAPHS):
        graph = _random_graph(seed, directed)
        source = random.Random(seed).choice(list(graph.nodes))
        expected = nx.single_source_shortest_path_length(graph, source)
        assert BackendInterface.single_source_shortest_path_length(_gir(graph), source) == expected, seed
        cut = nx.single_source_shortest_path_length(graph, source, cutoff=2)
        assert BackendInterface.single_source_shortest_path_length(_gir(graph), source, 2) == cut, seed


def _multigraph(graph: nx.Graph, seed: int) -> nx.Graph:
    """`graph` as a multigraph with some edges doubled."""
    rng = random.Random(seed)
    multi = nx.MultiDiGraph(graph) if graph.is_directed() else nx.MultiGraph(graph)
    multi.add_edges_from(rng.sample(list(graph.edges), graph.number_of_edges() // 3))
    return multi


@pytest.mark.parametrize("directed", [False, True])
def test_bfs_edges_equal_networkx(shape: str, directed: bool) -> None:
    """Same tree edges in the same order as NetworkX's own search, from several
    sources, forwards and (directed) backwards, with and without depth_limit."""
    for seed in range(GRAPHS):
        graph = _random_graph(seed, directed)
        if seed % 5 == 4:
            graph = _multigraph(graph, seed)
        converted = _gir(graph)
        rng = random.Random(seed)
        for source in rng.sample(list(graph.nodes), min(3, len(graph))):
            for reverse in (False, True):
                for depth_limit in (None, 0, 1, 1 + seed % 4):
                    arguments = {"reverse": reverse, "depth_limit": depth_limit}
                    expected = list(nx.bfs_edges(graph, source, **arguments))
                    got = list(BackendInterface.bfs_edges(converted, source, **arguments))
                    assert got == expected, (seed, source, arguments)
                    if not reverse and depth_limit is None:
                        assert len(got) == len(nx.single_source_shortest_path_length(graph, source)) - 1


@pytest.mark.parametrize("directed", [False, True])
def test_bfs_tree_predecessors_successors_equal_networkx(shape: str, directed: bool) -> None:
    for seed in range(GRAPHS):
        graph = _random_graph(seed, directed)
        converted = _gir(graph)
        source = random.Random(seed).choice(list(graph.nodes))
        depth_limit = (None, 2)[seed % 2]
        expected = nx.bfs_tree(graph, source, reverse=seed % 3 == 0, depth_limit=depth_limit)
        got = BackendInterface.bfs_tree(converted, source, reverse=seed % 3 == 0, depth_limit=depth_limit)
        assert type(got) is nx.DiGraph
        assert list(got.nodes) == list(expected.nodes) and list(got.edges) == list(expected.edges), seed
        expected = list(nx.bfs_predecessors(graph, source, depth_limit=depth_limit))
        assert list(BackendInterface.bfs_predecessors(converted, source, depth_limit=depth_limit)) == expected
        expected = list(nx.bfs_successors(graph, source, depth_limit=depth_limit))
        assert list(BackendInterface.bfs_successors(converted, source, depth_limit=depth_limit)) == expected


def test_bfs_edges_order_is_networkx_discovery_order() -> None:
    """A vertex reached from two vertices of the level above belongs to the one
    NetworkX meets first (queue order, then neighbour order), whatever the GPU
    wrote; edges are inserted so that neighbour order is not node order."""
    graph = nx.Graph()
    graph.add_nodes_from(range(7))
    graph.add_edges_from([(0, 3), (0, 1), (2, 6), (1, 5), (1, 6), (3, 6), (3, 4), (5, 4)])
    expected = [(0, 3), (0, 1), (3, 6), (3, 4), (1, 5), (6, 2)]
    assert list(nx.bfs_edges(graph, 0)) == expected
    assert list(BackendInterface.bfs_edges(_gir(graph), 0)) == expected
    assert list(BackendInterface.bfs_successors(_gir(nx.empty_graph(2)), 1)) == [(1, [])]
    # a mesh of many levels, its edges inserted in a shuffled order
    edges = list(nx.convert_node_labels_to_integers(nx.grid_2d_graph(25, 25)).edges)
    random.Random(1).shuffle(edges)
    mesh = nx.Graph(edges)
    assert list(BackendInterface.bfs_edges(_gir(mesh), 300)) == list(nx.bfs_edges(mesh, 300))


@pytest.mark.parametrize("directed", [False, True])
def test_dijkstra_lengths_equal_networkx(shape: str, directed: bool) -> None:
    for seed in range(GRAPHS):
        graph = _weighted(_random_graph(seed, directed), seed, floats=seed % 5 == 1)
        source = random.Random(seed).choice(list(graph.nodes))
        expected = nx.single_source_dijkstra_path_length(graph, source)
        got = BackendInterface.single_source_dijkstra_path_length(_gir(graph, {"weight": 1}), source)
        assert got == expected, seed
        assert {node: type(value) for node, value in got.items()} == {
            node: type(value) for node, value in expected.items()
        }
        cut = nx.single_source_dijkstra_path_length(graph, source, cutoff=6)
        assert BackendInterface.single_source_dijkstra_path_length(_gir(graph, {"weight": 1}), source, 6) == cut


def test_connected_components_equal_networkx(shape: str) -> None:
    for seed in range(GRAPHS):
        graph = _random_graph(seed, directed=False)
        if seed % 2:
            graph.remove_edges_from(random.Random(seed).sample(list(graph.edges), graph.number_of_edges() // 2))
        expected = list(nx.connected_components(graph))
        assert list(BackendInterface.connected_components(_gir(graph))) == expected, seed


@pytest.mark.parametrize("directed", [False, True])
def test_pagerank_equals_networkx(shape: str, directed: bool) -> None:
    for seed in range(GRAPHS):
        graph = _random_graph(seed, directed)
        alpha = (0.85, 0.5, 0.99)[seed % 3]
        try:
            expected = nx.pagerank(graph, alpha=alpha)
        except nx.PowerIterationFailedConvergence:
            with pytest.raises(nx.PowerIterationFailedConvergence):
                BackendInterface.pagerank(_gir(graph, {"weight": 1}), alpha=alpha)
            continue
        got = BackendInterface.pagerank(_gir(graph, {"weight": 1}), alpha=alpha)
        assert list(got) == list(expected)
        # the same iterations, summed in another order
        assert got == pytest.approx(expected, rel=0, abs=1e-8), seed


@pytest.mark.parametrize("directed", [False, True])
def test_weighted_pagerank_equals_networkx(shape: str, directed: bool) -> None:
    """Edges of different weights (ints, floats a power of two makes integers,
    zeros that leave a vertex dangling, parallel edges that add up), as
    NetworkX's weighted matrix iterates them."""
    for seed in range(GRAPHS // 2):
        graph = _weighted(_random_graph(seed, directed), seed)
        rng = random.Random(seed)
        for _, _, data in graph.edges(data=True):
            data["weight"] *= rng.choice([1, 0.25, 1.5])
        if seed % 3 == 2:
            graph = _multigraph(graph, seed)
        try:
            expected = nx.pagerank(graph, tol=1e-10)
        except nx.PowerIterationFailedConvergence:
            with pytest.raises(nx.PowerIterationFailedConvergence):
                BackendInterface.pagerank(_gir(graph, {"weight": 1}), tol=1e-10)
            continue
        got = BackendInterface.pagerank(_gir(graph, {"weight": 1}), tol=1e-10)
        assert list(got) == list(expected)
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-15), seed
    karate = nx.karate_club_graph()
    assert BackendInterface.pagerank(_gir(karate, {"weight": 1})) == pytest.approx(nx.pagerank(karate), rel=1e-12)


def test_pagerank_fails_to_converge_as_networkx_does(shape: str) -> None:
    graph = _random_graph(4, directed=True)
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(graph, max_iter=2, tol=1e-12)
    with pytest.raises(nx.PowerIterationFailedConvergence):
        BackendInterface.pagerank(_gir(graph, {"weight": 1}), max_iter=2, tol=1e-12)


@pytest.mark.parametrize("directed", [False, True])
def test_betweenness_equals_networkx(shape: str, directed: bool) -> None:
    for seed in range(GRAPHS):
        graph = _random_graph(seed, directed)
        normalized = seed % 3 != 2
        everyone = len(graph) if seed % 2 else None  # k = n is every node, as k=None
        expected = nx.betweenness_centrality(graph, k=everyone, normalized=normalized)
        got = BackendInterface.betweenness_centrality(_gir(graph), k=everyone, normalized=normalized)
        assert list(got) == list(expected)
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-12), seed
        k = 1 + seed % 3
        expected = nx.betweenness_centrality(graph, k=k, normalized=normalized, seed=seed)
        got = BackendInterface.betweenness_centrality(
            _gir(graph), k=k, normalized=normalized, seed=random.Random(seed)  # NetworkX's seed=seed
        )
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-12, nan_ok=True), seed


def test_ties_keep_networkx_order() -> None:
    """Nodes at the same distance come in NetworkX's order (discovery for BFS,
    settling for Dijkstra: by the pusher's rank, then the edge's position, zero
    weights included), not in node order."""
    graph = nx.Graph()
    graph.add_nodes_from(range(6))
    graph.add_edges_from([(0, 2), (0, 1), (2, 4), (1, 3), (1, 5), (4, 5)])
    expected = nx.single_source_shortest_path_length(graph, 0)
    assert list(BackendInterface.single_source_shortest_path_length(_gir(graph), 0).items()) == list(expected.items())
    for weights in ([1] * 6, [0, 1, 2, 0, 2, 1], [2, 2, 0, 0, 1, 1]):
        for (u, v), weight in zip(graph.edges, weights):
            graph[u][v]["weight"] = weight
        expected = nx.single_source_dijkstra_path_length(graph, 0)
        got = BackendInterface.single_source_dijkstra_path_length(_gir(graph, {"weight": 1}), 0)
        assert list(got.items()) == list(expected.items()), weights


def test_cutoffs_compare_as_networkx_compares() -> None:
    """A negative or NaN cutoff keeps the source alone in BFS; NaN keeps every
    node in Dijkstra (`length > nan` is false); 2.5 keeps BFS level 3; a str
    raises NetworkX's TypeError."""
    path = nx.path_graph(6)
    converted = _gir(path, {"weight": 1})
    for cutoff in (-1, math.nan, 0, 2.5, -math.inf, math.inf, 10**30, True):
        expected = nx.single_source_shortest_path_length(path, 0, cutoff=cutoff)
        assert BackendInterface.single_source_shortest_path_length(converted, 0, cutoff) == expected, cutoff
        expected = nx.single_source_dijkstra_path_length(path, 0, cutoff=cutoff)
        assert BackendInterface.single_source_dijkstra_path_length(converted, 0, cutoff) == expected, cutoff
    for function in (BackendInterface.single_source_shortest_path_length, BackendInterface.single_source_dijkstra_path_length):
        with pytest.raises(TypeError):
            function(converted, 0, "2")


def test_should_run_declines_small_graphs_and_networkx_inner_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    small, large = nx.path_graph(4), nx.gnm_random_graph(400, 2000, seed=1)
    config = nx.utils.Config(schedule="auto", target="opencl", device=None, min_edges=None)
    monkeypatch.setattr(programs, "config", lambda: config)
    monkeypatch.setattr(interface, "MIN_EDGES", {"opencl": dict.fromkeys(interface.FUNCTIONS, 1000)})
    reason = BackendInterface.should_run("pagerank", (small,), {})
    assert reason == "the graph has 6 edges, below nx.config.backends.gir.min_edges for pagerank (1000)"
    assert BackendInterface.should_run("pagerank", (large,), {}) is True
    config.min_edges = 0
    assert BackendInterface.should_run("pagerank", (small,), {}) is True
    config.min_edges = {"pagerank": 5000}
    assert "(5000)" in BackendInterface.should_run("pagerank", (large,), {})
    assert BackendInterface.should_run("connected_components", (large,), {}) is True
    # a NetworkX module asking (as closeness_centrality's loop does): declined
    asked_from_networkx = eval(  # a frame whose module is NetworkX's, as in its algorithms
        "lambda: should_run('connected_components', (graph,), {})",
        {"__name__": "networkx.algorithms.fake", "should_run": BackendInterface.should_run, "graph": large},
    )
    assert "inside NetworkX's <lambda>" in asked_from_networkx()


def test_calibration_times_networkx_and_gir() -> None:
    """`python -m gir.nx_backend.calibrate` times both on the same graph and
    reports the least size from which gir won at every larger size."""
    from gir.nx_backend import calibrate

    graph = calibrate.graph(512)
    assert 2 * graph.number_of_edges() == 512
    rows, threshold = calibrate.measure("connected_components", [256])
    ((edges, nx_seconds, gir_seconds),) = rows
    assert edges == 256 and nx_seconds > 0 and gir_seconds > 0
    assert threshold == (256 if gir_seconds < nx_seconds else None)


def test_empty_and_edgeless_graphs() -> None:
    assert BackendInterface.pagerank(_gir(nx.DiGraph(), {"weight": 1})) == {}
    assert list(BackendInterface.connected_components(_gir(nx.Graph()))) == []
    lonely = nx.empty_graph(4)
    assert list(BackendInterface.connected_components(_gir(lonely))) == [{0}, {1}, {2}, {3}]
    assert BackendInterface.single_source_shortest_path_length(_gir(lonely), 2) == {2: 0}
    assert BackendInterface.betweenness_centrality(_gir(nx.Graph())) == {}
    assert BackendInterface.betweenness_centrality(_gir(lonely)) == nx.betweenness_centrality(lonely)


def test_networkx_errors() -> None:
    graph = nx.path_graph(4)
    with pytest.raises(nx.NodeNotFound, match="Source 9 is not in G"):
        BackendInterface.single_source_shortest_path_length(_gir(graph), 9)
    with pytest.raises(nx.NodeNotFound, match="Node 9 not found in graph"):
        BackendInterface.single_source_dijkstra_path_length(_gir(graph, {"weight": 1}), 9)
    with pytest.raises(nx.NetworkXNotImplemented, match="directed"):
        BackendInterface.connected_components(_gir(nx.DiGraph(graph)))
    for G in (graph, nx.DiGraph(graph)):
        with pytest.raises(nx.NetworkXError) as expected:
            list(nx.bfs_edges(G, 9))
        edges = BackendInterface.bfs_edges(_gir(G), 9, depth_limit=0)  # lazy, as NetworkX's generator
        with pytest.raises(nx.NetworkXError, match=f"^{expected.value}$"):
            list(edges)


def test_unsupported_arguments_are_refused() -> None:
    graph, multi = nx.path_graph(4), nx.MultiGraph(nx.path_graph(4))
    assert BackendInterface.can_run("pagerank", (graph,), {}) is True
    assert "personalization" in BackendInterface.can_run("pagerank", (graph,), {"personalization": {0: 1}})
    assert BackendInterface.can_run("pagerank", (multi,), {}) is True
    assert BackendInterface.can_run("connected_components", (multi,), {}) is True
    assert "function" in BackendInterface.can_run("single_source_dijkstra_path_length", (graph, 0), {"weight": len})
    assert BackendInterface.can_run("betweenness_centrality", (graph,), {"k": 2}) is True
    assert "unweighted" in BackendInterface.can_run("betweenness_centrality", (graph,), {"weight": "weight"})
    assert "endpoints" in BackendInterface.can_run("betweenness_centrality", (graph,), {"endpoints": True})
    assert "multigraph" in BackendInterface.can_run("betweenness_centrality", (multi,), {})
    assert "closeness_centrality" in BackendInterface.can_run("closeness_centrality", (graph,), {})
    assert BackendInterface.can_run("bfs_edges", (graph, 0), {"depth_limit": 2, "reverse": True}) is True
    assert BackendInterface.can_run("bfs_tree", (multi, 0), {}) is True
    for name in ("bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors"):
        assert "sort_neighbors" in BackendInterface.can_run(name, (graph, 0), {"sort_neighbors": sorted})
    negative = _weighted(nx.path_graph(4), 0)
    negative[0][1]["weight"] = -1
    with pytest.raises(NotImplementedError, match="non-negative integer"):
        BackendInterface.single_source_dijkstra_path_length(_gir(negative, {"weight": 1}), 0)
    fractional = _weighted(nx.path_graph(4), 0)
    fractional[0][1]["weight"] = 0.5
    with pytest.raises(NotImplementedError, match="non-negative integer"):
        BackendInterface.single_source_dijkstra_path_length(_gir(fractional, {"weight": 1}), 0)
    tenth = _weighted(nx.path_graph(4), 0)
    tenth[0][1]["weight"] = 0.1  # no power of two makes it an integer
    with pytest.raises(NotImplementedError, match="power of two"):
        BackendInterface.pagerank(_gir(tenth, {"weight": 1}))
    text = _weighted(nx.DiGraph(nx.path_graph(4)), 0)
    text[2][3]["weight"] = "3"  # NetworkX adds it to a length: TypeError, where it is reached
    text[1][2]["weight"] = None  # NetworkX hides the edge
    with pytest.raises(TypeError, match="'str'"):
        nx.single_source_dijkstra_path_length(text, 2)
    with pytest.raises(TypeError, match="'str'"):
        BackendInterface.single_source_dijkstra_path_length(_gir(text, {"weight": 1}), 2)
    expected = nx.single_source_dijkstra_path_length(text, 0)
    assert BackendInterface.single_source_dijkstra_path_length(_gir(text, {"weight": 1}), 0) == expected
    with pytest.raises(NotImplementedError, match="'weight' has (str|NoneType) values"):
        BackendInterface.pagerank(_gir(text, {"weight": 1}))


def test_calibration_without_the_installed_backend_says_why(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run from a checkout on PYTHONPATH (no entry point), calibration has no
    backend config to set: one usage line, not an AttributeError."""
    from networkx.utils.configs import Config

    from gir.nx_backend import calibrate

    monkeypatch.setattr(nx.config, "backends", Config())
    with pytest.raises(SystemExit) as stop:
        calibrate.main(["--functions", "pagerank"])
    assert stop.value.code == 2
    assert "gir's NetworkX backend is not registered" in capsys.readouterr().err


def test_default_thresholds_are_the_targets_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without `min_edges`, each target's measured thresholds apply (the GPU's
    per-call cost moves them); a dict naming some functions keeps the others'."""
    config = nx.utils.Config(schedule="auto", target="cuda", device=None, min_edges=None)
    monkeypatch.setattr(programs, "config", lambda: config)
    assert set(interface.MIN_EDGES) == {"cuda", "opencl"}
    for target, thresholds in interface.MIN_EDGES.items():
        assert set(thresholds) == set(interface.FUNCTIONS), target
        config.target = target
        assert interface.min_edges("pagerank") == thresholds["pagerank"]
    assert interface.MIN_EDGES["cuda"]["pagerank"] != interface.MIN_EDGES["opencl"]["pagerank"]
    config.min_edges = {"bfs_tree": 7}
    assert interface.min_edges("bfs_tree") == 7
    assert interface.min_edges("pagerank") == interface.MIN_EDGES[config.target]["pagerank"]
