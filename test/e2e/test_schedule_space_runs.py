"""End to end: a seeded sample of each program's schedule space (`gir.schedule_space`,
OpenCL's space) compiled from the point's GraphIt `schedule:` text, run on
OpenCL (PoCL in CI) on a small generated graph, and checked against the CPU
reference (`Program.validate`)."""

from __future__ import annotations

from pathlib import Path

import pytest

import gir

PROGRAMS = Path(__file__).parents[1] / "programs"

CASES = [
    ("bfs.gt", "rmat:8", (0,)),
    ("sssp_delta_default.gt", "road:8:8,w", (0,)),
    ("cc_default.gt", "rmat:8", ()),
    ("pagerank_default.gt", "rmat:8", ()),
]
"""(program, graph, arguments after the graph)."""


def _has_opencl() -> bool:
    try:
        import pyopencl as cl
    except ImportError:
        return False
    return any(platform.get_devices() for platform in cl.get_platforms())


@pytest.mark.skipif(not _has_opencl(), reason="no OpenCL device")
@pytest.mark.parametrize(("name", "graph", "args"), CASES, ids=[case[0] for case in CASES])
def test_sampled_schedules_run_and_validate_on_opencl(
    name: str, graph: str, args: tuple[int, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIR_CACHE_DIR", str(tmp_path))
    path = PROGRAMS / name
    space = gir.schedule_space(path, target="opencl")
    for point in space.sample(2, seed=5):
        program = gir.compile(path, schedule=point.schedule_section(), check_bounds=True)
        result = program.run(graph, *args, target="opencl")
        program.validate(graph, result, *args)
