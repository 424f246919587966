"""End to end: a partitioned run whose largest part needs 64-bit edge indices
runs with them (the graph is split before the ranks start, and the program is
lowered again at 64 bits, `CompiledProgram.for_edges`), and validates. A part
of more than 2^31 - 1 edges is stood in for by lowering the 32-bit limit
(`MAX_EDGES_32`) below the part's edges; `GIR_EDGE_INDEX_WIDTH=64` forces it.
Two OpenCL devices (PoCL); where this process sees fewer, the cases run in one
pytest process of their own that asks PoCL for two."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("POCL_DEVICES", "pthread pthread")

import pytest

from gir.api import compile as compile_program_file
from gir.runtime.graph import memory
from own_process import check_in_own_process

PROGRAMS = Path(__file__).parents[1] / "programs"
_CHILD = "GIR_TEST_WIDE_PARTS_CHILD"


def _opencl_device_count() -> int:
    try:
        import pyopencl as cl
    except ImportError:
        return 0
    return sum(len(platform.get_devices()) for platform in cl.get_platforms())


def _runs_here(request: pytest.FixtureRequest) -> bool:
    """True with two OpenCL devices here; else the case must have passed in the
    child process that ran this module asking PoCL for two (`own_process`), or
    is skipped without OpenCL."""
    if _opencl_device_count() >= 2:
        return True
    if os.environ.get(_CHILD) or _opencl_device_count() == 0:
        pytest.skip("fewer than 2 OpenCL devices")
    check_in_own_process(request, {"POCL_DEVICES": "pthread pthread", _CHILD: "1"})
    return False


@pytest.mark.parametrize(("program", "graph", "args"), [("bfs.gt", "rmat:10", [3]), ("pagerank.gt", "rmat:9", [])])
def test_a_part_past_the_32_bit_limit_runs_with_64_bit_indices(
    program: str, graph: str, args: list[int], request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not _runs_here(request):
        return
    monkeypatch.setattr(memory, "MAX_EDGES_32", 100)  # every part of the graph is "past" it
    loaded = compile_program_file(str(PROGRAMS / program))
    loaded.run(graph, *args, target="opencl", devices=2, validate=True)
    (partitioned,) = [compiled for key, compiled in loaded._compiled.items() if key.startswith("opencl:2:")]
    assert partitioned.edge_index_width == 32
    assert partitioned._specialised[64].edge_index_width == 64  # made by the run, for its parts


def test_the_forced_width_reaches_a_partitioned_run(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not _runs_here(request):
        return
    monkeypatch.setenv(memory.FORCE_EDGE_INDEX_WIDTH, "64")
    loaded = compile_program_file(str(PROGRAMS / "sssp_delta.gt"))
    result = loaded.run("road:16:16,w", 5, 4, target="opencl", devices=2, validate=True)
    assert result["est"][5] == 0
    (partitioned,) = [compiled for key, compiled in loaded._compiled.items() if key.startswith("opencl:2:")]
    assert partitioned._specialised[64].edge_index_width == 64
