"""Complete CUDA programs partitioned over several GPUs (`gir-translate --to-cuda
--devices N`): built with nvcc and NCCL (skipped without either), and, where a
machine has two GPUs, run on both and validated against the CPU reference."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from gir.api import compile as compile_program_file
from gir.lowering import translate
from gir.runtime.device import find_nvcc
from gir.runtime.graph import load_graph, write_binary_graph
from gir.targets.cuda_host import read_dump
from gir.targets.cuda_host_runtime import nccl_build_flags
from gir.tools.translate import read_module

PROGRAMS = Path(__file__).parents[1] / "programs"
NVCC = find_nvcc()
NCCL = nccl_build_flags()

pytestmark = pytest.mark.skipif(
    NVCC is None or NCCL is None, reason="needs nvcc and NCCL's headers (pip install nvidia-nccl-cu13)"
)


def _build(program: str, directory: Path) -> Path:
    source = translate(read_module(str(PROGRAMS / program)), "cuda", program, devices=2)
    cu, binary = directory / f"{program}.cu", directory / program.removesuffix(".gt")
    cu.write_text(source)
    assert NVCC is not None and NCCL is not None
    command = [NVCC, "-O3", "-arch=sm_90", "-std=c++17", str(cu), "-o", str(binary), *NCCL]
    finished = subprocess.run(command, capture_output=True, text=True)
    assert finished.returncode == 0, finished.stderr[-4000:]
    return binary


def _gpu_count() -> int:
    from gir.executor import cuda_unavailable_reason

    if cuda_unavailable_reason() is not None:
        return 0
    import pycuda.driver as cuda

    return cuda.Device.count()


def test_partitioned_bfs_builds(tmp_path: Path) -> None:
    binary = _build("bfs.gt", tmp_path)
    assert binary.is_file()
    # BFS's claims of pred go with its queue: the runtime's overload that carries them
    source = (tmp_path / "bfs.gt.cu").read_text()
    assert "gir_rt::allgather(spare_items, queue_size, {gir_rt::claimed(pred)});" in source


@pytest.mark.parametrize(
    ("program", "args"),
    [("bfs.gt", ["3"]), ("bfs_timed_edge_only.gt", ["3"]), ("pagerank.gt", []), ("sssp_delta.gt", ["0", "2"])],
)
def test_partitioned_program_runs_on_two_gpus(program: str, args: list[str], tmp_path: Path) -> None:
    if _gpu_count() < 2:
        pytest.skip("fewer than 2 CUDA GPUs")
    binary = _build(program, tmp_path)
    spec = "rmat:10,w" if program.startswith("sssp") else "rmat:10"
    graph_file = tmp_path / "graph.gbin"
    write_binary_graph(load_graph(spec), graph_file)
    dump = tmp_path / "dump.txt"
    environment = {**os.environ, "GIR_DUMP": str(dump), "NCCL_NVLS_ENABLE": "0"}
    finished = subprocess.run([str(binary), str(graph_file), *args], capture_output=True, text=True, env=environment)
    assert finished.returncode == 0, finished.stderr[-4000:]
    compile_program_file(str(PROGRAMS / program)).validate(spec, read_dump(dump.read_text()), *[int(a) for a in args])
