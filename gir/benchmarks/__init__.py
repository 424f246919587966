"""The benchmark programs and reference times `gir-bench` ships with gir.

`programs/<algorithm>_<schedule>[_<social|road>].gt` are the benchmark cells'
programs (G2's schedules, gir's defaults and its best ones; see
docs/benchmarking.md), and `g2_h200.csv` is G2's times on an H200, gir-bench's
default `--compare` reference. Both are package data, so an installed gir (a
wheel, not only a checkout) runs `gir-bench` as the docs show.
"""

from __future__ import annotations

from pathlib import Path

PROGRAMS = Path(__file__).resolve().parent / "programs"
"""The folder of the benchmark programs (gir-bench's default `--programs`)."""

G2_REFERENCE = Path(__file__).resolve().parent / "g2_h200.csv"
"""G2's times on an H200 (gir-bench's default `--compare`)."""
