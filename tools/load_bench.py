"""Graph file load times: gir's loader against scipy.io.mmread and np.loadtxt.

    python tools/load_bench.py [--edges 2000000] [--repeat 5] [--before CHECKOUT]

Writes a random graph (`--edges` edges over 2^20 vertices, fixed seed) as `.el`,
`.wel` and Matrix Market files (integer, real and symmetric pattern), then times,
best of `--repeat`, `gir.runtime.graph.load_graph(path, cache=False)` (parsing,
sorting and deduplicating: the graph a program runs on), gir's parsing alone, and
the reference reader (`scipy.io.mmread` for `.mtx`, `np.loadtxt` for edge lists;
these only parse).
`--before CHECKOUT` also times the gir of another checkout (say, a `git worktree`
or `git archive` of an older commit) in a subprocess, whole load and parsing
alone. The last column is gir's parsing time over the reference reader's, all
taken in the same run (on a shared machine the ratios move less than the times).
Prints the table of docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

VERTICES = 1 << 20
FILES = {
    "g.el": "edge list",
    "g.wel": "weighted edge list",
    "int.mtx": "Matrix Market, integer general",
    "real.mtx": "Matrix Market, real general",
    "sym.mtx": "Matrix Market, pattern symmetric",
}


def write_files(directory: Path, edges: int) -> None:
    """The benchmark's graph in every format, written once per directory and size."""
    rng = np.random.default_rng(2026)
    src, dst = rng.integers(0, VERTICES, edges), rng.integers(0, VERTICES, edges)
    weights = rng.integers(1, 1000, edges)
    np.savetxt(directory / "g.el", np.stack([src, dst], axis=1), fmt="%d")
    np.savetxt(directory / "g.wel", np.stack([src, dst, weights], axis=1), fmt="%d")
    one_based = np.stack([src + 1, dst + 1], axis=1)
    _write_mtx(directory / "int.mtx", "integer general", one_based, weights, "%d")
    _write_mtx(directory / "real.mtx", "real general", one_based, weights / 7, "%.17g")
    lower = np.stack([np.maximum(src, dst) + 1, np.minimum(src, dst) + 1], axis=1)
    _write_mtx(directory / "sym.mtx", "pattern symmetric", lower, None, "%d")


def _write_mtx(path: Path, kind: str, indices: np.ndarray, values: np.ndarray | None, fmt: str) -> None:
    table = indices if values is None else np.column_stack([indices, values])
    row_format = " ".join(["%d", "%d"] + ([] if values is None else [fmt]))
    with open(path, "w") as stream:
        stream.write(f"%%MatrixMarket matrix coordinate {kind}\n{VERTICES} {VERTICES} {len(indices)}\n")
        np.savetxt(stream, table, fmt=row_format)


def best_of(repeat: int, work: Callable[[], object]) -> float:
    """The shortest of `repeat` wall times of `work()`, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def gir_time(path: Path, repeat: int) -> float:
    """Best time of gir's `load_graph` on `path`, uncached, its library built beforehand."""
    from gir.runtime.graph import load_graph

    load_graph(str(path), cache=False)
    return best_of(repeat, lambda: load_graph(str(path), cache=False))


def gir_parse_time(path: Path, repeat: int) -> float:
    """Best time of gir reading and parsing `path` alone (no sorting), like for like
    with the reference readers."""
    from gir.runtime.graph import native

    def parse() -> None:
        with native.GraphFile(path) as file:
            file.parse()

    return best_of(repeat, parse)


def reference_time(path: Path, repeat: int) -> float:
    """Best time of scipy.io.mmread (`.mtx`) or np.loadtxt (edge lists) on `path`."""
    if path.suffix == ".mtx":
        import scipy.io

        return best_of(repeat, lambda: scipy.io.mmread(path))
    return best_of(repeat, lambda: np.loadtxt(path, dtype=np.int64))


def before_times(checkout: Path, path: Path, repeat: int) -> tuple[float, float]:
    """Best times of the gir in `checkout` on `path` (whole load, parsing only),
    timed in a subprocess."""
    environment = {**os.environ, "PYTHONPATH": str(checkout)}
    finished = subprocess.run(
        [sys.executable, __file__, "--time-gir", str(path), "--repeat", str(repeat)],
        env=environment, capture_output=True, text=True, check=True, cwd=checkout,
    )  # fmt: skip
    times = json.loads(finished.stdout)
    return float(times["seconds"]), float(times["parse_seconds"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edges", type=int, default=2_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--before", type=Path, help="a gir checkout to time as 'before'")
    parser.add_argument("--dir", type=Path, help="where the files go (default: a new temporary folder)")
    parser.add_argument("--time-gir", type=Path, help=argparse.SUPPRESS)  # --before's subprocess
    arguments = parser.parse_args()
    os.environ.setdefault("GIR_CACHE_DIR", tempfile.mkdtemp(prefix="gir-load-bench-"))
    if arguments.time_gir:
        seconds = gir_time(arguments.time_gir, arguments.repeat)
        parse_seconds = gir_parse_time(arguments.time_gir, arguments.repeat)
        print(json.dumps({"seconds": seconds, "parse_seconds": parse_seconds}))
        return
    directory = arguments.dir or Path(tempfile.mkdtemp(prefix="gir-load-bench-"))
    directory.mkdir(parents=True, exist_ok=True)
    if not all((directory / name).exists() for name in FILES):
        write_files(directory, arguments.edges)
    print(f"{arguments.edges:,} edges over {VERTICES:,} vertices; best of {arguments.repeat}; {os.cpu_count()} CPUs")
    print()
    before = " gir before (s) | gir before, parsing only (s) |" if arguments.before else ""
    print(
        f"| file | size (MB) |{before} gir (s) | gir, parsing only (s) | scipy.io.mmread / np.loadtxt (s) "
        "| gir parsing / reference |"
    )
    print("|---|---:|" + ("---:|---:|" if arguments.before else "") + "---:|---:|---:|---:|")
    for name, description in FILES.items():
        path = directory / name
        size = path.stat().st_size / 1e6
        cells = [f"{description} (`{name}`)", f"{size:.1f}"]
        if arguments.before:
            cells.extend(f"{seconds:.3f}" for seconds in before_times(arguments.before, path, arguments.repeat))
        cells.append(f"{gir_time(path, arguments.repeat):.3f}")
        parse_seconds = gir_parse_time(path, arguments.repeat)
        reference_seconds = reference_time(path, arguments.repeat)
        cells.extend([f"{parse_seconds:.3f}", f"{reference_seconds:.3f}", f"{parse_seconds / reference_seconds:.2f}"])
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
