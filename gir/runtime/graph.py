"""Graphs on the host: the `Graph` class, file loaders, synthetic generators and a cache.

A `Graph` is a directed graph in COO form, sorted by (src, dst), without duplicate
edges, with optional int32 weights. `load_graph` builds one from a file (`.el`,
`.wel`, `.mtx`) or from a generator spec (`rmat:…`, `road:…`, `uniform:…`).

Text files are parsed with vectorized numpy code (`np.fromstring` for the numbers,
byte-level masks for comments and per-line column counts); lines are only scanned one
by one in Python once a chunk is known to be malformed, to name the offending line.
Parsed files, and large generated graphs, are cached as `.npz` files in
`$GIR_CACHE_DIR` (default `~/.cache/gir`).
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import zipfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from gir.diagnostics import UserError
from gir.tools.output import OutputError, open_output, remove_stale_temporaries, write_npz

ProgressCallback = Callable[[str], None]
CsrArrays = tuple[np.ndarray, np.ndarray, "np.ndarray | None"]

INT32_MAX = int(np.iinfo(np.int32).max)
INT32_MIN = int(np.iinfo(np.int32).min)
MAX_VERTICES = INT32_MAX  # ids are int32, so the largest id is INT32_MAX - 1

# An edge key is the int64 (src << 32) | dst, built and split through an int32 view.
_KEY_LOW_HALF, _KEY_HIGH_HALF = (0, 1) if sys.byteorder == "little" else (1, 0)

_CACHE_FORMAT_VERSION = 2
_GENERATOR_VERSION = 1
_GENERATOR_CACHE_MIN_VERTICES = 1 << 20  # "rmat:20" and up
_PARSE_CHUNK_BYTES = 1 << 24
_COMMENT_BYTES = (ord("#"), ord("%"))
_ERROR_TEXT_LIMIT = 80


class GraphError(UserError):
    """A user error about a graph input: a missing, malformed or truncated file, or a bad spec.

    `str(error)` is one line: `path:line: error: message` when the error comes from a
    line of a text file, `path: error: message` for a whole file, `error: message`
    otherwise. `path` and `line` are kept as attributes (None when not known).
    """

    def __init__(
        self, message: str, *, path: str | os.PathLike[str] | None = None, line: int | None = None
    ):
        location = (
            "" if path is None else f"{os.fspath(path)}:" + ("" if line is None else f"{line}:")
        )
        super().__init__(f"{location}{' ' if location else ''}error: {message}")
        self.path = None if path is None else os.fspath(path)
        self.line = line
        self.message = message


# --------------------------------------------------------------------------------------
# The Graph class
# --------------------------------------------------------------------------------------


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
    _derived: dict[str, object] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        num_vertices = _checked_vertex_count(self.num_vertices)
        src = _as_int32_column(self.src, "src", upper=num_vertices)
        dst = _as_int32_column(self.dst, "dst", upper=num_vertices)
        if src.shape != dst.shape:
            raise GraphError(f"src has {src.size} entries but dst has {dst.size}")
        weights = None
        if self.weights is not None:
            weights = _as_int32_column(
                self.weights, "weights", lower=INT32_MIN, upper=INT32_MAX + 1
            )
            if weights.shape != src.shape:
                raise GraphError(
                    f"weights has {weights.size} entries but there are {src.size} edges"
                )
        _check_sorted_unique(src, dst)
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
        """Out-edges in CSR form: (row_ptr int32 [V+1], col_idx int32, weights int32 or None)."""
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
            _mark_symmetric(graph)
        return graph

    def largest_degree_vertex(self) -> int:
        """The vertex with the most out-edges (the smallest such id on ties)."""
        if self.num_vertices == 0:
            raise GraphError("the graph has no vertices")
        return int(np.argmax(self.out_degrees()))

    def blocked(self, size: int, by_source: bool = False) -> BlockedEdges:
        """The edges tiled by destination range `size` (G2's EdgeBlocking for
        PUSH), or with `by_source` by source range, each block in destination
        order (PULL: the transpose's tiling); made once per size, and cached on
        disk beside the graph when the graph came from the cache."""
        key = f"blocked:{size}:{'src' if by_source else 'dst'}"
        cached = self._derived.get(key)
        if cached is None:
            entry = self._derived.get(_CACHE_ENTRY)
            weighted = self.weights is not None
            cache_entry = entry.blocked(size, weighted, by_source) if entry else None
            cached = cache_entry.read_blocked(self, size) if cache_entry else None
            if cached is None:
                cached = _blocked_edges(self, size, by_source)
                if cache_entry:
                    cache_entry.write_arrays(cached.arrays(), _ignore_progress)
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
    """int32, one entry per block plus one (ceil(V / size) + 1 entries)."""
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


def _blocked_edges(graph: Graph, size: int, by_source: bool = False) -> BlockedEdges:
    """`graph`'s edges ordered by (dst // size, src, dst): a stable sort by block of
    the (src, dst)-sorted edges (a radix sort while the block ids fit in 16 bits);
    `by_source`: by (src // size, dst, src), the same of the (dst, src)-sorted ones."""
    if size <= 0:
        raise GraphError(f"edge blocking needs a positive blocking size, got {size}")
    count = block_count(graph.num_vertices, size)
    within: np.ndarray | None = None
    tiled = graph.dst
    if by_source:
        within = np.lexsort((graph.src, graph.dst))  # the transpose's (CSC) order
        tiled = graph.src[within]
    blocks = (tiled // size).astype(np.uint16 if count <= 1 << 16 else np.int32)
    order = np.argsort(blocks, kind="stable")
    if within is not None:
        order = within[order]
    offsets = np.zeros(count + 1, dtype=np.int32)
    np.cumsum(np.bincount(blocks, minlength=count), out=offsets[1:])

    def reordered(column: np.ndarray) -> np.ndarray:
        array = column[order]
        array.setflags(write=False)
        return array

    offsets.setflags(write=False)
    weights = None if graph.weights is None else reordered(graph.weights)
    return BlockedEdges(size, offsets, reordered(graph.src), reordered(graph.dst), weights)


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
    """CSR row pointers (int32, length V+1) of edges sorted by source."""
    if sorted_src.size > INT32_MAX:
        raise GraphError(f"{sorted_src.size} edges do not fit in int32 CSR row pointers")
    row_ptr = np.zeros(num_vertices + 1, dtype=np.int32)
    np.cumsum(np.bincount(sorted_src, minlength=num_vertices), out=row_ptr[1:])
    row_ptr.setflags(write=False)
    return row_ptr


def _transposed(graph: Graph) -> Graph:
    """`graph` with every edge reversed."""
    keys = _edge_keys(graph.dst, graph.src)
    if graph.weights is None:
        keys.sort()
        weights = None
    else:
        order = np.argsort(keys)  # keys are unique, so an unstable sort is exact
        keys = keys[order]
        weights = graph.weights[order]
    src, dst = _split_keys(keys)
    transposed = Graph(graph.num_vertices, src, dst, weights)
    transposed._derived["transpose"] = graph
    return transposed


def _mark_symmetric(graph: Graph) -> Graph:
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
    Float weights are rounded to the nearest integer; all weights must fit in int32.
    """
    num_vertices = _checked_vertex_count(num_vertices)
    src_ids = _checked_ids(src, "src", num_vertices)
    dst_ids = _checked_ids(dst, "dst", num_vertices)
    if src_ids.shape != dst_ids.shape:
        raise GraphError(f"src has {src_ids.size} entries but dst has {dst_ids.size}")
    edge_weights = None if weights is None else _integer_weights(weights, src_ids.size)
    keys = _edge_keys(src_ids, dst_ids)
    if keys.size > 1 and not (keys[1:] > keys[:-1]).all():
        keys, edge_weights = _sorted_unique_keys(keys, edge_weights)
    sorted_src, sorted_dst = _split_keys(keys)
    return Graph(num_vertices, sorted_src, sorted_dst, edge_weights)


def from_scipy(matrix: object, *, weighted: bool | None = None) -> Graph:
    """A Graph from a scipy sparse matrix: entry (i, j) is the edge i->j.

    Every stored entry is an edge (explicit zeros too); duplicate entries are summed as
    scipy does. The vertex count is the larger matrix dimension. With `weighted=None`
    the graph is weighted unless the matrix holds booleans; float values are rounded.
    """
    import scipy.sparse as sparse

    if not sparse.issparse(matrix):
        raise GraphError(f"expected a scipy sparse matrix, got {type(matrix).__name__}")
    coo = sparse.coo_array(sparse.csr_array(matrix))
    keep_weights = coo.dtype != np.bool_ if weighted is None else weighted
    return from_edges(
        max(coo.shape, default=0), coo.row, coo.col, coo.data if keep_weights else None
    )


def from_networkx(graph: object) -> Graph:
    """A Graph from a networkx graph; undirected edges become two directed edges.

    Nodes 0..n-1 keep their ids; other node sets are numbered in `graph.nodes` order.
    The graph is weighted (rounded to int) when every edge has a 'weight' attribute.
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
    weights = _networkx_weights([weight for _, _, weight in edges])
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


def _integer_weights(values: np.ndarray, num_edges: int) -> np.ndarray:
    """Edge weights as int32: floats are rounded; every value must be finite and fit int32."""
    weights = np.asarray(values)
    if weights.shape != (num_edges,):
        raise GraphError(f"weights has shape {weights.shape}, expected ({num_edges},)")
    if not any(np.issubdtype(weights.dtype, kind) for kind in (np.bool_, np.integer, np.floating)):
        raise GraphError(f"weights must be numbers (got dtype {weights.dtype})")
    if np.issubdtype(weights.dtype, np.floating):
        if not np.isfinite(weights).all():
            raise GraphError("weights must be finite numbers")
        weights = np.rint(weights)
    if weights.size and (weights.min() < INT32_MIN or weights.max() > INT32_MAX):
        raise GraphError(
            f"weights must fit in int32 (found values in [{weights.min()}, {weights.max()}])"
        )
    return weights.astype(np.int32)


def _edge_keys(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """One int64 per edge that sorts like (src, dst); ids must be valid (non-negative int32)."""
    keys = np.empty(src.size, dtype=np.int64)
    _fill_edge_keys(keys, src, dst)
    return keys


def _fill_edge_keys(keys: np.ndarray, src: np.ndarray, dst: np.ndarray) -> None:
    """Write the keys of edges src[i]->dst[i] into the contiguous int64 array `keys`."""
    halves = keys.view(np.int32).reshape(-1, 2)
    halves[:, _KEY_HIGH_HALF] = src
    halves[:, _KEY_LOW_HALF] = dst


def _split_keys(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The (src, dst) int32 arrays of a contiguous array of edge keys."""
    halves = keys.view(np.int32).reshape(-1, 2)
    return halves[:, _KEY_HIGH_HALF].copy(), halves[:, _KEY_LOW_HALF].copy()


def _sorted_unique_keys(
    keys: np.ndarray, weights: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray | None]:
    """Sort edge keys (in place when unweighted) and drop duplicates.

    A duplicated edge keeps the weight of its first occurrence.
    """
    if weights is None:
        keys.sort()
        return keys[_first_of_runs(keys)], None
    order = np.argsort(keys)
    sorted_keys = keys[order]
    run_starts = np.flatnonzero(_first_of_runs(sorted_keys))
    if run_starts.size == sorted_keys.size:
        return sorted_keys, weights[order]
    first_positions = np.minimum.reduceat(order, run_starts)  # earliest input position per edge
    return sorted_keys[run_starts], weights[first_positions]


def _first_of_runs(sorted_values: np.ndarray) -> np.ndarray:
    """A mask of the entries of a sorted array that differ from their predecessor."""
    mask = np.empty(sorted_values.size, dtype=bool)
    mask[:1] = True
    np.not_equal(sorted_values[1:], sorted_values[:-1], out=mask[1:])
    return mask


# --------------------------------------------------------------------------------------
# load_graph
# --------------------------------------------------------------------------------------


def load_graph(
    spec: str | os.PathLike[str],
    *,
    weighted: bool | None = None,
    cache: bool = True,
    progress: ProgressCallback | None = None,
) -> Graph:
    """Load a graph from a file (`.el`, `.wel`, `.mtx`) or generate one from a spec.

    Generator specs: `rmat:SCALE[:EDGEFACTOR]`, `road:W:H`, `uniform:N:M`, optionally
    followed by `,w` (integer weights) and `,seed=N`. `weighted=True` asks for weights
    (a generator adds them; a file without weights is an error), `weighted=False` drops
    them, None keeps what the source has. With `cache`, parsed files and generated
    graphs with at least 2^20 vertices are cached in `$GIR_CACHE_DIR` (default
    `~/.cache/gir`). `progress` receives a short message before the long steps.
    Raises GraphError for every problem with the input.
    """
    spec = os.fspath(spec)
    report = progress or _ignore_progress
    if _GENERATOR_PREFIX.match(spec) and not os.path.exists(spec):
        return _load_generated(_parse_generator_spec(spec, weighted), cache, report)
    return _load_file(Path(spec), weighted, cache, report)


def _ignore_progress(message: str) -> None:
    """The progress callback used when the caller gives none."""


def _load_file(path: Path, weighted: bool | None, cache: bool, report: ProgressCallback) -> Graph:
    """Load a graph file, through the cache when allowed, and apply the `weighted` request."""
    parser = _FILE_PARSERS.get(path.suffix.lower())
    if not path.is_file():
        raise GraphError(f"graph file not found: {path}")
    if parser is None:
        raise GraphError(
            f"unknown graph file extension '{path.suffix}' (expected .el, .wel or .mtx)", path=path
        )
    stat = path.stat()
    cache_entry = _CacheEntry.for_file(path, stat.st_size, stat.st_mtime_ns) if cache else None
    graph = cache_entry.read(report) if cache_entry else None
    if graph is None:
        check_host_memory(stat.st_size, f"reading {path}")
        report(f"parsing {path.name} ({format_bytes(stat.st_size)})...")
        data = _read_bytes(path)
        check_host_memory(
            stat.st_size + _HOST_BYTES_PER_PARSED_LINE * (data.count(b"\n") + 1), f"parsing {path}"
        )
        graph = parser(path, data)
        if cache_entry:
            cache_entry.write(graph, report)
    return _remember_entry(_with_weight_request(graph, weighted, path), cache_entry)


def _read_bytes(path: Path) -> bytes:
    """The content of a file; an unreadable file is a GraphError."""
    try:
        return path.read_bytes()
    except OSError as error:
        raise GraphError(f"cannot read the file: {error.strerror}", path=path) from None


def _with_weight_request(graph: Graph, weighted: bool | None, path: Path) -> Graph:
    """Apply load_graph's `weighted` argument to a graph read from `path`."""
    if weighted and graph.weights is None:
        raise GraphError(
            "the graph has no weights; the program needs a weighted edgeset "
            "(use a .wel file or ',w')",
            path=path,
        )
    if weighted is False and graph.weights is not None:
        return Graph(graph.num_vertices, graph.src, graph.dst, None)
    return graph


# --------------------------------------------------------------------------------------
# Memory: what a graph needs, checked before the work starts
# --------------------------------------------------------------------------------------

MAX_EDGES = INT32_MAX
"""CSR row pointers are int32: a graph holds at most this many (directed) edges."""

# Peak host bytes while building a graph, measured on the code paths below (int64
# keys, sort and split; the int64 table of a text parse; the uint32 draws of RMAT).
_HOST_BYTES_PER_EDGE = 48
_HOST_BYTES_PER_PARSED_LINE = 64
_HOST_BYTES_PER_VERTEX = 16

_max_memory: int | None = None


def set_max_memory(limit: int | None) -> None:
    """Let graphs use `limit` bytes of host memory; None: what the system has available."""
    global _max_memory
    _max_memory = limit


def available_host_memory() -> int | None:
    """The bytes this process can still allocate, or None when the system does not say.

    The smallest of the kernel's MemAvailable, the cgroup's remaining limit and the
    address-space limit (`ulimit -v`) minus what the process already maps.
    """
    limits = [
        _meminfo_bytes("/proc/meminfo", "MemAvailable:"),
        _cgroup_remaining(),
        _address_space_remaining(),
    ]
    known = [limit for limit in limits if limit is not None]
    return min(known) if known else None


def check_host_memory(needed: int, what: str) -> None:
    """Raise GraphError when `what` needs more than the host memory gir may use."""
    limit = _max_memory if _max_memory is not None else available_host_memory()
    if limit is not None and needed > limit:
        source = "--max-memory allows" if _max_memory is not None else "the host has"
        raise GraphError(
            f"{what} needs about {format_bytes(needed)} of memory, but {source} "
            f"{format_bytes(limit)} (gir-run --max-memory BYTES overrides this)"
        )


def device_graph_bytes(num_vertices: int, num_edges: int, weighted: bool) -> int:
    """Device bytes of a graph's CSR and CSC arrays (int32 offsets, ids and weights)."""
    per_layout = 4 * (num_vertices + 1) + 4 * num_edges * (2 if weighted else 1)
    return 2 * per_layout


def check_device_memory(needed: int, free: int | None, device: str) -> None:
    """Raise GraphError when `needed` bytes do not fit in the `free` bytes of `device`.

    For the runtime to call before it allocates; `free` is None when the device
    does not report its free memory.
    """
    if free is not None and needed > free:
        raise GraphError(
            f"the program needs about {format_bytes(needed)} on {device}, "
            f"which has {format_bytes(free)} free"
        )


def check_edge_count(num_edges: int, what: str) -> None:
    """Raise GraphError when `num_edges` edges need 64-bit CSR offsets."""
    if num_edges > MAX_EDGES:
        raise GraphError(
            f"{what} has {num_edges:,} edges, but gir's edge offsets are 32-bit "
            f"(at most {MAX_EDGES:,} edges); 64-bit offsets are not supported"
        )


def format_bytes(num_bytes: int) -> str:
    """A byte count for messages: '24.0 GB', '512 MB', '3 KB'."""
    if num_bytes >= 1 << 30:
        return f"{num_bytes / (1 << 30):.1f} GB"
    if num_bytes >= 1 << 20:
        return f"{num_bytes / (1 << 20):.0f} MB"
    return f"{max(1, round(num_bytes / 1024))} KB"


def _graph_bytes(num_vertices: int, num_edges: int) -> int:
    """Peak host bytes of building a graph from `num_edges` edges over `num_vertices`."""
    return _HOST_BYTES_PER_EDGE * num_edges + _HOST_BYTES_PER_VERTEX * num_vertices


def _meminfo_bytes(path: str, field: str) -> int | None:
    try:
        with open(path) as stream:
            for line in stream:
                if line.startswith(field):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _cgroup_remaining() -> int | None:
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        if limit == "max":
            return None
        return int(limit) - int(Path("/sys/fs/cgroup/memory.current").read_text())
    except (OSError, ValueError):
        return None


def _address_space_remaining() -> int | None:
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    mapped = _meminfo_bytes("/proc/self/status", "VmSize:")
    return soft - (mapped or 0)


# --------------------------------------------------------------------------------------
# Text parsing: vectorized tables of numbers with per-line error reports
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _TextBody:
    """The part of a text file that holds one edge per line (comments and blanks allowed)."""

    path: Path
    data: bytes
    start: int  # byte offset of the first body line
    first_line: int  # 1-based line number of the first body line

    def chunks(self) -> Iterator[tuple[bytes, int]]:
        """Pieces of the body that end at line ends, each with its byte offset in the file."""
        offset = self.start
        while offset < len(self.data):
            end = self.data.find(b"\n", min(offset + _PARSE_CHUNK_BYTES, len(self.data) - 1))
            end = len(self.data) if end < 0 else end + 1
            yield self.data[offset:end], offset
            offset = end

    def line_at(self, offset: int) -> int:
        """The 1-based line number of the body line that starts at byte `offset`."""
        return self.first_line + self.data.count(b"\n", self.start, offset)

    def data_line(self, row: int) -> tuple[int, str]:
        """The line number and text of the `row`-th data line (0-based); slow, for errors."""
        for number, text in _numbered_lines(self.data[self.start :], self.first_line):
            if not _is_blank_or_comment(text):
                if row == 0:
                    return number, _display(text)
                row -= 1
        raise AssertionError(f"{self.path} has no data line {row}")

    def error_at_row(self, row: int, message: str) -> GraphError:
        """A GraphError located at the `row`-th data line."""
        line, text = self.data_line(row)
        return GraphError(f"{message}: '{text}'", path=self.path, line=line)


_INTEGER_TOKEN = re.compile(rb"[+-]?[0-9]+")
_NUMBER_TOKEN = re.compile(rb"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _parse_table(body: _TextBody, columns: int, dtype: type[np.generic]) -> np.ndarray:
    """The numbers of a text body as a (rows, columns) array of `dtype` (int64 or float64).

    Each data line must hold exactly `columns` numbers; lines starting with '#' or '%'
    are comments. Raises GraphError naming the first bad line.
    """
    pieces = []
    for chunk, offset in body.chunks():
        values = _parse_chunk(chunk, columns, dtype)
        if values is None:
            raise _first_bad_line_error(body.path, chunk, body.line_at(offset), columns, dtype)
        pieces.append(values)
    values = np.concatenate(pieces) if pieces else np.empty(0, dtype=dtype)
    return values.reshape(-1, columns)


def _parse_chunk(chunk: bytes, columns: int, dtype: type[np.generic]) -> np.ndarray | None:
    """The numbers of a chunk of whole lines, or None if some line is malformed."""
    if not chunk.endswith(b"\n"):
        chunk += b"\n"
    raw = np.frombuffer(chunk, dtype=np.uint8)
    text = _blank_comment_lines(raw)
    if text is not raw:
        chunk = text.tobytes()
    tokens_per_line = _tokens_per_line(text)
    if not ((tokens_per_line == 0) | (tokens_per_line == columns)).all():
        return None
    if tokens_per_line.sum() == 0:
        return np.empty(0, dtype=dtype)  # np.fromstring reads whitespace alone as [0]
    try:
        values = np.fromstring(chunk, dtype=dtype, sep=" ")
    except ValueError:
        return None
    return values if values.size == tokens_per_line.sum() else None


def _blank_comment_lines(text: np.ndarray) -> np.ndarray:
    """`text` with every line that starts with '#' or '%' replaced by spaces (a copy if any)."""
    marks = np.flatnonzero((text == _COMMENT_BYTES[0]) | (text == _COMMENT_BYTES[1]))
    starts = marks[(marks == 0) | (text[marks - 1] == ord("\n"))]
    if starts.size == 0:
        return text
    line_ends = np.flatnonzero(text == ord("\n"))
    ends = line_ends[np.searchsorted(line_ends, starts)]
    inside = np.zeros(text.size + 1, dtype=np.int8)
    inside[starts] = 1
    inside[ends] = -1
    blanked = text.copy()
    blanked[np.cumsum(inside[:-1], dtype=np.int8).astype(bool)] = ord(" ")
    return blanked


def _tokens_per_line(text: np.ndarray) -> np.ndarray:
    """How many whitespace-separated tokens each line of `text` (ending with '\\n') holds."""
    is_space = (text == ord(" ")) | ((text - np.uint8(9)) < 5)  # space, \t \n \v \f \r
    token_start = np.empty(text.size, dtype=bool)
    token_start[:1] = ~is_space[:1]
    np.greater(is_space[:-1], is_space[1:], out=token_start[1:])
    start_positions = np.flatnonzero(token_start)
    line_ends = np.flatnonzero(text == ord("\n"))
    tokens_before_end = np.searchsorted(start_positions, line_ends)
    return np.diff(tokens_before_end, prepend=0)


def _first_bad_line_error(
    path: Path, chunk: bytes, first_line: int, columns: int, dtype: type[np.generic]
) -> GraphError:
    """The GraphError for the first malformed line of a chunk (a slow, line-by-line scan)."""
    token_pattern, kind = (
        (_INTEGER_TOKEN, "an integer") if dtype == np.int64 else (_NUMBER_TOKEN, "a number")
    )
    for number, text in _numbered_lines(chunk, first_line):
        if _is_blank_or_comment(text):
            continue
        tokens = text.split()
        if len(tokens) != columns:
            return GraphError(
                f"expected {columns} columns, found {len(tokens)}: '{_display(text)}'",
                path=path,
                line=number,
            )
        for token in tokens:
            if not token_pattern.fullmatch(token):
                return GraphError(
                    f"'{_display(token)}' is not {kind}: '{_display(text)}'", path=path, line=number
                )
    last_line = first_line + chunk.count(b"\n")
    return GraphError(f"cannot parse lines {first_line}-{last_line}", path=path)


def _numbered_lines(text: bytes, first_line: int) -> Iterator[tuple[int, bytes]]:
    """The lines of `text` with their 1-based line numbers."""
    for offset, line in enumerate(text.split(b"\n")):
        yield first_line + offset, line


def _is_blank_or_comment(line: bytes) -> bool:
    """Whether a data line holds nothing to parse."""
    return not line.strip() or line[:1] in (b"#", b"%")


def _display(text: bytes) -> str:
    """A line or token as it appears in an error message: decoded, trimmed, shortened."""
    shown = text.decode("utf-8", errors="replace").strip()
    return shown if len(shown) <= _ERROR_TEXT_LIMIT else shown[: _ERROR_TEXT_LIMIT - 3] + "..."


def _checked_id_columns(
    body: _TextBody, ids: np.ndarray, *, base: int, limit: int | None
) -> np.ndarray:
    """Vertex id columns converted from `base`-based to 0-based int64, each id checked."""
    highest = MAX_VERTICES - 1 + base if limit is None else limit - 1 + base
    if ids.size == 0 or (ids.min() >= base and ids.max() <= highest):
        return ids - base if base else ids
    out_of_range = (ids < base) | (ids > highest)
    row = int(np.argmax(out_of_range.any(axis=1)))
    value = int(ids[row][out_of_range[row]][0])
    if value < base:
        message = (
            f"negative vertex id {value}" if base == 0 else f"vertex index {value} is below {base}"
        )
    elif limit is None:
        message = f"vertex id {value} is too large (at most {MAX_VERTICES - 1})"
    else:
        message = f"vertex index {value} is larger than the matrix size {limit}"
    raise body.error_at_row(row, message)


def _checked_weight_column(body: _TextBody, weights: np.ndarray) -> np.ndarray:
    """A weight column as int32 (floats rounded to the nearest integer), each value checked."""
    if np.issubdtype(weights.dtype, np.floating):
        finite = np.isfinite(weights)
        if not finite.all():
            raise body.error_at_row(int(np.argmin(finite)), "weight is not a finite number")
        weights = np.rint(weights)
    out_of_range = (weights < INT32_MIN) | (weights > INT32_MAX)
    if out_of_range.any():
        row = int(np.argmax(out_of_range))
        raise body.error_at_row(row, f"weight {weights[row]:.0f} does not fit in int32")
    return weights.astype(np.int32)


def _parse_edge_list(path: Path, data: bytes) -> Graph:
    """Parse an `.el` file: 'src dst' per line, 0-based ids."""
    return _edge_list_graph(_TextBody(path, data, 0, 1), weighted=False)


def _parse_weighted_edge_list(path: Path, data: bytes) -> Graph:
    """Parse a `.wel` file: 'src dst weight' per line, 0-based ids, integer weights."""
    return _edge_list_graph(_TextBody(path, data, 0, 1), weighted=True)


def _edge_list_graph(body: _TextBody, *, weighted: bool) -> Graph:
    """The graph of an edge list body; the vertex count is the largest id plus one."""
    table = _parse_table(body, 3 if weighted else 2, np.int64)
    ids = _checked_id_columns(body, table[:, :2], base=0, limit=None)
    weights = _checked_weight_column(body, table[:, 2]) if weighted else None
    num_vertices = int(ids.max()) + 1 if ids.size else 0
    _check_graph_size(body.path, num_vertices, ids.shape[0])
    return from_edges(num_vertices, ids[:, 0], ids[:, 1], weights)


def _check_graph_size(path: Path, num_vertices: int, num_edges: int) -> None:
    """Raise GraphError before building a graph of a file that cannot fit."""
    check_edge_count(num_edges, str(path))
    check_host_memory(
        _graph_bytes(num_vertices, num_edges),
        f"{path} ({num_vertices:,} vertices, {num_edges:,} edges)",
    )


# --------------------------------------------------------------------------------------
# Matrix Market
# --------------------------------------------------------------------------------------

_MTX_BANNER = "%%matrixmarket"
_MTX_FORM = "'%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>'"


@dataclass(frozen=True)
class _MtxHeader:
    """What the banner and size line of a Matrix Market file say."""

    value_kind: str  # pattern, integer or real
    symmetric: bool
    rows: int
    cols: int
    entries: int
    body: _TextBody


def _parse_matrix_market(path: Path, data: bytes) -> Graph:
    """Parse a Matrix Market coordinate file (1-based indices; entry (i, j) is the edge i->j).

    Fields pattern (unweighted), integer and real (weights; real values are rounded to
    the nearest int32). A symmetric file stores one triangle: the mirror of every
    off-diagonal entry is added. The vertex count is max(rows, cols).
    """
    header = _read_mtx_header(path, data)
    _check_graph_size(
        path, max(header.rows, header.cols), header.entries * (2 if header.symmetric else 1)
    )
    body = header.body
    is_pattern = header.value_kind == "pattern"
    table = _parse_table(
        body, 2 if is_pattern else 3, np.float64 if header.value_kind == "real" else np.int64
    )
    found = table.shape[0]
    if found != header.entries:
        problem = "truncated file" if found < header.entries else "too many entries"
        declared = f"the size line (line {body.first_line - 1}) declares {header.entries} entries"
        raise GraphError(f"{problem}: {declared} but {found} were found", path=path)
    ids = _mtx_index_columns(body, header, table[:, :2])
    weights = None if is_pattern else _checked_weight_column(body, table[:, 2])
    src, dst = ids[:, 0], ids[:, 1]
    if header.symmetric:
        off_diagonal = src != dst
        src, dst = np.concatenate([src, dst[off_diagonal]]), np.concatenate(
            [dst, src[off_diagonal]]
        )
        weights = None if weights is None else np.concatenate([weights, weights[off_diagonal]])
    return from_edges(max(header.rows, header.cols), src, dst, weights)


def _mtx_index_columns(body: _TextBody, header: _MtxHeader, indices: np.ndarray) -> np.ndarray:
    """The 1-based row/column indices of a Matrix Market body as 0-based int64 ids."""
    if np.issubdtype(indices.dtype, np.floating):
        integral = (np.isfinite(indices) & (indices == np.floor(indices))).all(axis=1)
        if not integral.all():
            raise body.error_at_row(
                int(np.argmin(integral)), "row and column indices must be integers"
            )
        indices = indices.astype(np.int64)
    rows = _checked_id_columns(body, indices[:, :1], base=1, limit=header.rows)
    cols = _checked_id_columns(body, indices[:, 1:], base=1, limit=header.cols)
    return np.concatenate([rows, cols], axis=1)


def _read_mtx_header(path: Path, data: bytes) -> _MtxHeader:
    """Read the banner, comments and size line of a Matrix Market file."""
    lines = _numbered_header_lines(data)
    number, offset, banner = next(lines, (1, 0, b""))
    words = banner.decode("ascii", errors="replace").lower().split()
    if len(words) != 5 or words[0] != _MTX_BANNER or words[1] != "matrix":
        raise GraphError(
            f"not a Matrix Market file: expected the banner {_MTX_FORM}", path=path, line=number
        )
    if words[2] != "coordinate":
        raise GraphError(
            f"only the 'coordinate' Matrix Market format is supported, not '{words[2]}'",
            path=path,
            line=number,
        )
    if words[3] not in ("pattern", "integer", "real"):
        raise GraphError(
            f"unsupported Matrix Market field '{words[3]}' (expected pattern, integer or real)",
            path=path,
            line=number,
        )
    if words[4] not in ("general", "symmetric"):
        raise GraphError(
            f"unsupported Matrix Market symmetry '{words[4]}' (expected general or symmetric)",
            path=path,
            line=number,
        )
    for number, offset, text in lines:
        if _is_blank_or_comment(text):
            continue
        sizes = text.split()
        if len(sizes) != 3 or not all(
            _INTEGER_TOKEN.fullmatch(size) and int(size) >= 0 for size in sizes
        ):
            raise GraphError(
                f"expected the size line 'ROWS COLS ENTRIES': '{_display(text)}'",
                path=path,
                line=number,
            )
        rows, cols, entries = (int(size) for size in sizes)
        if max(rows, cols) > MAX_VERTICES:
            raise GraphError(
                f"the matrix is too large for int32 vertex ids: '{_display(text)}'",
                path=path,
                line=number,
            )
        body = _TextBody(path, data, offset + len(text) + 1, number + 1)
        return _MtxHeader(words[3], words[4] == "symmetric", rows, cols, entries, body)
    raise GraphError("truncated file: the size line 'ROWS COLS ENTRIES' is missing", path=path)


def _numbered_header_lines(data: bytes) -> Iterator[tuple[int, int, bytes]]:
    """(line number, byte offset, text) of the lines of `data`, read lazily from the start."""
    offset, number = 0, 1
    while offset < len(data):
        end = data.find(b"\n", offset)
        end = len(data) if end < 0 else end
        yield number, offset, data[offset:end]
        offset, number = end + 1, number + 1


_FILE_PARSERS: dict[str, Callable[[Path, bytes], Graph]] = {
    ".el": _parse_edge_list,
    ".wel": _parse_weighted_edge_list,
    ".mtx": _parse_matrix_market,
}


# --------------------------------------------------------------------------------------
# Generators
# --------------------------------------------------------------------------------------

_GENERATOR_PREFIX = re.compile(r"^[A-Za-z_]\w*:")
_GENERATOR_FORMS = {
    "rmat": "rmat:SCALE[:EDGEFACTOR]",
    "road": "road:W:H",
    "uniform": "uniform:N:M",
}
_OPTIONS_FORM = "[,w][,seed=N]"
_RMAT_PROBABILITIES = (0.57, 0.19, 0.19, 0.05)  # Graph500 a, b, c, d
_RMAT_DEFAULT_EDGE_FACTOR = 16
_RMAT_MAX_SCALE = 30
_RMAT_CHUNK_EDGES = 1 << 20
_ROAD_DELETE_PROBABILITY = 0.10
_MAX_WEIGHTS = {"rmat": 1000, "road": 10000, "uniform": 1000}


@dataclass(frozen=True)
class _GeneratorSpec:
    """A parsed generator spec such as `rmat:16:8,w,seed=3`."""

    name: str
    sizes: tuple[int, ...]
    weighted: bool
    seed: int

    def __str__(self) -> str:
        weights = ",w" if self.weighted else ""
        return f"{self.name}:{':'.join(map(str, self.sizes))}{weights},seed={self.seed}"

    @property
    def num_vertices(self) -> int:
        """How many vertices the generated graph has."""
        if self.name == "rmat":
            return 1 << self.sizes[0]
        if self.name == "road":
            return self.sizes[0] * self.sizes[1]
        return self.sizes[0]

    @property
    def drawn_edges(self) -> int:
        """How many edges the generator draws before symmetrizing."""
        if self.name == "rmat":
            return self.sizes[1] << self.sizes[0]
        if self.name == "road":
            width, height = self.sizes
            return (width - 1) * height + width * (height - 1)
        return self.sizes[1]

    @property
    def max_edges(self) -> int:
        """An upper bound of the generated graph's directed edges (both directions)."""
        return 2 * self.drawn_edges


def _parse_generator_spec(spec: str, weighted: bool | None) -> _GeneratorSpec:
    """Parse `NAME:SIZES[,w][,seed=N]`; `weighted` (when not None) overrides `,w`."""
    head, *options = spec.split(",")
    name, *size_texts = head.split(":")
    form = _GENERATOR_FORMS.get(name)
    if form is None:
        known = ", ".join(f"'{known_form}'" for known_form in _GENERATOR_FORMS.values())
        raise GraphError(
            f"unknown graph generator '{name}' in '{spec}' (expected {known}, or a graph file)"
        )
    expected = f"bad graph generator spec '{spec}': expected '{form}{_OPTIONS_FORM}'"
    sizes = tuple(_spec_integer(text, expected) for text in size_texts)
    wants_weights, seed = _parse_generator_options(options, expected)
    _check_generator_sizes(name, sizes, expected)
    if name == "rmat" and len(sizes) == 1:
        sizes += (_RMAT_DEFAULT_EDGE_FACTOR,)
    parsed = _GeneratorSpec(name, sizes, wants_weights if weighted is None else weighted, seed)
    # Symmetrizing doubles the drawn edges and drops duplicates: whether the result
    # fits is known only once it is built (`_row_pointers` checks it then), so the
    # spec is refused at once only when one direction alone is too many.
    check_edge_count(parsed.drawn_edges, f"'{spec}'")
    return parsed


def _parse_generator_options(options: list[str], expected: str) -> tuple[bool, int]:
    """The (weighted, seed) given by the comma-separated options of a generator spec."""
    weighted, seed = False, 0
    for option in options:
        if option == "w":
            weighted = True
        elif option.startswith("seed="):
            seed = _spec_integer(option.removeprefix("seed="), expected)
        else:
            raise GraphError(f"{expected} (unknown option '{option}')")
    return weighted, seed


def _spec_integer(text: str, expected: str) -> int:
    """A non-negative decimal integer of a generator spec."""
    if not text.isdigit() or not text.isascii():
        raise GraphError(f"{expected} ('{text}' is not a non-negative integer)")
    return int(text)


def _check_generator_sizes(name: str, sizes: tuple[int, ...], expected: str) -> None:
    """Raise GraphError unless `sizes` suit generator `name`."""
    if name == "rmat":
        valid = len(sizes) in (1, 2) and 1 <= sizes[0] <= _RMAT_MAX_SCALE and sizes[-1:] != (0,)
        reason = f"SCALE must be in [1, {_RMAT_MAX_SCALE}] and EDGEFACTOR at least 1"
    elif name == "road":
        valid = len(sizes) == 2 and min(sizes) >= 1 and sizes[0] * sizes[1] <= MAX_VERTICES
        reason = f"W and H must be at least 1 and W*H at most {MAX_VERTICES}"
    else:
        valid = len(sizes) == 2 and 1 <= sizes[0] <= MAX_VERTICES
        reason = f"N must be in [1, {MAX_VERTICES}]"
    if not valid:
        raise GraphError(f"{expected} ({reason})")


def _load_generated(spec: _GeneratorSpec, cache: bool, report: ProgressCallback) -> Graph:
    """Generate the graph of `spec`, through the cache for large graphs."""
    cache_entry = (
        _CacheEntry.for_generator(spec)
        if cache and spec.num_vertices >= _GENERATOR_CACHE_MIN_VERTICES
        else None
    )
    graph = cache_entry.read(report) if cache_entry else None
    if graph is None:
        check_host_memory(
            _graph_bytes(spec.num_vertices, spec.max_edges), f"generating '{spec}'"
        )
        report(f"generating {spec}...")
        graph = _generate(spec)
        if cache_entry:
            cache_entry.write(graph, report)
    return _remember_entry(_mark_symmetric(graph), cache_entry)


def _generate(spec: _GeneratorSpec) -> Graph:
    """Build the symmetric graph described by a generator spec."""
    rng = np.random.default_rng(spec.seed)
    if spec.name == "rmat":
        src, dst = _rmat_edges(spec.sizes[0], spec.sizes[1], rng)
    elif spec.name == "road":
        src, dst = _road_edges(spec.sizes[0], spec.sizes[1], rng)
    else:
        src, dst = _uniform_edges(spec.sizes[0], spec.sizes[1], rng)
    src, dst = _symmetric_simple_edges(src, dst)
    check_edge_count(src.size, f"'{spec}' (symmetrized)")
    weights = (
        _hashed_weights(src, dst, spec.seed, _MAX_WEIGHTS[spec.name]) if spec.weighted else None
    )
    return Graph(spec.num_vertices, src, dst, weights)


def _rmat_edges(
    scale: int, edge_factor: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Graph500 RMAT edges: edge_factor * 2^scale directed edges, vertex ids randomly permuted.

    At each of the `scale` levels an edge falls in quadrant a, b, c or d of the adjacency
    matrix (one 16-bit random number per level and edge), which sets one bit of its
    src (quadrants c, d) and of its dst (quadrants b, d).
    """
    a, b, c, _ = _RMAT_PROBABILITIES
    past_a_at, past_b_at, past_c_at = (np.uint16(round(p * 65536)) for p in (a, a + b, a + b + c))
    num_edges = edge_factor << scale
    src = np.zeros(num_edges, dtype=np.uint32)
    dst = np.zeros(num_edges, dtype=np.uint32)
    for begin in range(0, num_edges, _RMAT_CHUNK_EDGES):
        chunk_src, chunk_dst = (
            src[begin : begin + _RMAT_CHUNK_EDGES],
            dst[begin : begin + _RMAT_CHUNK_EDGES],
        )
        for _ in range(scale):
            draw = rng.integers(0, 1 << 16, size=chunk_src.size, dtype=np.uint16)
            past_b = draw >= past_b_at
            chunk_src <<= 1
            chunk_src |= past_b
            chunk_dst <<= 1
            chunk_dst |= (draw >= past_a_at) ^ past_b ^ (draw >= past_c_at)
    permutation = rng.permutation(1 << scale).astype(np.int32)
    return permutation[src], permutation[dst]


def _road_edges(width: int, height: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The 4-neighbour edges of a width x height grid (row-major ids), each kept with p = 0.9."""
    ids = np.arange(width * height, dtype=np.int32).reshape(height, width)
    src = np.concatenate([ids[:, :-1].ravel(), ids[:-1, :].ravel()])
    dst = np.concatenate([ids[:, 1:].ravel(), ids[1:, :].ravel()])
    kept = rng.random(src.size) >= _ROAD_DELETE_PROBABILITY
    return src[kept], dst[kept]


def _uniform_edges(
    num_vertices: int, num_edges: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """`num_edges` directed edges with uniformly random endpoints."""
    src = rng.integers(0, num_vertices, size=num_edges, dtype=np.int32)
    dst = rng.integers(0, num_vertices, size=num_edges, dtype=np.int32)
    return src, dst


def _symmetric_simple_edges(src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both directions of every edge, sorted, without duplicates or self loops."""
    no_loops = src != dst
    src, dst = src[no_loops], dst[no_loops]
    keys = np.empty(2 * src.size, dtype=np.int64)
    _fill_edge_keys(keys[: src.size], src, dst)
    _fill_edge_keys(keys[src.size :], dst, src)
    keys.sort()
    return _split_keys(keys[_first_of_runs(keys)])


def _hashed_weights(src: np.ndarray, dst: np.ndarray, seed: int, max_weight: int) -> np.ndarray:
    """Weights in [1, max_weight] from a hash of (seed, undirected edge): u->v and v->u agree."""
    undirected_keys = _edge_keys(np.minimum(src, dst), np.maximum(src, dst)).view(np.uint64)
    undirected_keys ^= np.uint64(_splitmix64(seed))
    hashed = _splitmix64_array(undirected_keys)
    hashed >>= np.uint64(32)  # 32 random bits, scaled to [0, max_weight) by a multiply-shift
    hashed *= np.uint64(max_weight)
    hashed >>= np.uint64(32)
    return (hashed + np.uint64(1)).astype(np.int32)


def _splitmix64(value: int) -> int:
    """The splitmix64 finalizer of one Python int (used to spread the seed)."""
    return int(_splitmix64_array(np.array([value % (1 << 64)], dtype=np.uint64))[0])


def _splitmix64_array(values: np.ndarray) -> np.ndarray:
    """The splitmix64 finalizer applied to every uint64 (a well-mixing integer hash)."""
    hashed = values + np.uint64(0x9E3779B97F4A7C15)
    hashed ^= hashed >> np.uint64(30)
    hashed *= np.uint64(0xBF58476D1CE4E5B9)
    hashed ^= hashed >> np.uint64(27)
    hashed *= np.uint64(0x94D049BB133111EB)
    hashed ^= hashed >> np.uint64(31)
    return hashed


# --------------------------------------------------------------------------------------
# The .npz cache
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _CacheEntry:
    """One cached graph: an `.npz` file, the key its content must match, and a checksum.

    The key names the source: for a file its absolute path, size, mtime and a digest
    of its content (`_file_digest`); for a generator its full spec and the versions
    of the generator and of numpy (whose random streams it draws). The entry also
    stores a checksum of its arrays, so an entry whose arrays were changed or cut
    short is noticed, noted on stderr and rebuilt rather than used.
    """

    file: Path
    key: str

    @staticmethod
    def for_file(path: Path, size: int, mtime_ns: int) -> _CacheEntry:
        """The entry of a graph file, valid while its path, size, mtime and content hold."""
        absolute = path.resolve()
        digest = _file_digest(path, size)
        key = f"file v{_CACHE_FORMAT_VERSION}|{absolute}|{size}|{mtime_ns}|{digest}"
        return _CacheEntry(_cache_dir() / _cache_file_name(path.name, str(absolute)), key)

    @staticmethod
    def for_generator(spec: _GeneratorSpec) -> _CacheEntry:
        """The entry of a generated graph."""
        key = (
            f"generator v{_CACHE_FORMAT_VERSION}.{_GENERATOR_VERSION}|numpy {np.__version__}|{spec}"
        )
        return _CacheEntry(_cache_dir() / _cache_file_name(str(spec), key), key)

    def read(self, report: ProgressCallback) -> Graph | None:
        """The cached graph, or None when missing, stale, corrupt or tampered with.

        Temporary files that killed writers left in the cache directory are removed.
        """
        arrays = self.read_arrays(_CACHED_ARRAYS, f"reading cached graph {self.file.name}...", report)
        if arrays is None:
            return None
        try:
            weights = arrays["weights"] if bool(arrays["weighted"]) else None
            return Graph(int(arrays["num_vertices"]), arrays["src"], arrays["dst"], weights)
        except GraphError:
            return self._rebuild("is corrupt or truncated")

    def write(self, graph: Graph, report: ProgressCallback) -> None:
        """Store `graph` atomically (temp file + rename); a failure only loses the cache."""
        self.write_arrays(
            {
                "num_vertices": np.array(graph.num_vertices, dtype=np.int64),
                "src": graph.src,
                "dst": graph.dst,
                "weighted": np.array(graph.weights is not None),
                "weights": np.empty(0, np.int32) if graph.weights is None else graph.weights,
            },
            report,
        )

    def blocked(self, size: int, weighted: bool, by_source: bool = False) -> _CacheEntry:
        """The entry of the blocked edges (`Graph.blocked(size, by_source)`) of this
        entry's graph, with or without its weights."""
        label = f"blocked{'src' if by_source else ''}{size}{'w' if weighted else ''}"
        file = self.file.with_name(f"{self.file.stem}-{label}.npz")
        return _CacheEntry(file, f"{self.key}|{label} v{_BLOCKED_FORMAT_VERSION}")

    def read_blocked(self, graph: Graph, size: int) -> BlockedEdges | None:
        """The cached blocked edges of `graph`, or None (as `read`); checked to be a
        permutation-sized tiling of `graph` by `size`."""
        arrays = self.read_arrays(("offsets", "src", "dst", "weights"), "", _ignore_progress)
        if arrays is None:
            return None
        offsets = arrays["offsets"]
        edges = graph.num_edges
        if (
            offsets.size != block_count(graph.num_vertices, size) + 1
            or offsets[-1] != edges
            or arrays["src"].size != edges
            or arrays["dst"].size != edges
        ):
            return self._rebuild("does not fit its graph")
        weights = arrays["weights"] if graph.weights is not None else None
        if weights is not None and weights.size != edges:
            return self._rebuild("does not fit its graph")
        for array in (offsets, arrays["src"], arrays["dst"], weights):
            if array is not None:
                array.setflags(write=False)
        return BlockedEdges(size, offsets, arrays["src"], arrays["dst"], weights)

    def read_arrays(
        self, names: tuple[str, ...], message: str, report: ProgressCallback
    ) -> dict[str, np.ndarray] | None:
        """The arrays `names` of the entry, or None when it is missing, made from
        another key, corrupt or does not match its checksum (noted on stderr).
        `message` goes to `report` once the key matched."""
        remove_stale_temporaries(self.file.parent)
        if not self.file.exists():
            return None
        try:
            with np.load(self.file, allow_pickle=False) as stored:
                if str(stored["key"]) != self.key:
                    return self._rebuild("was made from another source or version")
                if message:
                    report(message)
                arrays = {name: stored[name] for name in names}
                if str(stored["checksum"]) != _checksum(arrays):
                    return self._rebuild("does not match its checksum")
                return arrays
        except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile):
            return self._rebuild("is corrupt or truncated")

    def write_arrays(self, arrays: dict[str, np.ndarray], report: ProgressCallback) -> None:
        """Store `arrays` with the key and their checksum, atomically (temp file +
        rename); a failure only loses the cache."""
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            with open_output(self.file, binary=True) as stream:
                write_npz(
                    stream,
                    {"key": np.array(self.key), "checksum": np.array(_checksum(arrays)), **arrays},
                )
        except OSError as error:
            report(f"cannot write the graph cache {self.file}: {error.strerror}")
        except OutputError as error:
            report(f"cannot write the graph cache {self.file}: {error.reason}")

    def _rebuild(self, problem: str) -> None:
        print(f"note: graph cache entry {self.file} {problem}; rebuilding it", file=sys.stderr)


_CACHED_ARRAYS = ("num_vertices", "src", "dst", "weighted", "weights")
_BLOCKED_FORMAT_VERSION = 1
_CACHE_ENTRY = "cache_entry"
"""The key of `Graph._derived` naming the cache entry a graph was loaded through."""


def _remember_entry(graph: Graph, entry: _CacheEntry | None) -> Graph:
    """`graph`, noting the cache `entry` it came through (derived data such as its
    blocked edges is cached beside it)."""
    if entry is not None:
        graph._derived[_CACHE_ENTRY] = entry
    return graph
_FILE_DIGEST_WHOLE_LIMIT = 64 << 20
_FILE_DIGEST_SAMPLE = 1 << 20


def _checksum(arrays: dict[str, np.ndarray]) -> str:
    """A SHA-256 over the names, types, shapes and bytes of `arrays` (hashed in parallel)."""
    names = sorted(arrays)
    contiguous = [np.ascontiguousarray(arrays[name]) for name in names]
    with ThreadPoolExecutor(max_workers=min(4, len(names))) as pool:
        digests = list(pool.map(lambda a: hashlib.sha256(memoryview(a).cast("B")).digest(), contiguous))
    combined = hashlib.sha256()
    for name, array, digest in zip(names, contiguous, digests):
        combined.update(f"{name}:{array.dtype.str}:{array.shape};".encode())
        combined.update(digest)
    return combined.hexdigest()


def _file_digest(path: Path, size: int) -> str:
    """A SHA-256 of a file's content: all of it up to 64 MiB, else its first and last MiB.

    Larger files are identified by their size and mtime as well; reading all of a
    multi-GB file would cost as much as the parse the cache saves.
    """
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as stream:
            if size <= _FILE_DIGEST_WHOLE_LIMIT:
                digest.update(stream.read())
                return digest.hexdigest()
            digest.update(stream.read(_FILE_DIGEST_SAMPLE))
            stream.seek(size - _FILE_DIGEST_SAMPLE)
            digest.update(stream.read(_FILE_DIGEST_SAMPLE))
    except OSError as error:
        raise GraphError(f"cannot read the file: {error.strerror}", path=path) from None
    return "sampled:" + digest.hexdigest()


def _cache_dir() -> Path:
    """Where cached graphs live: `$GIR_CACHE_DIR`, default `~/.cache/gir`."""
    return Path(os.environ.get("GIR_CACHE_DIR") or Path.home() / ".cache" / "gir")


def _cache_file_name(label: str, identity: str) -> str:
    """A readable, collision-safe cache file name for `identity`."""
    digest = hashlib.sha256(identity.encode()).hexdigest()[:16]
    readable = re.sub(r"[^\w.-]+", "_", label)[:60]
    return f"{readable}-{digest}.npz"
