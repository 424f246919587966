"""Host memory: what building a graph needs, checked before the work starts.

Also the device-side estimate of a graph's arrays, the choice of a graph's edge
index width (32 or 64 bits) and the byte counts of messages.
"""

from __future__ import annotations

import os
from pathlib import Path

from gir.runtime.graph.errors import INT32_MAX, GraphError

EDGE_POSITION_ROOM = 1 << 24
"""How far past a graph's last edge a 32-bit edge position may run without
wrapping: a kernel's loop steps past the end by its stride (a grid of at most
`frontier_edge_blocking.BLOCKED_THREADS`, 1,081,344 threads) and a launch of one
thread an edge rounds up to whole blocks (at most 1,024 threads), so positions
reach the edge count plus about a million; 2^24 leaves room for larger grids."""

MAX_EDGES_32 = INT32_MAX - EDGE_POSITION_ROOM
"""The most (directed) edges a program with 32-bit edge indices runs on
(2,130,706,431; cuda_runtime.cuh's MAX_EDGES_32): above it, offsets, edge
positions and sums of degrees are 64-bit (`edge_index_width`)."""

MAX_EDGES = (1 << 62) - 1
"""The most edges gir's graph code takes: edge counts and offsets are int64
(vertex ids stay int32); host and device memory run out long before."""

FORCE_EDGE_INDEX_WIDTH = "GIR_EDGE_INDEX_WIDTH"
"""The environment variable that forces the edge index width of every run
(`64`: 64-bit offsets and edge positions even on a small graph), so that the
64-bit programs are tested without a graph of 2^31 edges (docs/large-graphs.md)."""

# Peak host bytes while building a graph, measured on the code paths below (int64
# keys, sort and split; the int64 table of a text parse). A generator builds
# its symmetric graph in C++ (graph_build.h's symmetric_edges): the drawn edges
# and the output, 12.4 bytes per output edge measured on rmat:20 and
# uniform:2000000:20000000 (14.6 with weights, hashed in chunks), 16 with slack.
_HOST_BYTES_PER_EDGE = 48
_GENERATOR_BYTES_PER_EDGE = 16
# The uniform generator draws its edges in C++ as it symmetrizes them: the
# output's src and dst columns only (8 bytes an edge), 9 with slack.
_DRAWN_IN_PLACE_BYTES_PER_EDGE = 9
BINARY_BYTES_PER_EDGE = 24
"""Peak host bytes per edge of reading a `.gbin` file (its bytes, the C++ columns,
the numpy arrays): 19 measured on rmat:21, 24 with slack."""
HOST_BYTES_PER_PARSED_LINE = 64
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


def edge_index_width(num_edges: int) -> int:
    """The width (32 or 64) of the edge indices a program runs a graph of
    `num_edges` edges with: 64 above `MAX_EDGES_32` or when `$GIR_EDGE_INDEX_WIDTH`
    is 64, else 32 (today's code and speed). The one decision: the host
    specialises the program on it (`CompiledProgram.for_edges`)."""
    forced = os.environ.get(FORCE_EDGE_INDEX_WIDTH, "").strip()
    if forced not in ("", "32", "64"):
        raise GraphError(f"${FORCE_EDGE_INDEX_WIDTH} must be 32 or 64, not '{forced}'")
    if num_edges > MAX_EDGES_32:
        return 64
    return 64 if forced == "64" else 32


def device_graph_bytes(num_vertices: int, num_edges: int, weighted: bool) -> int:
    """Device bytes of a graph's CSR and CSC arrays: offsets of the graph's edge
    index width (`edge_index_width`), int32 ids and weights."""
    offset_bytes = edge_index_width(num_edges) // 8
    per_layout = offset_bytes * (num_vertices + 1) + 4 * num_edges * (2 if weighted else 1)
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
    """Raise GraphError when `num_edges` edges are more than gir's graphs hold
    (`MAX_EDGES`; above 2^31 - 1 they take 64-bit offsets, which is allowed)."""
    if num_edges > MAX_EDGES:
        raise GraphError(f"{what} has {num_edges:,} edges, more than gir's limit of {MAX_EDGES:,}")


def format_bytes(num_bytes: int) -> str:
    """A byte count for messages: '24.0 GB', '512 MB', '3 KB'."""
    if num_bytes >= 1 << 30:
        return f"{num_bytes / (1 << 30):.1f} GB"
    if num_bytes >= 1 << 20:
        return f"{num_bytes / (1 << 20):.0f} MB"
    return f"{max(1, round(num_bytes / 1024))} KB"


def graph_bytes(num_vertices: int, num_edges: int, bytes_per_edge: int = _HOST_BYTES_PER_EDGE) -> int:
    """Peak host bytes of building a graph from `num_edges` edges over
    `num_vertices` (parsed from text unless `bytes_per_edge` says otherwise)."""
    return bytes_per_edge * num_edges + _HOST_BYTES_PER_VERTEX * num_vertices


def generated_graph_bytes(num_vertices: int, max_edges: int, drawn_in_place: bool = False) -> int:
    """Peak host bytes of generating a symmetric graph of at most `max_edges`
    edges; `drawn_in_place`: by a generator that draws its edges as the
    symmetrizing needs them (uniform), so only the output is per edge."""
    per_edge = _DRAWN_IN_PLACE_BYTES_PER_EDGE if drawn_in_place else _GENERATOR_BYTES_PER_EDGE
    return per_edge * max_edges + 3 * _HOST_BYTES_PER_VERTEX * num_vertices


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
