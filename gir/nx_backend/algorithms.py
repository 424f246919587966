"""NetworkX's algorithms as gir runs them: same signatures, same results.

Each function takes a `GirGraph` (NetworkX's dispatcher converts the user's graph
first) and NetworkX's own arguments, runs a shipped GraphIt program, and returns
what NetworkX returns. Arguments that gir does not support are refused by
`interface.can_run` before conversion, or here with `NotImplementedError` where
the graph's data decides (NetworkX then runs its own implementation, or says
that gir does not implement the call when `backend="gir"` was asked for).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterator
from typing import Any

import numpy as np

from gir.nx_backend.graph import GirGraph
from gir.nx_backend.programs import program, schedule_shape

UNREACHED = int(np.iinfo(np.int32).max)
"""The distance the SSSP program leaves on vertices it does not reach."""

PULL_FRACTION = 20
"""BFS pulls (power-law schedule) once a frontier holds 1/PULL_FRACTION of the vertices."""

ROAD_DELTA_FACTOR = 8
"""Delta-stepping buckets are this many mean edge weights wide on high-diameter
graphs (few vertices per bucket otherwise), one mean weight on power-law graphs."""

PPB, PPT = 10**9, 10**12
"""PageRank's damping and tolerance reach the program as integers in these units."""


def single_source_shortest_path_length(
    G: GirGraph, source: Hashable, cutoff: int | None = None
) -> dict[Hashable, int]:
    """Edges on a shortest path from `source` to each node it reaches (at most
    `cutoff`), nearest first: `nx.single_source_shortest_path_length`."""
    root = G.node_of(source, f"Source {source} is not in G")
    threshold = max(1, len(G) // PULL_FRACTION)
    levels = program("bfs_levels", G).run(G.loaded(), root, threshold)["level"]
    reached = np.flatnonzero(levels >= 0)
    if cutoff is not None:
        reached = reached[levels[reached] <= cutoff]
    order = reached[np.argsort(levels[reached], kind="stable")]
    return {G.nodes[vertex]: int(levels[vertex]) for vertex in order}


def bfs_edges(
    G: GirGraph,
    source: Hashable,
    reverse: bool = False,
    depth_limit: float | None = None,
    sort_neighbors: Any = None,
) -> Iterator[tuple[Hashable, Hashable]]:
    """The edges of the breadth-first tree from `source` (following a directed
    graph's edges backwards when `reverse`, down to `depth_limit` levels), in
    the order NetworkX's own search yields them: `nx.bfs_edges` without
    `sort_neighbors`. The levels come from the GPU, the order from `tree_edges`."""
    backwards = bool(reverse) and G.is_directed()
    root = _search_root(G, source)
    if depth_limit is not None and not depth_limit > 0:
        return
    threshold = max(1, len(G) // PULL_FRACTION)
    levels = program("bfs_levels", G).run(G.loaded(reverse=backwards), root, threshold)["level"]
    src, dst = G.reverse_edges() if backwards else (G.src, G.dst)
    parents, children = tree_edges(src, dst, levels, depth_limit)
    nodes = G.nodes
    yield from zip(map(nodes.__getitem__, parents.tolist()), map(nodes.__getitem__, children.tolist()))


def _search_root(G: GirGraph, source: Hashable) -> int:
    """The vertex of `source`, or the error NetworkX's `G.neighbors` raises."""
    import networkx as nx

    if source not in G.index:  # an unhashable source raises TypeError, as in NetworkX
        kind = "digraph" if G.is_directed() else "graph"
        raise nx.NetworkXError(f"The node {source} is not in the {kind}.")
    return G.index[source]


def tree_edges(
    src: np.ndarray, dst: np.ndarray, levels: np.ndarray, depth_limit: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The breadth-first tree given by BFS `levels` (-1: unreached) over edges
    `src -> dst` in adjacency order (grouped by `src`, each group in neighbour
    order), as `(parents, children)` vertex arrays in NetworkX's discovery order.

    NetworkX's queue holds each level in discovery order; a vertex of level L+1
    is discovered by the first vertex of level L, in that order, that has it as
    a neighbour, and level L+1 is ordered by (its parent's rank in level L,
    its position among the parent's neighbours). So each level is ranked from
    the one above by one stable sort of the edges between them: by the rank of
    their source, ties kept in adjacency order. Only children of levels below
    `depth_limit` are kept (NetworkX's `depth < depth_limit`)."""
    src_level = levels[src]
    tree = (src_level >= 0) & (levels[dst] == src_level + 1)
    if depth_limit is not None:
        tree &= src_level < depth_limit
    candidates = np.flatnonzero(tree)
    # the candidate edges grouped by the level of their source, in adjacency order
    candidates = candidates[np.argsort(src_level[candidates], kind="stable")]
    grouped = src_level[candidates]
    bounds = np.searchsorted(grouped, np.arange(grouped[-1] + 2 if grouped.size else 0))
    rank = np.zeros(levels.size, dtype=np.int64)  # a vertex's position in its level
    parents: list[np.ndarray] = []
    children: list[np.ndarray] = []
    for first, last in itertools.pairwise(bounds):
        edges = candidates[first:last]
        edges = edges[np.argsort(rank[src[edges]], kind="stable")]
        _, discovery = np.unique(dst[edges], return_index=True)
        discovery.sort()  # the first edge into each child, in the order they are met
        level_children = dst[edges[discovery]]
        rank[level_children] = np.arange(level_children.size)
        parents.append(src[edges[discovery]])
        children.append(level_children)
    empty = np.zeros(0, dtype=np.int64)
    return np.concatenate(parents or [empty]), np.concatenate(children or [empty])


def bfs_tree(
    G: GirGraph,
    source: Hashable,
    reverse: bool = False,
    depth_limit: float | None = None,
    sort_neighbors: Any = None,
) -> Any:
    """The breadth-first tree from `source` as a NetworkX `DiGraph`, its nodes
    and edges added in NetworkX's order: `nx.bfs_tree`."""
    import networkx as nx

    tree = nx.DiGraph()
    tree.add_node(source)
    tree.add_edges_from(bfs_edges(G, source, reverse=reverse, depth_limit=depth_limit))
    return tree


def bfs_predecessors(
    G: GirGraph, source: Hashable, depth_limit: float | None = None, sort_neighbors: Any = None
) -> Iterator[tuple[Hashable, Hashable]]:
    """`(node, its parent)` for each node of the breadth-first tree from
    `source` but the source, in discovery order: `nx.bfs_predecessors`."""
    for parent, child in bfs_edges(G, source, depth_limit=depth_limit):
        yield child, parent


def bfs_successors(
    G: GirGraph, source: Hashable, depth_limit: float | None = None, sort_neighbors: Any = None
) -> Iterator[tuple[Hashable, list[Hashable]]]:
    """`(node, its children)` for each node of the breadth-first tree from
    `source` with children, in discovery order (`(source, [])` when it has
    none): `nx.bfs_successors`."""
    parent, children = source, []
    for tail, head in bfs_edges(G, source, depth_limit=depth_limit):
        if tail == parent:
            children.append(head)
            continue
        yield parent, children
        parent, children = tail, [head]
    yield parent, children


def single_source_dijkstra_path_length(
    G: GirGraph, source: Hashable, cutoff: float | None = None, weight: str = "weight"
) -> dict[Hashable, int | float]:
    """Least total `weight` of a path from `source` to each node it reaches (at
    most `cutoff`), nearest first: `nx.single_source_dijkstra_path_length`.
    Weights must be non-negative integers (ints or integral floats)."""
    root = G.node_of(source, f"Node {source} not found in graph")
    if not G.integer_weights(weight):
        raise NotImplementedError("gir's SSSP takes non-negative integer weights whose sum fits in int32")
    weights = G.attributes[weight]
    mean = float(weights.mean()) if weights.size else 1.0
    scale = ROAD_DELTA_FACTOR if schedule_shape(G) == "high_diameter" else 1
    delta = max(1, round(mean * scale))
    dist = program("sssp", G).run(G.loaded(weight), root, delta)["dist"]
    reached = np.flatnonzero(dist != UNREACHED)
    if cutoff is not None:
        reached = reached[dist[reached] <= cutoff]
    order = reached[np.argsort(dist[reached], kind="stable")]
    number = float if weight in G.float_attributes else int
    lengths: dict[Hashable, int | float] = {source: 0}  # NetworkX's start: an int whatever the weights
    lengths.update((G.nodes[vertex], number(dist[vertex])) for vertex in order if vertex != root)
    return lengths


def connected_components(G: GirGraph) -> Iterator[set[Hashable]]:
    """The node sets of the components of an undirected graph, in the order of
    their first node in `G`: `nx.connected_components`."""
    import networkx as nx

    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    if len(G) == 0:
        return iter(())
    comp = program("components", G).run(G.loaded())["comp"]
    return _components(G, comp)


def _components(G: GirGraph, comp: np.ndarray) -> Iterator[set[Hashable]]:
    """The node sets of equal labels in `comp`, first-seen label first."""
    labels, first, inverse = np.unique(comp, return_index=True, return_inverse=True)
    members: list[list[Hashable]] = [[] for _ in labels]
    for vertex, group in enumerate(inverse):
        members[group].append(G.nodes[vertex])
    for group in np.argsort(first, kind="stable"):
        yield set(members[group])


def pagerank(
    G: GirGraph,
    alpha: float = 0.85,
    personalization: Any = None,
    max_iter: int = 100,
    tol: float = 1.0e-6,
    nstart: Any = None,
    weight: str | None = "weight",
    dangling: Any = None,
) -> dict[Hashable, float]:
    """PageRank by NetworkX's power iteration (uniform teleport, dangling rank
    spread uniformly, stop when the L1 change is below `len(G) * tol`):
    `nx.pagerank` without personalization, nstart and dangling, on graphs whose
    `weight` is absent or the same positive value on every edge."""
    import networkx as nx

    if weight is not None and not _uniform_positive(G.attributes[weight]):
        raise NotImplementedError("gir's PageRank takes graphs whose edges all weigh the same")
    damping, tolerance = _as_units(alpha, PPB, "alpha"), _as_units(tol, PPT, "tol")
    if len(G) == 0:
        return {}
    result = program("pagerank", G).run(G.loaded(), damping, max_iter, tolerance)
    sums = result["sums"]
    if not sums[2] < tolerance * 1e-12 * len(G):  # the program's own test
        raise nx.PowerIterationFailedConvergence(max_iter)
    return dict(zip(G.nodes, map(float, result["rank"])))


def _uniform_positive(values: np.ndarray) -> bool:
    """Whether every edge has the same positive weight (PageRank's normalisation
    then makes it the unweighted PageRank)."""
    return values.size == 0 or bool(values[0] > 0 and np.all(values == values[0]))


def _as_units(value: float, units: int, name: str) -> int:
    """`value` as a whole number of 1/`units`, if it is one (and fits in int32)."""
    scaled = round(value * units)
    if not 0 <= scaled <= np.iinfo(np.int32).max or abs(scaled - value * units) > 1e-3:
        raise NotImplementedError(f"gir's PageRank takes {name} in [0, 2.1e9/{units:.0e}] in steps of {1 / units:.0e}")
    return scaled


def betweenness_centrality(
    G: GirGraph,
    k: int | None = None,
    normalized: bool = True,
    weight: str | None = None,
    endpoints: bool = False,
    seed: Any = None,
) -> dict[Hashable, float]:
    """Shortest-path betweenness of every node, from all sources or from `k`
    sources sampled with `seed` as NetworkX samples them, rescaled as NetworkX
    rescales: `nx.betweenness_centrality` on unweighted graphs, endpoints excluded."""
    if len(G) == 0:
        return {}
    if k == len(G):
        k = None  # NetworkX's own shortcut: every node is a source
    threshold = max(1, len(G) // PULL_FRACTION)
    run = program("betweenness", G).run
    if k is None:
        sources = None
        total = run(G.loaded(), 0, len(G), threshold)["total"].copy()
    else:
        sources = [G.index[node] for node in seed.sample(list(G.nodes), k)]
        total = np.zeros(len(G))
        for source in sources:  # a run per source: gir programs take numbers, not lists
            total += run(G.loaded(), source, source + 1, threshold)["total"]
    scale = _betweenness_scale(len(G), normalized, G.is_directed(), None if sources is None else len(sources))
    if sources is not None:
        total[sources] *= scale[0]
        outside = np.ones(len(G), dtype=bool)
        outside[sources] = False
        total[outside] *= scale[1]
    else:
        total *= scale[1]
    return dict(zip(G.nodes, map(float, total)))


def _betweenness_scale(n: int, normalized: bool, directed: bool, sampled: int | None) -> tuple[float, float]:
    """NetworkX's rescaling factors (endpoints excluded) for the sampled sources
    and for the other nodes: dependencies sum over ordered (s, t) pairs, so
    normalizing divides by the pairs that could pass through a node, an
    undirected graph counts each pair once, and k samples stand for all sources
    (a source is never its own interior, hence `sampled - 1` for the sources)."""
    pairs = n - 1
    if pairs < 2:
        return 1.0, 1.0
    sources = pairs if sampled is None else sampled
    correction = 1 if directed else 2
    if sampled is None:
        scale = 1 / (sources * (pairs - 1)) if normalized else pairs / (sources * correction)
        return scale, scale
    if normalized:
        on_source = 1 / ((sources - 1) * (pairs - 1)) if sources > 1 else math.nan
        return on_source, 1 / (sources * (pairs - 1))
    on_source = pairs / ((sources - 1) * correction) if sources > 1 else math.nan
    return on_source, pairs / (sources * correction)
