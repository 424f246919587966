"""End to end: Brandes betweenness centrality from one source (the BFS levels
kept in a list of vertexsets for the backward pass) on PoCL and CUDA, against
the CPU reference: G2's default schedule, the road schedule's traversals (TWCE,
deduplicated fused frontiers) unfused and with its kernel fusion of both level
loops (the list pushed and popped inside the fused kernels on CUDA; PoCL takes
the host fallback loops), bc.gt's ten runs with both level loops fused, the
social hybrid schedule with a VERTEX_BASED pull side at thresholds that take
the push side, both and the pull side, and G2's social schedule itself (TWCE
pull)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gir.api import lower_for_run, widening
from gir.benchmarks import PROGRAMS as BENCH_PROGRAMS
from gir.runtime.graph import load_graph
from gir.tools.run import parse_program
from gir.validate import find_validator
from test_programs import (
    EDGE_INDEX_WIDTHS,
    PROGRAMS,
    TARGETS,
    generated_graphs,
    hand_made_graphs,
)

THRESHOLDS = ["0", "0.05", "2"]
"""Hybrid thresholds (fractions of V): always pull, switching, always push."""


def _unfused_road(tmp_path: Path) -> Path:
    """bench/bc_g2_road.gt without its kernel fusion (`one_kernel`) lines."""
    source = (BENCH_PROGRAMS / "bc_g2_road.gt").read_text()
    kept = [line for line in source.splitlines() if "one_kernel" not in line]
    path = tmp_path / "bc_g2_road_unfused.gt"
    path.write_text("\n".join(kept) + "\n")
    return path


def check_bc(path: Path, target, check_runs, tmp_path: Path, thresholds: list[str]) -> None:
    """Runs BC program `path` (with each of `thresholds` as argv[3], if any) on
    the hand-made and generated graphs and checks the dependencies."""
    from gir.executor import compile_program

    module = parse_program(str(path))
    validator = find_validator(module)
    assert validator is not None and validator.algorithm.startswith("betweenness")
    widen = widening(module, check_bounds=True)
    executable = compile_program(lower_for_run(module, check_bounds=True), target[0], widen=widen)
    graphs = {**hand_made_graphs(tmp_path, False), **generated_graphs(False)}
    extra_argvs = [[threshold] for threshold in thresholds] or [[]]
    check_runs(path.name, executable, validator, target, graphs, extra_argvs)


@pytest.mark.parametrize("edge_index_width", EDGE_INDEX_WIDTHS, indirect=True)
@pytest.mark.parametrize("target", TARGETS)
def test_bc_default(target, edge_index_width, check_runs, tmp_path):
    check_bc(PROGRAMS / "bc_default.gt", target, check_runs, tmp_path, [])


@pytest.mark.parametrize("target", TARGETS)
def test_bc_road_traversals(target, check_runs, tmp_path):
    check_bc(_unfused_road(tmp_path), target, check_runs, tmp_path, [])


@pytest.mark.parametrize("target", TARGETS)
def test_bc_road_fused(target, check_runs, tmp_path):
    check_bc(BENCH_PROGRAMS / "bc_g2_road.gt", target, check_runs, tmp_path, [])


def _fused_ten_runs(tmp_path: Path) -> Path:
    """bc.gt (ten runs, a new list each) with both level loops fused and its
    traversals deduplicated, G2's default load balance otherwise."""
    source = (PROGRAMS / "bc.gt").read_text()
    source = source.replace("while (level.getVertexSetSize() != 0)", "#forward_loop# while (level.getVertexSetSize() != 0)")
    source = source.replace("while (depth > 0)", "#backward_loop# while (depth > 0)")
    source = source[: source.index("schedule:")] + "\n".join(
        [
            "schedule:",
            "    SimpleGPUSchedule one_kernel;",
            "    one_kernel.configKernelFusion(ENABLED);",
            '    program->applyGPUSchedule("forward_loop", one_kernel);',
            '    program->applyGPUSchedule("backward_loop", one_kernel);',
            "    SimpleGPUSchedule unique;",
            "    unique.configDeduplication(ENABLED);",
            '    program->applyGPUSchedule("forward_loop:forward", unique);',
            '    program->applyGPUSchedule("backward_loop:backward", unique);',
            "",
        ]
    )
    path = tmp_path / "bc_fused.gt"
    path.write_text(source)
    return path


@pytest.mark.parametrize("target", TARGETS)
def test_bc_fused_ten_runs(target, check_runs, tmp_path):
    path = _fused_ten_runs(tmp_path)
    assert "#backward_loop#" in path.read_text()
    check_bc(path, target, check_runs, tmp_path, [])


@pytest.mark.parametrize("target", TARGETS)
def test_bc_hybrid_vertex_based_pull(target, check_runs, tmp_path):
    check_bc(PROGRAMS / "bc_hybrid_vb.gt", target, check_runs, tmp_path, THRESHOLDS)


@pytest.mark.parametrize("target", TARGETS)
def test_bc_social(target, check_runs, tmp_path):
    check_bc(BENCH_PROGRAMS / "bc_g2_social.gt", target, check_runs, tmp_path, THRESHOLDS)


def test_bc_pop_and_append(check_runs, tmp_path):
    """GraphIt's `append` / `pop()` spellings: the levels pushed with append and
    popped into fresh sets give the same dependencies (first OpenCL device)."""
    source = (PROGRAMS / "bc_default.gt").read_text()
    source = source.replace("levels.insert(", "levels.append(")
    source = source.replace(
        "levels.retrieve(level);\n        level.apply(absorb);",
        "delete level;\n        level = levels.pop();\n        level.apply(absorb);",
    )
    assert "levels.pop()" in source
    path = tmp_path / "bc_pop.gt"
    path.write_text(source)
    opencl = [t for t in TARGETS if t.values[0][0] == "opencl"]
    if not opencl:
        pytest.skip("no OpenCL device")
    check_bc(path, opencl[0].values[0], check_runs, tmp_path, [])
