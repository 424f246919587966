"""tools/scale_devices.py: partitioned runs on 1 and 2 PoCL devices, each
row timed, its bytes counted and its result checked; and the plot of them."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).parents[2] / "tools" / "scale_devices.py"


def _opencl_available() -> bool:
    try:
        import pyopencl as cl

        return bool(cl.get_platforms())
    except Exception:  # no ICD loader, no platform
        return False


def test_rows_are_timed_counted_and_validated(tmp_path: Path) -> None:
    if not _opencl_available():
        pytest.skip("no OpenCL platform")
    out = tmp_path / "scaling.csv"
    environment = {**os.environ, "POCL_DEVICES": "pthread pthread"}
    command = [sys.executable, str(TOOL), "run", "--graph", "rmat:9", "--algorithms", "bfs,cc",
               "--devices", "1,2", "--target", "opencl", "--trials", "1", "--validate", "--csv", str(out),
               "--program", "bfs=test/programs/bfs_timed_edge_only.gt", "--source", "hub"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = list(csv.DictReader(out.open()))
    assert [(r["algorithm"], r["devices"]) for r in rows] == [("bfs", "1"), ("bfs", "2"), ("cc", "1"), ("cc", "2")]
    assert all(r["validated"] == "yes" for r in rows), rows
    assert [r["program"] for r in rows] == ["bfs_timed_edge_only.gt"] * 2 + ["cc.gt"] * 2
    assert all(r["speedup"] == "1.00" and r["bytes_per_trial"] == "0" for r in rows if r["devices"] == "1")
    assert all(int(r["bytes_per_trial"]) > 0 and float(r["speedup"]) > 0 for r in rows if r["devices"] == "2")
    assert "bfs on 2:" in done.stderr and "source: vertex " in done.stderr

    pytest.importorskip("matplotlib")
    picture = tmp_path / "scaling.png"
    plotted = subprocess.run([sys.executable, str(TOOL), "plot", str(out), "-o", str(picture)],
                             capture_output=True, text=True, timeout=120)  # fmt: skip
    assert plotted.returncode == 0, plotted.stderr
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "option, message",
    [(["--program", "bfs"], "expected ALGORITHM=FILE"),
     (["--program", "tc=test/programs/bfs.gt"], "unknown algorithm 'tc'"),
     (["--program", "bfs=test/programs/none.gt"], "no program 'test/programs/none.gt'"),
     (["--source", "-3"], "expected a vertex id or 'hub', not '-3'")],
)  # fmt: skip
def test_a_bad_option_is_told(option: list[str], message: str) -> None:
    command = [sys.executable, str(TOOL), "run", "--graph", "rmat:9", "--csv", "x.csv", *option]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr, done.stderr
