"""End to end: BFS with its level loop fused (`configKernelFusion(ENABLED)`). On
CUDA the loop runs as one persistent kernel on the resident grid; on OpenCL (PoCL
in CI) the host takes the fallback loop. Both must match the CPU BFS."""

from __future__ import annotations

import io

import pytest

from gir.runtime.graph import load_graph
from gir.api import lower_for_run
from gir.tools.run import parse_program
from gir.validate import find_validator
from test_programs import (  # noqa: F401  (devices: fixture)
    PROGRAMS,
    TARGETS,
    devices,
    generated_graphs,
    hand_made_graphs,
)


@pytest.mark.parametrize("target", TARGETS)
def test_fused_bfs_matches_reference(target, devices, tmp_path):
    from gir.runtime.executor import compile_program

    target_name, index = target
    module = parse_program(str(PROGRAMS / "bfs_fused.gt"))
    validator = find_validator(module)
    assert validator is not None
    executable = compile_program(lower_for_run(module, check_bounds=True), target_name)
    assert "fused_search" in executable.kernel_source or target_name == "opencl"
    device = devices(target_name, index)
    graphs = {**hand_made_graphs(tmp_path, weighted=False), **generated_graphs(weighted=False)}
    failures = []
    for name, (spec, start) in graphs.items():
        argv = ["bfs_fused.gt", spec, str(start)]
        result = executable.run(device, argv, io.StringIO())
        problem = validator.check(load_graph(spec, cache=False), argv, result.globals)
        if problem is not None:
            failures.append(f"{name}: {problem}")
    assert not failures, "\n".join(failures)
