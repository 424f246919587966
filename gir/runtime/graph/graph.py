"""The `Graph` class: a directed graph in COO form, its derived arrays, and
building one from edges, scipy or networkx.

Sorting, deduplication, CSR row pointers, the transpose and edge blocking are
gir's C++ graph construction (`gir/cpp/graph_build.h`, through `native`): the
same code a complete CUDA program builds its arrays with.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from gir.runtime.graph import native
from gir.runtime.graph.errors import INT32_MAX, INT32_MIN, MAX_VERTICES, GraphError

T = TypeVar("T")

ProgressCallback = Callable[[str], None]
CsrArrays = tuple[np.ndarray, np.ndarray, "np.ndarray | None"]

CACHE_ENTRY = "cache_entry"
"""The key of `Graph._derived` naming the cache entry a graph was loaded through
(a `gir.runtime.graph.cache.CacheEntry`): derived data such as its blocked edges
is cached beside it."""


def ignore_progress(message: str) -> None:
    """The progress callback used when the caller gives none."""


@dataclass(frozen=True, eq=False, repr=False)
class Graph:
    """A directed graph in COO form, sorted by (src, dst), without duplicate edges.

    `src` and `dst` are read-only int32 arrays; `weights` is a read-only int32 array
    (one weight per edge) or None for an unweighted graph. Self loops are allowed.
    Build graphs from arbitrary (unsorted, duplicated) edges with `from_edges`; the
    constructor checks the invariants and raises GraphError when they do not hold.
    Derived structures (CSR, CSC, transpose) are computed once and cached.
    """

    num_vertices: int
    src: np.ndarray
    dst: np.ndarray
    weights: np.ndarray | None = None
    weights_refused: str | None = None
    """Why a graph built from weighted data has no weights (they had fractions,
    `FractionalWeights`): a program that reads weights fails with this reason."""
    _derived: dict[str, object] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        num_vertices = _checked_vertex_count(self.num_vertices)
        if _is_checked_natively(self.src, self.dst, num_vertices):
            src, dst = _read_only(self.src), _read_only(self.dst)
        else:
            src = _as_int32_column(self.src, "src", upper=num_vertices)
            dst = _as_int32_column(self.dst, "dst", upper=num_vertices)
            if src.shape != dst.shape:
                raise GraphError(f"src has {src.size} entries but dst has {dst.size}")
            _check_sorted_unique(src, dst)
        weights = None
        if self.weights is not None:
            weights = _as_int32_column(
                self.weights, "weights", lower=INT32_MIN, upper=INT32_MAX + 1
            )
            if weights.shape != src.shape:
                raise GraphError(
                    f"weights has {weights.size} entries but there are {src.size} edges"
                )
        object.__setattr__(self, "num_vertices", num_vertices)
        object.__setattr__(self, "src", src)
        object.__setattr__(self, "dst", dst)
        object.__setattr__(self, "weights", weights)

    def __repr__(self) -> str:
        kind = "weighted" if self.weights is not None else "unweighted"
        return f"Graph(num_vertices={self.num_vertices}, num_edges={self.num_edges}, {kind})"

    @property
    def num_edges(self) -> int:
        """The number of (directed) edges."""
        return int(self.src.size)

    def csr(self) -> CsrArrays:
        """Out-edges in CSR form: (row_ptr [V+1], col_idx int32, weights int32 or
        None); row_ptr is int32, or int64 for more than 2^31 - 1 edges."""
        cached = self._derived.get("csr")
        if cached is None:
            cached = (_row_pointers(self.src, self.num_vertices), self.dst, self.weights)
            self._derived["csr"] = cached
        return cached  # type: ignore[return-value]

    def csc(self) -> CsrArrays:
        """In-edges in CSR form of the transposed graph: row v lists the sources of edges into v."""
        return self.transpose().csr()

    def out_degrees(self) -> np.ndarray:
        """The out-degree of every vertex, as int32."""
        row_ptr = self.csr()[0]
        return np.diff(row_ptr).astype(np.int32)

    def transpose(self) -> Graph:
        """The graph with every edge reversed (weights follow their edges); cached."""
        cached = self._derived.get("transpose")
        if cached is None:
            cached = _transposed(self)
            self._derived["transpose"] = cached
        return cached  # type: ignore[return-value]

    def symmetrized(self) -> Graph:
        """The undirected version: reverse edges added, duplicates and self loops dropped.

        When both u->v and v->u exist, each keeps its own weight; an added reverse edge
        takes the weight of the edge it mirrors.
        """
        no_loops = self.src != self.dst
        src, dst = self.src[no_loops], self.dst[no_loops]
        weights = None if self.weights is None else self.weights[no_loops]
        both_weights = None if weights is None else np.concatenate([weights, weights])
        graph = from_edges(
            self.num_vertices, np.concatenate([src, dst]), np.concatenate([dst, src]), both_weights
        )
        if graph.weights is None:
            mark_symmetric(graph)
        return graph

    def largest_degree_vertex(self) -> int:
        """The vertex with the most out-edges (the smallest such id on ties)."""
        if self.num_vertices == 0:
            raise GraphError("the graph has no vertices")
        return int(np.argmax(self.out_degrees()))

    def derived(self, key: str, compute: Callable[[], T]) -> T:
        """`compute()`, made once per graph under `key` and kept with the graph
        (for results derived from it alone, such as a CPU reference result that
        several checks of one graph need)."""
        if key not in self._derived:
            self._derived[key] = compute()
        return self._derived[key]  # type: ignore[return-value]

    def blocked(self, size: int, by_source: bool = False) -> BlockedEdges:
        """The edges tiled by destination range `size` (G2's EdgeBlocking for
        PUSH), or with `by_source` by source range, each block in destination
        order (PULL: the transpose's tiling); made once per size, and cached on
        disk beside the graph when the graph came from the cache."""
        key = f"blocked:{size}:{'src' if by_source else 'dst'}"
        cached = self._derived.get(key)
        if cached is None:
            entry = self._derived.get(CACHE_ENTRY)
            weighted = self.weights is not None
            cache_entry = entry.blocked(size, weighted, by_source) if entry else None
            cached = cache_entry.read_blocked(self, size) if cache_entry else None
            if cached is None:
                cached = blocked_edges(self, size, by_source)
                if cache_entry:
                    cache_entry.write_arrays(cached.arrays(), ignore_progress)
            self._derived[key] = cached
        return cached  # type: ignore[return-value]


@dataclass(frozen=True)
class BlockedEdges:
    """A graph's edges tiled for G2's EdgeBlocking: block `k` holds the edges
    whose destination (by source: source) lies in [k*size, (k+1)*size), in (src,
    dst) (by source: (dst, src)) order, at positions offsets[k] .. offsets[k+1]-1
    of `src`, `dst` and `weights`."""

    size: int
    offsets: np.ndarray
    """One entry per block plus one (ceil(V / size) + 1 entries): int32, or
    int64 for more than 2^31 - 1 edges."""
    src: np.ndarray
    dst: np.ndarray
    weights: np.ndarray | None

    @property
    def num_blocks(self) -> int:
        """How many destination ranges tile the vertices."""
        return int(self.offsets.size) - 1

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays as the cache stores them."""
        return {
            "offsets": self.offsets,
            "src": self.src,
            "dst": self.dst,
            "weights": np.empty(0, np.int32) if self.weights is None else self.weights,
        }


def block_count(num_vertices: int, size: int) -> int:
    """How many destination ranges of `size` vertices tile `num_vertices` (at least one)."""
    return max(1, -(-num_vertices // size))


def blocked_edges(graph: Graph, size: int, by_source: bool = False) -> BlockedEdges:
    """`graph`'s edges ordered by (dst // size, src, dst): a stable sort by block of
    the (src, dst)-sorted edges; `by_source`: by (src // size, dst, src), the same
    of the (dst, src)-sorted ones (the transpose's edges, turned back)."""
    if size <= 0:
        raise GraphError(f"edge blocking needs a positive blocking size, got {size}")
    if by_source:
        transpose = graph.transpose()
        src, dst, weights = transpose.dst, transpose.src, transpose.weights
    else:
        src, dst, weights = graph.src, graph.dst, graph.weights
    tiled = native.tile(src, dst, weights, graph.num_vertices, size, by_source)
    for array in tiled:
        if array is not None:
            array.setflags(write=False)
    offsets, blocked_src, blocked_dst, blocked_weights = tiled
    return BlockedEdges(size, offsets, blocked_src, blocked_dst, blocked_weights)


def _checked_vertex_count(num_vertices: int) -> int:
    """`num_vertices` as a Python int, checked to be a valid int32 vertex count."""
    count = int(num_vertices)
    if count != num_vertices or not 0 <= count <= MAX_VERTICES:
        raise GraphError(
            f"invalid vertex count {num_vertices} (must be an integer in [0, {MAX_VERTICES}])"
        )
    return count


def _as_int32_column(values: np.ndarray, name: str, *, upper: int, lower: int = 0) -> np.ndarray:
    """A read-only int32 view of a 1-D integer array whose values lie in [lower, upper)."""
    array = np.asarray(values)
    if array.ndim != 1 or not (np.issubdtype(array.dtype, np.integer) or array.size == 0):
        raise GraphError(
            f"{name} must be a 1-D integer array (got shape {array.shape}, dtype {array.dtype})"
        )
    if array.size:
        low, high = int(array.min()), int(array.max())
        if low < lower or high >= upper:
            bad = low if low < lower else high
            raise GraphError(f"{name} holds {bad}, outside the valid range [{lower}, {upper - 1}]")
    column = np.ascontiguousarray(array, dtype=np.int32).view()
    column.setflags(write=False)
    return column


def _is_checked_natively(src: object, dst: object, num_vertices: int) -> bool:
    """Whether `src` and `dst` are int32 columns of equal length whose ids lie
    in [0, num_vertices) and whose edges strictly increase in (src, dst) order,
    checked in C++ on every core (one pass: the numpy checks take several, and
    as many bytes again in temporaries, on a graph of billions of edges).
    False for anything else, which the numpy checks then take and explain."""
    if not all(
        isinstance(column, np.ndarray) and column.dtype == np.int32 and column.ndim == 1
        and column.flags.c_contiguous
        for column in (src, dst)
    ):  # fmt: skip
        return False
    assert isinstance(src, np.ndarray) and isinstance(dst, np.ndarray)
    return src.size == dst.size and native.first_unsorted_edge(src, dst, num_vertices) is None


def _read_only(column: np.ndarray) -> np.ndarray:
    """A read-only view of `column`."""
    view = column.view()
    view.setflags(write=False)
    return view


def _check_sorted_unique(src: np.ndarray, dst: np.ndarray) -> None:
    """Raise GraphError unless the edges are strictly increasing in (src, dst) order."""
    if src.size < 2:
        return
    src_up = src[1:] > src[:-1]
    dst_up = (src[1:] == src[:-1]) & (dst[1:] > dst[:-1])
    in_order = src_up | dst_up
    if not in_order.all():
        edge = int(np.argmin(in_order)) + 1
        raise GraphError(
            f"edges must be sorted by (src, dst) without duplicates (use from_edges); "
            f"edge {edge} ({src[edge]}->{dst[edge]}) comes after {src[edge - 1]}->{dst[edge - 1]}"
        )


def _row_pointers(sorted_src: np.ndarray, num_vertices: int) -> np.ndarray:
    """CSR row pointers (length V+1) of edges sorted by source: int32, or int64
    for more than 2^31 - 1 edges."""
    row_ptr = native.row_pointers(sorted_src, num_vertices)
    row_ptr.setflags(write=False)
    return row_ptr


def _transposed(graph: Graph) -> Graph:
    """`graph` with every edge reversed."""
    src, dst, weights = native.transpose(graph.src, graph.dst, graph.weights, graph.num_vertices)
    transposed = Graph(graph.num_vertices, src, dst, weights)
    transposed._derived["transpose"] = graph
    return transposed


def mark_symmetric(graph: Graph) -> Graph:
    """Record that `graph` equals its transpose (weights included), so `csc` reuses `csr`."""
    graph._derived["transpose"] = graph
    return graph


# --------------------------------------------------------------------------------------
# Building graphs from edges and from other libraries
# --------------------------------------------------------------------------------------


def from_edges(
    num_vertices: int, src: np.ndarray, dst: np.ndarray, weights: np.ndarray | None = None
) -> Graph:
    """A Graph from edge arrays in any order: edges are sorted and exact duplicates dropped.

    Of duplicate (src, dst) pairs the first one (in the given order) keeps its weight.
    Weights must be integers that fit in int32: floats with no fraction are taken,
    others raise `FractionalWeights` (gir never rounds a weight).
    """
    num_vertices = _checked_vertex_count(num_vertices)
    src_ids = _checked_ids(src, "src", num_vertices)
    dst_ids = _checked_ids(dst, "dst", num_vertices)
    if src_ids.shape != dst_ids.shape:
        raise GraphError(f"src has {src_ids.size} entries but dst has {dst_ids.size}")
    edge_weights = None if weights is None else _integer_weights(weights, src_ids.size)
    return Graph(num_vertices, *native.sort_unique(src_ids, dst_ids, edge_weights))


def from_scipy(matrix: object, *, weighted: bool | None = None) -> Graph:
    """A Graph from a scipy sparse matrix: entry (i, j) is the edge i->j.

    Every stored entry is an edge (explicit zeros too); duplicate entries are summed as
    scipy does. The vertex count is the larger matrix dimension. With `weighted=None`
    the graph is weighted unless the matrix holds booleans; values with a fraction
    raise `FractionalWeights`.
    """
    import scipy.sparse as sparse

    if not sparse.issparse(matrix):
        raise GraphError(f"expected a scipy sparse matrix, got {type(matrix).__name__}")
    coo = sparse.coo_array(sparse.csr_array(matrix))
    keep_weights = coo.dtype != np.bool_ if weighted is None else weighted
    return from_edges(
        max(coo.shape, default=0), coo.row, coo.col, coo.data if keep_weights else None
    )


def from_networkx(graph: object, *, weighted: bool = True) -> Graph:
    """A Graph from a networkx graph; undirected edges become two directed edges.

    Nodes 0..n-1 keep their ids; other node sets are numbered in `graph.nodes` order.
    The graph is weighted when every edge has a 'weight' attribute (and `weighted`);
    weights with a fraction raise `FractionalWeights`.
    """
    import networkx as nx

    if not isinstance(graph, nx.Graph):
        raise GraphError(f"expected a networkx graph, got {type(graph).__name__}")
    nodes = list(graph.nodes)
    index = {node: position for position, node in enumerate(nodes)}
    if set(nodes) == set(range(len(nodes))):
        index = {node: node for node in nodes}
    edges = list(graph.edges(data="weight"))
    src = np.fromiter((index[u] for u, _, _ in edges), dtype=np.int64, count=len(edges))
    dst = np.fromiter((index[v] for _, v, _ in edges), dtype=np.int64, count=len(edges))
    weights = _networkx_weights([weight for _, _, weight in edges]) if weighted else None
    if not graph.is_directed():
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
        weights = None if weights is None else np.concatenate([weights, weights])
    return from_edges(len(nodes), src, dst, weights)


def _networkx_weights(edge_weights: list[object]) -> np.ndarray | None:
    """The 'weight' attributes of networkx edges as floats, or None unless every edge has one."""
    if not edge_weights or any(weight is None for weight in edge_weights):
        return None
    try:
        return np.asarray(edge_weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise GraphError("the 'weight' attributes of the networkx edges must be numbers") from None


def _checked_ids(values: np.ndarray, name: str, num_vertices: int) -> np.ndarray:
    """`values` as an int64 array of vertex ids, each in [0, num_vertices)."""
    ids = np.asarray(values)
    if ids.ndim != 1 or not (np.issubdtype(ids.dtype, np.integer) or ids.size == 0):
        raise GraphError(
            f"{name} must be a 1-D integer array (got shape {ids.shape}, dtype {ids.dtype})"
        )
    ids = ids.astype(np.int64, copy=False)
    if ids.size and (ids.min() < 0 or ids.max() >= num_vertices):
        bad = int(ids.min()) if ids.min() < 0 else int(ids.max())
        raise GraphError(f"{name} holds vertex id {bad}, outside [0, {num_vertices - 1}]")
    return ids


class FractionalWeights(GraphError):
    """Edge weights with a fraction, which gir's int32 weights cannot hold: gir
    does not round them (a program that reads no weights runs without them,
    `gir.api.to_graph`)."""


def _integer_weights(values: np.ndarray, num_edges: int) -> np.ndarray:
    """Edge weights as int32: floats must have no fraction (`FractionalWeights`);
    every value must be finite and fit int32."""
    weights = np.asarray(values)
    if weights.shape != (num_edges,):
        raise GraphError(f"weights has shape {weights.shape}, expected ({num_edges},)")
    if not any(np.issubdtype(weights.dtype, kind) for kind in (np.bool_, np.integer, np.floating)):
        raise GraphError(f"weights must be numbers (got dtype {weights.dtype})")
    if np.issubdtype(weights.dtype, np.floating):
        if not np.isfinite(weights).all():
            raise GraphError("weights must be finite numbers")
        fractional = np.flatnonzero(weights != np.trunc(weights))
        if fractional.size:
            first = int(fractional[0])
            raise FractionalWeights(
                f"{fractional.size} of the {num_edges} edge weights have a fraction (the "
                f"first, {float(weights[first])!r}, on edge {first} in the given order): "
                "gir's graphs hold int32 weights and never round them; scale them to "
                "integers yourself, e.g. numpy.rint(weights * 1000)"
            )
    if weights.size and (weights.min() < INT32_MIN or weights.max() > INT32_MAX):
        raise GraphError(
            f"weights must fit in int32 (found values in [{weights.min()}, {weights.max()}])"
        )
    return weights.astype(np.int32)
