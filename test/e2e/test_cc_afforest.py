"""End to end: Afforest's connected components (`test/programs/cc_afforest.gt`:
union-find linking by compare-and-swap, a sampled first traversal with
`configEdgeSample`, then only the edges of the vertices outside the giant
component, both ways) on every available target, checked against the CPU
reference on the hand-made graphs (directed ones among them, whose weak
components need the in-edge pass) and on generated ones. The sample takes one
edge, two (the program's schedule) or every edge: the result never depends on it."""

from __future__ import annotations

import pytest
from test_programs import STRATEGIES, TARGETS, compile_checked, generated_graphs, hand_made_graphs
from xdsl.dialects.builtin import IntegerAttr, i64

from gir.dialects import graph as graph_dialect
from gir.dialects.schedule import LoadBalanceAttr, SimpleScheduleAttr
from gir.tools.run import parse_program

PROGRAM = "cc_afforest.gt"


def _applies(module) -> dict[str, graph_dialect.EdgeSetApplyOp]:
    return {
        op.label.data: op
        for op in module.walk()
        if isinstance(op, graph_dialect.EdgeSetApplyOp) and op.label is not None
    }


def _sampled(edges: int, linking: str = "VERTEX_BASED"):
    """cc_afforest.gt with its `sampling` traversal walking the first `edges`
    out-edges of each vertex (0: every edge), and its two linking traversals
    under load balance `linking`."""
    from conftest import PROGRAMS

    module = parse_program(str(PROGRAMS / PROGRAM))
    applies = _applies(module)
    assert sorted(applies) == ["linking", "linking_back", "sampling"]
    sampling = applies["sampling"]
    schedule = sampling.schedule
    assert isinstance(schedule, SimpleScheduleAttr) and schedule.edge_sample.value.data == 2
    sampling.properties["schedule"] = schedule.with_options(edge_sample=IntegerAttr(edges, i64))
    for label in ("linking", "linking_back"):
        applies[label].properties["schedule"] = SimpleScheduleAttr.default().with_options(
            load_balance=LoadBalanceAttr(linking)
        )
    return module


def _graphs(tmp_path) -> dict[str, tuple[str, None]]:
    """The hand-made and generated test graphs, without start vertices."""
    return {
        name: (spec, None)
        for name, (spec, _) in {
            **hand_made_graphs(tmp_path, weighted=False),
            **generated_graphs(weighted=False),
        }.items()
    }


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("edges", [1, 2, 0], ids=["sample1", "sample2", "every_edge"])
def test_afforest_matches_reference(edges, target, check_runs, tmp_path) -> None:
    executable, validator = compile_checked(_sampled(edges), PROGRAM, target[0])
    check_runs(PROGRAM, executable, validator, target, _graphs(tmp_path))


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_linking_under_every_load_balance(strategy, target, check_runs, tmp_path) -> None:
    """The union-find link (a compare-and-swap loop in the edge function) from
    the vertices outside the giant component, under every registered load
    balance; a sample of one edge leaves the most to those traversals."""
    executable, validator = compile_checked(_sampled(1, strategy), PROGRAM, target[0])
    check_runs(PROGRAM, executable, validator, target, _graphs(tmp_path))
