"""End to end: Afforest's connected components (`test/programs/cc_afforest.gt`:
union-find linking by compare-and-swap, a sampled first traversal with
`configEdgeSample`, then only the edges of the vertices outside the giant
component, both ways) on every available target, checked against the CPU
reference on the hand-made graphs (directed ones among them, whose weak
components need the in-edge pass) and on generated ones. The sample takes one
edge, two (the program's schedule) or every edge: the result never depends on it."""

from __future__ import annotations

import pytest
from test_programs import TARGETS, compile_checked, generated_graphs, hand_made_graphs
from xdsl.dialects.builtin import IntegerAttr, i64

from gir.dialects import graph as graph_dialect
from gir.dialects.schedule import SimpleScheduleAttr
from gir.tools.run import parse_program

PROGRAM = "cc_afforest.gt"


def _sampled(edges: int):
    """cc_afforest.gt with its `sampling` traversal walking the first `edges`
    out-edges of each vertex (0: every edge); the other traversals keep theirs."""
    from conftest import PROGRAMS

    module = parse_program(str(PROGRAMS / PROGRAM))
    sampling = [
        op
        for op in module.walk()
        if isinstance(op, graph_dialect.EdgeSetApplyOp)
        and op.label is not None
        and op.label.data == "sampling"
    ]
    assert len(sampling) == 1
    schedule = sampling[0].schedule
    assert isinstance(schedule, SimpleScheduleAttr) and schedule.edge_sample.value.data == 2
    sampling[0].properties["schedule"] = schedule.with_options(edge_sample=IntegerAttr(edges, i64))
    return module


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("edges", [1, 2, 0], ids=["sample1", "sample2", "every_edge"])
def test_afforest_matches_reference(edges, target, check_runs, tmp_path) -> None:
    executable, validator = compile_checked(_sampled(edges), PROGRAM, target[0])
    graphs = {
        name: (spec, None)
        for name, (spec, _) in {
            **hand_made_graphs(tmp_path, weighted=False),
            **generated_graphs(weighted=False),
        }.items()
    }
    check_runs(PROGRAM, executable, validator, target, graphs)
