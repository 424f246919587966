"""Complete CUDA programs built with nvcc, no GPU needed (skipped without nvcc).

Every benchmark program (`gir/benchmarks/programs/*.gt`: G2's and gir's best
schedules for BFS, SSSP, CC, PageRank and BC) prints a complete `.cu`, and one
program per host feature (`BUILT`) compiles and links with `nvcc
-arch=sm_90 -std=c++17` (issue 11; without the README's `-O3`, which only
slows the host compiler down here: lit's `cuda_host_nvcc.gt` builds a program
with it), all of them in one nvcc call
(`test/nvcc_batch.py`: the headers and gir's runtime compiled once, each
program's own part in a namespace; a failing batch builds each program alone to
name the one that fails). Building all twenty alone took ~9.5 minutes on a 2-core
machine, eight of them alone ~95 s and together ~10 s, most of it nvcc's host
compiler on the runtime every file carries; the GPU e2e (`test_cuda_host.py`)
builds each of them alone and runs it, and lit's `cuda_host_nvcc.gt` builds
programs alone as the README says. And the C++
runtime builds every graph array (CSR, CSC, COO, degrees, the tiles by
destination and by source) exactly as gir's Python runtime does: a host-only
harness over the runtime prints them, which runs without a GPU since building
arrays calls no CUDA API.
"""

from __future__ import annotations

import functools
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from gir.dialects.host import BLOCKED_ARRAYS, GraphArray
from gir.runtime.device import DeviceGraph, find_nvcc
from gir.benchmarks import PROGRAMS as BENCH
from gir.runtime.graph import GraphError, load_graph, write_binary_graph
from gir.protocol import DType
from gir.targets.cuda_host import print_cuda_program
from gir.lowering import lower_to_gpu
from gir.targets.cuda_host_runtime import runtime_source
from gir.tools.translate import read_module

import nvcc_batch

NVCC = find_nvcc()
BUILD = ["-arch=sm_90", "-std=c++17"]

needs_nvcc = pytest.mark.skipif(NVCC is None, reason="nvcc is not installed")

BUILT = {
    "bfs_g2_social.gt": "hybrid push/pull directions with bitmap frontiers",
    "bfs_g2_road.gt": "a fused loop on a persistent grid sized by the occupancy API",
    "sssp_g2_road.gt": "weights, and delta-stepping's buckets inside a fused loop",
    "cc_g2.gt": "no start vertex, CM load balance, bitmap frontiers",
    "pr_g2.gt": "the edges tiled by destination (blocked CSC), floats",
    "bc_g2_social.gt": "a list of frontiers the host pushes and pops",
    "bc_g2_road.gt": "a list of frontiers exported to a fused loop and imported back",
    "bc_scaled_road.gt": "math builtins on the device and in the host (a log(0) fill), double max=",
    "bc_best_road.gt": "a compare-and-swap loop on a double in an edge function of a fused loop",
}
"""The benchmark programs built here, each for the host feature it adds."""


def _build(source: str, directory: Path, name: str) -> Path:
    """`source` built into `directory`/`name`: a host harness run on the CPU, or
    a program only built, so no kernel of it runs (its device code unoptimised)."""
    cu, binary = directory / f"{name}.cu", directory / name
    cu.write_text(source)
    assert NVCC is not None
    command = [NVCC, *BUILD, *nvcc_batch.UNOPTIMISED_DEVICE_CODE, str(cu), "-o", str(binary)]
    finished = subprocess.run(command, capture_output=True, text=True)
    assert finished.returncode == 0, finished.stderr[-4000:]
    # Generated code compiles clean: no variable set but never used, no
    # narrowing, in the kernels or the host.
    assert "warning #" not in finished.stderr, finished.stderr[-4000:]
    return binary


@functools.cache
def _program(name: str) -> str:
    """The complete `.cu` of the benchmark program `name` (lowered once a session:
    the ones built here are among those that must print)."""
    return print_cuda_program(lower_to_gpu(read_module(str(BENCH / name))))


def test_every_bench_program_prints() -> None:
    for path in sorted(BENCH.glob("*.gt")):
        assert "int main(int argc, char** argv) {" in _program(path.name), path.name


@pytest.fixture(scope="module")
def bench_builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, nvcc_batch.Built]:
    """The `BUILT` programs' `.cu` files, in a directory, built together."""
    directory = tmp_path_factory.mktemp("bench")
    files = []
    for program in sorted(BUILT):
        files.append(directory / f"{Path(program).stem}.cu")
        files[-1].write_text(_program(program))
    return directory, nvcc_batch.build(files, BUILD, link=True)


@needs_nvcc
@pytest.mark.parametrize("program", sorted(BUILT))
def test_bench_program_builds(program: str, bench_builds: tuple[Path, nvcc_batch.Built]) -> None:
    directory, built = bench_builds
    # Generated code compiles clean: no variable set but never used, no
    # narrowing, in the kernels or the host.
    problem = built.problem(directory / f"{Path(program).stem}.cu", warnings=True)
    assert problem is None, problem[-4000:]


_HARNESS = """
int main(int argc, char** argv) {
  gir_rt::Graph* graph = gir_rt::load_graph(argv[1], true);
  long long size = std::atoll(argv[2]);
  for (int kind = 0; kind < @COUNT@; ++kind) {
    gir_rt::Array array = (gir_rt::Array)kind;
    std::printf("%d", kind);
    if (gir_rt::offsets_array(array)) {  // 64-bit on the host, whatever the program's width
      for (long long value : graph->host_offsets(array, size)) std::printf(" %lld", value);
    } else {
      for (int value : graph->host_array(array, size)) std::printf(" %d", value);
    }
    std::printf("\\n");
  }
  return 0;
}
"""


@pytest.fixture(scope="module")
def arrays_harness(tmp_path_factory) -> Path:
    """A program printing every graph array the C++ runtime builds, one line each."""
    main = _HARNESS.replace("@COUNT@", str(len(GraphArray)))
    return _build(runtime_source() + main, tmp_path_factory.mktemp("harness"), "arrays")


def _graph_file(spec: str, suffix: str, directory: Path) -> Path:
    """The generated graph `spec` as a `.wel` edge list or a `.gbin` binary file."""
    generated = load_graph(spec)
    path = directory / f"graph{suffix}"
    if suffix == ".gbin":
        write_binary_graph(generated, path)
    else:
        np.savetxt(path, np.stack([generated.src, generated.dst, generated.weights], axis=1), fmt="%d")
    return path


@needs_nvcc
@pytest.mark.parametrize("suffix", [".wel", ".gbin"])
@pytest.mark.parametrize("spec, size", [("rmat:8,w", 16), ("road:7:5,w", 6), ("rmat:6,w", 1000)])
def test_runtime_graph_arrays_match_python(
    spec: str, size: int, suffix: str, arrays_harness: Path, tmp_path: Path
) -> None:
    path = _graph_file(spec, suffix, tmp_path)
    graph = DeviceGraph(None, spec, load_graph(spec, weighted=True, cache=False))  # type: ignore[arg-type]
    printed = subprocess.run([str(arrays_harness), str(path), str(size)], capture_output=True, text=True, check=True)
    lines = printed.stdout.splitlines()
    assert len(lines) == len(GraphArray)
    for kind, line in zip(GraphArray, lines, strict=True):
        blocking = size if kind in BLOCKED_ARRAYS else None
        expected = graph._host_array(kind, DType.INT32, blocking)
        np.testing.assert_array_equal(np.array(line.split()[1:], dtype=np.int64), expected, err_msg=kind.name)


@needs_nvcc
def test_binary_graph_errors(arrays_harness: Path, tmp_path: Path) -> None:
    """A damaged `.gbin` file is one located error line, never a crash."""
    path = _graph_file("rmat:5,w", ".gbin", tmp_path)
    data = path.read_bytes()
    last_vertex = int(np.frombuffer(data[8:16], "<i8")[0]) - 1
    damaged = {
        "truncated.gbin": (data[:-4], "the header does not match the file's size"),
        "magic.gbin": (b"X" + data[1:], "not a gir binary graph"),
        "order.gbin": (data[:32] + np.int32(last_vertex).tobytes() + data[36:], "is not after edge 0"),
    }
    for name, (content, message) in damaged.items():
        (tmp_path / name).write_bytes(content)
        finished = subprocess.run([str(arrays_harness), str(tmp_path / name), "4"], capture_output=True, text=True)
        assert finished.returncode == 1 and finished.stderr == finished.stderr.strip() + "\n", name
        assert finished.stderr.startswith(f"{tmp_path / name}: error: ") and message in finished.stderr, name


@needs_nvcc
def test_special_files_are_refused_as_gir_run_refuses_them(arrays_harness: Path, tmp_path: Path) -> None:
    """A FIFO, /dev/zero, /dev/urandom or a directory is one error line at once,
    word for word gir-run's (the loader is the same code): no hang, no
    allocation until bad_alloc, no empty graph."""
    fifo = tmp_path / "fifo.el"
    os.mkfifo(fifo)
    (tmp_path / "folder.el").mkdir()
    for path in (fifo, tmp_path / "folder.el", Path("/dev/zero"), Path("/dev/urandom")):
        with pytest.raises(GraphError) as raised:
            load_graph(str(path))
        finished = subprocess.run([str(arrays_harness), str(path), "4"], capture_output=True, text=True, timeout=60)
        assert finished.returncode == 1 and finished.stderr == f"{raised.value}\n", path
