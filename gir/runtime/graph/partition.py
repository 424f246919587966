"""1D partition of a graph's edges over several devices.

Vertex data is replicated on every device; the edges, the large part of a graph,
are split. The vertices are cut into contiguous ranges balanced by out-edges
(`source_ranges`), and device `r` holds the edges whose source lies in range `r`
(`GraphPart`), in every layout the program reads: CSR (rows of its own sources),
CSC (the in-edges of every vertex that come from its own sources), COO and the
edge-blocked tilings. Column arrays keep global vertex ids, so kernels run on a
part unchanged: a push traversal of a global frontier finds edges only at the
part's sources, a pull over every destination only the part's in-edges, and
each edge of the graph is traversed on exactly one device. Out-degrees stay the
whole graph's (PageRank divides by them).

```python
parts = partition(graph, 2)
parts[0].csr()          # (row_ptr [V+1], col_idx, weights) of sources [0, split)
parts[1].out_degrees()  # the whole graph's
```
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np

from gir.runtime.graph import native
from gir.runtime.graph.graph import BlockedEdges, CsrArrays, Graph


def source_ranges(graph: Graph, parts: int) -> list[tuple[int, int]]:
    """`parts` contiguous vertex ranges [begin, end) covering the graph, each
    holding about `num_edges / parts` out-edges (a range may be empty)."""
    if parts < 1:
        raise ValueError(f"a partition needs at least one part, not {parts}")
    row_ptr = graph.csr()[0].astype(np.int64)
    targets = [graph.num_edges * k // parts for k in range(1, parts)]
    cuts = [0, *(int(np.searchsorted(row_ptr, target, side="left")) for target in targets)]
    cuts.append(graph.num_vertices)
    cuts = [min(max(cut, 0), graph.num_vertices) for cut in cuts]
    return [(cuts[k], max(cuts[k], cuts[k + 1])) for k in range(parts)]


@dataclass(frozen=True)
class GraphPart:
    """The edges of one device: those whose source lies in `sources`, as a graph
    over all `num_vertices` vertices (so ids stay global), with the whole
    graph's out-degrees."""

    local: Graph
    sources: tuple[int, int]
    whole_out_degrees: np.ndarray
    whole: weakref.ref[Graph] | None = None
    """The graph the part is of (weakly: the graph keeps its parts, see
    `partition`): its CSC, cut to the part's sources, is the part's (`csc`);
    where it is gone, or None, the part's own transpose is."""

    @property
    def num_vertices(self) -> int:
        return self.local.num_vertices

    @property
    def num_edges(self) -> int:
        """The part's edges (what its edge arrays hold)."""
        return self.local.num_edges

    @property
    def weights(self) -> np.ndarray | None:
        return self.local.weights

    def csr(self) -> CsrArrays:
        return self.local.csr()

    def csc(self) -> CsrArrays:
        """The in-edges of every vertex that come from the part's sources: the
        columns in `sources` of each row of the whole graph's CSC (its rows are
        sorted), cut on every core (`native.column_range`) instead of
        transposing the part (a counting sort on one core), made once."""
        whole = None if self.whole is None else self.whole()
        if whole is None:
            return self.local.csc()
        begin, end = self.sources

        def cut() -> CsrArrays:
            csc_ptr, csc_idx, csc_weights = whole.csc()
            return native.column_range(csc_ptr, csc_idx, csc_weights, begin, end, self.num_edges)

        return self.local.derived("partition:csc", cut)

    def blocked(self, size: int, by_source: bool = False) -> BlockedEdges:
        return self.local.blocked(size, by_source)

    def out_degrees(self) -> np.ndarray:
        return self.whole_out_degrees


def partition(graph: Graph, parts: int) -> list[GraphPart]:
    """The graph split into `parts` parts by `source_ranges`, made once per
    graph and number of parts (a part's CSC is made on first use, then kept):
    the trials of a partitioned run, and a split timed apart from the run
    (tools/big_graph.py), do not split it again."""
    return graph.derived(f"partition:{parts}", lambda: _partition(graph, parts))


def _partition(graph: Graph, parts: int) -> list[GraphPart]:
    """`partition`, made."""
    degrees = graph.out_degrees()
    row_ptr = graph.csr()[0]
    result = []
    for begin, end in source_ranges(graph, parts):
        first, last = int(row_ptr[begin]), int(row_ptr[end])
        weights = None if graph.weights is None else graph.weights[first:last]
        local = Graph(graph.num_vertices, graph.src[first:last], graph.dst[first:last], weights)
        result.append(GraphPart(local, (begin, end), degrees, weakref.ref(graph)))
    return result
