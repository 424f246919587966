"""tools/profile_ranks.py: each rank of a run partitioned over two PoCL devices
sampled on its own, its time attributed to the exchanges it spent it in."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
TOOL = ROOT / "tools" / "profile_ranks.py"


def test_each_rank_is_sampled_inside_its_exchanges() -> None:
    pytest.importorskip("pyopencl")
    environment = {**os.environ, "POCL_DEVICES": "pthread pthread"}
    command = [sys.executable, str(TOOL), str(ROOT / "test" / "programs" / "bfs_timed.gt"), "road:16:16", "0",
               "--target", "opencl", "--top", "40"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=300)
    if done.returncode != 0 and "no OpenCL" in done.stderr:
        pytest.skip("no OpenCL platform")
    assert done.returncode == 0, done.stderr[-2000:]
    assert re.search(r"^1 device: [\d.]+ ms; 2 devices: [\d.]+ ms$", done.stdout, re.M), done.stdout
    for rank in ("gir-rank-0", "gir-rank-1"):
        section = done.stdout.split(f"== {rank}: ", 1)[1].split("== ", 1)[0]
        assert float(re.match(r"sampled ([\d.]+) ms", section).group(1)) > 0
        inclusive = section.split("by inclusive time:", 1)[1]
        assert "(rank_main)" in inclusive and "(allgather_queue)" in inclusive, section


def test_ops_times_each_ranks_launches_and_exchanges() -> None:
    pytest.importorskip("pyopencl")
    environment = {**os.environ, "POCL_DEVICES": "pthread pthread"}
    command = [sys.executable, str(TOOL), str(ROOT / "test" / "programs" / "bfs_timed_edge_only.gt"), "road:8:8", "0",
               "--target", "opencl", "--ops"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=300)
    if done.returncode != 0 and "no OpenCL" in done.stderr:
        pytest.skip("no OpenCL platform")
    assert done.returncode == 0, done.stderr[-2000:]
    assert re.search(r"^1 device: [\d.]+ ms synchronised \(unprofiled: [\d.]+ ms\)$", done.stdout, re.M), done.stdout
    alone, partitioned = done.stdout.split("\n2 devices: ", 1)
    assert "launch map_search_expand" in alone and "allreduce" not in alone, alone
    for rank in (0, 1):
        section = partitioned.split(f"== rank {rank} of 2:\n", 1)[1].split("== ", 1)[0]
        assert re.search(r"ms  x\d+ +allgather claims$", section, re.M), section  # pred goes with the queue
        assert "allreduce claim" not in section and "clone" not in section, section
        assert re.search(r"ms  x\d+ +launch map_search_expand$", section, re.M), section
        reads = re.search(r"host reads, in order: \[([\d, ]*)\]", section).group(1).split(", ")
        assert reads[-1] == "0", section  # the last level's size: the loop ended
