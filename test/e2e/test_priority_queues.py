"""End to end: ordered programs through the priority-queue lowering, with every
registered load-balance strategy, on the hand-made and generated graphs, against
the CPU references: delta-stepping SSSP (`updatePriorityMin`) with bucket widths of
1, a middle value and one wider than the largest edge weight (every bucket then
holds all pending vertices), also with bucket fusion, and k-core (`updatePrioritySum`, every vertex
bucketed at the start), and widest paths (`updatePriorityMax`) over the same
deltas as SSSP."""

from __future__ import annotations

import io

import pytest

from gir.api import lower_for_run
from gir.runtime import reference
from gir.runtime.graph import load_graph
from gir.tools.run import parse_program
from test_programs import (
    PROGRAMS,
    STRATEGIES,
    TARGETS,
    generated_graphs,
    hand_made_graphs,
    with_load_balance,
)

SOURCE_WIDTH = 1000000
"""The width `widest_path.gt` gives its source."""


def _deltas(spec: str) -> list[int]:
    """1, a width between 1 and the largest weight, and one past the largest weight."""
    weights = load_graph(spec).weights
    assert weights is not None
    largest = int(weights.max()) if weights.size else 1
    return [1, max(2, largest // 4), largest + 1]


def _delta_argvs(spec: str) -> list[list[str]]:
    """The bucket widths of `_deltas`, as argument lists after the start vertex."""
    return [[str(delta)] for delta in _deltas(spec)]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize(
    "program", ["sssp_delta_argv.gt", "sssp_delta_bucket_fused.gt"], ids=["plain", "bucket_fused"]
)
def test_delta_stepping_matches_reference(program, strategy, target, compiled, check_runs, tmp_path):
    """Plain, and with bucket fusion (small rounds of a bucket rerun at once)."""
    graphs = {**hand_made_graphs(tmp_path, weighted=True), **generated_graphs(weighted=True)}
    executable, validator = compiled(program, target[0], strategy)
    assert validator.algorithm.startswith("SSSP")
    check_runs(program, executable, validator, target, graphs, _delta_argvs)


@pytest.mark.parametrize("target", TARGETS)
def test_default_delta_matches_reference(target, compiled, check_runs, tmp_path):
    """G2's default delta of 1 (no `configDelta`), in the program the frontend tests."""
    program = "sssp_delta_default.gt"
    (first, *_) = [value.values[0] for value in STRATEGIES]
    executable, validator = compiled(program, target[0], first)
    check_runs(program, executable, validator, target, generated_graphs(weighted=True))


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_kcore_matches_reference(strategy, target, compiled, check_program, tmp_path):
    """k-core peeling: the core numbers left in the priority vector."""
    graphs = {**hand_made_graphs(tmp_path, weighted=False), **generated_graphs(weighted=False)}
    _, validator = compiled("kcore.gt", target[0], strategy)
    assert validator.algorithm.startswith("k-core")
    check_program(compiled, "kcore.gt", strategy, target, graphs)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_widest_path_matches_reference(strategy, target, devices, tmp_path):
    """updatePriorityMax: every raise below the bucket's end is processed now,
    every later one with its bucket, so the widths reach the widest-path values."""
    from gir.executor import compile_program

    program = "widest_path.gt"
    module = with_load_balance(parse_program(str(PROGRAMS / program)), strategy)
    target_name, index = target
    executable = compile_program(lower_for_run(module, check_bounds=True), target_name)
    device = devices(target_name, index)
    graphs = {**hand_made_graphs(tmp_path, weighted=True), **generated_graphs(weighted=True)}
    failures = []
    for name, (spec, start) in graphs.items():
        graph = load_graph(spec, cache=False)
        for delta in _deltas(spec):
            argv = [program, spec, str(start), str(delta)]
            result = executable.run(device, argv, io.StringIO())
            problem = reference.check_widest(graph, start, SOURCE_WIDTH, result.globals["width"])
            if problem is not None:
                failures.append(f"{name}, delta {delta}: {problem}")
    assert not failures, "\n".join(failures)
