"""End to end: the five benchmark algorithms partitioned over 2 and 3 OpenCL
devices (`host-partition`, host-staged exchanges), validated against the CPU
references. In CI the devices are PoCL CPU devices: this module asks PoCL for
three (`POCL_DEVICES`) before pyopencl starts, and skips where fewer exist."""

from __future__ import annotations

import io
import os
from pathlib import Path

os.environ.setdefault("POCL_DEVICES", "pthread pthread pthread")

import pytest

from gir.api import compile as compile_program_file
from gir.api import lower_for_run
from gir.diagnostics import UserError
from gir.executor import compile_program, open_devices, run_program

PROGRAMS = Path(__file__).parents[1] / "programs"
BENCHMARKS = Path(__file__).parents[2] / "gir" / "benchmarks" / "programs"

CASES = [
    ("pagerank.gt", "rmat:9", []),
    ("bfs.gt", "rmat:10", ["3"]),
    ("bfs.gt", "road:16:16", ["0"]),
    ("sssp_delta.gt", "rmat:9", ["0", "2"]),
    ("sssp_delta.gt", "road:16:16", ["5", "4"]),
    ("cc.gt", "rmat:9", []),
    ("bc.gt", "rmat:8", ["1", "2"]),
    # G2's schedules: direction-optimizing BFS with bitmaps, blocked PageRank, CM CC
    (BENCHMARKS / "bfs_g2_social.gt", "rmat:9", ["3", "2"]),
    (BENCHMARKS / "pr_g2.gt", "rmat:9", []),
    (BENCHMARKS / "cc_g2.gt", "road:16:16", []),
]


def _opencl_device_count() -> int:
    try:
        import pyopencl as cl
    except ImportError:
        return 0
    return sum(len(platform.get_devices()) for platform in cl.get_platforms())


@pytest.mark.parametrize("devices", [2, 3])
@pytest.mark.parametrize(("program", "graph", "args"), CASES, ids=lambda v: getattr(v, "name", str(v)))
def test_partitioned_run_validates(program: str | Path, graph: str, args: list[str], devices: int) -> None:
    if _opencl_device_count() < devices:
        pytest.skip(f"fewer than {devices} OpenCL devices")
    loaded = compile_program_file(str(PROGRAMS / program))
    module = lower_for_run(loaded._main().clone(), check_bounds=True, devices=devices)
    compiled = compile_program(module, "opencl", str(program))
    argv = [str(program), graph, *args]
    result = run_program(compiled, open_devices("opencl", devices), argv, io.StringIO())
    loaded.validate(graph, result.globals, *[int(a) for a in args])


def test_api_runs_a_given_graph_on_two_devices() -> None:
    if _opencl_device_count() < 2:
        pytest.skip("fewer than 2 OpenCL devices")
    from gir.runtime.graph import load_graph

    graph = load_graph("rmat:9")
    program = compile_program_file(str(PROGRAMS / "bfs.gt"))
    result = program.run(graph, 2, target="opencl", devices=2, validate=True)
    assert result["pred"][2] == 2


def test_fused_loops_are_refused_with_their_location() -> None:
    loaded = compile_program_file(str(PROGRAMS / "bfs_fused.gt"))
    with pytest.raises(UserError, match=r"bfs_fused\.gt:\d+:\d+: error: a kernel-fused loop cannot run on several devices"):
        lower_for_run(loaded._main().clone(), devices=2)


def _cuda_gpu_count() -> int:
    from gir.executor import cuda_unavailable_reason

    if cuda_unavailable_reason() is not None:
        return 0
    import pycuda.driver as cuda

    return cuda.Device.count()


@pytest.mark.parametrize("exchange", ["nccl", "host"])
@pytest.mark.parametrize(("program", "graph", "args"), CASES, ids=lambda v: getattr(v, "name", str(v)))
def test_partitioned_cuda_run_validates(
    program: str | Path, graph: str, args: list[str], exchange: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same on two CUDA GPUs, exchanging through NCCL or host memory."""
    if _cuda_gpu_count() < 2:
        pytest.skip("fewer than 2 CUDA GPUs")
    if exchange == "nccl":
        from gir.runtime.nccl import nccl_unavailable_reason

        if nccl_unavailable_reason() is not None:
            pytest.skip(nccl_unavailable_reason())
    monkeypatch.setenv("GIR_EXCHANGE", exchange)
    loaded = compile_program_file(str(PROGRAMS / program))
    module = lower_for_run(loaded._main().clone(), check_bounds=True, devices=2)
    compiled = compile_program(module, "cuda", str(program))
    argv = [str(program), graph, *args]
    result = run_program(compiled, open_devices("cuda", 2), argv, io.StringIO())
    loaded.validate(graph, result.globals, *[int(a) for a in args])
