"""Value checks for the tools' options, as argparse `type=` functions.

A value that fails one is a malformed command line: argparse prints the usage and
`tool: error: argument --trials: ...` and exits with status 2, as for an unknown
option, rather than the tool reporting it later as an error in what it was given
(status 1).
"""

from __future__ import annotations

import argparse
import math


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: '{text}'") from None


def positive_int(text: str) -> int:
    """An integer of at least 1 (`--trials`)."""
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def nonnegative_int(text: str) -> int:
    """An integer of at least 0 (`--warmup`, `--device`)."""
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, not {value}")
    return value


def positive_float(text: str) -> float:
    """A finite number above 0 (`--cell-limit`)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid number: '{text}'") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number above 0, not {text}")
    return value
