"""Property tests: every function of gir's NetworkX backend, called through
NetworkX's dispatcher with `backend="gir"`, gives what NetworkX's own gives, for
arbitrary argument values on arbitrary small graphs: the same result (dicts in
the same order, ints and floats where NetworkX has them), or the same exception
type; or gir refuses (NotImplementedError), so that NetworkX runs the call.

Graphs are directed or not, multigraphs or not, with self loops, isolated
nodes, string or shuffled node names, and weights that are ints, floats
(integral, dyadic or not), bools, negative, huge, NaN, strings or None, or
absent. Arguments are drawn from the values where implementations tend to part:
cutoffs and depth limits of -1, 0, 2.5, NaN, inf, huge, True or a str; sources
not in the graph or unhashable; PageRank's alpha, max_iter and tol at their
edges.

CI runs a few derandomized examples per function; `pytest -m fuzz` runs
`GIR_FUZZ_EXAMPLES` (default 10,000) random ones (see test_fuzz_inputs.py)::

    GIR_FUZZ_EXAMPLES=2000 python -m pytest -m fuzz test/unit/test_nx_arguments.py
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from typing import Any

import networkx as nx
import pytest
from hypothesis import strategies as st
from test_fuzz_inputs import MODES, structured

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


LIMITS = [None, -1, 0, 1, 2, 2.5, -0.5, math.nan, math.inf, -math.inf, 10**30, True, "2"]
"""Cutoffs and depth limits."""

WEIGHTS = st.one_of(
    st.integers(0, 6),
    st.integers(0, 6).map(float),
    st.sampled_from([0.5, 2.25, 0.1, -1, -2.0, 2**31, 10**20, math.nan, math.inf, True, False, "3", None]),
)
"""Edge weights: mostly non-negative ints and integral floats, and the rest."""


@st.composite
def graphs(draw: st.DrawFn) -> nx.Graph:
    """A small graph of any kind, its 'weight' attributes drawn from `WEIGHTS`
    (or absent on some edges, or on all)."""
    directed, multi = draw(st.booleans()), draw(st.booleans())
    kind = {(False, False): nx.Graph, (True, False): nx.DiGraph, (False, True): nx.MultiGraph}
    graph = kind.get((directed, multi), nx.MultiDiGraph)()
    n = draw(st.integers(0, 9))
    names: list[Any] = list(range(n))
    random.Random(draw(st.integers(0, 3))).shuffle(names)
    if draw(st.booleans()):
        names = [f"v{name}" for name in names]
    graph.add_nodes_from(names)
    if n:
        weighted = draw(st.sampled_from(["all", "some", "none"]))
        pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
        for u, v in draw(st.lists(pairs, max_size=3 * n)):
            if weighted == "all" or (weighted == "some" and draw(st.booleans())):
                graph.add_edge(names[u], names[v], weight=draw(WEIGHTS))
            else:
                graph.add_edge(names[u], names[v])
    return graph


def _source(draw: st.DrawFn, graph: nx.Graph) -> Any:
    """A node of `graph` mostly; else one it lacks, or an unhashable list."""
    nodes = list(graph)
    choice = draw(st.integers(0, 9))
    if nodes and choice < 8:
        return nodes[choice % len(nodes)]
    return ["unhashable"] if choice == 9 else "absent"


def _plain(value: Any) -> Any:
    """A result as comparable data: dicts and iterables as lists (in their
    order), numbers with their type, NetworkX graphs as node and edge lists."""
    if isinstance(value, nx.Graph):
        return ("graph", type(value).__name__, list(value.nodes), list(value.edges))
    if isinstance(value, dict):
        return [(key, _plain(item)) for key, item in value.items()]
    if isinstance(value, (set, frozenset)):
        return ("set", value)
    if isinstance(value, (list, tuple, Iterator)):
        return [_plain(item) for item in value]
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)
    return (type(value).__name__, value)


def _outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "ok", _plain(call())
    except Exception as error:  # the exception's type is the outcome
        return "raised", (type(error), repr(error.__cause__))  # the type is compared, the cause shown


def _close(got: Any, expected: Any) -> bool:
    """Whether two `_plain` results are equal, floats within 1e-9."""
    if isinstance(got, tuple) and len(got) == 2 and got[0] == "float" and isinstance(expected, tuple):
        return expected[0] == "float" and got[1] == pytest.approx(expected[1], rel=1e-9, abs=1e-12)
    if isinstance(got, (list, tuple)) and type(got) is type(expected):
        return len(got) == len(expected) and all(map(_close, got, expected))
    return got == expected


def _same(name: str, graph: nx.Graph, *args: Any, **kwargs: Any) -> None:
    """`nx.<name>` gives the same outcome under gir as under NetworkX, or gir
    refuses where it says it does (see `_may_refuse`)."""
    function = getattr(nx, name)
    expected = _outcome(lambda: function(graph, *args, backend="networkx", **kwargs))
    got = _outcome(lambda: function(graph, *args, backend="gir", **kwargs))
    if got[0] == "raised" and got[1][0] is NotImplementedError and _may_refuse(name, graph, kwargs):
        return  # NetworkX runs it (under backend_priority)
    shown = (type(graph).__name__, list(graph), list(graph.edges(data=True)))
    if got[0] == expected[0] == "raised":
        assert got[1][0] is expected[1][0], (name, shown, args, kwargs, got, expected)
    else:
        assert got[0] == expected[0] and _close(got[1], expected[1]), (name, shown, args, kwargs, got, expected)


def _may_refuse(name: str, graph: nx.Graph, kwargs: dict[str, Any]) -> bool:
    """Whether gir may leave this call to NetworkX (docs/python.md's table):
    betweenness on a multigraph; Dijkstra unless the weights are non-negative
    integers (ints, bools or integral floats) whose sum fits int32; PageRank unless they are
    integers once scaled by a power of two."""
    if name == "betweenness_centrality":
        return graph.is_multigraph()
    weight = kwargs.get("weight")
    if name not in ("single_source_dijkstra_path_length", "pagerank") or weight is None:
        return False
    values = [data.get(weight, 1) for _, _, data in graph.edges(data=True)]
    if not all(isinstance(value, (int, float)) for value in values):
        return True
    if name == "pagerank":
        return not all(math.isfinite(value) and float(value * 2**40).is_integer() for value in values) or any(
            abs(value) >= 2**31 for value in values
        )
    integers = all(value >= 0 and float(value).is_integer() for value in values)
    return not integers or 2 * sum(values) >= 2**31 - 1  # distances are int32


@st.composite
def shortest_path_calls(draw: st.DrawFn) -> tuple[str, nx.Graph, tuple[Any, ...], dict[str, Any]]:
    graph = draw(graphs())
    source = _source(draw, graph)
    cutoff = draw(st.sampled_from(LIMITS))
    if draw(st.booleans()):
        return "single_source_shortest_path_length", graph, (source,), {"cutoff": cutoff}
    weight = draw(st.sampled_from(["weight", "absent"]))
    return "single_source_dijkstra_path_length", graph, (source,), {"cutoff": cutoff, "weight": weight}


@st.composite
def search_calls(draw: st.DrawFn) -> tuple[str, nx.Graph, tuple[Any, ...], dict[str, Any]]:
    graph = draw(graphs())
    name = draw(st.sampled_from(["bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors"]))
    kwargs = {"depth_limit": draw(st.sampled_from(LIMITS))}
    if name in ("bfs_edges", "bfs_tree"):
        kwargs["reverse"] = draw(st.booleans())
    return name, graph, (_source(draw, graph),), kwargs


@st.composite
def whole_graph_calls(draw: st.DrawFn) -> tuple[str, nx.Graph, tuple[Any, ...], dict[str, Any]]:
    graph = draw(graphs())
    name = draw(st.sampled_from(["pagerank", "betweenness_centrality", "connected_components"]))
    if name == "pagerank":
        kwargs = {
            "alpha": draw(st.sampled_from([0.85, 0.5, 0.0, 1.0, 0.123456789123, math.nan])),
            "max_iter": draw(st.sampled_from([100, 0, -1, 3, 2**40, 2.5])),
            "tol": draw(st.sampled_from([1e-6, 1e-10, 0.0, 1e-2, math.inf, math.nan])),
            "weight": draw(st.sampled_from(["weight", None, "absent"])),
        }
        if kwargs["max_iter"] == 2**40:  # NetworkX would iterate for ever unless it converges
            kwargs.update(alpha=0.85, tol=1e-6, weight=None)  # (negative weights may diverge)
    elif name == "betweenness_centrality":
        k = draw(st.sampled_from([None, 1, 2, len(graph)]))
        kwargs = {"k": k if k is None or k <= len(graph) else None, "normalized": draw(st.booleans())}
        kwargs["seed"] = draw(st.integers(0, 5))
    else:
        kwargs = {}
    return name, graph, (), kwargs


def _check(call: tuple[str, nx.Graph, tuple[Any, ...], dict[str, Any]]) -> None:
    name, graph, args, kwargs = call
    _same(name, graph, *args, **kwargs)


def _run(strategy: st.SearchStrategy, mode: str, ci: int) -> None:
    """`_check` over `ci` derandomized calls in mode "ci", else `LONG_EXAMPLES` random ones."""
    nx.config.backends.gir.target = "opencl"
    caching = nx.config.cache_converted_graphs
    nx.config.cache_converted_graphs = False
    try:
        structured(_check, strategy, mode, ci)
    finally:
        nx.config.cache_converted_graphs = caching


@pytest.mark.parametrize("mode", MODES)
def test_shortest_path_lengths_match_networkx(mode: str) -> None:
    _run(shortest_path_calls(), mode, 60)


@pytest.mark.parametrize("mode", MODES)
def test_searches_match_networkx(mode: str) -> None:
    _run(search_calls(), mode, 40)


@pytest.mark.parametrize("mode", MODES)
def test_whole_graph_algorithms_match_networkx(mode: str) -> None:
    _run(whole_graph_calls(), mode, 40)
