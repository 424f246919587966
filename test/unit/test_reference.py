"""Tests of the CPU reference algorithms and their result checkers."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest

from gir.runtime.graph import Graph, GraphError, from_edges, from_networkx
from gir.runtime.reference import (
    UNREACHABLE_DISTANCE,
    betweenness_one_source,
    bfs_levels,
    check_bc,
    check_bfs_parent,
    check_cc,
    check_pagerank,
    check_ppsp,
    check_sssp,
    check_triangles,
    connected_components,
    pagerank,
    sssp_distances,
    triangle_total,
    triangles_at,
)

SEEDS = [0, 1, 2, 3]


def random_digraph(seed: int, n: int = 60, p: float = 0.05) -> nx.DiGraph:
    """A random directed graph with integer weights in [1, 20]."""
    graph = nx.gnp_random_graph(n, p, seed=seed, directed=True)
    rng = np.random.default_rng(seed)
    for u, v in graph.edges:
        graph[u][v]["weight"] = int(rng.integers(1, 21))
    return graph


def bfs_parents(g: Graph, source: int, pick_largest: bool = False) -> np.ndarray:
    """A valid BFS parent array: each vertex's smallest (or largest) in-neighbour one level up."""
    levels = bfs_levels(g, source)
    parent = np.full(g.num_vertices, -1, dtype=np.int64)
    parent[source] = source
    tree_edges = (levels[g.src] >= 0) & (levels[g.dst] == levels[g.src] + 1)
    for u, v in zip(g.src[tree_edges], g.dst[tree_edges]):
        if parent[v] == -1 or pick_largest:
            parent[v] = u
    return parent


def diamond() -> Graph:
    """0->1, 0->2, 1->3, 2->3, 3->4, plus an unreachable vertex 5 with an edge 5->0."""
    return from_edges(6, np.array([0, 0, 1, 2, 3, 5]), np.array([1, 2, 3, 3, 4, 0]))


# --------------------------------------------------------------------------------------
# BFS
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_bfs_levels_match_networkx(seed: int) -> None:
    nx_graph = random_digraph(seed)
    levels = bfs_levels(from_networkx(nx_graph), 0)
    expected = np.full(nx_graph.number_of_nodes(), -1)
    for vertex, depth in nx.single_source_shortest_path_length(nx_graph, 0).items():
        expected[vertex] = depth
    assert levels.dtype == np.int32 and np.array_equal(levels, expected)


@pytest.mark.parametrize("seed", SEEDS)
def test_check_bfs_parent_accepts_any_valid_tree(seed: int) -> None:
    g = from_networkx(random_digraph(seed))
    assert check_bfs_parent(g, 0, bfs_parents(g, 0)) is None
    assert check_bfs_parent(g, 0, bfs_parents(g, 0, pick_largest=True).astype(np.int32)) is None


@pytest.mark.parametrize(
    ("corrupt", "expected"),
    [
        (
            lambda p: p.__setitem__(4, -1),
            "1 vertex has a bad BFS parent; first: vertex 4 is reachable but has no parent",
        ),
        (lambda p: p.__setitem__(5, 0), "vertex 5 is unreachable from 0 but has parent 0"),
        (lambda p: p.__setitem__(3, 7), "vertex 3 has parent 7, which is not a vertex"),
        (lambda p: p.__setitem__(4, 1), "vertex 4 has parent 1 but there is no edge 1->4"),
        (lambda p: p.__setitem__(0, 5), "parent[0] of the source is 5, expected 0"),
        (lambda p: p[:] == p, "the parent array must hold integers, not bool"),
    ],
)
def test_check_bfs_parent_rejects_corruption(corrupt, expected: str) -> None:
    g = diamond()
    parent = np.array([0, 0, 0, 1, 3, -1])
    assert check_bfs_parent(g, 0, parent) is None
    broken = corrupt(parent)
    message = check_bfs_parent(g, 0, parent if broken is None else broken)
    assert message is not None and expected in message


def test_check_bfs_parent_wrong_level_and_counts() -> None:
    g = from_edges(
        4, np.array([0, 0, 1, 2]), np.array([1, 2, 2, 3])
    )  # 0->2 is a shortcut past 1->2
    assert check_bfs_parent(g, 0, np.array([0, 0, 1, 2])) == (
        "1 vertex has a bad BFS parent; first: vertex 2 at level 1 has parent 1 at level 1"
    )
    message = check_bfs_parent(g, 0, np.array([0, -1, -1, -1]))
    assert message is not None and message.startswith(
        "3 vertices have a bad BFS parent; first: vertex 1"
    )
    assert (
        check_bfs_parent(g, 0, np.array([0, 0, 0]))
        == "the parent array has shape (3,), expected (4,)"
    )
    with pytest.raises(GraphError, match="source vertex 9"):
        check_bfs_parent(g, 9, np.array([0, 0, 0, 2]))


# --------------------------------------------------------------------------------------
# SSSP
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_sssp_matches_networkx_dijkstra(seed: int) -> None:
    nx_graph = random_digraph(seed)
    g = from_networkx(nx_graph)
    distances = sssp_distances(g, 0)
    expected = np.full(g.num_vertices, UNREACHABLE_DISTANCE, dtype=np.int64)
    for vertex, length in nx.single_source_dijkstra_path_length(nx_graph, 0).items():
        expected[vertex] = length
    assert distances.dtype == np.int64 and np.array_equal(distances, expected)
    assert check_sssp(g, 0, distances.astype(np.int32)) is None


def test_sssp_special_cases_and_checker() -> None:
    g = from_edges(4, np.array([0, 0, 1, 2]), np.array([1, 2, 2, 2]), np.array([5, 9, 0, 3]))
    assert sssp_distances(g, 0).tolist() == [
        0,
        5,
        5,
        UNREACHABLE_DISTANCE,
    ]  # zero weight, self loop
    assert sssp_distances(from_edges(3, np.array([0, 1]), np.array([1, 2])), 0).tolist() == [
        0,
        1,
        2,
    ]
    assert check_sssp(g, 0, np.array([0, 5, 9, 7])) == (
        "2 vertices have a wrong distance; first: vertex 2 has distance 9, expected 5"
    )
    message = check_sssp(g, 0, np.array([0, 5, 5, -1]))
    assert message is not None and "expected unreachable (2147483647)" in message
    with pytest.raises(GraphError, match="non-negative"):
        sssp_distances(from_edges(2, np.array([0]), np.array([1]), np.array([-1])), 0)


def test_check_sssp_from_a_source_that_starts_further() -> None:
    """GraphIt's sssp_benchmark.gt stores 14 at source 14: every reached vertex
    is 14 further, unreachable ones stay unreachable."""
    g = from_edges(4, np.array([0, 1]), np.array([1, 2]), np.array([3, 4]))
    assert check_sssp(g, 0, np.array([14, 17, 21, UNREACHABLE_DISTANCE]), start_distance=14) is None
    message = check_sssp(g, 0, np.array([0, 3, 7, UNREACHABLE_DISTANCE]), start_distance=14)
    assert message == "3 vertices have a wrong distance; first: vertex 0 has distance 0, expected 14"


def test_check_ppsp_needs_exact_distances_up_to_the_target_only() -> None:
    """A path 0 -1-> 1 -1-> 2 -5-> 3 -1-> 4 searched for target 2: vertices 0-2
    are settled; 3 and 4 may hold any upper bound but no less than the truth."""
    g = from_edges(5, np.array([0, 1, 2, 3]), np.array([1, 2, 3, 4]), np.array([1, 1, 5, 1]))
    stopped = np.array([0, 1, 2, 7, UNREACHABLE_DISTANCE])
    assert check_ppsp(g, 0, 2, stopped) is None
    assert check_ppsp(g, 0, 2, np.array([0, 1, 2, 9, 12])) is None
    settled_wrong = check_ppsp(g, 0, 2, np.array([0, 1, 3, 7, 8]))
    assert settled_wrong == "1 vertex has a wrong distance; first: vertex 2 has distance 3, expected 2"
    too_short = check_ppsp(g, 0, 2, np.array([0, 1, 2, 7, 6]))
    assert too_short == (
        "1 vertex has a wrong distance; first: vertex 4 has distance 6, expected 8 "
        "or more (it lies beyond target 2)"
    )
    assert check_ppsp(g, 0, 4, stopped) is not None  # the target itself is exact
    # an unreachable target: the search ran dry, so every distance is exact
    lonely = from_edges(3, np.array([0]), np.array([1]), np.array([2]))
    assert check_ppsp(lonely, 0, 2, np.array([0, 2, UNREACHABLE_DISTANCE])) is None
    assert check_ppsp(lonely, 0, 2, np.array([0, 3, UNREACHABLE_DISTANCE])) is not None


# --------------------------------------------------------------------------------------
# Connected components
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_components_match_networkx(seed: int) -> None:
    nx_graph = random_digraph(seed, n=80, p=0.015)
    g = from_networkx(nx_graph)
    labels = connected_components(g)
    components = {
        frozenset(np.flatnonzero(labels == label).tolist()) for label in np.unique(labels)
    }
    assert components == {frozenset(c) for c in nx.weakly_connected_components(nx_graph)}
    relabelled = (labels * 7919 + 13) % 100003
    assert check_cc(g, relabelled) is None


def test_check_cc_rejects_split_and_merged_components() -> None:
    g = from_edges(5, np.array([0, 1, 3]), np.array([1, 2, 4]))  # {0,1,2} {3,4}
    assert check_cc(g, np.array([9, 9, 9, 4, 4])) is None
    assert check_cc(g, np.array([9, 9, 8, 4, 4])) == (
        "1 vertex has a wrong component label; first: vertex 2 has label 8 "
        "but vertex 0 in the same component has label 9"
    )
    assert check_cc(g, np.array([9, 9, 9, 9, 9])) == (
        "2 vertices have a wrong component label; first: vertex 3 shares label 9 "
        "with vertex 0, which is in another component"
    )
    assert check_cc(g, np.zeros(5)) == "the label array must hold integers, not float64"


# --------------------------------------------------------------------------------------
# PageRank
# --------------------------------------------------------------------------------------


def loop_pagerank(g: Graph, iterations: int, damp: float) -> np.ndarray:
    """PageRank written as plainly as possible: a Python loop over the edges."""
    n = g.num_vertices
    degrees = np.zeros(n)
    for u in g.src:
        degrees[u] += 1
    ranks = np.full(n, 1.0 / n)
    for _ in range(iterations):
        received = np.zeros(n)
        for u, v in zip(g.src, g.dst):
            received[v] += ranks[u] / degrees[u]
        ranks = (1 - damp) / n + damp * received
    return ranks


@pytest.mark.parametrize("seed", SEEDS)
def test_pagerank_matches_a_plain_loop(seed: int) -> None:
    g = from_networkx(random_digraph(seed))
    ranks = pagerank(g)
    assert np.allclose(ranks, loop_pagerank(g, 20, 0.85), rtol=1e-12, atol=0)
    assert np.allclose(pagerank(g, 5, 0.5), loop_pagerank(g, 5, 0.5), rtol=1e-12, atol=0)
    assert check_pagerank(g, ranks.astype(np.float32)) is None


def test_check_pagerank_rejects_wrong_ranks() -> None:
    g = from_networkx(random_digraph(0))
    ranks = pagerank(g)
    wrong = ranks.copy()
    wrong[[7, 9]] *= 1.01
    message = check_pagerank(g, wrong)
    assert message is not None and message.startswith(
        "2 vertices have a wrong rank; first: vertex 7 has rank"
    )
    wrong[7] = np.nan
    assert check_pagerank(g, wrong) is not None
    assert check_pagerank(g, ranks, iterations=19) is not None
    assert check_pagerank(g, ranks[:-1]) is not None


# --------------------------------------------------------------------------------------
# Betweenness centrality
# --------------------------------------------------------------------------------------


def brute_force_dependencies(nx_graph: nx.DiGraph, source: int) -> np.ndarray:
    """delta_s(v) = sum over targets t != v of the share of shortest s-t paths through v."""
    dependencies = np.zeros(nx_graph.number_of_nodes())
    for target in nx.single_source_shortest_path_length(nx_graph, source):
        if target == source:
            continue
        paths = list(nx.all_shortest_paths(nx_graph, source, target))
        for path in paths:
            for vertex in path[:-1]:
                dependencies[vertex] += 1 / len(paths)
    return dependencies


def test_betweenness_on_hand_made_graphs() -> None:
    path = from_edges(4, np.array([0, 1, 2]), np.array([1, 2, 3]))
    assert betweenness_one_source(path, 0).tolist() == [3, 2, 1, 0]
    assert betweenness_one_source(path, 2).tolist() == [0, 0, 1, 0]
    assert betweenness_one_source(diamond(), 0).tolist() == [4, 1, 1, 1, 0, 0]
    star = from_edges(5, np.array([0, 0, 0, 1, 2, 3]), np.array([1, 2, 3, 4, 4, 4]))
    assert np.allclose(betweenness_one_source(star, 0), [4, 1 / 3, 1 / 3, 1 / 3, 0])


def test_betweenness_when_path_counts_pass_double_range() -> None:
    """A chain of 1100 diamonds has 2^1100 (~10^331) shortest paths to its end,
    past double's range; the dependencies are small and exact: the cut vertex
    s_i carries every path to the 3(k - i) vertices after it, a diamond side
    half of the paths to the 3(k - i) - 2 vertices from s_(i+1) on."""
    k = 1100
    cut = [3 * i for i in range(k + 1)]
    sources, targets = [], []
    for i in range(k):
        for side in (cut[i] + 1, cut[i] + 2):
            sources += [cut[i], side]
            targets += [side, cut[i + 1]]
    g = from_edges(3 * k + 1, np.array(sources), np.array(targets))
    dependencies = betweenness_one_source(g, 0)
    assert np.isfinite(dependencies).all()
    for i in range(k):
        assert dependencies[cut[i]] == pytest.approx(3 * (k - i))
        assert dependencies[cut[i] + 1] == pytest.approx((3 * (k - i) - 2) / 2)


@pytest.mark.parametrize("seed", SEEDS)
def test_betweenness_matches_brute_force(seed: int) -> None:
    nx_graph = random_digraph(seed, n=30, p=0.12)
    g = from_networkx(nx_graph)
    for source in (0, 5, 17):
        expected = brute_force_dependencies(nx_graph, source)
        assert np.allclose(betweenness_one_source(g, source), expected, rtol=1e-12)


def test_betweenness_summed_over_sources_matches_networkx() -> None:
    nx_graph = random_digraph(4, n=40, p=0.08)
    g = from_networkx(nx_graph)
    total = np.zeros(g.num_vertices)
    for source in range(g.num_vertices):
        dependencies = betweenness_one_source(g, source)
        dependencies[source] = 0  # networkx leaves out the source's own dependency
        total += dependencies
    expected = nx.betweenness_centrality(nx_graph, normalized=False)
    assert np.allclose(total, [expected[v] for v in range(g.num_vertices)])


def test_check_bc() -> None:
    g = from_networkx(random_digraph(1, n=30, p=0.12))
    dependencies = betweenness_one_source(g, 3)
    assert check_bc(g, 3, dependencies.astype(np.float32)) is None
    wrong = dependencies.copy()
    vertex = int(np.argmax(wrong))
    wrong[vertex] += 0.5
    message = check_bc(g, 3, wrong)
    assert message is not None and message.startswith(
        f"1 vertex has a wrong dependency; first: vertex {vertex}"
    )


def test_check_bc_names_path_counts_that_overflow_their_integers() -> None:
    """On a 32x32 grid a corner has C(62, 31) ~ 4.65e17 shortest paths from the
    opposite one: an `int` path-count vector wraps, so the check says that
    rather than listing wrong dependencies; a 5x5 grid (70 paths) is checked."""
    side = 32
    grid = nx.convert_node_labels_to_integers(nx.grid_2d_graph(side, side), ordering="sorted")
    g = from_networkx(grid)
    dependencies = betweenness_one_source(g, 0)
    assert check_bc(g, 0, dependencies, counts=("num_paths", 2**63 - 1)) is None
    message = check_bc(g, 0, dependencies, counts=("num_paths", 2**31 - 1))
    assert message is not None and message.startswith(
        f"the shortest-path counts overflow 'num_paths': vertex {side * side - 1} has "
        "4.65e+17 shortest paths from 0, more than 'num_paths' holds (2147483647)"
    )
    small = from_networkx(nx.convert_node_labels_to_integers(nx.grid_2d_graph(5, 5), ordering="sorted"))
    assert check_bc(small, 0, betweenness_one_source(small, 0), counts=("n", 2**31 - 1)) is None


def test_references_on_a_grid_with_long_paths() -> None:
    side = 40
    grid = nx.grid_2d_graph(side, side)
    g = from_networkx(nx.convert_node_labels_to_integers(grid, ordering="sorted"))
    levels = bfs_levels(g, 0)
    corners = [(row, col) for row, col in itertools.product((0, side - 1), repeat=2)]
    assert [int(levels[row * side + col]) for row, col in corners] == [0, 39, 39, 78]
    assert check_bfs_parent(g, 0, bfs_parents(g, 0)) is None


def test_a_graph_computes_each_reference_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The autotuner checks every candidate against one reference: the second
    check of a graph reuses the first's result (read-only, so no check can spoil it)."""
    from scipy.sparse import csgraph

    from gir.runtime import reference

    g = from_networkx(random_digraph(7))
    calls: list[int] = []
    dijkstra = csgraph.dijkstra
    monkeypatch.setattr(csgraph, "dijkstra", lambda *a, **k: calls.append(1) or dijkstra(*a, **k))
    expected = reference.sssp_distances(g, 0)
    assert reference.check_sssp(g, 0, expected) is None
    assert reference.check_sssp(g, 0, expected.copy()) is None
    assert len(calls) == 1 and not expected.flags.writeable
    assert reference.check_sssp(from_networkx(random_digraph(7)), 0, expected) is None and len(calls) == 2


# --------------------------------------------------------------------------------------
# Triangle counting
# --------------------------------------------------------------------------------------


def test_triangles_at_counts_each_triangle_at_its_largest_vertex() -> None:
    """Two triangles sharing edge 1-2 ({0,1,2}, {1,2,3}) and a pendant 3-4."""
    pairs = [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (3, 4)]
    edges = pairs + [(b, a) for a, b in pairs]
    g = from_edges(5, np.array([a for a, _ in edges]), np.array([b for _, b in edges]))
    assert triangles_at(g).tolist() == [0, 0, 1, 1, 0]
    assert triangle_total(g) == 2
    assert check_triangles(g, np.array([0, 0, 1, 1, 0], np.uint64)) is None
    assert check_triangles(g, np.array([0, 0, 2, 0, 0], np.uint64)) == (
        "2 vertices have a wrong triangle count; first: vertex 2 has triangle count 2, expected 1"
    )


def test_triangles_follow_graphits_bound_with_self_loops() -> None:
    """GraphIt counts w <= dst: an edge s->d (d < s) to a looped d counts w = d."""
    edges = [(0, 0), (0, 1), (1, 0)]
    g = from_edges(2, np.array([a for a, _ in edges]), np.array([b for _, b in edges]))
    assert triangles_at(g).tolist() == [0, 1]
    assert triangle_total(g) == 1


@pytest.mark.parametrize("seed", SEEDS)
def test_triangle_total_matches_networkx(seed: int) -> None:
    undirected = nx.gnp_random_graph(70, 0.15, seed=seed)
    g = from_networkx(undirected.to_directed())
    expected = sum(nx.triangles(undirected).values()) // 3
    assert int(triangles_at(g).sum()) == expected == triangle_total(g)
