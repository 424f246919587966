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
import operator
from collections.abc import Callable, Hashable, Iterator
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

INT32_MAX = int(np.iinfo(np.int32).max)


def single_source_shortest_path_length(
    G: GirGraph, source: Hashable, cutoff: Any = None
) -> dict[Hashable, int]:
    """Edges on a shortest path from `source` to each node it reaches (at most
    `cutoff`), in NetworkX's discovery order: `nx.single_source_shortest_path_length`."""
    root = G.node_of(source, f"Source {source} is not in G")
    threshold = max(1, len(G) // PULL_FRACTION)
    levels = program("bfs_levels", G).run(G.loaded(), root, threshold)["level"]
    limit = math.inf if cutoff is None else cutoff
    _, children = tree_edges(G.src, G.dst, levels, _levels_expanded(levels, lambda level: limit > level))
    lengths = {source: 0}
    lengths.update((G.nodes[vertex], int(levels[vertex])) for vertex in children.tolist())
    return lengths


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
    if not 0 < (len(G) if depth_limit is None else depth_limit):
        return
    threshold = max(1, len(G) // PULL_FRACTION)
    levels = program("bfs_levels", G).run(G.loaded(reverse=backwards), root, threshold)["level"]
    src, dst = G.reverse_edges() if backwards else (G.src, G.dst)
    limit = len(G) if depth_limit is None else depth_limit
    parents, children = tree_edges(src, dst, levels, _levels_expanded(levels, lambda depth: depth < limit))
    nodes = G.nodes
    yield from zip(map(nodes.__getitem__, parents.tolist()), map(nodes.__getitem__, children.tolist()))


def _levels_expanded(levels: np.ndarray, goes_on: Callable[[int], bool]) -> int:
    """How many levels of BFS `levels` (-1: unreached) NetworkX's searches
    expand: level L while it has vertices, some vertex is unseen and
    `goes_on(L)`, NetworkX's own comparison of L with the cutoff or depth
    limit, made in Python as NetworkX makes it (NaN stops at once, a str raises
    TypeError). The children of the expanded levels are reported."""
    sizes = np.bincount(levels[levels >= 0])
    unseen = levels.size - np.cumsum(sizes)
    level = 0
    while level < sizes.size and goes_on(level):
        level += 1
        if level == sizes.size or unseen[level] == 0:
            break
    return level


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
    G: GirGraph, source: Hashable, cutoff: Any = None, weight: str = "weight"
) -> dict[Hashable, int | float]:
    """Least total `weight` of a path from `source` to each node it reaches (at
    most `cutoff`), in the order NetworkX's Dijkstra settles them:
    `nx.single_source_dijkstra_path_length`. Weights must be non-negative
    integers (ints, bools or integral floats); a multigraph's parallel edges
    weigh their least weight, as in NetworkX."""
    hash(source)  # NetworkX puts it in a set first: an unhashable source raises TypeError
    root = G.node_of(source, f"Node {source} not found in graph")
    odd = G.odd_edges.get(weight, {})
    if odd and (G.multigraph or not set(odd) <= {str, type(None)}):
        kind = next(iter(odd)).__name__
        raise NotImplementedError(f"gir's SSSP reads numbers; '{weight}' has {kind} values")
    usable = ~np.logical_or.reduce(list(odd.values())) if odd else None  # None hides an edge, a str raises
    if not G.integer_weights(weight, usable):
        raise NotImplementedError(
            f"gir's SSSP takes non-negative integer weights whose sum fits in int32; '{weight}' has others "
            "(fractional, negative, NaN or too large)"
        )
    weights = G.attributes[weight] if usable is None else np.where(usable, G.attributes[weight], 0)
    mean = float(weights.mean()) if weights.size else 1.0
    scale = ROAD_DELTA_FACTOR if schedule_shape(G) == "high_diameter" else 1
    delta = max(1, round(mean * scale))
    least = G.parallel_combined(weights, np.minimum)  # NetworkX's multigraph weight: the least
    if usable is not None:
        loaded = G.loaded(weight, integers=("numbers", least), edges=usable)
        least = np.where(usable, least, 4 * UNREACHED)  # never on a shortest path
    else:
        loaded = G.loaded(weight, integers=("least", least)) if G.multigraph else G.loaded(weight)
    dist = program("sssp", G).run(loaded, root, delta)["dist"].astype(np.int64)
    kept = dist != UNREACHED
    kept[root] = False
    bound = _distance_bound(dist[kept], cutoff, bool(np.any(G.src == root)))
    if bound is not None:
        kept &= dist <= bound
    kept[root] = True
    text = odd.get(str)
    if text is not None and np.any(text & kept[G.src]):  # NetworkX adds it to a length
        raise TypeError("unsupported operand type(s) for +: 'int' and 'str'")
    order, parent_edge = settle_order(G.src, G.dst, least.astype(np.int64), dist, root, kept)
    float_edges = G.float_edges.get(weight)
    if float_edges is not None and G.multigraph and weights.size:
        # NetworkX's min() keeps the first least weight of parallel edges, with its type
        group = G.parallel_groups()
        least_edges = np.flatnonzero(weights == least)
        _, first = np.unique(group[least_edges], return_index=True)
        float_edges = float_edges[least_edges[first]][group]
    floats = np.zeros(len(G), dtype=bool)
    if float_edges is not None and float_edges.all():
        floats[:] = True
    elif float_edges is not None:
        for vertex, edge in zip(order[1:].tolist(), parent_edge[order[1:]].tolist()):
            floats[vertex] = floats[G.src[edge]] or float_edges[edge]
    lengths: dict[Hashable, int | float] = {source: 0}  # NetworkX's start: an int whatever the weights
    nodes = G.nodes
    lengths.update(
        (nodes[vertex], float(dist[vertex]) if floats[vertex] else int(dist[vertex]))
        for vertex in order[1:].tolist()
    )
    return lengths


def _distance_bound(distances: np.ndarray, cutoff: Any, relaxes: bool) -> int | None:
    """The greatest distance NetworkX keeps under `cutoff` (None: all), found by
    comparing `distance > cutoff` as NetworkX does, in Python, by bisection over
    the distances found (NaN keeps all; a str raises NetworkX's TypeError where
    NetworkX compares at all: when the source has an edge, `relaxes`)."""
    if cutoff is None:
        return None
    values = np.unique(distances).tolist()
    if not values:
        if relaxes:
            _ = 0 > cutoff  # NetworkX compares the first relaxed edge's length
        return None
    low, high = 0, len(values)  # values[:low] are kept, values[high:] are not
    while low < high:
        middle = (low + high) // 2
        if values[middle] > cutoff:
            high = middle
        else:
            low = middle + 1
    return None if low == len(values) else (values[low - 1] if low else -1)


def settle_order(
    src: np.ndarray, dst: np.ndarray, weights: np.ndarray, dist: np.ndarray, root: int, kept: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The vertices `kept` (distances `dist` from `root` over edges `src -> dst`
    in adjacency order, see `tree_edges`) in the order NetworkX's Dijkstra
    settles them, and for each vertex the edge whose relaxation gave it its
    distance (its parent edge; -1 for the root and vertices not kept).

    NetworkX pops (distance, push counter): a vertex is pushed with its final
    distance by the first settled vertex with a tight edge to it (`dist[v] +
    w == dist[u]`), in that vertex's neighbour order. So vertices are settled in
    rounds: once the settled vertices have pushed their tight neighbours, every
    pushed vertex no farther than the nearest vertex not yet pushed comes next,
    ordered by (distance, its pusher's rank, the edge's position), since a later
    push has a later counter. Zero weights (a pusher as far as its child) fit:
    the child waits for the next round."""
    n = dist.size
    tight = np.flatnonzero(kept[src] & kept[dst] & (src != dst) & (dst != root))
    tight = tight[dist[src[tight]] + weights[tight] == dist[dst[tight]]]
    starts = np.searchsorted(src[tight], np.arange(n + 1))
    rank = np.full(n, -1, dtype=np.int64)
    parent_edge = np.full(n, -1, dtype=np.int64)
    pushed = np.zeros(n, dtype=bool)
    pushed[root] = True
    rank[root] = 0
    waiting = np.flatnonzero(kept)
    waiting = waiting[waiting != root]
    waiting = waiting[np.argsort(dist[waiting], kind="stable")]  # the vertices to push, nearest first
    first_unpushed = 0
    pending = np.zeros(0, dtype=np.int64)
    settled = [np.array([root], dtype=np.int64)]
    count = 1
    while True:
        fresh = settled[-1]
        edges = _edges_of(fresh, starts, tight)
        edges = edges[~pushed[dst[edges]]]
        # the first push into each vertex: the least (pusher's rank, edge position)
        edges = edges[np.lexsort((edges, rank[src[edges]]))]
        heads, first = np.unique(dst[edges], return_index=True)
        pushed[heads] = True
        parent_edge[heads] = edges[first]
        pending = np.concatenate([pending, heads])
        if pending.size == 0:
            break
        while first_unpushed < waiting.size and pushed[waiting[first_unpushed]]:
            window = pushed[waiting[first_unpushed : first_unpushed + 1024]]
            first_unpushed += int(np.argmin(window)) if not window.all() else window.size
        nearest = dist[waiting[first_unpushed]] if first_unpushed < waiting.size else np.iinfo(np.int64).max
        ready = dist[pending] <= nearest
        now, pending = pending[ready], pending[~ready]
        assert now.size, "the nearest unpushed vertex's path passes a pending one"
        pusher_rank = rank[src[parent_edge[now]]]
        now = now[np.lexsort((parent_edge[now], pusher_rank, dist[now]))]
        rank[now] = np.arange(count, count + now.size)
        count += now.size
        settled.append(now)
    return np.concatenate(settled), parent_edge


def _edges_of(vertices: np.ndarray, starts: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """The entries of `edges` (grouped by source, `starts` indexing each source's
    first) whose source is one of `vertices`, in the order of `vertices`."""
    begin, end = starts[vertices], starts[vertices + 1]
    counts = end - begin
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.repeat(begin - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
    return edges[np.arange(total) + offsets]


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
    spread uniformly, stop when the L1 change is below `len(G) * tol`), along
    edges weighted by `weight` (a multigraph's parallel edges add up):
    `nx.pagerank` without personalization, nstart and dangling."""
    import networkx as nx

    if len(G) == 0:
        return {}
    iterations = min(max(operator.index(max_iter), 0), INT32_MAX)  # range(max_iter): TypeError; 2**31 never end
    if weight is not None and G.odd_edges.get(weight):
        kind = next(iter(G.odd_edges[weight])).__name__
        raise NotImplementedError(f"gir's PageRank reads numbers; '{weight}' has {kind} values")
    weights = np.ones(G.src.size) if weight is None else G.attributes[weight]
    if not G.multigraph and _uniform_positive(weights):
        result = program("pagerank", G).run(G.loaded(), float(alpha), iterations, float(tol))
    else:
        # NetworkX's matrix adds up parallel edges; gir's graph keeps one of them
        scaled = _as_integers(G.parallel_combined(weights, np.add))
        if scaled is None:
            raise NotImplementedError(
                f"gir's PageRank takes finite weights that a power of two scales into int32 integers; "
                f"'{weight}' has others"
            )
        loaded = G.loaded(weight, integers=("pagerank", scaled))
        result = program("pagerank_weighted", G).run(loaded, float(alpha), iterations, float(tol))
    if not result["sums"][2] < len(G) * tol:  # the program's own test
        raise nx.PowerIterationFailedConvergence(max_iter)
    return dict(zip(G.nodes, map(float, result["rank"])))


def _uniform_positive(values: np.ndarray) -> bool:
    """Whether every edge has the same positive weight (PageRank's normalisation
    then makes it the unweighted PageRank)."""
    return values.size == 0 or bool(values[0] > 0 and np.all(values == values[0]))


def _as_integers(values: np.ndarray) -> np.ndarray | None:
    """`values` times the greatest power of two (2**-k included) that keeps
    them all in int32, if they are then integers whose absolute sum a double
    holds exactly; else None. PageRank divides each weight by its vertex's
    total: an exact scaling by a power of two changes no quotient."""
    largest = float(np.abs(values).max(initial=0.0))
    if not np.all(np.isfinite(values)):
        return None
    if largest == 0:
        return values.astype(np.int64)
    power = math.floor(math.log2(INT32_MAX / largest))
    scaled = np.ldexp(values, power)
    if np.abs(scaled).max() > INT32_MAX:  # log2's rounding
        scaled = np.ldexp(values, power - 1)
    if not np.all(scaled == np.round(scaled)) or np.abs(scaled).sum() >= 2.0**53:
        return None
    return scaled.astype(np.int64)


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
