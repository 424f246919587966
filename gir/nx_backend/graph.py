"""NetworkX graphs converted for gir: `GirGraph`, made once per graph and edge attribute.

NetworkX's dispatcher calls `convert_from_nx` with the edge attributes the
algorithm reads (e.g. `{"weight": 1}`: the attribute and its default) and caches
the result on the NetworkX graph (`G.__networkx_cache__`), so a graph is converted,
and copied to the device, once for all later calls that read the same attributes.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from gir.runtime.graph import Graph, from_edges

SHAPES = ("power_law", "high_diameter")
"""The graph shapes of the shipped schedule files (`<program>.<shape>.schedule`),
which `nx.config.backends.gir.schedule` can force instead of the auto model."""

STATS_KEY = "gir_graph_stats"
"""Where a converted graph's statistics are kept in the NetworkX graph's
`__networkx_cache__`, beside NetworkX's own "backends" entry: shared by the
graph's conversions for other edge attributes (the statistics read only its
edges), and cleared by NetworkX, with the conversions, when the graph changes."""


NUMBER_TYPES = (int, float, np.integer, np.floating, np.bool_)
"""The edge attribute values gir computes with (bool is an int); NetworkX adds
or compares anything else (a str, a Fraction, None for a hidden edge) its own way."""

FLOAT_TYPES = (float, np.floating)


class GirGraph:
    """A NetworkX graph as gir runs it: vertices numbered in `G` order, directed
    edges (an undirected edge becomes two), the requested edge attributes as
    float arrays, and the graph resident on gir's device once first used.

    The edges are in NetworkX's adjacency order: grouped by source vertex in
    node order, each vertex's edges in the order `G.neighbors` yields its
    neighbours (a multigraph's parallel edges next to each other), which is what
    order-sensitive algorithms such as `bfs_edges` need."""

    __networkx_backend__ = "gir"

    def __init__(
        self,
        nodes: list[Hashable],
        src: np.ndarray,
        dst: np.ndarray,
        attributes: Mapping[str, np.ndarray],
        *,
        directed: bool,
        multigraph: bool,
        predecessors: Mapping[Hashable, Mapping[Hashable, Any]] | None = None,
        shared: dict[str, Any] | None = None,
    ):
        """`src`/`dst` index `nodes`; `attributes` has one value per edge each;
        `predecessors` is a directed graph's `G.pred`, read (once) only when an
        algorithm follows its edges backwards (`reverse_edges`); `shared` is
        the NetworkX graph's cache, where `stats` keeps its result (`STATS_KEY`)."""
        self.nodes = nodes
        self.index = {node: position for position, node in enumerate(nodes)}
        self.src, self.dst = src, dst
        self.attributes = dict(attributes)
        self.float_edges: dict[str, np.ndarray] = {}
        """For each attribute with a Python or numpy float among its values, which
        edges hold a float (a path through one has a float length in NetworkX)."""
        self.directed = directed
        self.multigraph = multigraph
        self.odd_edges: dict[str, dict[type, np.ndarray]] = {}
        """For each attribute with values that are not numbers (a str, None,
        a Fraction), which edges hold each such type (their `attributes` value
        is NaN)."""
        self.__networkx_cache__: dict[str, Any] = {}
        self._predecessors = predecessors
        self._reverse_edges: tuple[np.ndarray, np.ndarray] | None = None
        self._loaded: dict[tuple[str | None, bool, str | None], Any] = {}
        self._stats: Any = shared.get(STATS_KEY) if shared is not None else None
        self._shared = shared

    def __len__(self) -> int:
        return len(self.nodes)

    def is_directed(self) -> bool:
        return self.directed

    def is_multigraph(self) -> bool:
        return self.multigraph

    def stats(self) -> Any:
        """The graph's statistics for the auto schedule model (a
        `gir.tune.stats.GraphStats`: degrees and an estimated diameter, whose
        BFS probes cost about as much as a BFS on the host), computed once
        for all conversions of a NetworkX graph while it is unchanged."""
        if self._stats is None:
            from gir.tune import stats

            self._stats = stats.graph_stats(self.gir_graph())
            if self._shared is not None:
                self._shared[STATS_KEY] = self._stats
        return self._stats

    def gir_graph(
        self,
        weight: str | None = None,
        *,
        reverse: bool = False,
        integers: np.ndarray | None = None,
        edges: np.ndarray | None = None,
    ) -> Graph:
        """The graph as gir's host `Graph`, weighted by attribute `weight` (its
        values must be integers: see `integer_weights`) or by `integers` (one
        per edge) where given, of the `edges` selected (a mask; all if None);
        every edge turned around when `reverse`."""
        weights = integers if integers is not None else None if weight is None else self.attributes[weight]
        weights = None if weights is None else weights.astype(np.int64)
        src, dst = (self.dst, self.src) if reverse else (self.src, self.dst)
        if edges is not None:
            src, dst, weights = src[edges], dst[edges], None if weights is None else weights[edges]
        return from_edges(len(self.nodes), src, dst, weights)

    def loaded(
        self,
        weight: str | None = None,
        *,
        reverse: bool = False,
        integers: tuple[str, np.ndarray] | None = None,
        edges: np.ndarray | None = None,
    ) -> Any:
        """The graph (reversed when `reverse`) resident on gir's device (a
        `gir.LoadedGraph`), once: as `gir_graph` builds it, `integers` a
        (name, per-edge integers) pair derived from attribute `weight` (and
        `edges` a mask the same name decides), cached under that name."""
        from gir.api import load_graph
        from gir.nx_backend.programs import device_options

        key = (weight, reverse, None if integers is None else integers[0])
        resident = self._loaded.get(key)
        if resident is None:
            values = None if integers is None else integers[1]
            graph = self.gir_graph(weight, reverse=reverse, integers=values, edges=edges)
            resident = self._loaded[key] = load_graph(graph, **device_options())
        return resident

    def parallel_groups(self) -> np.ndarray:
        """Each edge's group of parallel edges (same ends), numbered by ends."""
        return np.unique(self.src * len(self.nodes) + self.dst, return_inverse=True)[1].reshape(-1)

    def parallel_combined(self, values: np.ndarray, combine: np.ufunc) -> np.ndarray:
        """`values` (one per edge) with each edge of a multigraph's parallel
        group holding `combine` (np.minimum, np.add) over its group: gir's
        graphs keep one edge of a group, with the first one's weight."""
        if not self.multigraph or values.size == 0:
            return values
        group = self.parallel_groups()
        start = combine.identity if combine.identity is not None else np.inf
        combined = np.full(group.max() + 1, start, dtype=np.float64)
        combine.at(combined, group, values)
        return combined[group]

    def reverse_edges(self) -> tuple[np.ndarray, np.ndarray]:
        """A directed graph's edges turned around, in the order of its
        predecessor adjacency: `(vertex, predecessor)` index arrays grouped by
        vertex in node order, each vertex's predecessors in `G.predecessors`
        order (each once, also in a multigraph). Read from `G.pred` once."""
        if self._reverse_edges is None:
            if self._predecessors is None:
                raise ValueError("reverse_edges needs a directed graph's predecessors")
            self._reverse_edges = _adjacency_arrays(self.index, self._predecessors)
        return self._reverse_edges

    def integer_weights(self, weight: str, edges: np.ndarray | None = None) -> bool:
        """Whether attribute `weight` holds non-negative integers (on the
        `edges` selected, a mask; all if None) whose total fits gir's int32
        distances."""
        values = self.attributes[weight] if edges is None else self.attributes[weight][edges]
        return bool(
            np.all(values >= 0) and np.all(values == np.round(values)) and values.sum() < np.iinfo(np.int32).max
        )

    def node_of(self, source: Hashable, message: str) -> int:
        """The vertex of node `source`; NetworkX's `NodeNotFound(message)` if none."""
        import networkx as nx

        try:
            return self.index[source]
        except (KeyError, TypeError):
            raise nx.NodeNotFound(message) from None


def from_nx(graph: Any, edge_attrs: Mapping[str, Any] | None) -> GirGraph:
    """`graph` converted with the attributes named in `edge_attrs` (name to
    default value: an edge without the attribute takes the default), its edges
    read from the adjacency in NetworkX's order (see `GirGraph`): an undirected
    edge once from each end (a self loop once), a multigraph's parallel edges
    once per key."""
    nodes = list(graph)
    index = {node: position for position, node in enumerate(nodes)}
    adjacency = graph._adj  # NetworkX's own dicts: its views cost a lookup per edge
    multigraph = graph.is_multigraph()
    neighbourhoods = [adjacency[node] for node in nodes]
    if multigraph:
        counts = [sum(map(len, neighbours.values())) for neighbours in neighbourhoods]
        heads = (v for neighbours in neighbourhoods for v, keyed in neighbours.items() for _ in keyed)
        datas = (data for neighbours in neighbourhoods for keyed in neighbours.values() for data in keyed.values())
    else:
        counts = list(map(len, neighbourhoods))
        heads = (v for neighbours in neighbourhoods for v in neighbours)
        datas = (data for neighbours in neighbourhoods for data in neighbours.values())
    count = sum(counts)
    src = np.repeat(np.arange(len(nodes), dtype=np.int64), counts)
    dst = np.fromiter(map(index.__getitem__, heads), dtype=np.int64, count=count)
    attributes, float_edges, odd_edges = {}, {}, {}
    edge_data = list(datas) if edge_attrs else []
    for name, default in (edge_attrs or {}).items():
        values = [data.get(name, default) for data in edge_data]
        kinds = set(map(type, values))
        odd_kinds = [kind for kind in kinds if not issubclass(kind, NUMBER_TYPES)]
        if odd_kinds:  # NaN in `attributes`; the algorithm decides what NetworkX would do
            odd_edges[name] = {
                kind: np.fromiter((type(value) is kind for value in values), dtype=bool, count=count)
                for kind in odd_kinds
            }
            values = [value if isinstance(value, NUMBER_TYPES) else np.nan for value in values]
        attributes[name] = np.asarray(values, dtype=np.float64).reshape(count)
        if any(issubclass(kind, FLOAT_TYPES) for kind in kinds):
            float_edges[name] = np.fromiter(
                (isinstance(value, FLOAT_TYPES) for value in values), dtype=bool, count=count
            )
    converted = GirGraph(
        nodes,
        src,
        dst,
        attributes,
        directed=graph.is_directed(),
        multigraph=multigraph,
        predecessors=graph._pred if graph.is_directed() else None,
        shared=_networkx_cache(graph),
    )
    converted.float_edges = float_edges
    converted.odd_edges = odd_edges
    return converted


def _networkx_cache(graph: Any) -> dict[str, Any] | None:
    """`graph.__networkx_cache__`, where NetworkX caches conversions (None when
    caching is off, for the graph or by `nx.config.cache_converted_graphs`)."""
    import networkx as nx

    cache = getattr(graph, "__networkx_cache__", None)
    caching = getattr(nx.config, "cache_converted_graphs", True)  # a NetworkX without the setting caches
    return cache if isinstance(cache, dict) and caching else None


def _adjacency_arrays(
    index: Mapping[Hashable, int], adjacency: Mapping[Hashable, Mapping[Hashable, Any]]
) -> tuple[np.ndarray, np.ndarray]:
    """`(vertex, neighbour)` index arrays of `adjacency` (node to neighbours),
    grouped by vertex in node order, each neighbour once, in adjacency order."""
    neighbourhoods = [adjacency[node] for node in index]
    src = np.repeat(np.arange(len(neighbourhoods), dtype=np.int64), list(map(len, neighbourhoods)))
    heads = (v for neighbours in neighbourhoods for v in neighbours)
    return src, np.fromiter(map(index.__getitem__, heads), dtype=np.int64, count=src.size)
