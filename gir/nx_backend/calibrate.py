"""Measure where gir's NetworkX backend becomes faster than NetworkX itself:
`python -m gir.nx_backend.calibrate [--target opencl] [--max-edges N]`.

For each function gir implements, on random graphs of growing size (`gnm`,
8 edges a node, integer weights), it times NetworkX's own call and gir's call
through the dispatcher with the conversion included (each gir call starts from
a graph whose conversion cache is empty, as the first call on a graph does),
and prints one table row per size and the fewest edges from which gir won at
every size measured: the value for `interface.MIN_EDGES` on this machine and
target (`nx.config.backends.gir.min_edges` sets it at run time).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

def _calls() -> dict[str, Callable[..., Any]]:
    """A call of each function on a graph (from node 0 where it takes a source)."""
    import networkx as nx

    return {
        "single_source_shortest_path_length": lambda G, **kw: nx.single_source_shortest_path_length(G, 0, **kw),
        "bfs_edges": lambda G, **kw: list(nx.bfs_edges(G, 0, **kw)),
        "bfs_tree": lambda G, **kw: nx.bfs_tree(G, 0, **kw),
        "bfs_predecessors": lambda G, **kw: list(nx.bfs_predecessors(G, 0, **kw)),
        "bfs_successors": lambda G, **kw: list(nx.bfs_successors(G, 0, **kw)),
        "single_source_dijkstra_path_length": lambda G, **kw: nx.single_source_dijkstra_path_length(G, 0, **kw),
        "connected_components": lambda G, **kw: list(nx.connected_components(G, **kw)),
        "pagerank": lambda G, **kw: nx.pagerank(G, **kw),
        "betweenness_centrality": lambda G, **kw: nx.betweenness_centrality(G, **kw),
    }


def graph(edges: int, seed: int = 1) -> Any:
    """A connected-ish random graph with `edges` directed edges (each undirected
    edge counted both ways, as `min_edges` counts them) and weights 1..9."""
    import networkx as nx

    nodes = max(2, edges // 8)
    G = nx.gnm_random_graph(nodes, edges // 2, seed=seed)
    rng = random.Random(seed)
    for _, _, data in G.edges(data=True):
        data["weight"] = rng.randint(1, 9)
    return G


def best_of(call: Callable[[], Any], budget: float = 1.0) -> float:
    """The median of a few timed calls (at least three, within about `budget` seconds)."""
    times: list[float] = []
    while len(times) < 3 or (sum(times) < budget and len(times) < 15):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(name: str, sizes: list[int]) -> tuple[list[tuple[int, float, float]], int | None]:
    """(edges, NetworkX seconds, gir seconds with conversion) per size, and the
    fewest edges from which gir won at every larger size measured."""
    call = _calls()[name]
    rows = []
    for edges in sizes:
        G = graph(edges)

        def on_gir() -> Any:
            G.__networkx_cache__.clear()
            return call(G, backend="gir")

        on_gir()  # probes the graph and compiles its schedule's program once
        rows.append((edges, best_of(lambda: call(G, backend="networkx")), best_of(on_gir)))
        if len(rows) >= 2 and all(nx_time > gir_time for _, nx_time, gir_time in rows[-2:]):
            break  # gir won twice in a row: larger graphs only widen its lead
    threshold = None
    for edges, nx_time, gir_time in reversed(rows):
        if nx_time <= gir_time:
            break
        threshold = edges
    return rows, threshold


def main(argv: list[str] | None = None) -> None:
    """Print the table and the thresholds."""
    import networkx as nx

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default=None, help="cuda or opencl (default: CUDA where it runs)")
    parser.add_argument("--max-edges", type=int, default=1 << 18)
    parser.add_argument("--functions", nargs="*", default=None)
    options = parser.parse_args(argv)
    if "gir" not in nx.config.backends:
        parser.error(
            "gir's NetworkX backend is not registered: install gir (`pip install .`), "
            "whose `networkx.backends` entry point NetworkX reads at import"
        )
    warnings.simplefilter("ignore")
    nx.config.backends.gir.target = options.target
    sizes = [1 << power for power in range(8, options.max_edges.bit_length())]
    print("| function | edges | NetworkX ms | gir ms (conversion included) |")
    print("|---|---:|---:|---:|")
    thresholds = {}
    for name in options.functions or list(_calls()):
        rows, thresholds[name] = measure(name, sizes if name != "betweenness_centrality" else sizes[:6])
        for edges, nx_time, gir_time in rows:
            print(f"| {name} | {edges} | {nx_time * 1e3:.2f} | {gir_time * 1e3:.2f} |", flush=True)
    print("\nMIN_EDGES (None: gir never won):")
    for name, edges in thresholds.items():
        print(f"    {name!r}: {edges},")


if __name__ == "__main__":
    main()
