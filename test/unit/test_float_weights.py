"""Float edge weights through the Python API: gir's graphs hold int32 weights, so
weights with a fraction are never rounded. A program that reads weights refuses
such a graph with the reason; one that reads none runs on it; floats without a
fraction are taken as the integers they are."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import gir
from gpu_testing import opencl_device_count

pytestmark = pytest.mark.skipif(opencl_device_count() == 0, reason="no OpenCL device")

PROGRAMS = Path(__file__).parents[1] / "programs"
SRC, DST = np.array([0, 1, 0]), np.array([1, 2, 2])


@pytest.fixture(scope="module")
def sssp() -> gir.Program:
    return gir.compile(PROGRAMS / "sssp_bf.gt")


def fractional_networkx() -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_weighted_edges_from([(0, 1, 1.0), (1, 2, 0.4), (0, 2, 1.6)])
    return graph


@pytest.mark.parametrize(
    ("graph", "kind", "count"),
    [
        ((SRC, DST, np.array([1.0, 0.4, 1.6])), "edge array", 2),
        (fractional_networkx(), "networkx.DiGraph", 2),
        (sp.csr_array((np.array([1.0, 0.4, 1.6]), (SRC, DST)), shape=(3, 3)), "scipy.csr_array", 2),
    ],
)
def test_a_program_reading_weights_refuses_fractions(
    sssp: gir.Program, graph: object, kind: str, count: int
) -> None:
    """SSSP on weights 1, 0.4, 1.6 was run on 1, 0, 2 (distance 1 to vertex 2, where
    the true one is 1.4)."""
    with pytest.raises(gir.UserError) as refusal:
        sssp.run(graph, 0)
    assert str(refusal.value).startswith(
        f"error: the program reads edge weights of <{kind} graph>, but {count} of the 3 edge "
        "weights have a fraction (the first, "
    )
    assert "never round them; scale them to integers yourself" in str(refusal.value)


def test_integral_float_weights_are_taken(sssp: gir.Program) -> None:
    out = sssp.run((SRC, DST, np.array([1.0, 1.0, 5.0])), 0)
    assert out["est"].tolist() == [0, 1, 2]


def test_a_program_reading_no_weights_runs_on_fractional_ones() -> None:
    bfs = gir.compile(PROGRAMS / "bfs.gt")
    pred = bfs.run(fractional_networkx(), 0)["pred"]
    assert pred.tolist() == [0, 0, 0]
