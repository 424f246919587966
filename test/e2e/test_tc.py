"""End to end: triangle counting (`tc.gt`, GraphIt's apps/tc.gt without its
relabelling, and `tc_relabel.gt` with it) with every registered intersection method, on PoCL and CUDA,
against the CPU reference's per-vertex counts: symmetric generated graphs, and
the hand-made ones, directed or with self loops, where GraphIt's
`intersectNeighbor` bound (w <= dst) decides what is counted."""

from __future__ import annotations

import pytest

from gir.api import lower_for_run
from gir.axes import INTERSECTIONS
from gir.dialects import graph
from gir.tools.run import parse_program
from gir.validate import find_validator
from test_programs import PROGRAMS, TARGETS, generated_graphs, hand_made_graphs


def _with_method(module, method: str):
    """`module` with every `intersectNeighbor` intersecting by `method`."""
    for op in module.walk():
        if isinstance(op, graph.IntersectNeighborsOp):
            op.properties["method"] = graph.StringAttr(method)
    return module


@pytest.mark.parametrize("program", ["tc.gt", "tc_relabel.gt"])
@pytest.mark.parametrize("method", list(INTERSECTIONS))
@pytest.mark.parametrize("target", TARGETS)
def test_triangle_counts(target, method, program, check_runs, tmp_path):
    """Per-vertex counts; `tc_relabel.gt` relabels by degree as GraphIt's app
    does, and its counts (each triangle at its largest vertex in that order)
    are checked against the relabelled graph's."""
    from gir.executor import compile_program

    module = _with_method(parse_program(str(PROGRAMS / program)), method)
    validator = find_validator(module)
    assert validator is not None and validator.algorithm == "triangle counting (counts in 'closed')"
    executable = compile_program(lower_for_run(module, check_bounds=True), target[0])
    graphs = {
        name: (spec, None)
        for name, (spec, _) in {**hand_made_graphs(tmp_path, False), **generated_graphs(False)}.items()
    }
    check_runs(program, executable, validator, target, graphs)


@pytest.mark.parametrize("program", ["tc.gt", "tc_binary_search.gt", "tc_relabel.gt"])
@pytest.mark.parametrize("target", TARGETS)
def test_triangle_total_printed(target, program, run_program):
    """The printed total is rmat:10's triangle count (networkx says 75,749),
    with the default merge and with the schedule's BinarySearchIntersection."""
    printed = run_program(program, target, ["rmat:10"])
    assert printed[0] == "75749"
