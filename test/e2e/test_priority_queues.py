"""End to end: delta-stepping SSSP through the priority-queue lowering, with every
registered load-balance strategy and bucket widths of 1, a middle value and one
wider than the largest edge weight (every bucket then holds all pending
vertices), on the hand-made and generated weighted graphs, against the CPU SSSP."""

from __future__ import annotations

import io

import pytest

from gir.runtime.graph import load_graph
from test_programs import (  # noqa: F401  (compiled, devices: fixtures)
    STRATEGIES,
    TARGETS,
    compiled,
    devices,
    generated_graphs,
    hand_made_graphs,
)


def _deltas(spec: str) -> list[int]:
    """1, a width between 1 and the largest weight, and one past the largest weight."""
    weights = load_graph(spec).weights
    assert weights is not None
    largest = int(weights.max()) if weights.size else 1
    return [1, max(2, largest // 4), largest + 1]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_delta_stepping_matches_reference(strategy, target, compiled, devices, tmp_path):
    program = "sssp_delta_argv.gt"
    graphs = {**hand_made_graphs(tmp_path, weighted=True), **generated_graphs(weighted=True)}
    target_name, index = target
    executable, validator = compiled(program, target_name, strategy)
    assert validator.algorithm.startswith("SSSP")
    device = devices(target_name, index)
    failures = []
    for name, (spec, start) in graphs.items():
        graph = load_graph(spec, cache=False)
        for delta in _deltas(spec):
            argv = [program, spec, str(start), str(delta)]
            result = executable.run(device, argv, io.StringIO())
            problem = validator.check(graph, argv, result.globals)
            if problem is not None:
                failures.append(f"{name}, delta {delta}: {problem}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_default_delta_matches_reference(target, compiled, devices, tmp_path):
    """G2's default delta of 1 (no `configDelta`), in the program the frontend tests."""
    program = "sssp_delta_default.gt"
    target_name, index = target
    (first, *_) = [value.values[0] for value in STRATEGIES]
    executable, validator = compiled(program, target_name, first)
    device = devices(target_name, index)
    failures = []
    for name, (spec, start) in generated_graphs(weighted=True).items():
        argv = [program, spec, str(start)]
        result = executable.run(device, argv, io.StringIO())
        problem = validator.check(load_graph(spec, cache=False), argv, result.globals)
        if problem is not None:
            failures.append(f"{name}: {problem}")
    assert not failures, "\n".join(failures)
