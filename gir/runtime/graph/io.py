"""Loading graphs: `load_graph` for files and generator specs, and `.gbin` export.

Files (`.el`, `.wel`, `.mtx`, `.gbin`) are read by gir's C++ loader
(`gir/cpp/graph_build.h`, through `native`), the same code a complete CUDA
program loads them with, so both hosts accept the same files with the same
messages; here the library parses large text files in parallel stretches
(`parse_stretches`), which report the same absolute lines as one pass. What each
Matrix Market form (coordinate or array; pattern, integer, real or complex;
general, symmetric, skew-symmetric or hermitian) means as a graph is in
docs/getting-started.md, "Graph files". Host memory is checked before each step,
and parsed files go through the graph cache.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from gir.runtime.graph import native
from gir.runtime.graph.cache import CacheEntry, remember_entry
from gir.runtime.graph.errors import GraphError
from gir.runtime.graph.generators import GENERATOR_PREFIX, load_generated, parse_generator_spec
from gir.runtime.graph.graph import Graph, ProgressCallback, ignore_progress
from gir.runtime.graph.memory import (
    BINARY_BYTES_PER_EDGE,
    HOST_BYTES_PER_PARSED_LINE,
    check_edge_count,
    check_host_memory,
    format_bytes,
    graph_bytes,
)

BINARY_GRAPH_MAGIC = b"GIRBIN1\n"
"""The first bytes of a `.gbin` file."""

_UNCACHED_SUFFIXES = (".gbin",)
"""Files read as fast as their cache entry would be."""


def load_graph(
    spec: str | os.PathLike[str],
    *,
    weighted: bool | None = None,
    cache: bool = True,
    progress: ProgressCallback | None = None,
) -> Graph:
    """Load a graph from a file (`.el`, `.wel`, `.mtx`, `.gbin`) or generate one from a spec.

    Generator specs: `rmat:SCALE[:EDGEFACTOR]`, `road:W:H`, `uniform:N:M`, optionally
    followed by `,w` (integer weights) and `,seed=N`. `weighted=True` asks for weights
    (a generator adds them; a file without weights is an error), `weighted=False` drops
    them, None keeps what the source has. With `cache`, parsed files and generated
    graphs with at least 2^20 vertices are cached in `$GIR_CACHE_DIR` (default
    `~/.cache/gir`). `progress` receives a short message before the long steps.
    Raises GraphError for every problem with the input.
    """
    spec = os.fspath(spec)
    report = progress or ignore_progress
    if GENERATOR_PREFIX.match(spec) and not os.path.exists(spec):
        return load_generated(parse_generator_spec(spec, weighted), cache, report)
    return _load_file(Path(spec), weighted, cache, report)


def _load_file(path: Path, weighted: bool | None, cache: bool, report: ProgressCallback) -> Graph:
    """Load a graph file, through the cache when allowed, and apply the `weighted` request."""
    native.check_file(path)
    stat = path.stat()
    cached = cache and path.suffix.lower() not in _UNCACHED_SUFFIXES
    cache_entry = CacheEntry.for_file(path, stat.st_size, stat.st_mtime_ns) if cached else None
    graph = cache_entry.read(report) if cache_entry else None
    if graph is None:
        check_host_memory(stat.st_size, f"reading {path}")
        report(f"parsing {path.name} ({format_bytes(stat.st_size)})...")
        graph = _parse_file(path)
        if cache_entry:
            cache_entry.write(graph, report)
    return remember_entry(_with_weight_request(graph, weighted, path), cache_entry)


def _parse_file(path: Path) -> Graph:
    """The graph of a file, read by the C++ loader; host memory checked before
    parsing (by its header and its lines) and before building (by its edges)."""
    with native.GraphFile(path) as file:
        declared = file.declared()
        if declared is not None:
            _check_graph_size(path, *declared)
        check_host_memory(
            path.stat().st_size + HOST_BYTES_PER_PARSED_LINE * file.lines(), f"parsing {path}"
        )
        num_vertices, num_edges, _ = file.parse()
        _check_graph_size(path, num_vertices, num_edges)
        return Graph(num_vertices, *file.sorted_edges())


def _check_graph_size(path: Path, num_vertices: int, num_edges: int) -> None:
    """Raise GraphError before building a graph of a file that cannot fit."""
    check_edge_count(num_edges, str(path))
    binary = path.suffix.lower() in _UNCACHED_SUFFIXES  # read, not parsed
    check_host_memory(
        graph_bytes(num_vertices, num_edges, BINARY_BYTES_PER_EDGE) if binary else graph_bytes(num_vertices, num_edges),
        f"{path} ({num_vertices:,} vertices, {num_edges:,} edges)",
    )


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


def write_binary_graph(graph: Graph, path: Path) -> None:
    """Writes `graph` as a `.gbin` file, which both hosts load without parsing or
    sorting (`binary_graph` in `gir/cpp/graph_build.h`): the magic, int64
    vertices, edges and flags (1: weighted), then int32 src, dst and weights,
    little-endian. Written to a temporary file and renamed, so a reader never
    sees half of one."""
    header = np.array([graph.num_vertices, graph.num_edges, graph.weights is not None], dtype="<i8")
    columns = [graph.src, graph.dst] + ([graph.weights] if graph.weights is not None else [])
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(partial, "wb") as stream:
        stream.write(BINARY_GRAPH_MAGIC)
        stream.write(header.tobytes())
        for column in columns:
            stream.write(np.ascontiguousarray(column, dtype="<i4").data)  # no copy of a large column
    os.replace(partial, path)
