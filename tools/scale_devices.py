#!/usr/bin/env python3
"""Partitioned runs over 1, 2, 4... GPUs: time, speed-up, bytes exchanged and
the CPU check, as CSV rows; or the plot of such a CSV.

```
python tools/scale_devices.py run --graph rmat:24 --algorithms pr,cc,bfs,sssp \
    --devices 1,2 [--validate] [--trials 3] [--target cuda] \
    [--program bfs=test/programs/bfs_timed_edge_only.gt] [--source hub] --csv scaling.csv
python tools/scale_devices.py plot scaling.csv -o scaling.png
```

`run` compiles each algorithm's timed program once (`PROGRAMS`) and runs it
(or the one `--program ALGORITHM=FILE` names) through the Python API (`Program.run(G, ..., devices=N)`: one rank per GPU,
NCCL on CUDA) on every device count in turn, the graph loaded once (`,w` added
for the weighted ones). A row is appended after each run (so a run cut short
keeps what it measured) and a line printed on stderr; a failed run is a row
whose `validated` column says why. The speed-up is against the 1-device time of
the same program on the same graph, in this invocation or an earlier row of the
same CSV. Set
`GIR_EXCHANGE_FORMAT` to time another exchange format (docs/multi-gpu.md).

`plot` draws the speed-up of each graph, algorithm and exchange format against
the device count (matplotlib: `pip install 'gir[plot]'`).
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROGRAMS: dict[str, tuple[str, bool]] = {
    "bfs": ("test/programs/bfs_timed.gt", False),
    "sssp": ("test/programs/sssp_delta_timed.gt", True),
    "pr": ("test/programs/pagerank_timed_pull.gt", False),
    "cc": ("test/programs/cc.gt", False),
}
"""Each algorithm's timed program (relative to the checkout) and whether it
reads edge weights."""

COLUMNS = [
    "graph", "algorithm", "program", "devices", "exchange", "median_ms", "trials",
    "speedup", "bytes_per_trial", "collectives", "validated", "gpu",
]  # fmt: skip

ROAD_DELTA = 80000
"""Delta-stepping's bucket width on road grids (G2's); 2 on other graphs."""


def program_arguments(algorithm: str, graph: str, source: int) -> list[int]:
    """What the algorithm's program takes after the graph."""
    if algorithm == "bfs":
        return [source]
    if algorithm == "sssp":
        return [source, ROAD_DELTA if graph.startswith("road") else 2]
    return []


def source_vertex(source: str, graph: object) -> int:
    """`--source`: a vertex id, or `hub`, the vertex of most out-edges (in the
    giant component of a skewed graph, where a low id may reach almost nothing:
    vertex 1 of rmat:25 is BFS's 0.12 ms on an H200)."""
    if source != "hub":
        return int(source)
    degrees = graph.out_degrees()  # type: ignore[attr-defined]
    hub = int(degrees.argmax())
    print(f"source: vertex {hub}, of {int(degrees[hub]):,} out-edges", file=sys.stderr, flush=True)
    return hub


def earlier_single_device_times(path: Path) -> dict[tuple[str, str], float]:
    """The 1-device times already in the CSV, by (graph, program file name)."""
    if not path.exists():
        return {}
    with path.open(newline="") as file:
        return {
            (row["graph"], row["program"]): float(row["median_ms"])
            for row in csv.DictReader(file)
            if row["devices"] == "1" and row["median_ms"]
        }


def run_rows(options: argparse.Namespace) -> int:
    """The `run` command: one row a (algorithm, device count)."""
    import gir
    from gir.diagnostics import UserError
    from gir.runtime.graph import load_graph

    out = Path(options.csv)
    single = earlier_single_device_times(out)
    new_file = not out.exists()
    started = time.monotonic()
    graphs: dict[bool, object] = {}
    sources: dict[bool, int] = {}
    with out.open("a", newline="") as file:
        writer = csv.writer(file)
        if new_file:
            writer.writerow(COLUMNS)
        for algorithm in options.algorithms:
            path, weighted = options.program.get(algorithm, PROGRAMS[algorithm][0]), PROGRAMS[algorithm][1]
            if weighted not in graphs:
                graphs[weighted] = load_graph(options.graph + (",w" if weighted else ""))
                sources[weighted] = source_vertex(options.source, graphs[weighted])
            graph = graphs[weighted]
            arguments = program_arguments(algorithm, options.graph, sources[weighted])
            program = gir.compile(str(ROOT / path))
            for devices in options.devices:
                began = time.monotonic()
                row = _measure(program, graph, arguments, devices, options, UserError)
                if row["median_ms"] and devices == 1:
                    single[(options.graph, Path(path).name)] = float(row["median_ms"])
                base = single.get((options.graph, Path(path).name))
                speedup = f"{base / float(row['median_ms']):.2f}" if base and row["median_ms"] else ""
                writer.writerow([options.graph, algorithm, Path(path).name, devices, row["exchange"],
                                 row["median_ms"], row["trials"], speedup, row["bytes"], row["collectives"],
                                 row["validated"], row["gpu"]])  # fmt: skip
                file.flush()
                print(
                    f"{options.graph} {algorithm} on {devices}: {row['median_ms'] or '-'} ms"
                    f" (x{speedup or '-'}), {row['bytes']} bytes a trial, validated {row['validated']}"
                    f" [{time.monotonic() - began:.0f} s; {time.monotonic() - started:.0f} s in all]",
                    file=sys.stderr,
                    flush=True,
                )
    return 0


def _measure(
    program: object, graph: object, arguments: list[int], devices: int, options: argparse.Namespace, user_error: type
) -> dict[str, str]:
    """One run's CSV fields; a failure is told in `validated`."""
    row = {"exchange": os.environ.get("GIR_EXCHANGE_FORMAT", "default"), "median_ms": "", "trials": "0",
           "bytes": "0", "collectives": "0", "validated": "no", "gpu": ""}  # fmt: skip
    try:
        result = program.run(graph, *arguments, target=options.target, devices=devices, trials=options.trials)  # type: ignore[attr-defined]
    except user_error as error:
        row["validated"] = f"failed: {str(error).splitlines()[0][:200]}"
        return row
    row.update(median_ms=f"{result.median * 1e3:.3f}", trials=str(len(result.times)), gpu=result.device)
    if result.exchanged is not None:
        row.update(bytes=str(result.exchanged.bytes), collectives=str(result.exchanged.collectives))
    if options.validate:
        try:
            program.validate(graph, result, *arguments)  # type: ignore[attr-defined]
            row["validated"] = "yes"
        except user_error as error:
            row["validated"] = f"wrong: {str(error).splitlines()[0][:200]}"
    return row


def plot_rows(options: argparse.Namespace) -> int:
    """The `plot` command: speed-up against the device count, a line per
    graph and algorithm."""
    from gir.tools.bench import _pyplot

    pyplot = _pyplot()
    lines: dict[tuple[str, str, str], list[tuple[int, float]]] = {}
    gpus: set[str] = set()
    with open(options.csv, newline="") as file:
        for row in csv.DictReader(file):
            if row["speedup"] and row["devices"] != "1":
                key = (row["graph"], row["algorithm"], row["exchange"])
                lines.setdefault(key, [(1, 1.0)]).append((int(row["devices"]), float(row["speedup"])))
                gpus.add(row["gpu"].split(" (")[0])
    figure, axes = pyplot.subplots(figsize=(7, 4.5))
    most = max((d for points in lines.values() for d, _ in points), default=1)
    axes.plot([1, most], [1, most], linestyle=":", color="grey", label="linear")
    graphs = sorted({graph for graph, _, _ in lines})
    for (graph, algorithm, exchange), points in sorted(lines.items()):
        points.sort()
        label = f"{algorithm} {graph}" + (f" ({exchange} exchange)" if exchange not in ("default", "dense") else "")
        style = ("-", "--", "-.")[graphs.index(graph) % 3]  # colours repeat: the graph tells by its line
        axes.plot([d for d, _ in points], [s for _, s in points], marker="o", linestyle=style, label=label)
    axes.set_xlabel("GPUs")
    axes.set_ylabel("speed-up over 1 GPU")
    axes.set_yscale("log")
    axes.set_xticks(sorted({d for points in lines.values() for d, _ in points}))
    axes.set_title(f"gir partitioned runs ({', '.join(sorted(gpus)) or 'no GPU named'})")
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(options.output)
    print(f"wrote {options.output}", file=sys.stderr)
    return 0


def _counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected device counts such as 1,2,4, not '{text}'") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"device counts are at least 1: '{text}'")
    return counts


def _algorithms(text: str) -> list[str]:
    names = text.split(",")
    unknown = [name for name in names if name not in PROGRAMS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown algorithm '{unknown[0]}' (expected some of {','.join(PROGRAMS)})")
    return names


def _source(text: str) -> str:
    if text != "hub" and not (text.isdigit() and int(text) >= 0):
        raise argparse.ArgumentTypeError(f"expected a vertex id or 'hub', not '{text}'")
    return text


def _program(text: str) -> tuple[str, str]:
    algorithm, equals, path = text.partition("=")
    if not equals or not path:
        raise argparse.ArgumentTypeError(f"expected ALGORITHM=FILE, such as bfs=test/programs/bfs_hybrid.gt, not '{text}'")
    _algorithms(algorithm)
    if not (ROOT / path).is_file():
        raise argparse.ArgumentTypeError(f"no program '{path}'")
    return algorithm, path


def parser() -> argparse.ArgumentParser:
    """The command line (module docstring)."""
    top = argparse.ArgumentParser(prog="scale_devices.py", description=__doc__.split("\n\n")[0])
    commands = top.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="time and check partitioned runs, appending CSV rows")
    run.add_argument("--graph", required=True, help="a graph spec (rmat:24, road:4096:4096, a file)")
    run.add_argument("--algorithms", type=_algorithms, default=list(PROGRAMS), help="some of bfs,sssp,pr,cc")
    run.add_argument("--devices", type=_counts, default=[1, 2], help="device counts, e.g. 1,2,4 (default 1,2)")
    run.add_argument(
        "--source", type=_source, default="1",
        help="BFS's and SSSP's source vertex, or 'hub': the vertex of most out-edges (default 1)",
    )
    run.add_argument("--trials", type=int, default=3, help="timed runs after one warm-up (default 3)")
    run.add_argument("--target", default="cuda", choices=["cuda", "opencl"])
    run.add_argument("--validate", action="store_true", help="check every run against the CPU reference")
    run.add_argument(
        "--program", type=_program, action="append", default=[], metavar="ALGORITHM=FILE",
        help="time FILE (relative to the checkout, same arguments) for ALGORITHM instead of its default program",
    )
    run.add_argument("--csv", required=True, help="the CSV to append to")
    plot = commands.add_parser("plot", help="plot a CSV's speed-ups")
    plot.add_argument("csv")
    plot.add_argument("-o", "--output", required=True, metavar="FILE.png")
    return top


def main(argv: Sequence[str] | None = None) -> int:
    options = parser().parse_args(argv)
    options.program = dict(getattr(options, "program", []))
    from gir.diagnostics import UserError

    try:
        return run_rows(options) if options.command == "run" else plot_rows(options)
    except UserError as error:
        print(error, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
