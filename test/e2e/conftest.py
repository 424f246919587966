"""Fixtures shared by the end-to-end tests: devices opened once per session,
programs compiled once per session (by program, target and schedule), a
`run(program, target, argv) -> printed words` runner, and the helper that runs
an executable on a set of graphs, checks every result against the CPU reference
and reports every mismatch at once.

Pytest finds these by name; a test module asks for them as arguments and does
not import them. Values used at collection time (`TARGETS`, `STRATEGIES`, the
graph builders) stay importable from `test_programs`."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from gir.api import lower_for_run
from gir.runtime.graph import Graph, load_graph
from gir.tools.run import parse_program

PROGRAMS = Path(__file__).parents[1] / "programs"

Target = tuple[str, int | None]
"""A target name (`opencl`, `cuda`) and the device index within it."""
Graphs = dict[str, tuple[str, int | None]]
"""Test graphs by name: a graph spec and its start vertex (None: the program
takes no start vertex argument)."""
ExtraArgvs = Sequence[Sequence[str]] | Callable[[str], Sequence[Sequence[str]]]
"""The argument lists run after the graph and start vertex, or a function of the
graph spec giving them."""


@pytest.fixture
def edge_index_width(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """The edge index width the test's runs use (the parameter of
    `test_programs.EDGE_INDEX_WIDTHS`; forced through `$GIR_EDGE_INDEX_WIDTH`
    when 64, so each run specialises its program)."""
    from gir.runtime.graph.memory import FORCE_EDGE_INDEX_WIDTH

    width = getattr(request, "param", 32)
    if width == 64:
        monkeypatch.setenv(FORCE_EDGE_INDEX_WIDTH, "64")
    else:
        monkeypatch.delenv(FORCE_EDGE_INDEX_WIDTH, raising=False)
    return width


COMPLETE_CUDA_PROGRAMS = (
    "lang_local_vector.gt",
    "lang_uint64_literals.gt",
    "lang_unsigned_pq.gt",
    "lang_pq_int64.gt",
    "lang_pq_uint64.gt",
    "lang_strings.gt",
)
"""The programs (under test/programs) whose complete `.cu` the language tests
build with nvcc, no GPU needed: built together by `complete_cuda` (once per
pytest process: tools/test.sh's `--dist loadfile` keeps each test module on one
pytest-xdist worker, so the modules asking for it build it at most once a worker)."""


@pytest.fixture(scope="session")
def complete_cuda(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], tuple[str, str | None]]:
    """`get(program) -> (.cu text, why it did not build or None)`: the complete
    CUDA program `gir-translate --to-cuda` prints for `program` (one of
    `COMPLETE_CUDA_PROGRAMS`), all of them built and linked with one
    `nvcc -arch=sm_90 -std=c++17` call (`test/nvcc_batch.py`) the first time
    one is asked for."""
    import nvcc_batch

    builds: dict[Path, tuple[str, str | None]] = {}

    def get(program: str) -> tuple[str, str | None]:
        assert program in COMPLETE_CUDA_PROGRAMS, f"{program}: add it to COMPLETE_CUDA_PROGRAMS"
        if not builds:
            directory = tmp_path_factory.mktemp("complete-cuda")
            programs = [PROGRAMS / name for name in COMPLETE_CUDA_PROGRAMS]
            builds.update(nvcc_batch.build_programs(programs, directory, ["-arch=sm_90", "-std=c++17"]))
        return builds[PROGRAMS / program]

    return get


@pytest.fixture(scope="session")
def devices() -> Callable[[str, int | None], object]:
    """`get(target, index) -> device`, each device opened once per session."""
    from gir.executor import open_device

    opened: dict[Target, object] = {}

    def get(target: str, index: int | None) -> object:
        if (target, index) not in opened:
            opened[(target, index)] = open_device(target, index)
        return opened[(target, index)]

    return get


@pytest.fixture(scope="session")
def compiled():
    """`get(program, target, strategy, block_size=None) -> (executable, validator)`:
    `program` with every traversal given load balance `strategy` (and
    `block_size` threads per block), lowered bounds-checked and compiled once
    per session."""
    from test_programs import compile_checked, with_load_balance

    cache: dict[tuple[str, str, str, int | None], tuple[object, object]] = {}

    def get(program: str, target: str, strategy: str, block_size: int | None = None):
        key = (program, target, strategy, block_size)
        if key not in cache:
            module = with_load_balance(parse_program(str(PROGRAMS / program)), strategy, block_size)
            cache[key] = compile_checked(module, program, target)
        return cache[key]

    return get


@pytest.fixture(scope="session")
def run_program(devices):
    """`run(program, target, argv) -> printed words`: `program` (under
    test/programs) lowered bounds-checked with its own schedule, compiled once
    per session and target, run with argv `[program, *argv]`."""
    from gir.executor import compile_program

    executables: dict[tuple[str, str], object] = {}

    def run(program: str, target: Target, argv: list[str]) -> list[str]:
        name, index = target
        if (program, name) not in executables:
            module = lower_for_run(parse_program(str(PROGRAMS / program)), check_bounds=True)
            executables[(program, name)] = compile_program(module, name)
        out = io.StringIO()
        executables[(program, name)].run(devices(name, index), [program, *argv], out)
        return out.getvalue().split()

    return run


@pytest.fixture(scope="session")
def check_runs(devices):
    """`check(program, executable, validator, target, graphs, extra_argvs=[[]])`:
    runs `executable` on `target` once per graph of `graphs` and extra argument
    list, with argv `[program, spec, start, *extra]`, checks each result with
    `validator` against the CPU reference, and fails naming every mismatch."""

    def check(
        program: str,
        executable,
        validator,
        target: Target,
        graphs: Graphs,
        extra_argvs: ExtraArgvs = ((),),
    ) -> None:
        device = devices(*target)
        failures = []
        for name, (spec, start) in graphs.items():
            graph: Graph | None = None
            extras = extra_argvs(spec) if callable(extra_argvs) else extra_argvs
            for extra in extras:
                argv = [program, spec, *([] if start is None else [str(start)]), *extra]
                result = executable.run(device, argv, io.StringIO())
                if graph is None:
                    graph = load_graph(spec, cache=False)
                problem = validator.check(graph, argv, result.globals)
                if problem is not None:
                    failures.append(" ".join([f"{name}", *extra]) + f": {problem}")
        assert not failures, "\n".join(failures)

    return check


@pytest.fixture(scope="session")
def check_program(check_runs):
    """`check(compiled, program, strategy, target, graphs, block_size=None)`: the
    executable and validator that `compiled(program, target name, strategy,
    block_size)` gives, checked on `graphs` by `check_runs`."""

    def check(compiled, program: str, strategy, target: Target, graphs: Graphs, block_size=None) -> None:
        executable, validator = compiled(program, target[0], strategy, block_size)
        check_runs(program, executable, validator, target, graphs)

    return check
