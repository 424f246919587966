"""End to end: loops fused into one persistent kernel (`configKernelFusion(ENABLED)`):
BFS with thread-mapped (VERTEX_BASED) and cooperative (TWCE, G2's road schedule)
traversals, and delta-stepping SSSP whose bucket loop computes its condition (CM,
G2's road schedule). On CUDA the loop runs as one persistent kernel on the
resident grid; on OpenCL (PoCL in CI) the host takes the fallback loop. Both must
match the CPU reference."""

from __future__ import annotations

import pytest

from gir.api import lower_for_run
from gir.benchmarks import PROGRAMS as BENCH_PROGRAMS
from gir.tools.run import parse_program
from gir.validate import find_validator
from test_programs import (
    PROGRAMS,
    TARGETS,
    generated_graphs,
    hand_made_graphs,
)

FUSED_CASES = [
    pytest.param("bfs_fused.gt", "fused_search", False, [[]], id="bfs-vertex-based"),
    pytest.param(str(BENCH_PROGRAMS / "bfs_g2_road.gt"), "fused_search", False, [[]], id="bfs-twce"),
    # CM, one 128-thread block per multiprocessor (configBlocksPerSM(1))
    pytest.param(str(BENCH_PROGRAMS / "bfs_best_road.gt"), "fused_search", False, [[]], id="bfs-cm-blocks-per-sm"),
    # deltas: 1, one inside the hand-made weights' range (1..5), one above every weight
    pytest.param(str(BENCH_PROGRAMS / "sssp_g2_road.gt"), "fused_steps", True, [["1"], ["3"], ["100"]], id="sssp-cm"),
]


@pytest.mark.parametrize("program, kernel, weighted, extra_argvs", FUSED_CASES)
@pytest.mark.parametrize("target", TARGETS)
def test_fused_loop_matches_reference(program, kernel, weighted, extra_argvs, target, check_runs, tmp_path):
    from gir.executor import compile_program

    target_name, _ = target
    module = parse_program(str(PROGRAMS / program))
    validator = find_validator(module)
    assert validator is not None
    executable = compile_program(lower_for_run(module, check_bounds=True), target_name)
    assert (kernel in executable.kernel_source) == (target_name == "cuda")
    graphs = {**hand_made_graphs(tmp_path, weighted=weighted), **generated_graphs(weighted=weighted)}
    check_runs(program, executable, validator, target, graphs, extra_argvs)


@pytest.mark.parametrize("target", [t for t in TARGETS if t.values[0][0] == "cuda"])
def test_blocks_per_sm_caps_the_persistent_grid(target, devices):
    """`configBlocksPerSM(1)` gives bfs_best_road's fused loop one block per
    multiprocessor; without a cap, its 128-thread blocks take gir's default (up
    to eight, as occupancy allows)."""
    from gir.executor import compile_program

    executable = compile_program(
        lower_for_run(parse_program(str(BENCH_PROGRAMS / "bfs_best_road.gt"))), "cuda"
    )
    device = devices("cuda", None)
    kernels = device.load_program(executable.kernel_source, executable.signatures)
    import pycuda.driver as cuda

    multiprocessors = device.device.get_attribute(cuda.device_attribute.MULTIPROCESSOR_COUNT)
    assert device.resident_blocks(kernels, "fused_search", 128, 1) == multiprocessors
    assert device.resident_blocks(kernels, "fused_search", 128) > multiprocessors
