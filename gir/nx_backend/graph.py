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
"""The graph shapes that pick a program's schedule (`<program>.<shape>.schedule`)."""

POWER_LAW_MAX_TO_MEAN = 4.0
"""A graph is power-law when its largest out-degree is at least this many times
its mean out-degree (scale-free graphs have hubs; road networks and meshes have
degrees close to their mean, and many levels: "high-diameter")."""


class GirGraph:
    """A NetworkX graph as gir runs it: vertices numbered in `G` order, directed
    edges (an undirected edge becomes two), the requested edge attributes as
    float arrays, and the graph resident on gir's device once first used."""

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
    ):
        """`src`/`dst` index `nodes`; `attributes` has one value per edge each."""
        self.nodes = nodes
        self.index = {node: position for position, node in enumerate(nodes)}
        self.src, self.dst = src, dst
        self.attributes = dict(attributes)
        self.float_attributes: set[str] = set()
        """The attributes with a Python or numpy float among their values."""
        self.directed = directed
        self.multigraph = multigraph
        self.__networkx_cache__: dict[str, Any] = {}
        self._loaded: dict[str | None, Any] = {}

    def __len__(self) -> int:
        return len(self.nodes)

    def is_directed(self) -> bool:
        return self.directed

    def is_multigraph(self) -> bool:
        return self.multigraph

    def shape(self) -> str:
        """"power_law" or "high_diameter", from the out-degrees (see
        `POWER_LAW_MAX_TO_MEAN`)."""
        degrees = np.bincount(self.src, minlength=len(self.nodes))
        if degrees.size == 0 or degrees.mean() == 0:
            return "high_diameter"
        return "power_law" if degrees.max() >= POWER_LAW_MAX_TO_MEAN * degrees.mean() else "high_diameter"

    def gir_graph(self, weight: str | None = None) -> Graph:
        """The graph as gir's host `Graph`, weighted by attribute `weight` (its
        values must be integers: see `integer_weights`)."""
        weights = None if weight is None else self.attributes[weight].astype(np.int64)
        return from_edges(len(self.nodes), self.src, self.dst, weights)

    def loaded(self, weight: str | None = None) -> Any:
        """The graph resident on gir's device (a `gir.LoadedGraph`), once."""
        from gir.api import load_graph
        from gir.nx_backend.programs import device_options

        resident = self._loaded.get(weight)
        if resident is None:
            resident = self._loaded[weight] = load_graph(self.gir_graph(weight), **device_options())
        return resident

    def integer_weights(self, weight: str) -> bool:
        """Whether attribute `weight` holds non-negative integers whose total fits
        gir's int32 distances."""
        values = self.attributes[weight]
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
    default value: an edge without the attribute takes the default)."""
    nodes = list(graph)
    index = {node: position for position, node in enumerate(nodes)}
    edges = list(graph.edges)
    count = len(edges)
    src = np.fromiter((index[edge[0]] for edge in edges), dtype=np.int64, count=count)
    dst = np.fromiter((index[edge[1]] for edge in edges), dtype=np.int64, count=count)
    attributes, float_attributes = {}, set()
    for name, default in (edge_attrs or {}).items():
        values = [data.get(name, default) for *_, data in graph.edges(data=True)]
        try:
            attributes[name] = np.asarray(values, dtype=np.float64).reshape(count)
        except (TypeError, ValueError):
            raise NotImplementedError(f"gir reads numeric edge attributes; '{name}' is not") from None
        if any(isinstance(value, (float, np.floating)) for value in values):
            float_attributes.add(name)
    if not graph.is_directed():
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
        attributes = {name: np.concatenate([values, values]) for name, values in attributes.items()}
    converted = GirGraph(
        nodes, src, dst, attributes, directed=graph.is_directed(), multigraph=graph.is_multigraph()
    )
    converted.float_attributes = float_attributes
    return converted

