"""gir as a NetworkX backend: `nx.pagerank(G, backend="gir")`.

pyproject.toml declares the entry points NetworkX looks for: `networkx.backends`
names `interface.BackendInterface` (loaded on first use) and
`networkx.backend_info` names `get_info` (called when NetworkX is imported, so
this module imports nothing heavy). The algorithms are GraphIt programs shipped
under `programs/`, scheduled per graph by the auto model (`gir.tune.auto`; see
`programs`), or under a shipped schedule file per graph shape when the config
forces one.
"""

from __future__ import annotations

from typing import Any

DEFAULT_CONFIG: dict[str, Any] = {"schedule": "auto", "target": None, "device": None, "min_edges": None}
"""`nx.config.backends.gir`: `schedule` is "auto" (the auto model's schedule for
each graph), or "power_law" or "high_diameter" (that shape's shipped schedules); `target` "cuda", "opencl" or None (CUDA where it
runs); `device` a device index, as `gir.Program.run` takes them; `min_edges` the
fewest edges of a graph that `nx.config.backend_priority` offloads to gir (None:
the measured defaults of `interface.MIN_EDGES`; an int for every function, or a
dict by function name)."""

_BFS_ORDER_NOTE = (
    "BFS levels on the GPU; the tree and NetworkX's discovery order ranked level by level "
    "on the host. sort_neighbors: NetworkX runs it."
)

FUNCTION_NOTES: dict[str, dict[str, Any]] = {
    **{
        name: {"additional_docs": _BFS_ORDER_NOTE}
        for name in ("bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors")
    },
    "single_source_shortest_path_length": {
        "additional_docs": "BFS levels on the GPU; NetworkX's discovery order and its cutoff test "
        "(`cutoff > level`) on the host.",
    },
    "single_source_dijkstra_path_length": {
        "additional_docs": "Delta-stepping on the GPU, NetworkX's settling order and cutoff test on the "
        "host: weights must be non-negative integers (ints, bools or integral floats) summing below "
        "2**31, never rounded; otherwise NetworkX runs it.",
    },
    "connected_components": {
        "additional_docs": "Label propagation with hooking and shortcutting on the GPU.",
    },
    "betweenness_centrality": {
        "additional_docs": "Brandes' algorithm on the GPU in double precision (all sources in "
        "one run, or one run per sampled source); unweighted, endpoints excluded.",
    },
    "pagerank": {
        "additional_docs": "NetworkX's power iteration on the GPU in double precision, weighted (float "
        "weights scaled by a power of two into integers, which keeps every ratio; others: NetworkX runs it).",
    },
}


def get_info() -> dict[str, Any]:
    """What `networkx.backend_info` reports for gir: its functions and defaults."""
    return {
        "backend_name": "gir",
        "project": "gir",
        "package": "gir",
        "short_summary": "GraphIt programs compiled by gir, run on a GPU (CUDA or OpenCL).",
        "functions": FUNCTION_NOTES,
        "default_config": dict(DEFAULT_CONFIG),
    }
