"""Every shipped benchmark program (`gir/benchmarks/programs`, what `gir-bench
--schedules` names) runs through gir-bench on PoCL, on a small graph of each
class it serves, and validates against the CPU reference: a schedule file
added or changed (a new `best`) is run and checked here, not only on the GPU."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from gir.runtime.device import DeviceUnavailable, opencl_devices
from gir.tools import bench

GRAPH_CLASSES = ("road", "social")


def _has_opencl() -> bool:
    try:
        return bool(opencl_devices())
    except (DeviceUnavailable, ImportError):
        return False


def schedule_of(program: Path) -> str:
    """The schedule a benchmark file serves: `bc_scaled_road.gt` -> `scaled`."""
    parts = program.stem.split("_")[1:]
    if parts and parts[-1] in GRAPH_CLASSES:
        parts = parts[:-1]
    return "_".join(parts)


@pytest.mark.skipif(not _has_opencl(), reason="no OpenCL device")
def test_every_benchmark_program_validates_on_pocl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    programs = sorted(bench.PROGRAMS.glob("*.gt"))
    schedules = sorted({schedule_of(program) for program in programs})
    table = tmp_path / "cells.csv"
    status = bench.main([
        "--target", "opencl", "--graphs", "rmat:10,road:12:12", "--schedules", ",".join(schedules),
        "--trials", "1", "--warmup", "0", "--csv", str(table),
    ])  # fmt: skip
    captured = capsys.readouterr()
    assert status == 0, captured.err
    with table.open() as stream:
        rows = list(csv.DictReader(stream))
    failed = [
        (row["algorithm"], row["graph"], row["schedule"], row["status"], row["detail"])
        for row in rows
        if row["status"] != "no program" and (row["status"], row["detail"]) != ("ok", "validated")
    ]
    assert not failed
    ran = {row["program"] for row in rows if row["status"] == "ok"}
    assert ran == {program.name for program in programs}
