"""The object NetworkX's `networkx.backends` entry point names: NetworkX's
dispatcher finds gir's algorithms on it by name and converts graphs through it.

```python
import networkx as nx
nx.pagerank(G, backend="gir")                     # this call only
nx.config.backend_priority.algos = ["gir"]        # every call gir can run, else NetworkX
```
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Mapping
from typing import Any

from gir.nx_backend import algorithms
from gir.nx_backend.graph import GirGraph, from_nx

FUNCTIONS = (
    "bfs_edges",
    "bfs_tree",
    "bfs_predecessors",
    "bfs_successors",
    "single_source_shortest_path_length",
    "single_source_dijkstra_path_length",
    "connected_components",
    "pagerank",
    "betweenness_centrality",
)
"""The NetworkX functions gir implements (`algorithms.<name>`)."""

_UNSUPPORTED_BY_DEFAULT: dict[str, tuple[str, ...]] = {
    "pagerank": ("personalization", "nstart", "dangling"),
    **{name: ("sort_neighbors",) for name in ("bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors")},
}
"""Arguments gir takes only at their default (None)."""

_NOT_ON_MULTIGRAPHS = {"betweenness_centrality"}
"""Functions refused on multigraphs: gir's betweenness counts a path once per
parallel edge, NetworkX's once. (Dijkstra takes the least of parallel weights,
as NetworkX does; PageRank adds them up, as NetworkX's matrix does.)"""


@functools.cache
def _signature(name: str) -> inspect.Signature:
    """The signature of `algorithms.<name>` (inspecting costs more than the checks)."""
    return inspect.signature(getattr(algorithms, name))


def _bound(name: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The call's arguments by parameter name, defaults included."""
    bound = _signature(name).bind(*args, **kwargs)
    bound.apply_defaults()
    return dict(bound.arguments)


def _refusal(name: str, arguments: Mapping[str, Any]) -> str | None:
    """Why gir cannot run `name` with `arguments`, or None."""
    graph = arguments["G"]
    if name in _NOT_ON_MULTIGRAPHS and graph.is_multigraph():
        return "gir does not run this on multigraphs (it would count parallel edges' paths apart)"
    for parameter in _UNSUPPORTED_BY_DEFAULT.get(name, ()):
        if arguments[parameter] is not None:
            return f"gir does not support the {parameter!r} argument"
    weight = arguments.get("weight", None)
    if weight is not None and not isinstance(weight, str):
        return "gir reads weights from an edge attribute (a name), not from a function"
    if name == "single_source_dijkstra_path_length" and weight is None:
        return "gir's SSSP reads the weights of an edge attribute"
    if name == "betweenness_centrality" and (weight is not None or arguments["endpoints"]):
        return "gir's betweenness is unweighted and excludes endpoints"
    return None


MIN_EDGES: dict[str, dict[str, int]] = {
    "opencl": {
        "single_source_shortest_path_length": 1 << 19,  # gir never won up to 2**18 edges
        "bfs_edges": 1 << 17,
        "bfs_tree": 1 << 16,
        "bfs_predecessors": 1 << 17,
        "bfs_successors": 1 << 17,
        "single_source_dijkstra_path_length": 1 << 18,
        "connected_components": 1 << 19,  # gir never won up to 2**18 edges
        "pagerank": 1 << 16,
        "betweenness_centrality": 1 << 12,
    },
    "cuda": {
        "single_source_shortest_path_length": 1 << 19,  # gir never won up to 2**18 edges
        "bfs_edges": 1 << 18,
        "bfs_tree": 1 << 17,
        "bfs_predecessors": 1 << 18,
        "bfs_successors": 1 << 18,
        "single_source_dijkstra_path_length": 1 << 18,
        "connected_components": 1 << 19,  # gir never won up to 2**18 edges
        "pagerank": 1 << 15,
        "betweenness_centrality": 1 << 12,
    },
}
"""The default `min_edges` per target: the fewest edges from which gir,
conversion included, was faster than NetworkX at every size measured by
`python -m gir.nx_backend.calibrate --target T` (OpenCL: PoCL on 2 CPU cores;
CUDA: an NVIDIA H200; the tables are in docs/python.md); twice the largest size
measured where gir never won. Another machine moves them: rerun the calibration
there and set `nx.config.backends.gir.min_edges`."""

_DISPATCHER_MODULES = ("networkx.utils.backends", "networkx.utils.decorators", "gir.nx_backend")
"""Modules whose frames sit between a dispatched call and its caller."""


class BackendInterface:
    """gir's NetworkX backend: the functions of `FUNCTIONS`, plus NetworkX's
    conversion and dispatch hooks."""

    @staticmethod
    def convert_from_nx(graph: Any, edge_attrs: Mapping[str, Any] | None = None, **_: Any) -> GirGraph:
        """`graph` as a `GirGraph` with the edge attributes the algorithm reads
        (node and graph attributes are not used by gir's algorithms)."""
        return from_nx(graph, edge_attrs)

    @staticmethod
    def convert_to_nx(result: Any, **_: Any) -> Any:
        """gir returns NetworkX's own result types (dicts, sets): nothing to convert."""
        return result

    @staticmethod
    def can_run(name: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> bool | str:
        """True when gir implements `name` for these arguments, else why not."""
        if name not in FUNCTIONS:
            return f"gir does not implement {name}"
        try:
            arguments = _bound(name, args, kwargs)
        except TypeError as error:
            return str(error)
        return _refusal(name, arguments) or True

    @staticmethod
    def should_run(name: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> bool | str:
        """Whether gir is worth running (NetworkX asks only under
        `backend_priority`; `backend="gir"` always runs gir): not for a call made
        from inside another NetworkX algorithm (closeness centrality calls a BFS
        per node: each would be a device round trip), nor below the graph size
        where gir, conversion included, becomes faster (`min_edges`)."""
        caller = _networkx_caller()
        if caller is not None:
            return f"called from inside NetworkX's {caller}: gir runs only the calls users make"
        graph = _bound(name, args, kwargs)["G"]
        edges = _edge_count(graph)
        least = min_edges(name)
        if edges < least:
            return f"the graph has {edges} edges, below nx.config.backends.gir.min_edges for {name} ({least})"
        return True


def min_edges(name: str) -> int:
    """The fewest edges (each direction of an undirected edge counted) on which
    gir runs `name` when NetworkX asks `should_run`: the backend's config
    (`nx.config.backends.gir.min_edges`: an int for every function, or a dict
    by function name) over `MIN_EDGES` of the target the backend runs on."""
    from gir.nx_backend.programs import config

    from gir.api import choose_target

    settings = config()
    configured = getattr(settings, "min_edges", None)  # a config made before min_edges: the defaults
    if isinstance(configured, Mapping) and name in configured:
        return int(configured[name])
    if configured is not None and not isinstance(configured, Mapping):
        return int(configured)
    return MIN_EDGES[choose_target(getattr(settings, "target", None))][name]


def _edge_count(graph: Any) -> int:
    """The edges gir would convert: a directed graph's edges, an undirected
    graph's twice (parallel edges once per neighbour: a cheap lower bound)."""
    return sum(map(len, graph._adj.values()))


def _networkx_caller() -> str | None:
    """The NetworkX function that made the current dispatched call, if NetworkX
    itself made it: the first frame above the dispatcher's own."""
    frame = sys._getframe(1)  # should_run: skipped with the dispatcher
    while frame is not None and frame.f_globals.get("__name__", "").startswith(_DISPATCHER_MODULES):
        frame = frame.f_back
    if frame is None:
        return None
    module = frame.f_globals.get("__name__", "")
    return frame.f_code.co_name if module.startswith("networkx.") else None


for _name in FUNCTIONS:  # NetworkX looks the algorithms up on the interface by name
    setattr(BackendInterface, _name, staticmethod(getattr(algorithms, _name)))
