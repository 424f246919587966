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
        assert re.findall(r"__global__ void (\w+)\(", text) == names
    else:
        names = {*tool.SWEEP_MODES, *tool.COMPACT_MODES, *tool.STAGED_MODES, *tool.DYNAMIC_MODES}
        defined = set(re.findall(r"__global__ void (?:__launch_bounds__\([\d, ]+\) )?(\w+)\(", text))
        defined |= set(re.findall(r"^(?:PREFETCHED|DYNAMIC|CYCLIC|BALANCED|STRIDE_SWEEP)\((\w+),", text, re.MULTILINE))
        assert names <= defined


def test_modes_are_chosen_by_name() -> None:
    tool = _tool()
    assert tool.chosen(tool.SWEEP_MODES, "") == tool.SWEEP_MODES
    assert set(tool.chosen(tool.SWEEP_MODES, "sweep_pairs_two,plain")) == {
        "sweep_plain", "sweep_pairs_two", "sweep_pairs_two_index", "sweep_pairs_two_prefetch4", "sweep_pairs_two_prefetch8",
    }  # fmt: skip


@pytest.mark.parametrize("size", [32, 0x2000, 1 << 20, 1 << 27])
def test_compact_words_decode_to_the_edges(size: int) -> None:
    """Each (tile, chunk) run padded to whole warps, and every valid word with
    its warp's header gives back one edge: as `SWEEP_KERNEL`'s `compact` reads
    them. The largest sizes leave chunks of 2^12 and 2^5 destinations, so runs
    are cut by chunk as well as by tile."""
    import numpy as np

    tool = _tool()
    rng = np.random.default_rng(size)
    n, m = 5000, 40000
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    _, _, order = tool.tiled(size, n, src, dst)
    words, heads, total = tool.compact_words(size, n, src[order], dst[order])
    assert total % 32 == 0 and len(heads) == total // 32
    bits = size.bit_length() - 1
    edge = np.arange(total)
    head = heads[edge >> 5].astype(np.int64)
    valid = (edge & 31) <= (head[:, 0] & 31)
    decoded_src = (head[:, 0] & ~31) + (words & (size - 1))
    decoded_dst = head[:, 1] + (words.astype(np.int64) >> bits)
    assert valid.sum() == m
    assert sorted(zip(decoded_src[valid].tolist(), decoded_dst[valid].tolist())) == sorted(zip(src.tolist(), dst.tolist()))
