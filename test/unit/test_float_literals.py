"""Float32 literals are printed as numpy prints them, without numpy: the
printers' `float32_text`, and gir-opt and gir-translate running without
importing numpy (a sixth of their start-up)."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gir.targets.walker import float32_text

PROGRAMS = Path(__file__).parents[1] / "programs"

EDGES = [
    0.0, -0.0, 1.0, 0.1, 0.85, 0.15, 1 / 3, 100.0, 99999.0, 999999.9375, 1e6, -1e6, 1e-4, 1.00000005e-4,
    1.5e-4, 9.99e-5, 1e7, 16777216.0, 16777217.0, 123456789.0, 1e15, 1e16, 1e20, 3.4028234e38, 1.4e-45, 1e-40,
]  # fmt: skip
"""The corners: zeros, the switches between positional and scientific (1e-4
and 1e6, on each side once rounded to 32 bits), integers past 2^24,
subnormals, the largest float32."""


def _bit_patterns(count: int) -> list[float]:
    """`count` finite float32 values spread over every exponent."""
    generator = np.random.default_rng(0)
    values = generator.integers(0, 2**32, count, dtype=np.uint64).astype(np.uint32).view(np.float32)
    return [float(value) for value in values if np.isfinite(value)]


def test_float32_text_is_numpys() -> None:
    differing = [value for value in EDGES + _bit_patterns(20000) if float32_text(value) != str(np.float32(value))]
    assert not differing, [(value, float32_text(value), str(np.float32(value))) for value in differing[:10]]


def test_float32_text_reads_back_as_the_same_float32() -> None:
    for value in _bit_patterns(2000):
        (rounded,) = struct.unpack("f", struct.pack("f", value))
        assert struct.unpack("f", struct.pack("f", float(float32_text(value))))[0] == rounded


@pytest.mark.parametrize(
    "tool, argv",
    [
        ("gir.tools.opt", ["-p", "lower-to-gpu", str(PROGRAMS / "pagerank.gt")]),
        ("gir.tools.translate", ["--to-cuda", str(PROGRAMS / "bfs.gt")]),
        ("gir.tools.translate", ["--to-opencl", str(PROGRAMS / "sssp_delta.gt")]),
        ("gir.tools.translate", ["--to-host-python", str(PROGRAMS / "pagerank.gt")]),
    ],
)
def test_compiling_imports_no_numpy(tool: str, argv: list[str]) -> None:
    script = (
        "import sys, importlib\n"
        f"sys.argv = ['gir', *{argv!r}, '-o', '/dev/null']\n"
        f"status = importlib.import_module({tool!r}).main()\n"
        "assert not status, status\n"
        "assert 'numpy' not in sys.modules, 'numpy was imported'\n"
    )
    finished = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert finished.returncode == 0, finished.stderr[-2000:]
