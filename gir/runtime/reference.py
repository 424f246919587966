"""CPU reference algorithms and result checkers for the GraphIt benchmark programs.

The references follow GraphIt's conventions (BFS parents, SSSP with INT32_MAX for
unreachable vertices, fixed-iteration PageRank, Brandes dependencies from one source).
Every `check_*` function returns None when a result is right, or a one-line message
that names how many vertices are wrong and explains the first of them.

scipy is imported by the references that use it, not with the module: every gir
tool imports this module (through `gir.api`), and importing scipy.sparse costs
each start about 0.3 s.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from gir.runtime.graph import INT32_MAX, Graph, GraphError, native

if TYPE_CHECKING:
    from scipy import sparse

UNREACHABLE_DISTANCE = INT32_MAX  # GraphIt's "infinity" for SSSP
DEFAULT_RTOL = 1e-4
DEFAULT_ATOL = 1e-6


def _once_per_graph(g: Graph, key: str, compute: Callable[[], np.ndarray]) -> np.ndarray:
    """`compute()` made once per graph and key, read-only: the autotuner checks
    every candidate schedule against the same reference result."""

    def made() -> np.ndarray:
        result = compute()
        result.setflags(write=False)
        return result

    return g.derived(f"reference:{key}", made)


# --------------------------------------------------------------------------------------
# BFS
# --------------------------------------------------------------------------------------


NATIVE_MIN_EDGES = 1 << 24
"""From this many edges on, the BFS levels and the edge look-ups of a BFS
check run in C++ on every core (`native.bfs_levels`, `native.has_edges`):
numpy's take minutes and several times the graph's memory on billions of edges."""


def bfs_levels(g: Graph, source: int) -> np.ndarray:
    """The BFS depth of every vertex from `source` along out-edges (int32, -1 when unreachable)."""
    return _once_per_graph(g, f"bfs:{source}", lambda: _bfs_levels(g, source))


def _bfs_levels(g: Graph, source: int) -> np.ndarray:
    """`bfs_levels`, in C++ from `NATIVE_MIN_EDGES` on, else with numpy."""
    if g.num_edges < NATIVE_MIN_EDGES:
        return _bfs(g, source)[0]
    _check_source(g, source)
    row_ptr, col_idx, _ = g.csr()
    return native.bfs_levels(row_ptr, col_idx, source)


def check_bfs_parent(g: Graph, source: int, parent: np.ndarray) -> str | None:
    """Check a BFS parent array (-1 for unreached vertices, parent[source] == source).

    It is valid when the reached vertices are exactly those reachable from `source` and
    every other reached vertex v has an edge parent[v]->v with level[parent[v]] == level[v]-1.
    """
    _check_source(g, source)
    problem = _shape_problem(parent, g.num_vertices, "parent", integers=True)
    if problem:
        return problem
    parent = np.asarray(parent, dtype=np.int64)
    if parent[source] != source:
        return f"parent[{source}] of the source is {parent[source]}, expected {source}"
    levels = bfs_levels(g, source)
    vertices = np.arange(g.num_vertices)
    reachable, reached = levels >= 0, parent != -1
    checked = reachable & reached & (vertices != source)
    in_range = (parent >= 0) & (parent < g.num_vertices)
    parent_ids = np.where(in_range, parent, 0)
    problems = [
        (reachable & ~reached, lambda v: "is reachable but has no parent (-1)"),
        (
            ~reachable & reached,
            lambda v: f"is unreachable from {source} but has parent {parent[v]}",
        ),
        (checked & ~in_range, lambda v: f"has parent {parent[v]}, which is not a vertex"),
        (
            checked & in_range & ~_has_edges(g, parent_ids, vertices),
            lambda v: f"has parent {parent[v]} but there is no edge {parent[v]}->{v}",
        ),
        (
            checked & in_range & (levels[parent_ids] != levels - 1),
            lambda v: f"at level {levels[v]} has parent {parent[v]} at level {levels[parent[v]]}",
        ),
    ]
    return _first_problem(problems, "vertex has a bad BFS parent", "vertices have a bad BFS parent")


def _bfs(g: Graph, source: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """BFS levels (int32, -1 when unreachable) and the frontier (vertex array) of every level."""
    _check_source(g, source)
    row_ptr, col_idx, _ = g.csr()
    levels = np.full(g.num_vertices, -1, dtype=np.int32)
    claims = np.empty(g.num_vertices, dtype=np.int64)
    frontier = np.array([source], dtype=np.int64)
    levels[source] = 0
    frontiers = []
    while frontier.size:
        frontiers.append(frontier)
        _, neighbours = _out_edges(row_ptr, col_idx, frontier)
        fresh = _distinct(neighbours[levels[neighbours] < 0], claims)
        levels[fresh] = len(frontiers)
        frontier = fresh
    return levels, frontiers


def _out_edges(
    row_ptr: np.ndarray, col_idx: np.ndarray, vertices: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The (source, destination) pairs of all out-edges of `vertices`."""
    starts = row_ptr[vertices].astype(np.int64)
    counts = row_ptr[vertices + 1] - starts
    first_slot = np.cumsum(counts) - counts
    positions = np.repeat(starts - first_slot, counts) + np.arange(int(counts.sum()))
    return np.repeat(vertices, counts), col_idx[positions].astype(np.int64)


def _distinct(vertices: np.ndarray, claims: np.ndarray) -> np.ndarray:
    """`vertices` without repeats (in some order); `claims` (one slot per vertex) is scratch."""
    slots = np.arange(vertices.size)
    claims[vertices] = slots
    return vertices[claims[vertices] == slots]


def _has_edges(g: Graph, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Whether each edge src[i]->dst[i] exists in `g`."""
    if g.num_edges == 0:
        return np.zeros(src.size, dtype=bool)
    if g.num_edges >= NATIVE_MIN_EDGES:
        row_ptr, col_idx, _ = g.csr()
        return native.has_edges(row_ptr, col_idx, src, dst)
    edge_keys = (g.src.astype(np.int64) << 32) | g.dst
    queries = (src.astype(np.int64) << 32) | dst
    positions = np.minimum(np.searchsorted(edge_keys, queries), edge_keys.size - 1)
    return edge_keys[positions] == queries


# --------------------------------------------------------------------------------------
# SSSP
# --------------------------------------------------------------------------------------


def sssp_distances(g: Graph, source: int) -> np.ndarray:
    """Shortest-path distances from `source` (int64; INT32_MAX when unreachable).

    An unweighted graph has unit weights. Weights must not be negative.
    """
    _check_source(g, source)
    if g.weights is not None and g.num_edges and g.weights.min() < 0:
        raise GraphError("the SSSP reference needs non-negative edge weights")

    def distances() -> np.ndarray:
        from scipy.sparse import csgraph

        found = csgraph.dijkstra(_adjacency(g, weighted=True), directed=True, indices=source)
        return np.where(np.isfinite(found), found, UNREACHABLE_DISTANCE).astype(np.int64)

    return _once_per_graph(g, f"sssp:{source}", distances)


def check_sssp(
    g: Graph,
    source: int,
    dist: np.ndarray,
    start_distance: int = 0,
    unreached: tuple[int, ...] = (UNREACHABLE_DISTANCE,),
) -> str | None:
    """Check SSSP distances exactly against the reference.

    `start_distance` is what the program stores at the source before relaxing
    edges (GraphIt's `SP[14] = 14`): every reached vertex is that much further.
    `unreached` are the values the program leaves at vertices it never reaches
    (GraphIt's closeness centrality fills with 21474836, then stores 0 there).
    """
    problem = _shape_problem(dist, g.num_vertices, "distance", integers=True)
    if problem:
        return problem
    expected = _offset_distances(sssp_distances(g, source), start_distance)
    got = _as_unreached(np.asarray(dist, dtype=np.int64), expected == UNREACHABLE_DISTANCE, unreached)
    return _distance_problems(got, expected, got != expected, unreached=unreached)


def check_ppsp(
    g: Graph,
    source: int,
    target: int,
    dist: np.ndarray,
    start_distance: int = 0,
    unreached: tuple[int, ...] = (UNREACHABLE_DISTANCE,),
) -> str | None:
    """Check the distances of a point-to-point search that stops once `target`'s
    distance is final (GraphIt's `while (pq.finishedNode(target) == false)`).

    Exact are the target's distance and every distance up to it: a
    delta-stepping search has finished every bucket up to the target's, so
    every vertex at most as far as the target is settled (all of them when the
    target is unreachable: the queue then runs dry). A vertex further away may
    hold any upper bound (a path's length, or unreachable) but never less than
    its true distance. `unreached` is as for `check_sssp`.
    """
    _check_source(g, target)
    problem = _shape_problem(dist, g.num_vertices, "distance", integers=True)
    if problem:
        return problem
    expected = _offset_distances(sssp_distances(g, source), start_distance)
    settled = expected <= expected[target]
    open_ = (expected == UNREACHABLE_DISTANCE) | ~settled
    got = _as_unreached(np.asarray(dist, dtype=np.int64), open_, unreached)
    wrong = np.where(settled, got != expected, got < expected)

    def bound(v: int) -> str:
        return "" if settled[v] else f" or more (it lies beyond target {target})"

    return _distance_problems(got, expected, wrong, bound, unreached)


def check_astar(
    g: Graph,
    source: int,
    target: int,
    cost: np.ndarray,
    start_distance: int = 0,
    unreached: tuple[int, ...] = (UNREACHABLE_DISTANCE,),
) -> str | None:
    """Check the path costs of an A* search (GraphIt's `apps/astar.gt`): its
    queue orders vertices by cost plus a heuristic the checker cannot see (an
    extern function), and it stops once `target` leaves the queue.

    Exact is the target's cost only (an admissible heuristic makes it the
    shortest distance); every other vertex holds a path's length, never less
    than its true distance, or stays unreached. `unreached` is as for
    `check_sssp`.
    """
    _check_source(g, target)
    problem = _shape_problem(cost, g.num_vertices, "distance", integers=True)
    if problem:
        return problem
    expected = _offset_distances(sssp_distances(g, source), start_distance)
    is_target = np.arange(g.num_vertices) == target
    got = _as_unreached(np.asarray(cost, dtype=np.int64), ~is_target | (expected == UNREACHABLE_DISTANCE), unreached)
    wrong = np.where(is_target, got != expected, got < expected)

    def bound(v: int) -> str:
        return "" if is_target[v] else " or more (A* settles only its target)"

    return _distance_problems(got, expected, wrong, bound, unreached)


def _as_unreached(dist: np.ndarray, may_be_unreached: np.ndarray, unreached: tuple[int, ...]) -> np.ndarray:
    """`dist` with the program's own `unreached` markers read as the reference's
    (INT32_MAX), where a vertex `may_be_unreached`; elsewhere a marker is a distance
    (a closeness program's 0 at its source)."""
    marked = may_be_unreached & np.isin(dist, np.asarray(unreached, dtype=np.int64))
    return np.where(marked, UNREACHABLE_DISTANCE, dist)


def _offset_distances(distances: np.ndarray, start_distance: int) -> np.ndarray:
    """`distances` from a source that starts at `start_distance` (unreachable stays)."""
    reachable = distances != UNREACHABLE_DISTANCE
    return np.where(reachable, distances + start_distance, UNREACHABLE_DISTANCE)


def _distance_problems(
    dist: np.ndarray,
    expected: np.ndarray,
    wrong: np.ndarray,
    qualifier: Callable[[int], str] = lambda v: "",
    unreached: tuple[int, ...] = (UNREACHABLE_DISTANCE,),
) -> str | None:
    """The summary of the `wrong` vertices of a distance check; `qualifier(v)`
    follows the expected distance of `v`; `unreached`: the program's markers."""
    markers = " or ".join(str(marker) for marker in unreached)

    def describe(v: int) -> str:
        wanted = f"unreachable ({markers})" if expected[v] == UNREACHABLE_DISTANCE else str(expected[v])
        return f"has distance {dist[v]}, expected {wanted}{qualifier(v)}"

    return _first_problem(
        [(wrong, describe)], "vertex has a wrong distance", "vertices have a wrong distance"
    )


# --------------------------------------------------------------------------------------
# Connected components
# --------------------------------------------------------------------------------------


def connected_components(g: Graph) -> np.ndarray:
    """Weakly connected component labels (int32, 0..k-1)."""

    def labels() -> np.ndarray:
        from scipy.sparse import csgraph

        _, found = csgraph.connected_components(_adjacency(g, weighted=False), directed=True, connection="weak")
        return found.astype(np.int32)

    return _once_per_graph(g, "cc", labels)


def check_cc(g: Graph, labels: np.ndarray) -> str | None:
    """Check that `labels` partitions the vertices into the weak components (any label values)."""
    problem = _shape_problem(labels, g.num_vertices, "label", integers=True)
    if problem:
        return problem
    labels = np.asarray(labels)
    expected = connected_components(g)
    vertices = np.arange(g.num_vertices)
    component_first = np.full(int(expected.max(initial=-1)) + 1, g.num_vertices, dtype=np.int64)
    np.minimum.at(component_first, expected, vertices)
    same_component = component_first[expected]  # the first vertex of v's component
    same_label = _first_with_same_value(labels)  # the first vertex with v's label
    problems = [
        (
            labels != labels[same_component],
            lambda v: f"has label {labels[v]} but vertex {same_component[v]} "
            f"in the same component has label {labels[same_component[v]]}",
        ),
        (
            expected != expected[same_label],
            lambda v: f"shares label {labels[v]} with vertex {same_label[v]}, "
            "which is in another component",
        ),
    ]
    return _first_problem(
        problems, "vertex has a wrong component label", "vertices have a wrong component label"
    )


def _first_with_same_value(values: np.ndarray) -> np.ndarray:
    """For every index i, the smallest index j with values[j] == values[i]."""
    order = np.argsort(values, kind="stable")
    sorted_values = values[order]
    run_start = np.empty(values.size, dtype=bool)
    run_start[:1] = True
    np.not_equal(sorted_values[1:], sorted_values[:-1], out=run_start[1:])
    first_in_order = order[np.flatnonzero(run_start)]  # stable sort: the smallest index of each run
    result = np.empty(values.size, dtype=np.int64)
    result[order] = first_in_order[np.cumsum(run_start) - 1]
    return result


# --------------------------------------------------------------------------------------
# PageRank
# --------------------------------------------------------------------------------------


def _inverse_out_degrees(g: Graph) -> np.ndarray:
    """1/out_degree per vertex, 0 for vertices without out-edges (they send nothing)."""
    out_degrees = g.out_degrees()
    return np.divide(1.0, out_degrees, out=np.zeros(g.num_vertices), where=out_degrees > 0)


def pagerank(g: Graph, iterations: int = 20, damp: float = 0.85) -> np.ndarray:
    """GraphIt's fixed-iteration PageRank (float64).

    Ranks start at 1/n; each iteration every vertex sends rank/out_degree along its
    out-edges and new_rank = (1 - damp)/n + damp * received. Vertices without
    out-edges send nothing.
    """
    n = g.num_vertices
    if n == 0:
        return np.zeros(0)
    inverse_degree = _inverse_out_degrees(g)
    ranks = np.full(n, 1.0 / n)
    for _ in range(iterations):
        received = _in_edge_sums(g, ranks * inverse_degree)
        ranks = (1.0 - damp) / n + damp * received
    return ranks


def _in_edge_sums(g: Graph, values: np.ndarray) -> np.ndarray:
    """Each vertex's sum of `values` over the sources of its in-edges (float64):
    numpy, or from `NATIVE_MIN_EDGES` on a pull over the CSC in C++ on every core
    (numpy's float64 an edge and one-core bincount took about two minutes for
    PageRank's 20 iterations on rmat:24, on a 64-core host)."""
    if g.num_edges < NATIVE_MIN_EDGES:
        return np.bincount(g.dst, weights=values[g.src], minlength=g.num_vertices)
    ptr, idx, _ = g.csc()
    return native.row_sums(ptr, idx, values)


def check_pagerank(
    g: Graph,
    ranks: np.ndarray,
    iterations: int = 20,
    damp: float = 0.85,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
) -> str | None:
    """Check ranks (float32 is fine) against `pagerank`: |got - want| <= atol + rtol*|want|."""
    expected = _once_per_graph(g, f"pagerank:{iterations}:{damp!r}", lambda: pagerank(g, iterations, damp))
    return _check_close(ranks, expected, "rank", rtol, atol)


def power_iteration(g: Graph, iterations: int, initial: float) -> np.ndarray:
    """Unnormalised power iteration along in-edges (float64): every vertex starts
    at `initial`, and each iteration every vertex gets the sum of its
    in-neighbours' values (GraphIt's eigenvector_centrality test: `new[dst] +=
    old[src]`, then `old = new`), with no damping and no normalisation."""
    values = np.full(g.num_vertices, initial, dtype=np.float64)
    with np.errstate(over="ignore"):
        for _ in range(iterations):
            values = _in_edge_sums(g, values)
    return values


def check_power_iteration(
    g: Graph,
    values: np.ndarray,
    iterations: int,
    initial: float,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
) -> str | None:
    """Check the values of `power_iteration`; when they leave float32's range no
    float32 result is right, and the check raises `NotChecked`."""
    expected = power_iteration(g, iterations, initial)
    if not (np.abs(expected) <= np.finfo(np.float32).max).all():
        raise NotChecked(
            f"the reference's values pass float32's range within {iterations} iterations "
            "(unnormalised power iteration grows with the largest eigenvalue); validate "
            "on a smaller graph or with fewer iterations"
        )
    return _check_close(values, expected, "value", rtol, atol)


def pagerank_delta(
    g: Graph, iterations: int, damp: float = 0.85, epsilon: float = 0.1
) -> np.ndarray:
    """GraphIt's PageRank-delta (its `pr_delta` app and the thesis's Figure 4-1), float64.

    Every vertex starts active with delta 1/n and rank 0. Each round, the active
    vertices send delta/out_degree along their out-edges; then every vertex
    updates: in the first round delta = damp * received + (1 - damp)/n, rank +=
    delta, delta -= 1/n; later delta = damp * received, rank += delta. A vertex
    stays active while |delta| > epsilon * rank.
    """
    n = g.num_vertices
    if n == 0:
        return np.zeros(0)
    inverse_degree = _inverse_out_degrees(g)
    delta = np.full(n, 1.0 / n)
    rank = np.zeros(n)
    active = np.ones(n, dtype=bool)
    for round_ in range(iterations):
        shares = np.where(active, delta * inverse_degree, 0.0)
        received = np.bincount(g.dst, weights=shares[g.src], minlength=n)
        if round_ == 0:
            delta = damp * received + (1.0 - damp) / n
            rank += delta
            delta = delta - 1.0 / n
        else:
            delta = damp * received
            rank += delta
        active = np.abs(delta) > epsilon * rank
    return rank


def check_pagerank_delta(
    g: Graph,
    ranks: np.ndarray,
    iterations: int,
    damp: float = 0.85,
    epsilon: float = 0.1,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
) -> str | None:
    """Check ranks against `pagerank_delta`: |got - want| <= atol + rtol*|want|."""
    return _check_close(ranks, pagerank_delta(g, iterations, damp, epsilon), "rank", rtol, atol)


# --------------------------------------------------------------------------------------
# Betweenness centrality (one source)
# --------------------------------------------------------------------------------------


def betweenness_one_source(g: Graph, source: int) -> np.ndarray:
    """Brandes dependencies of every vertex on `source` in the unweighted graph (float64).

    sigma[v] counts shortest paths from `source` to v; dependency[v] is the sum, over
    successors w of v on shortest paths, of sigma[v]/sigma[w] * (1 + dependency[w]).
    The source gets the same formula (as in GraphIt); unreachable vertices get 0.
    """
    return _brandes(g, source)[1]


def _brandes(g: Graph, source: int) -> tuple[np.ndarray, np.ndarray]:
    """The natural logarithm of every vertex's shortest-path count from `source`
    (-inf when unreachable) and its Brandes dependency (`betweenness_one_source`).

    Path counts are kept as logarithms: on a grid they pass double's range within
    a few hundred levels (road:2048:2048 has ~10^1231 paths to a far corner),
    while every ratio sigma[v]/sigma[w] and every dependency stays finite.
    """
    levels, frontiers = _bfs(g, source)
    row_ptr, col_idx, _ = g.csr()
    log_counts = np.full(g.num_vertices, -np.inf)
    log_counts[source] = 0.0
    level_edges = []
    for depth, frontier in enumerate(frontiers):
        tails, heads = _out_edges(row_ptr, col_idx, frontier)
        on_paths = levels[heads] == depth + 1
        tails, heads = tails[on_paths], heads[on_paths]
        np.logaddexp.at(log_counts, heads, log_counts[tails])
        level_edges.append((tails, heads))
    dependencies = np.zeros(g.num_vertices)
    for tails, heads in reversed(level_edges):
        shares = np.exp(log_counts[tails] - log_counts[heads]) * (1.0 + dependencies[heads])
        np.add.at(dependencies, tails, shares)
    return log_counts, dependencies


def check_bc(
    g: Graph,
    source: int,
    dependencies: np.ndarray,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
    counts: tuple[str, int] | None = None,
    unreached: tuple[float, ...] = (),
) -> str | None:
    """Check one-source Brandes dependencies against `betweenness_one_source`, with tolerance.

    `unreached` are values besides 0 that the program stores for vertices the
    source never reaches (GraphIt's bc.gt stores -1 where no path was counted).

    `counts` names the program's vector of shortest-path counts and the largest
    count it holds, when it holds integers: a graph with more shortest paths to
    a vertex than that wraps the counts (GraphIt's own run wraps alike), so the
    dependencies cannot be Brandes' and the check says so instead of listing them.
    """
    log_counts, expected = _once_per_graph(g, f"brandes:{source}", lambda: np.stack(_brandes(g, source)))
    if counts is not None:
        name, largest = counts
        vertex = int(np.argmax(log_counts))
        if log_counts[vertex] > np.log(largest):
            return (
                f"the shortest-path counts overflow '{name}': vertex {vertex} has "
                f"{_power_of_ten(log_counts[vertex])} shortest paths from {source}, more than "
                f"'{name}' holds ({largest}), so the dependencies computed from them are "
                "not Brandes' (in GraphIt too): declare it a double vector, or validate "
                "on a graph with fewer shortest paths"
            )
    problem = _shape_problem(dependencies, g.num_vertices, "dependency")
    if problem or not unreached:
        return problem or _check_close(dependencies, expected, "dependency", rtol, atol)
    got = np.asarray(dependencies, dtype=np.float64)
    marked = np.isneginf(log_counts) & np.isin(got, np.asarray(unreached, dtype=np.float64))
    return _check_close(np.where(marked, 0.0, got), expected, "dependency", rtol, atol)


def _power_of_ten(log_value: float) -> str:
    """exp(`log_value`) written as `m.mme+N`, also beyond double's range."""
    exponent10 = log_value / np.log(10.0)
    exponent = int(np.floor(exponent10))
    return f"{10.0 ** (exponent10 - exponent):.2f}e+{exponent:02d}"


# --------------------------------------------------------------------------------------
# k-core (GraphIt's kcore app)
# --------------------------------------------------------------------------------------


def core_numbers(g: Graph) -> np.ndarray:
    """GraphIt's k-core peeling along out-edges (int64): D starts as the out-degree;
    the lowest k still held by an unpeeled vertex peels every vertex with D == k,
    and each peeled vertex takes one from D of its out-neighbours above k (never
    below k). The result, D at the end, is the core number on a symmetric graph."""
    row_ptr, col_idx, _ = g.csr()
    degree = np.diff(row_ptr).astype(np.int64)
    peeled = np.zeros(g.num_vertices, dtype=bool)
    waiting = [(int(d), v) for v, d in enumerate(degree)]
    heapq.heapify(waiting)
    while waiting:
        k, v = heapq.heappop(waiting)
        if peeled[v] or degree[v] != k:
            continue
        stack = [v]
        peeled[v] = True
        while stack:
            u = stack.pop()
            for w in col_idx[row_ptr[u] : row_ptr[u + 1]]:
                if degree[w] > k:
                    degree[w] -= 1
                    if degree[w] == k:
                        peeled[w] = True
                        stack.append(int(w))
                    else:
                        heapq.heappush(waiting, (int(degree[w]), int(w)))
    return degree


def check_kcore(g: Graph, core: np.ndarray) -> str | None:
    """Check the k-core priorities exactly against `core_numbers`."""
    problem = _shape_problem(core, g.num_vertices, "core number", integers=True)
    if problem:
        return problem
    core = np.asarray(core, dtype=np.int64)
    expected = core_numbers(g)

    def describe(v: int) -> str:
        return f"has core number {core[v]}, expected {expected[v]}"

    return _first_problem(
        [(core != expected, describe)],
        "vertex has a wrong core number",
        "vertices have a wrong core number",
    )


# --------------------------------------------------------------------------------------
# Triangle counting (GraphIt's tc app)
# --------------------------------------------------------------------------------------


def triangles_at(g: Graph) -> np.ndarray:
    """GraphIt's triangle counting per vertex (uint64): for every vertex s, the
    sum over its out-edges s->d with d < s of the out-neighbours w of both s and
    d with w <= d (`intersectNeighbor(edges, s, d)`). On a symmetric graph
    without self loops that is the number of triangles whose largest vertex is
    s, so the sum over vertices is the triangle count.

    With L the edges to smaller vertices and M those to smaller or equal ones
    (adjacency matrices), the count of s is row s of (L @ M) * L: the paths
    s->d->w closed by an edge s->w.
    """
    from scipy import sparse

    adjacency = sparse.csr_array(_adjacency(g, weighted=False), dtype=np.int64)
    lower = sparse.tril(adjacency, k=-1, format="csr")
    lower_or_self = sparse.tril(adjacency, k=0, format="csr")
    closed = (lower @ lower_or_self).multiply(lower)
    return np.asarray(closed.sum(axis=1)).ravel().astype(np.uint64)


PER_VERTEX_TRIANGLE_EDGES = 2**21
"""Up to this many edges `check_triangles` checks every vertex's count; above
it, on a symmetric graph, their sum (`triangles_at` slows down with the wedges
through low ids, minutes on rmat:22, while `triangle_total`, degree-ordered and
counted in C++ on every core, takes seconds)."""


def triangle_total(g: Graph) -> int:
    """The sum of `triangles_at` over the vertices of a symmetric graph: every
    triangle once, counted with its vertices ordered by degree (few wedges per
    edge), plus GraphIt's count of `w == d` for an edge s->d (d < s) to a vertex
    with a self loop."""
    n = g.num_vertices
    if g.num_edges == 0:
        return 0
    loops = g.src == g.dst
    keys = np.lexsort((np.arange(n), g.out_degrees()))
    rank = np.empty(n, dtype=np.int64)
    rank[keys] = np.arange(n)
    upward = rank[g.src] < rank[g.dst]
    # one key per oriented edge, sorted: by source rank, then destination rank
    keys = np.sort(rank[g.src[upward]] * n + rank[g.dst[upward]])
    triangles = native.oriented_triangles(n, keys // n, keys % n)
    looped = np.zeros(n, dtype=bool)
    looped[g.src[loops]] = True
    return triangles + int((looped[g.dst] & (g.dst < g.src)).sum())


def check_triangles(g: Graph, counts: np.ndarray, ordering: str | None = None) -> str | None:
    """Check per-vertex triangle counts exactly against `triangles_at` (their
    sum against `triangle_total` on a symmetric graph of more than
    `PER_VERTEX_TRIANGLE_EDGES` edges). A program that reordered its graph by
    `ordering` counts each triangle at its largest vertex *in that order*: its
    counts (indexed by the user's ids) are checked against the reordered graph's."""
    problem = _shape_problem(counts, g.num_vertices, "triangle count", integers=True)
    if problem:
        return problem
    counts = np.asarray(counts).astype(np.uint64)
    if ordering is not None:
        from gir.runtime.graph.reorder import relabelled

        made = relabelled(g, ordering)
        g, counts = made.graph, counts[made.relabelling.old_of_new]
    if g.num_edges > PER_VERTEX_TRIANGLE_EDGES and _is_symmetric(g):
        got, expected_total = int(counts.sum(dtype=np.uint64)), triangle_total(g)
        if got == expected_total:
            return None
        return (
            f"the triangle counts add up to {got}, expected {expected_total} (of more than "
            f"{PER_VERTEX_TRIANGLE_EDGES} edges only the sum is checked)"
        )
    expected = _once_per_graph(g, "triangles", lambda: triangles_at(g))

    def describe(v: int) -> str:
        return f"has triangle count {counts[v]}, expected {expected[v]}"

    return _first_problem(
        [(counts != expected, describe)],
        "vertex has a wrong triangle count",
        "vertices have a wrong triangle count",
    )


def _is_symmetric(g: Graph) -> bool:
    """Whether every edge u->v of `g` has its v->u."""
    flipped = g.transpose()
    return flipped is g or (
        np.array_equal(flipped.src, g.src) and np.array_equal(flipped.dst, g.dst)
    )


# --------------------------------------------------------------------------------------
# Widest paths (maximum bottleneck)
# --------------------------------------------------------------------------------------


def widest_paths(g: Graph, source: int, width: int) -> np.ndarray:
    """The widest-path width of every vertex from `source` (int64): the largest,
    over paths, of the smallest edge weight on the path, capped by `width` (the
    source's own width); 0 when unreachable."""
    _check_source(g, source)
    row_ptr, col_idx, weights = g.csr()
    if weights is None:
        weights = np.ones(g.num_edges, dtype=np.int32)
    best = np.zeros(g.num_vertices, dtype=np.int64)
    best[source] = width
    done = np.zeros(g.num_vertices, dtype=bool)
    waiting = [(-width, source)]
    while waiting:
        negative, u = heapq.heappop(waiting)
        if done[u]:
            continue
        done[u] = True
        for edge in range(row_ptr[u], row_ptr[u + 1]):
            w = col_idx[edge]
            through = min(-negative, int(weights[edge]))
            if through > best[w]:
                best[w] = through
                heapq.heappush(waiting, (-through, int(w)))
    return best


def check_widest(g: Graph, source: int, width: int, got: np.ndarray) -> str | None:
    """Check widest-path widths exactly against `widest_paths`."""
    problem = _shape_problem(got, g.num_vertices, "width", integers=True)
    if problem:
        return problem
    got = np.asarray(got, dtype=np.int64)
    expected = widest_paths(g, source, width)

    def describe(v: int) -> str:
        return f"has width {got[v]}, expected {expected[v]}"

    return _first_problem(
        [(got != expected, describe)], "vertex has a wrong width", "vertices have a wrong width"
    )


# --------------------------------------------------------------------------------------
# Collaborative filtering (gradient descent on latent factors)
# --------------------------------------------------------------------------------------


def collaborative_filtering(
    g: Graph, iterations: int, lanes: int, step: float, decay: float, initial: float
) -> np.ndarray:
    """GraphIt's collaborative filtering (its `cf` app), float64, shape (n, lanes).

    Every vertex's `lanes` latent factors start at `initial`. Each iteration every
    edge (src, dst, rating) computes the error of its estimate, `rating -
    latent[src] . latent[dst]`, and adds `latent[src] * error` into the error
    vector of `dst`; then every vertex steps `latent += step * (decay * latent +
    error)` (GraphIt's `decay` is `-lambda`) and its error vector is cleared.
    Estimates use the factors of the iteration's start (the edge apply reads
    the factors and writes only the errors).
    """
    if g.weights is None:
        raise GraphError("collaborative filtering needs edge weights (the ratings)")
    latent = np.full((g.num_vertices, lanes), initial, dtype=np.float64)
    ratings = g.weights.astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):  # diverging steps: inf/NaN, reported by the check
        for _ in range(iterations):
            estimate = np.einsum("ij,ij->i", latent[g.src], latent[g.dst])
            share = latent[g.src] * (ratings - estimate)[:, None]
            error = np.zeros_like(latent)
            np.add.at(error, g.dst, share)
            latent = latent + step * (decay * latent + error)
    return latent


def check_collaborative_filtering(
    g: Graph,
    latent: np.ndarray,
    iterations: int,
    lanes: int,
    step: float,
    decay: float,
    initial: float,
    rtol: float = 1e-3,
    atol: float = 1e-5,
) -> str | None:
    """Check the latent factors (flat, `n * lanes` values in vertex order, as gir
    lays a `vector{Vertex}(vector[K](float))` out, or (n, lanes)) against
    `collaborative_filtering`; a vertex is wrong when any of its factors is.
    float32 atomics add the errors in any order, hence the looser default rtol;
    an infinite or NaN factor is always wrong, unless the reference's factors
    themselves leave the range of the program's floats: then these parameters
    diverge on this graph, no value is right, and the check raises `NotChecked`
    (gir's float32 goes to NaN where float64 reaches inf first)."""
    want = collaborative_filtering(g, iterations, lanes, step, decay, initial)
    got = np.asarray(latent, dtype=np.float64)
    largest = np.finfo(np.asarray(latent).dtype).max if np.asarray(latent).dtype.kind == "f" else np.inf
    with np.errstate(invalid="ignore"):
        overflowing = ~(np.abs(want) <= largest)
    if overflowing.any():
        vertex, lane = (int(i) for i in np.argwhere(overflowing)[0])
        raise NotChecked(
            f"the reference's latent factors overflow on this graph (vertex {vertex}'s factor "
            f"{lane} is {want[vertex, lane]:.9g} after {iterations} iterations, beyond "
            f"{np.asarray(latent).dtype}'s range): step {step:g} and these ratings diverge, so "
            "no result is right; validate on a graph with smaller weights or fewer iterations"
        )
    if got.size != want.size:
        return (
            f"the latent factors hold {got.size} values, expected {g.num_vertices} "
            f"vertices x {lanes} = {want.size}"
        )
    got = got.reshape(want.shape)
    wrong = ~np.isclose(got, want, rtol=rtol, atol=atol) | ~np.isfinite(got)
    bad = wrong.any(axis=1)

    def describe(v: int) -> str:
        lane = int(np.argmax(wrong[v]))
        return (
            f"has factor {lane} = {got[v, lane]:.9g}, expected {want[v, lane]:.9g} "
            f"(rtol={rtol:g}, atol={atol:g})"
        )

    return _first_problem(
        [(bad, describe)], "vertex has wrong latent factors", "vertices have wrong latent factors"
    )


class NotChecked(Exception):
    """Raised by a check whose reference does not apply to this run (its inputs
    make the reference itself overflow, say): `--validate` then reports the
    result as not checked, with the reason, instead of calling it right or wrong."""


# --------------------------------------------------------------------------------------
# Shared helpers
# --------------------------------------------------------------------------------------

Problem = tuple[np.ndarray, Callable[[int], str]]


def _check_source(g: Graph, source: int) -> None:
    """Raise GraphError unless `source` is a vertex of `g`."""
    if not 0 <= source < g.num_vertices:
        raise GraphError(
            f"source vertex {source} is not in the graph (it has {g.num_vertices} vertices)"
        )


def _adjacency(g: Graph, *, weighted: bool) -> sparse.csr_array:
    """`g` as a scipy CSR matrix of its edge weights (of ones when unweighted or not `weighted`)."""
    from scipy import sparse

    row_ptr, col_idx, weights = g.csr()
    data = weights.astype(np.float64) if weighted and weights is not None else np.ones(g.num_edges)
    return sparse.csr_array((data, col_idx, row_ptr), shape=(g.num_vertices, g.num_vertices))


def _shape_problem(
    values: np.ndarray, num_vertices: int, what: str, *, integers: bool = False
) -> str | None:
    """A message when `values` is not one number (an integer if asked) per vertex, else None."""
    array = np.asarray(values)
    if array.shape != (num_vertices,):
        return f"the {what} array has shape {array.shape}, expected ({num_vertices},)"
    if integers and not np.issubdtype(array.dtype, np.integer):
        return f"the {what} array must hold integers, not {array.dtype}"
    if not integers and not np.issubdtype(array.dtype, np.number):
        return f"the {what} array must hold numbers, not {array.dtype}"
    return None


def _check_close(
    got: np.ndarray, expected: np.ndarray, what: str, rtol: float, atol: float
) -> str | None:
    """Compare floating results with numpy's isclose rule; NaN never matches."""
    problem = _shape_problem(got, expected.size, what)
    if problem:
        return problem
    got = np.asarray(got, dtype=np.float64)
    wrong = ~np.isclose(got, expected, rtol=rtol, atol=atol)

    def describe(v: int) -> str:
        return f"has {what} {got[v]:.9g}, expected {expected[v]:.9g} (rtol={rtol:g}, atol={atol:g})"

    return _first_problem(
        [(wrong, describe)], f"vertex has a wrong {what}", f"vertices have a wrong {what}"
    )


def _first_problem(problems: list[Problem], singular: str, plural: str) -> str | None:
    """Summarize per-vertex problem masks: how many vertices are bad, and why the first one is.

    `problems` lists (mask, describe) pairs in priority order; the first bad vertex is
    explained by the first mask that holds it.
    """
    bad = np.zeros_like(problems[0][0], dtype=bool)
    for mask, _ in problems:
        bad |= mask
    count = int(bad.sum())
    if count == 0:
        return None
    vertex = int(np.argmax(bad))
    reason = next(describe(vertex) for mask, describe in problems if mask[vertex])
    return f"{count} {singular if count == 1 else plural}; first: vertex {vertex} {reason}"
