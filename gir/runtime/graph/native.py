"""The Python host's handle on gir's C++ graph construction (`gir/cpp/graph_build.h`).

The complete CUDA program and the Python host load graph files and build graph
arrays with the same C++ code: here it is compiled once, on first use, with the
system's C++ compiler (`$CXX`, else `c++`) into a shared library that ctypes
loads. The library is cached by a hash of its sources and of the compiler
command in a per-user directory (`$GIR_NATIVE_CACHE_DIR`, default
`~/.cache/gir-native`), apart from the graph cache, so that runs with their own
`GIR_CACHE_DIR` share one build. Processes that start together build it once:
the first takes a lock beside it and the others wait for it; the build writes a
temporary file and renames it, so a reader never loads half a library.

Each function below takes and returns numpy arrays; a C++ error becomes the
`GraphError` it describes, with its location.
"""

from __future__ import annotations

import ctypes
import fcntl
import hashlib
import os
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import numpy as np

from gir import cpp
from gir.cache import native_cache_dir
from gir.runtime.graph.errors import GraphError

_FLAGS = ("-O2", "-ftree-vectorize", "-std=c++17", "-shared", "-fPIC", "-pthread")
_SOURCES = (
    "graph_build.h", "graph_capi.cpp", "reference_triangles.cpp", "on_every_core.h", "reference_bfs.cpp",
    "reference_gather.cpp",
)  # fmt: skip
_UNITS = tuple(name for name in _SOURCES if name.endswith(".cpp"))
_INT32_P = np.ctypeslib.ndpointer(np.int32, flags="C_CONTIGUOUS")
_INT64_P = np.ctypeslib.ndpointer(np.int64, flags="C_CONTIGUOUS")
_UINT8_P = np.ctypeslib.ndpointer(np.uint8, flags="C_CONTIGUOUS")
_FLOAT64_P = np.ctypeslib.ndpointer(np.float64, flags="C_CONTIGUOUS")
_UINT16_P = np.ctypeslib.ndpointer(np.uint16, flags="C_CONTIGUOUS")
_UINT32_P = np.ctypeslib.ndpointer(np.uint32, flags="C_CONTIGUOUS")
_LL = ctypes.c_longlong
_VOID_P = ctypes.c_void_p


class NativeBuildError(GraphError):
    """gir's graph library could not be built (no compiler, or it failed)."""


def _compiler() -> list[str]:
    """The C++ compiler command: `$CXX`, else `c++` (or `g++`, `clang++`)."""
    configured = os.environ.get("CXX")
    if configured:
        return shlex.split(configured)
    for name in ("c++", "g++", "clang++"):
        found = shutil.which(name)
        if found:
            return [found]
    raise NativeBuildError(
        "gir loads graphs with C++ code it compiles on first use, but no C++ compiler "
        "was found (install g++, or set CXX)"
    )


def library_path() -> Path:
    """The shared library of the current sources, built if it is not there yet."""
    command = _compiler()
    digest = hashlib.sha256(" ".join(command + list(_FLAGS)).encode())
    for name in _SOURCES:
        digest.update(name.encode() + b"\0" + cpp.source(name).encode())
    directory = native_cache_dir()
    library = directory / f"gir_graph-{digest.hexdigest()[:16]}.so"
    if library.exists():
        return library
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with _exclusive(directory / f".{library.name}.lock"):
            if not library.exists():  # built while this process waited
                _build(command, library)
    except OSError:  # a read-only cache: build where this process may write
        library = Path(tempfile.mkdtemp(prefix="gir-native-")) / library.name
        _build(command, library)
    return library


@contextmanager
def _exclusive(lock: Path) -> Iterator[None]:
    """Holds an exclusive lock on the file `lock` (made if missing): processes
    starting together (test workers on a fresh machine) build the library once,
    the others waiting for it, instead of each compiling it (14 s of a core)."""
    with open(lock, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _build(command: list[str], library: Path) -> None:
    """Compile the library's `.cpp` units into `library` through a temporary file and a rename."""
    descriptor, partial = tempfile.mkstemp(
        dir=library.parent, prefix=f".{library.name}.{os.getpid()}.", suffix=".tmp"
    )
    os.close(descriptor)
    sources = [str(cpp.SOURCE_DIR / name) for name in _UNITS]
    try:
        result = subprocess.run(
            [*command, *_FLAGS, f"-I{cpp.SOURCE_DIR}", *sources, "-o", partial],
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            raise NativeBuildError(
                f"building gir's graph library failed ({' '.join(command)}):\n{result.stderr.strip()}"
            )
        os.replace(partial, library)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)


@cache
def library() -> ctypes.CDLL:
    """The loaded library, its functions typed (a cached library that does not
    load, say one cut short by a full disk, is built again)."""
    path = library_path()
    try:
        lib = ctypes.CDLL(str(path))
    except OSError:
        path.unlink(missing_ok=True)
        lib = ctypes.CDLL(str(library_path()))
    signatures: dict[str, tuple[object, list[object]]] = {
        "gir_error_path": (ctypes.c_char_p, []),
        "gir_error_line": (_LL, []),
        "gir_error_message": (ctypes.c_char_p, []),
        "gir_file_check": (_LL, [ctypes.c_char_p]),
        "gir_file_open": (_VOID_P, [ctypes.c_char_p]),
        "gir_file_lines": (_LL, [_VOID_P]),
        "gir_file_declared": (_LL, [_VOID_P, ctypes.POINTER(_LL), ctypes.POINTER(_LL)]),
        "gir_file_parse": (_LL, [_VOID_P]),
        "gir_file_vertices": (_LL, [_VOID_P]),
        "gir_file_edges": (_LL, [_VOID_P]),
        "gir_file_weighted": (_LL, [_VOID_P]),
        "gir_file_edges_sorted": (_LL, [_VOID_P, _INT32_P, _INT32_P, _VOID_P]),
        "gir_file_close": (None, [_VOID_P]),
        "gir_sort_unique": (_LL, [_INT32_P, _INT32_P, _VOID_P, _LL]),
        "gir_symmetric_edges": (_LL, [_INT32_P, _INT32_P, _LL, _LL, _INT32_P, _INT32_P]),
        "gir_row_pointers": (None, [_INT32_P, _LL, _LL, _INT32_P]),
        "gir_row_pointers64": (None, [_INT32_P, _LL, _LL, _INT64_P]),
        "gir_first_unsorted_edge": (_LL, [_INT32_P, _INT32_P, _LL, _LL]),
        "gir_uniform_symmetric_edges": (_LL, [ctypes.c_ulonglong, _LL, _LL, _INT32_P, _INT32_P]),
        "gir_column_range": (
            _LL,
            [_VOID_P, _LL, _INT32_P, _VOID_P, _LL, _LL, _LL, _VOID_P, _LL, _INT32_P, _VOID_P],
        ),
        "gir_bfs_levels": (None, [_LL, _INT32_P, _INT32_P, ctypes.c_int32, _INT32_P]),
        "gir_bfs_levels64": (None, [_LL, _INT64_P, _INT32_P, ctypes.c_int32, _INT32_P]),
        "gir_rmat_ends": (None, [_UINT16_P, _LL, _LL, _LL, _LL, _LL, _UINT32_P, _UINT32_P]),
        "gir_permute_ids": (None, [_INT32_P, _LL, _INT32_P]),
        "gir_row_sums": (None, [_LL, _INT32_P, _INT32_P, _FLOAT64_P, _FLOAT64_P]),
        "gir_row_sums64": (None, [_LL, _INT64_P, _INT32_P, _FLOAT64_P, _FLOAT64_P]),
        "gir_has_edges": (None, [_INT32_P, _INT32_P, _INT32_P, _INT32_P, _LL, _UINT8_P]),
        "gir_has_edges64": (None, [_INT64_P, _INT32_P, _INT32_P, _INT32_P, _LL, _UINT8_P]),
        "gir_transpose": (_LL, [_INT32_P, _INT32_P, _VOID_P, _LL, _LL, _INT32_P, _INT32_P, _VOID_P]),
        "gir_reorder": (_LL, [ctypes.c_char_p, _LL, _INT32_P, _INT32_P, _LL, _INT32_P]),
        "gir_oriented_triangles": (ctypes.c_ulonglong, [_LL, _INT32_P, _INT32_P, _LL]),
        "gir_tile": (
            _LL,
            [_INT32_P, _INT32_P, _VOID_P, _LL, _LL, _LL, _LL, _INT32_P, _INT32_P, _INT32_P, _VOID_P],
        ),
        "gir_tile64": (
            _LL,
            [_INT32_P, _INT32_P, _VOID_P, _LL, _LL, _LL, _LL, _INT64_P, _INT32_P, _INT32_P, _VOID_P],
        ),
    }
    for name, (result, arguments) in signatures.items():
        function = getattr(lib, name)
        function.restype = result
        function.argtypes = arguments
    return lib


def _checked(status: int | None) -> int:
    """`status`, unless it is the C ABI's failure (-1 or null): then its GraphError."""
    if status is None or status < 0:
        lib = library()
        path = lib.gir_error_path().decode("utf-8", errors="surrogateescape")
        line = int(lib.gir_error_line())
        message = lib.gir_error_message().decode("utf-8", errors="replace")
        raise GraphError(message, path=path or None, line=line or None)
    return status


def _pointer(array: np.ndarray | None) -> int | None:
    """The address of an optional int32 array (None: a null pointer)."""
    return None if array is None else array.ctypes.data


def _os_path(path: Path) -> bytes:
    return os.fsencode(path)


def check_file(path: Path) -> None:
    """Raise the GraphError of a path that is no regular graph file of a known extension."""
    _checked(library().gir_file_check(_os_path(path)))


class GraphFile:
    """A graph file read by the C++ loader: open it, count its lines, parse it,
    then take its edges sorted by (src, dst) without duplicates."""

    def __init__(self, path: Path):
        self._lib = library()
        self._handle = _checked(self._lib.gir_file_open(_os_path(path)))

    def __enter__(self) -> GraphFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._lib.gir_file_close(self._handle)

    def lines(self) -> int:
        """How many lines the file has."""
        return int(self._lib.gir_file_lines(self._handle))

    def declared(self) -> tuple[int, int] | None:
        """The (vertices, edges) the file's header declares (a symmetric Matrix
        Market file's edges counted twice); None for a file without a header."""
        vertices, edges = _LL(), _LL()
        _checked(self._lib.gir_file_declared(self._handle, ctypes.byref(vertices), ctypes.byref(edges)))
        return None if vertices.value < 0 else (vertices.value, edges.value)

    def parse(self) -> tuple[int, int, bool]:
        """Parses the edges: (vertices, edges as listed, whether it has weights)."""
        _checked(self._lib.gir_file_parse(self._handle))
        lib, handle = self._lib, self._handle
        return int(lib.gir_file_vertices(handle)), int(lib.gir_file_edges(handle)), bool(lib.gir_file_weighted(handle))

    def sorted_edges(self) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """The parsed edges sorted by (src, dst), duplicates dropped (the first keeps its weight)."""
        listed = int(self._lib.gir_file_edges(self._handle))
        weighted = bool(self._lib.gir_file_weighted(self._handle))
        src, dst = np.empty(listed, np.int32), np.empty(listed, np.int32)
        weights = np.empty(listed, np.int32) if weighted else None
        kept = _checked(self._lib.gir_file_edges_sorted(self._handle, src, dst, _pointer(weights)))
        return src[:kept], dst[:kept], None if weights is None else weights[:kept]


def sort_unique(
    src: np.ndarray, dst: np.ndarray, weights: np.ndarray | None, *, in_place: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Edges (int32 ids) sorted by (src, dst) without duplicates; the first of a
    duplicate keeps its weight. The arrays are copied, not changed; with
    `in_place`, int32 arrays the caller gives up are sorted where they are (a
    large graph's builder saves a copy of its edges) and views of them returned."""
    copy = not in_place
    src, dst = np.array(src, np.int32, copy=copy), np.array(dst, np.int32, copy=copy)
    weights = None if weights is None else np.array(weights, np.int32, copy=copy)
    kept = _checked(library().gir_sort_unique(src, dst, _pointer(weights), src.size))
    return src[:kept], dst[:kept], None if weights is None else weights[:kept]


def symmetric_edges(
    drawn: list[np.ndarray], num_vertices: int
) -> tuple[np.ndarray, np.ndarray]:
    """Both directions of the edges `drawn` ([src, dst] int32, emptied: the caller
    gives them up, so they are freed once used) sorted by (src, dst), without
    duplicates or self loops, on every core: 12 bytes per output edge at the peak."""
    src, dst = (np.ascontiguousarray(column, np.int32) for column in drawn)
    drawn.clear()
    out_src, out_dst = np.empty(2 * src.size, np.int32), np.empty(2 * src.size, np.int32)
    kept = _checked(library().gir_symmetric_edges(src, dst, src.size, num_vertices, out_src, out_dst))
    del src, dst
    return out_src[:kept], out_dst[:kept]


def uniform_symmetric_edges(
    seed: int, drawn: int, num_vertices: int
) -> tuple[np.ndarray, np.ndarray]:
    """The symmetric graph of `drawn` edges with uniformly random ends (a hash
    of the seed and the edge's number, drawn in C++ on every core as the
    symmetrizing needs them): both directions sorted by (src, dst), without
    duplicates or self loops; 8 bytes per output edge at the peak."""
    out_src, out_dst = np.empty(2 * drawn, np.int32), np.empty(2 * drawn, np.int32)
    kept = _checked(
        library().gir_uniform_symmetric_edges(seed % (1 << 64), drawn, num_vertices, out_src, out_dst)
    )
    return out_src[:kept], out_dst[:kept]


def first_unsorted_edge(src: np.ndarray, dst: np.ndarray, num_vertices: int) -> int | None:
    """The position of the first edge of int32 columns that is out of [0,
    num_vertices) or not strictly after the edge before it in (src, dst) order,
    or None when there is none (a pass on every core)."""
    found = library().gir_first_unsorted_edge(src, dst, src.size, num_vertices)
    return None if found < 0 else int(found)


def column_range(
    ptr: np.ndarray, idx: np.ndarray, weights: np.ndarray | None, begin: int, end: int, kept: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The entries of each row of a CSR (rows sorted) whose column lies in
    [begin, end): a CSR of its own, (pointers, columns, weights), its `kept`
    entries (how many there are, known to the caller) with `offset_dtype`
    pointers. On every core."""
    vertices = ptr.size - 1
    out_ptr = np.empty(vertices + 1, offset_dtype(kept))
    out_idx = np.empty(kept, np.int32)
    out_weights = None if weights is None else np.empty(kept, np.int32)
    ptr = np.ascontiguousarray(ptr)
    found = _checked(
        library().gir_column_range(
            ptr.ctypes.data, ptr.itemsize * 8, np.ascontiguousarray(idx, np.int32), _pointer(weights),
            vertices, begin, end, out_ptr.ctypes.data, out_ptr.itemsize * 8, out_idx, _pointer(out_weights),
        )
    )  # fmt: skip
    if found != kept:
        raise GraphError(f"a column range holds {found} entries, expected {kept}")
    return out_ptr, out_idx, out_weights


def bfs_levels(ptr: np.ndarray, idx: np.ndarray, source: int) -> np.ndarray:
    """The BFS level of every vertex from `source` along a CSR's edges (int32,
    -1: unreached), top-down on every core (`reference_bfs.cpp`)."""
    levels = np.empty(ptr.size - 1, np.int32)
    lib = library()
    run = lib.gir_bfs_levels64 if ptr.dtype == np.int64 else lib.gir_bfs_levels
    run(levels.size, np.ascontiguousarray(ptr), np.ascontiguousarray(idx, np.int32), source, levels)
    return levels


def rmat_ends(draws: np.ndarray, scale: int, past: tuple[int, int, int], src: np.ndarray, dst: np.ndarray) -> None:
    """The ends of RMAT edges into `src` and `dst` (uint32, one an edge) from
    their 16-bit `draws`, `scale` rows of one a level (`rmat_ends` in
    graph_build.h), on every core; `past`: the draws at which quadrants b, c
    and d begin."""
    assert draws.shape == (scale, src.size) and dst.size == src.size
    library().gir_rmat_ends(np.ascontiguousarray(draws), src.size, scale, *past, src, dst)


def permute_ids(permutation: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """`permutation[ids]` (int32) in place of `ids` (int32 or uint32 of the same
    buffer), on every core."""
    out = ids.view(np.int32)
    library().gir_permute_ids(np.ascontiguousarray(permutation, np.int32), out.size, out)
    return out


def row_sums(ptr: np.ndarray, idx: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each row's sum of `values` (float64, one a column) over its entries of a
    CSR, on every core (`reference_gather.cpp`)."""
    sums = np.empty(ptr.size - 1, np.float64)
    lib = library()
    run = lib.gir_row_sums64 if ptr.dtype == np.int64 else lib.gir_row_sums
    run(sums.size, np.ascontiguousarray(ptr), np.ascontiguousarray(idx, np.int32),
        np.ascontiguousarray(values, np.float64), sums)  # fmt: skip
    return sums


def has_edges(ptr: np.ndarray, idx: np.ndarray, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Whether each edge src[i] -> dst[i] (ids in range) is in a CSR whose rows
    are sorted: a binary search in each row, on every core."""
    src, dst = np.ascontiguousarray(src, np.int32), np.ascontiguousarray(dst, np.int32)
    found = np.empty(src.size, np.uint8)
    lib = library()
    run = lib.gir_has_edges64 if ptr.dtype == np.int64 else lib.gir_has_edges
    run(np.ascontiguousarray(ptr), np.ascontiguousarray(idx, np.int32), src, dst, src.size, found)
    return found.view(bool)


def offset_dtype(num_edges: int) -> type[np.signedinteger]:
    """The dtype of the offsets of `num_edges` edges: int32, or int64 above 2^31 - 1."""
    return np.int64 if num_edges > np.iinfo(np.int32).max else np.int32


def row_pointers(sorted_rows: np.ndarray, num_vertices: int) -> np.ndarray:
    """CSR row pointers (num_vertices + 1 entries) of ids sorted by row: int32,
    or int64 for more than 2^31 - 1 edges (`offset_dtype`)."""
    rows = np.ascontiguousarray(sorted_rows, np.int32)
    pointers = np.empty(num_vertices + 1, offset_dtype(rows.size))
    build = library().gir_row_pointers64 if pointers.dtype == np.int64 else library().gir_row_pointers
    build(rows, rows.size, num_vertices, pointers)
    return pointers


def transpose(
    src: np.ndarray, dst: np.ndarray, weights: np.ndarray | None, num_vertices: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The reversed edges of (src, dst)-sorted edges, sorted by (dst, src)."""
    src, dst = np.ascontiguousarray(src, np.int32), np.ascontiguousarray(dst, np.int32)
    weights = None if weights is None else np.ascontiguousarray(weights, np.int32)
    out_src, out_dst = np.empty_like(src), np.empty_like(dst)
    out_weights = None if weights is None else np.empty_like(weights)
    _checked(
        library().gir_transpose(
            src, dst, _pointer(weights), src.size, num_vertices, out_src, out_dst, _pointer(out_weights)
        )
    )
    return out_src, out_dst, out_weights


def tile(
    src: np.ndarray,
    dst: np.ndarray,
    weights: np.ndarray | None,
    num_vertices: int,
    size: int,
    by_source: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """Edge blocking: (offsets, src, dst, weights) of the edges in the order given,
    stably sorted by the block of their destination (`by_source`: source); the
    offsets are int32, or int64 for more than 2^31 - 1 edges."""
    src, dst = np.ascontiguousarray(src, np.int32), np.ascontiguousarray(dst, np.int32)
    weights = None if weights is None else np.ascontiguousarray(weights, np.int32)
    blocks = max(1, -(-num_vertices // size)) if size > 0 else 1
    offsets = np.empty(blocks + 1, offset_dtype(src.size))
    out_src, out_dst = np.empty_like(src), np.empty_like(dst)
    out_weights = None if weights is None else np.empty_like(weights)
    build = library().gir_tile64 if offsets.dtype == np.int64 else library().gir_tile
    _checked(
        build(
            src, dst, _pointer(weights), src.size, num_vertices, size, by_source,
            offsets, out_src, out_dst, _pointer(out_weights),
        )
    )  # fmt: skip
    return offsets, out_src, out_dst, out_weights


def reorder(name: str, num_vertices: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The C++ reordering `name` (what a complete CUDA program relabels its graph
    with): the old ids in their new order."""
    src, dst = np.ascontiguousarray(src, np.int32), np.ascontiguousarray(dst, np.int32)
    order = np.empty(num_vertices, np.int32)
    _checked(library().gir_reorder(name.encode(), num_vertices, src, dst, src.size, order))
    return order


def oriented_triangles(num_vertices: int, src: np.ndarray, dst: np.ndarray) -> int:
    """The triangles of a graph oriented from lower to higher rank (each
    undirected edge once), its edges sorted by source then destination: the
    common out-neighbours of the two ends of every edge, merged on every core."""
    src, dst = np.ascontiguousarray(src, np.int32), np.ascontiguousarray(dst, np.int32)
    return int(library().gir_oriented_triangles(num_vertices, src, dst, src.size))
