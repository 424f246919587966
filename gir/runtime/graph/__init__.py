"""Graphs on the host: the `Graph` class, file loaders, synthetic generators and a cache.

A `Graph` is a directed graph in COO form, sorted by (src, dst), without duplicate
edges, with optional int32 weights. `load_graph` builds one from a file (`.el`,
`.wel`, `.mtx`, `.gbin`) or from a generator spec (`rmat:…`, `road:…`, `uniform:…`).

- `graph`: the `Graph` class, its derived arrays (CSR, CSC, transpose, edge
  blocking) and `from_edges` / `from_scipy` / `from_networkx`;
- `io`: `load_graph` and the `.gbin` export;
- `generators`: the synthetic graphs;
- `cache`: the `.npz` cache of parsed files and large generated graphs, in
  `$GIR_CACHE_DIR` (default `~/.cache/gir`);
- `memory`: host and device memory checks;
- `native`: gir's C++ graph construction (`gir/cpp/graph_build.h`), which a
  complete CUDA program compiles in and this host calls through ctypes: file
  parsing, sorting, deduplication, row pointers, transpose and edge blocking
  exist once, for both hosts.
"""

from gir.runtime.graph.errors import INT32_MAX, INT32_MIN, MAX_VERTICES, GraphError
from gir.runtime.graph.graph import (
    BlockedEdges,
    FractionalWeights,
    Graph,
    block_count,
    from_edges,
    from_networkx,
    from_scipy,
)
from gir.runtime.graph.io import BINARY_GRAPH_MAGIC, load_graph, write_binary_graph
from gir.runtime.graph.memory import (
    MAX_EDGES,
    available_host_memory,
    check_device_memory,
    check_edge_count,
    check_host_memory,
    device_graph_bytes,
    format_bytes,
    set_max_memory,
)

__all__ = [
    "BINARY_GRAPH_MAGIC",
    "INT32_MAX",
    "INT32_MIN",
    "MAX_EDGES",
    "MAX_VERTICES",
    "BlockedEdges",
    "FractionalWeights",
    "Graph",
    "GraphError",
    "available_host_memory",
    "block_count",
    "check_device_memory",
    "check_edge_count",
    "check_host_memory",
    "device_graph_bytes",
    "format_bytes",
    "from_edges",
    "from_networkx",
    "from_scipy",
    "load_graph",
    "set_max_memory",
    "write_binary_graph",
]
