"""tools/gather_floor.py, the measuring tool of PageRank's gather: its options
are checked before any GPU work, and its blocked and sweep kernels compile with nvcc
(skipped without nvcc; timing them needs a GPU)."""

from __future__ import annotations

import argparse
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gir.runtime.device import find_nvcc

TOOL = Path(__file__).parents[2] / "tools" / "gather_floor.py"


def _tool():
    spec = importlib.util.spec_from_file_location("gather_floor", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_block_sizes_are_checked() -> None:
    tool = _tool()
    assert tool.block_sizes("0x10000,4096") == [65536, 4096]
    for wrong in ("0", "0x20000"):
        with pytest.raises(argparse.ArgumentTypeError, match="1 to 65536 sources per block"):
            tool.block_sizes(wrong)


def test_sweep_grids_are_checked() -> None:
    tool = _tool()
    assert tool.grids("4224x256,264x1024") == [(4224, 256), (264, 1024)]
    for wrong in ("264", "0x256", "264x100", "264x2048"):
        with pytest.raises(argparse.ArgumentTypeError, match="BLOCKSxTHREADS"):
            tool.grids(wrong)


def test_a_block_too_large_is_refused_before_any_gpu_work() -> None:
    finished = subprocess.run(
        [sys.executable, str(TOOL), "rmat:4", "--blocked", "0x20000"], capture_output=True, text=True
    )
    assert finished.returncode == 2
    assert "--blocked 131072: 1 to 65536 sources per block" in finished.stderr


@pytest.mark.skipif(find_nvcc() is None, reason="nvcc is not installed")
@pytest.mark.parametrize("kernels", ["BLOCKED_KERNEL", "SWEEP_KERNEL"])
def test_the_kernels_compile(kernels: str, tmp_path: Path) -> None:
    tool = _tool()
    text = getattr(tool, kernels)
    source = tmp_path / "kernels.cu"
    source.write_text(text)
    finished = subprocess.run(
        [find_nvcc(), "-O3", "-arch=sm_90", "-cuda", str(source), "-o", str(tmp_path / "kernels.ii")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert finished.returncode == 0, finished.stderr
    if kernels == "BLOCKED_KERNEL":
        names = [f"blocked_{mode}" for mode in range(len(tool.BLOCKED_MODES))]
    else:
        names = list(tool.SWEEP_MODES)
    assert re.findall(r"__global__ void (\w+)\(", text) == names
