"""End to end: complete CUDA programs (`gir-translate --to-cuda`, kernels plus a
C++ host `main`) built with nvcc alone and run as plain executables, against
gir-run's CUDA results for the same program, graph and arguments.

Each program is compiled once to a `.cu` file and an executable; each graph is
written as a `.wel` edge list that both sides load. A run dumps its global
vectors through `GIR_DUMP`; both results must pass the CPU reference, vectors of
deterministic algorithms must agree (floats within a tolerance), and the printed
lines must agree where the program prints no times. The benchmark programs
(`gir/benchmarks/programs`, every schedule class) run with gir-bench's arguments for
the graph's class. Needs nvcc and a CUDA GPU (skipped elsewhere).
"""

from __future__ import annotations

import io
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from gir.benchmarks import PROGRAMS as BENCH_PROGRAMS
from gir.runtime.device import find_nvcc
from gir.runtime.graph import Graph, load_graph
from gir.targets.cuda_host import read_dump
from gir.tools.bench import ALGORITHMS, graph_class
from gir.tools.run import parse_program
from gir.lowering import translate
from gir.api import lower_for_run
from gir.validate import find_validator

PROGRAMS = Path(__file__).parents[1] / "programs"


def _source(program: str) -> Path:
    """A case's program file: `bench/NAME` is gir-bench's shipped program NAME."""
    if program.startswith("bench/"):
        return BENCH_PROGRAMS / program.removeprefix("bench/")
    return PROGRAMS / program


def _skip_reason() -> str | None:
    if find_nvcc() is None:
        return "nvcc is not installed"
    from gir.executor import cuda_unavailable_reason

    reason = cuda_unavailable_reason()
    return None if reason is None else f"no CUDA: {reason}"


pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason()))


@dataclass(frozen=True)
class Case:
    """A program, whether it reads weights, its arguments after the graph (`{start}`
    is the start vertex), whether its vectors are the same on every run, and
    whether its printed lines are (no timers). A benchmark program names its
    `algorithm` instead: gir-bench's arguments for the graph's class follow."""

    program: str
    weighted: bool
    arguments: tuple[str, ...]
    deterministic: bool
    prints_times: bool
    algorithm: str | None = None

    def argv(self, path: str, start: int, graph_class: str) -> list[str]:
        """The program's command line on the graph file `path`."""
        arguments = [a.format(start=start) for a in self.arguments]
        if self.algorithm is not None:
            arguments += ALGORITHMS[self.algorithm].arguments(graph_class)
        return [self.program, path, *arguments]


def _bench_case(path: Path) -> Case:
    """A benchmark program as a case: results checked by the CPU reference, and
    compared value by value where the algorithm's result is unique (distances,
    ranks and credits, within float tolerance; not BFS parents or CC labels)."""
    algorithm = ALGORITHMS[path.name.split("_")[0]]
    rooted = ("{start}",) if algorithm.rooted else ()
    unique = algorithm.name in ("sssp", "pr", "bc")
    return Case(f"bench/{path.name}", algorithm.weighted, rooted, unique, True, algorithm.name)


CASES = [
    Case("bfs.gt", False, ("{start}",), False, False),
    Case("bfs_fused.gt", False, ("{start}",), False, False),
    Case("sssp_delta.gt", True, ("{start}", "2"), True, True),
    Case("cc.gt", False, (), True, True),
    Case("pagerank_default.gt", False, (), True, False),
    Case("bc_default.gt", False, ("{start}",), True, False),
    *(_bench_case(path) for path in sorted(BENCH_PROGRAMS.glob("*.gt"))),
]


def _write_wel(graph: Graph, path: Path) -> str:
    assert graph.weights is not None
    np.savetxt(path, np.stack([graph.src, graph.dst, graph.weights], axis=1), fmt="%d")
    return str(path)


@pytest.fixture(scope="module")
def graphs(tmp_path_factory) -> dict[str, tuple[str, int, str]]:
    """Edge-list files of generated graphs, with a start vertex and gir-bench's
    graph class each."""
    directory = tmp_path_factory.mktemp("graphs")
    found = {}
    for name, spec in (("rmat10", "rmat:10,w"), ("road16", "road:16:12,w")):
        graph = load_graph(spec)
        path = _write_wel(graph, directory / f"{name}.wel")
        found[name] = (path, load_graph(path).largest_degree_vertex(), graph_class(spec))
    return found


@pytest.fixture(scope="module")
def device():
    from gir.executor import open_device

    return open_device("cuda")


@pytest.fixture(scope="module")
def built(tmp_path_factory, device):
    """`program -> executable`: each program translated and built once."""
    directory = tmp_path_factory.mktemp("programs")
    cache: dict[str, Path] = {}

    def get(program: str):
        if program not in cache:
            source = translate(parse_program(str(_source(program))), "cuda")
            stem = program.removesuffix(".gt").replace("/", "_")
            cu = directory / f"{stem}.cu"
            cu.write_text(source)
            binary = directory / stem
            command = [find_nvcc(), "-O3", f"-arch={device.arch}", "-std=c++17", str(cu), "-o", str(binary)]
            subprocess.run(command, check=True, capture_output=True, text=True)
            cache[program] = binary
        return cache[program]

    return get


def _run_binary(binary: Path, argv: list[str], dump: Path) -> tuple[str, dict[str, np.ndarray]]:
    environment = {**os.environ, "GIR_DUMP": str(dump)}
    finished = subprocess.run(
        [str(binary), *argv[1:]], capture_output=True, text=True, env=environment, timeout=300
    )
    assert finished.returncode == 0, finished.stderr
    return finished.stdout, read_dump(dump.read_text())


def _numbers_agree(ours: str, theirs: str) -> bool:
    try:
        return bool(np.isclose(float(ours), float(theirs), rtol=1e-4, atol=1e-6))
    except ValueError:
        return ours == theirs


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.program)
def test_complete_program_matches_gir_run(case, graphs, device, built, tmp_path):
    from gir.executor import compile_program

    binary = built(case.program)
    module = parse_program(str(_source(case.program)))
    validator = find_validator(module)
    program = compile_program(lower_for_run(module), "cuda")
    for name, (path, start, klass) in graphs.items():
        argv = case.argv(path, start, klass)
        stdout, vectors = _run_binary(binary, argv, tmp_path / f"{name}.dump")
        printed = io.StringIO()
        expected = program.run(device, argv, printed)
        assert set(vectors) == set(expected.globals), name
        assert validator is not None or case.algorithm is None, "a benchmark program gir cannot validate"
        if validator is not None:
            graph = load_graph(path, weighted=validator.weighted, cache=False)
            assert validator.check(graph, argv, vectors) is None, name
        for vector, values in vectors.items():
            reference = expected.globals[vector]
            assert values.dtype == reference.dtype and values.shape == reference.shape, vector
            if case.deterministic and np.issubdtype(values.dtype, np.floating):
                np.testing.assert_allclose(values, reference, rtol=1e-4, atol=1e-6, err_msg=vector)
            elif case.deterministic:
                np.testing.assert_array_equal(values, reference, err_msg=vector)
        ours, theirs = stdout.splitlines(), printed.getvalue().splitlines()
        assert len(ours) == len(theirs), name
        if not case.prints_times:
            assert all(_numbers_agree(a, b) for a, b in zip(ours, theirs)), (name, ours, theirs)


def test_device_prints_come_in_program_order(graphs, built, tmp_path):
    """A vertex function's printf lines come out between the host's lines around
    its launch (the C++ host's `device_print_fence`), as gir-run prints them."""
    path, start, _ = graphs["rmat10"]
    stdout, _ = _run_binary(built("lang_device_print.gt"), ["lang_device_print", path, str(start)], tmp_path / "dump")
    graph = load_graph(path, cache=False)
    half = format(graph.out_degrees()[start] / 2.0, "g")
    assert stdout.splitlines() == ["before", "vertex", str(start), half, "after", str(graph.num_vertices)]
