"""A graph relabelled by one of `gir.reorder`'s orderings, made once and cached.

`relabelled(graph, "DEGREE")` gives the graph with vertex `old` renamed
`new_of_old[old]` (edges sorted again, weights following their edges) and the
`Relabelling` that maps ids both ways. When `graph` came through the graph cache
(`CACHE_ENTRY`), the relabelled edges and the order are cached beside it, so a
large graph is reordered once, not at every run; `seconds` says how long
making it took (reading it from the cache, or computing it).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from gir.reorder import Relabelling, relabel, relabelling_of
from gir.runtime.graph.cache import CacheEntry
from gir.runtime.graph.errors import GraphError
from gir.runtime.graph.graph import CACHE_ENTRY, Graph, from_edges, ignore_progress, mark_symmetric


@dataclass(frozen=True)
class RelabelledGraph:
    """A graph under a relabelling, and how long making it took."""

    graph: Graph
    relabelling: Relabelling
    seconds: float
    cached: bool
    """Whether it came from the graph cache on disk."""


def relabelled(graph: Graph, name: str) -> RelabelledGraph:
    """`graph` relabelled by the ordering `name`, made once per graph (kept with
    it, and for a cached graph on disk)."""
    return graph.derived(f"relabelled:{name}", lambda: _made(graph, name))


def _made(graph: Graph, name: str) -> RelabelledGraph:
    """`graph` relabelled by `name`, from the graph cache or computed (and cached)."""
    started = time.perf_counter()
    entry = graph._derived.get(CACHE_ENTRY)
    weighted = graph.weights is not None
    cache_entry = entry.reordered(name, weighted) if entry is not None else None
    made = _read(cache_entry, graph, name) if cache_entry is not None else None
    cached = made is not None
    if made is None:
        made = _relabel(graph, name)
        if cache_entry is not None:
            new_graph, relabelling = made
            cache_entry.write_arrays(
                {
                    "order": relabelling.old_of_new,
                    "src": new_graph.src,
                    "dst": new_graph.dst,
                    "weights": np.empty(0, np.int32) if new_graph.weights is None else new_graph.weights,
                },
                ignore_progress,
            )
    return RelabelledGraph(made[0], made[1], time.perf_counter() - started, cached)


def _relabel(graph: Graph, name: str) -> tuple[Graph, Relabelling]:
    relabelling = relabel(name, graph.num_vertices, graph.src, graph.dst)
    new_of_old = relabelling.new_of_old
    new_graph = from_edges(graph.num_vertices, new_of_old[graph.src], new_of_old[graph.dst], graph.weights)
    _keep_symmetry(graph, new_graph)
    return new_graph, relabelling


def _keep_symmetry(graph: Graph, new_graph: Graph) -> None:
    """A symmetric graph stays symmetric under any relabelling: its CSC reuses its CSR."""
    if graph._derived.get("transpose") is graph:
        mark_symmetric(new_graph)


def _read(entry: CacheEntry, graph: Graph, name: str) -> tuple[Graph, Relabelling] | None:
    """The relabelled graph from its cache entry, or None (checked to fit `graph`)."""
    arrays = entry.read_arrays(("order", "src", "dst", "weights"), "", ignore_progress)
    if arrays is None:
        return None
    order = arrays["order"]
    if order.size != graph.num_vertices or arrays["src"].size != graph.num_edges:
        return None
    try:
        relabelling = relabelling_of(name, order.astype(np.int64), graph.num_vertices)
        weights = arrays["weights"] if graph.weights is not None else None
        new_graph = Graph(graph.num_vertices, arrays["src"], arrays["dst"], weights)
    except (ValueError, GraphError):  # a damaged entry is rebuilt
        return None
    _keep_symmetry(graph, new_graph)
    return new_graph, relabelling

