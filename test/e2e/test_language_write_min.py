"""End to end: GraphIt's `writeMin`/`writeMax` in an edge function and `min`/`max`
of two numbers (`test/programs/lang_write_min.gt`), against numpy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import gir
from gir.runtime.graph import Graph, load_graph
from test_programs import TARGETS

PROGRAM = Path(__file__).parents[1] / "programs" / "lang_write_min.gt"


def expected_output(graph: Graph) -> list[float]:
    """best[v]: the least 2 * src + weight over v's in-edges (else 1000000);
    worst[v]: the largest src / 2 (else -1); lowered: the vertices with an in-edge."""
    src, dst = graph.src.astype(np.int64), graph.dst.astype(np.int64)
    best = np.full(graph.num_vertices, 1000000, np.int64)
    np.minimum.at(best, dst, 2 * src + graph.weights.astype(np.int64))
    worst = np.full(graph.num_vertices, -1.0)
    np.maximum.at(worst, dst, src * 0.5)
    reached = np.zeros(graph.num_vertices, bool)
    reached[dst] = True
    return [best.sum(), worst.sum(), reached.sum(), max(best.max(), 3), -3, 2.0]


@pytest.mark.parametrize("target", TARGETS)
def test_write_min_max(target, devices):
    name, index = target
    devices(name, index)
    program = gir.compile(PROGRAM)
    for spec in ["road:9:7,w", "rmat:7,w"]:
        result = program.run(spec, target=name, device=index)
        printed = [float(text) for text in result.stdout.split()]
        expected = expected_output(load_graph(spec, cache=False))
        assert np.allclose(printed, expected), (spec, printed, expected)
