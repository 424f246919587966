"""End to end: programs written as GraphIt's and G2's own are, run and checked
by the validator `--validate` uses. bc_cleared.gt clears its result at the end
of each trial and its second trial computes nothing (GraphIt's bc.gt, G2's
bc_power.gt): the first trial's dependencies are checked. sssp_base_distance.gt
starts its source at a distance of its own (GraphIt's sssp_benchmark.gt), and
lang_ppsp.gt stops once its target is settled (apps/ppsp_delta_stepping.gt),
and lang_bool_modified.gt's applyModified edge function declares a bool it never
sets (apps/closeness_centrality_weighted.gt; lang_bool_modified_functor.gt as a
functor over a local vector, as test/input/closeness_centrality_weighted_functor.gt)."""

from __future__ import annotations

import pytest

from gir.api import lower_for_run
from gir.runtime import reference
from gir.runtime.graph import load_graph
from gir.tools.run import parse_program
from gir.validate import find_validator
from test_programs import PROGRAMS, TARGETS, generated_graphs, hand_made_graphs


def _compiled(program: str, target_name: str):
    """`program` lowered bounds-checked for `target_name`, with its validator
    (found before lowering: it may add the copy it reads)."""
    from gir.executor import compile_program

    module = parse_program(str(PROGRAMS / program))
    validator = find_validator(module)
    assert validator is not None, f"no validator recognises {program}"
    return compile_program(lower_for_run(module, check_bounds=True), target_name), validator


@pytest.mark.parametrize("target", TARGETS)
def test_bc_cleared_after_each_trial(target, check_runs, tmp_path):
    executable, validator = _compiled("bc_cleared.gt", target[0])
    assert "copied before its first clear" in validator.algorithm
    graphs = {**hand_made_graphs(tmp_path, False), **generated_graphs(False)}
    check_runs("bc_cleared.gt", executable, validator, target, graphs)


@pytest.mark.parametrize("target", TARGETS)
def test_sssp_from_a_source_with_a_distance_of_its_own(target, check_runs, tmp_path):
    executable, validator = _compiled("sssp_base_distance.gt", target[0])
    graphs = {**hand_made_graphs(tmp_path, True), **generated_graphs(True)}
    check_runs("sssp_base_distance.gt", executable, validator, target, graphs, [["0"], ["14"]])


@pytest.mark.parametrize("target", TARGETS)
def test_point_to_point_search_validated(target, check_runs, tmp_path):
    """Targets near and far from the start, and deltas of 1 and 5."""
    executable, validator = _compiled("lang_ppsp.gt", target[0])
    assert validator.algorithm.startswith("point-to-point SSSP")
    graphs = {**hand_made_graphs(tmp_path, True), **generated_graphs(True)}

    def targets(spec: str) -> list[list[str]]:
        start = graphs_by_spec[spec]
        dist = reference.sssp_distances(load_graph(spec, cache=False), start)
        order = [int(v) for v in dist.argsort(kind="stable")]
        ends = {order[min(2, len(order) - 1)], order[len(order) // 2], order[-1]}
        return [[str(end), delta] for end in sorted(ends) for delta in ("1", "5")]

    graphs_by_spec = {spec: start for spec, start in graphs.values()}
    check_runs("lang_ppsp.gt", executable, validator, target, graphs, targets)


@pytest.mark.parametrize("program", ["lang_bool_modified.gt", "lang_bool_modified_functor.gt"])
@pytest.mark.parametrize("target", TARGETS)
def test_apply_modified_ignores_an_unset_bool_result(target, program, run_program, tmp_path):
    """lang_bool_modified.gt (closeness_centrality_weighted.gt's edge function)
    and its functor form (closeness_centrality_weighted_functor.gt's): the
    printed score is the sum of the reachable distances."""
    for name, (spec, start) in {**hand_made_graphs(tmp_path, True), **generated_graphs(True)}.items():
        dist = reference.sssp_distances(load_graph(spec, cache=False), start)
        expected = int(dist[dist != reference.UNREACHABLE_DISTANCE].sum())
        printed = run_program(program, target, [spec, str(start)])
        assert printed == [str(expected)], name


@pytest.mark.parametrize("target", TARGETS)
def test_break_in_a_kernel_fused_loop(target, check_runs, run_program, tmp_path):
    """sssp_fused_break.gt: with a cap of |V| rounds the distances validate;
    with a cap of 2 the loop stops after 2 rounds (a break flag carried by the
    fused kernel on CUDA; PoCL has no grid barrier and runs the host loop)."""
    executable, validator = _compiled("sssp_fused_break.gt", target[0])
    graphs = {**hand_made_graphs(tmp_path, True), **generated_graphs(True)}
    check_runs("sssp_fused_break.gt", executable, validator, target, graphs, [["1000000"]])
    assert run_program("sssp_fused_break.gt", target, ["road:16:12,w", "0", "2"]) == ["2"]
