"""End to end: global scalars set inside control flow of `main`
(`test/programs/lang_global_in_loop.gt`: in a while, an if, a nested for and a
function main calls, read by the loop condition and by an edge function), run
on OpenCL (PoCL in CI) and CUDA where present, against BFS levels from scipy."""

from __future__ import annotations

import numpy as np
import pytest

from gir.runtime import reference
from gir.runtime.graph import Graph, load_graph
from test_language import graphs
from test_programs import TARGETS

LIMITS = (0, 1, 2, 1000)
"""Round limits (argv[3]): none run, cut early, and the whole search."""


def global_in_loop_expected(graph: Graph, root: int, limit: int) -> list[str]:
    """What `lang_global_in_loop.gt GRAPH ROOT LIMIT` prints: round r finds the
    vertices of BFS level r, and the search runs while level `rounds` is not
    empty and `rounds` is below the limit."""
    levels = reference.bfs_levels(graph, root)
    depth = int(levels.max())
    rounds = min(depth + 1, limit)
    found = (levels >= 0) & (levels <= rounds)
    sizes = [int((levels == r).sum()) for r in range(1, rounds + 1)]
    widest = max(sizes, default=0)
    widest_round = sizes.index(widest) + 1 if widest > 0 else 0
    stamps = np.where(found, levels, -1).sum()
    cut = int(rounds <= depth)
    values = [rounds, rounds - 1, int(found.sum()), widest, widest_round, 3 * rounds, cut, stamps]
    return [str(int(value)) for value in values]


@pytest.mark.parametrize("target", TARGETS)
def test_globals_set_in_loops_ifs_and_called_functions(target, run_program, tmp_path):
    """Each global's value after the loop is the one it was last set to, and the
    edge function sees the current round in every round (its stamps are the
    BFS levels)."""
    failures = []
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        for root in (0, graph.largest_degree_vertex()):
            for limit in LIMITS:
                argv = [spec, str(root), str(limit)]
                printed = run_program("lang_global_in_loop.gt", target, argv)
                expected = global_in_loop_expected(graph, root, limit)
                if printed != expected:
                    failures.append(f"{name} {root} {limit}: {printed}, expected {expected}")
    assert not failures, "\n".join(failures)
