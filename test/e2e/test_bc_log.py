"""End to end: Brandes betweenness centrality with path counts kept as logarithms
on PoCL and CUDA, against the CPU reference: `test/programs/bc_log.gt` (the
math builtins `exp`, `log1p`, `fmax`, `fabs`; a PULL forward pass with one
thread per destination) and `bench/bc_scaled_road.gt` (two pushes a level with
max= and +=, both level loops fused, on PoCL through the host fallback loops) and
`bench/bc_best_road.gt` (one push a level, adding counts in the log domain by a
compare-and-swap loop on a double), on the hand-made and generated graphs, and on a layered graph
whose path counts pass double's range, where the double-precision program
(`bc_default.gt`) is shown to fail."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from gir.api import lower_for_run
from gir.benchmarks import PROGRAMS as BENCH_PROGRAMS
from gir.runtime.graph import load_graph
from gir.tools.run import parse_program
from gir.validate import find_validator
from test_bc import check_bc
from test_programs import (
    PROGRAMS,
    TARGETS,
    _write_el,
)

WIDTH = 32
"""Vertices per layer of the layered graph."""
LAYERS = 208
"""Layers of the layered graph: vertex 0 reaches the last layer along
WIDTH ** (LAYERS - 2) shortest paths, past double's largest value."""


def layered_graph(tmp_path: Path) -> str:
    """Layers of WIDTH vertices, each vertex joined both ways to every vertex of
    the next layer: the path counts from vertex 0 grow by WIDTH a level."""
    edges = []
    for layer in range(LAYERS - 1):
        for a in range(layer * WIDTH, (layer + 1) * WIDTH):
            for b in range((layer + 1) * WIDTH, (layer + 2) * WIDTH):
                edges += [(a, b), (b, a)]
    return _write_el(tmp_path / "layered.el", edges)


def run_on(path: Path, spec: str, target, devices) -> str | None:
    """Runs BC program `path` from vertex 0 of `spec`; the validator's verdict."""
    from gir.executor import compile_program

    target_name, index = target
    module = parse_program(str(path))
    validator = find_validator(module)
    assert validator is not None and validator.algorithm.startswith("betweenness")
    executable = compile_program(lower_for_run(module, check_bounds=True), target_name)
    argv = [path.name, spec, "0"]
    result = executable.run(devices(target_name, index), argv, io.StringIO())
    return validator.check(load_graph(spec, cache=False), argv, result.globals)


LOG_PROGRAMS = [PROGRAMS / "bc_log.gt", BENCH_PROGRAMS / "bc_scaled_road.gt", BENCH_PROGRAMS / "bc_best_road.gt"]


@pytest.mark.parametrize("program", LOG_PROGRAMS, ids=lambda path: path.name)
@pytest.mark.parametrize("target", TARGETS)
def test_bc_log_small_graphs(target, program, check_runs, tmp_path):
    check_bc(program, target, check_runs, tmp_path, [])


@pytest.mark.parametrize("target", TARGETS)
def test_bc_log_past_double(target, devices, tmp_path):
    assert WIDTH ** (LAYERS - 2) > 2**1024  # double stops below 2^1024
    spec = layered_graph(tmp_path)
    for program in LOG_PROGRAMS:
        assert run_on(program, spec, target, devices) is None, program
    # sigma in double overflows to inf: 1 / sigma is 0 and the dependencies are wrong
    problem = run_on(PROGRAMS / "bc_default.gt", spec, target, devices)
    assert problem is not None and "dependenc" in problem
