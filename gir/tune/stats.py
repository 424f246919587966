"""Graph statistics for the tuning cache's key and for `schedule="auto"`.

Cheap on the host (numpy): the degree distribution in one pass over the CSR row
pointers, and an estimated diameter from a few breadth-first probes (a double
sweep: from a vertex, then from the farthest vertex it reached), each stopped
after a time limit so that a chain of a million vertices costs seconds, not
minutes (the estimate is then a lower bound, which is all the rules need).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass

import numpy as np

from gir.runtime.graph import Graph

__all__ = ["DegreeStats", "GraphStats", "degree_stats", "estimate_diameter", "graph_stats"]


@dataclass(frozen=True)
class DegreeStats:
    """A graph's size and out-degree distribution: the tuning cache's graph signature."""

    vertices: int
    edges: int
    average_degree: float
    max_degree: int
    degree_cv: float
    """The out-degrees' coefficient of variation (standard deviation / mean): about
    0.3 on road grids, above 2 on RMAT graphs (a few hubs hold most edges)."""

    def signature(self) -> dict[str, object]:
        """The fields rounded to 3 significant digits (exact counts): two loads of
        one graph give the same signature."""
        return {
            "vertices": self.vertices,
            "edges": self.edges,
            "average_degree": float(f"{self.average_degree:.3g}"),
            "max_degree": self.max_degree,
            "degree_cv": float(f"{self.degree_cv:.3g}"),
        }


@dataclass(frozen=True)
class GraphStats:
    """Everything `schedule="auto"` reads about a graph."""

    degrees: DegreeStats
    diameter: int
    """An estimated diameter (levels of the longest BFS probe), a lower bound."""
    bytes: int
    """The CSR arrays' size on the device (row pointers, columns, weights)."""

    def as_dict(self) -> dict[str, object]:
        return {**asdict(self.degrees), "diameter": self.diameter, "bytes": self.bytes}


def degree_stats(graph: Graph) -> DegreeStats:
    """The size and out-degree distribution of `graph`."""
    degrees = graph.out_degrees().astype(np.float64)
    mean = float(degrees.mean()) if degrees.size else 0.0
    spread = float(degrees.std()) / mean if mean > 0 else 0.0
    return DegreeStats(
        vertices=graph.num_vertices,
        edges=graph.num_edges,
        average_degree=mean,
        max_degree=int(degrees.max()) if degrees.size else 0,
        degree_cv=spread,
    )


def _bfs_levels(graph: Graph, row_ptr: np.ndarray, source: int, deadline: float) -> tuple[int, int]:
    """Levels a BFS from `source` reaches along out-edges, and a vertex of its last
    level; stops at `deadline` (time.perf_counter) with the levels so far.

    A small frontier gathers its vertices' edges through the row pointers; a large
    one (more than 1/16 of the edges) selects the edges whose source it holds, in
    one pass over the edge list. Either way the next frontier is found with a mask
    over the vertices, not a sort."""
    seen = np.zeros(graph.num_vertices, dtype=bool)
    reached = np.zeros(graph.num_vertices, dtype=bool)
    seen[source] = True
    frontier = np.array([source], dtype=np.int64)
    levels, last = 0, source
    while frontier.size and time.perf_counter() < deadline:
        starts = row_ptr[frontier]
        counts = row_ptr[frontier + 1] - starts
        total = int(counts.sum())
        if total == 0:
            break
        if total * 16 > graph.num_edges:
            in_frontier = np.zeros(graph.num_vertices, dtype=bool)
            in_frontier[frontier] = True
            neighbours = graph.dst[in_frontier[graph.src]]
        else:
            # the columns of every frontier vertex's edges, without a Python loop
            offsets = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(total)
            neighbours = graph.dst[offsets]
        reached[neighbours] = True
        reached &= ~seen
        fresh = np.flatnonzero(reached)
        if not fresh.size:
            break
        seen[fresh] = True
        reached[fresh] = False
        levels, last, frontier = levels + 1, int(fresh[0]), fresh
    return levels, last


def estimate_diameter(graph: Graph, probes: int = 3, seconds: float = 2.0, seed: int = 0) -> int:
    """A lower bound on `graph`'s diameter along out-edges: the most levels of
    `probes` BFS probes (a double sweep from the largest-degree vertex, then from
    random vertices), all within about `seconds`."""
    if graph.num_vertices == 0 or graph.num_edges == 0:
        return 0
    row_ptr = np.asarray(graph.csr()[0], dtype=np.int64)
    deadline = time.perf_counter() + seconds
    rng = np.random.default_rng(seed)
    best, start = 0, graph.largest_degree_vertex()
    for probe in range(probes):
        levels, far = _bfs_levels(graph, row_ptr, start, deadline)
        best = max(best, levels)
        start = far if probe == 0 else int(rng.integers(graph.num_vertices))
    return best


def graph_stats(graph: Graph) -> GraphStats:
    """Degrees, an estimated diameter and the device size of `graph`."""
    degrees = degree_stats(graph)
    weights = 0 if graph.weights is None else graph.num_edges
    size = 4 * (graph.num_vertices + 1 + graph.num_edges + weights)
    return GraphStats(degrees, estimate_diameter(graph), size)
