#!/usr/bin/env python3
"""The tuning table on a GPU: per graph and algorithm, the times of the default,
auto, tuned, best (hand-written) and G2 schedules, as one CSV.

```
python tools/tune_matrix.py --out DIR [--graphs rmat:22,road:2048:2048] \
    [--algorithms bfs,sssp,pr,cc,bc] [--budget 60s] [--trials 5] [--time-limit 540] \
    [--cell-limit 60] [--classes default,auto,tuned,best,g2] [--target cuda]
```

For each graph, each algorithm's `best` benchmark program (the algorithm text
the hand-written schedules were made for; G2's where gir has no `best`) is tuned with `gir.tune` for at most
`--budget` (stored in the tuning cache under `$GIR_CACHE_DIR`); then gir-bench's
runner times the classes default, auto, tuned, best and g2 of every algorithm on
that graph (each program compiled once, `--trials` timed runs after one warm-up,
each program's own timer, every result checked). G2's own times (from
`gir/benchmarks/g2_h200.csv`) fill the `g2_ref_ms` column where G2 ran the cell.
A timed cell stops after `--cell-limit` seconds (a default schedule can take
minutes on a road graph) and says `timeout` in the notes.

The run stops starting work before `--time-limit` seconds: a tuning budget is
cut to what is left (keeping a reserve to measure the graph's cells), and a
graph that would not fit is skipped (its rows say so). Rows are written after
each graph's tuning and after its timing, so a run cut short keeps what it
measured. The graph is loaded once per graph, through gir's graph cache
(`$GIR_CACHE_DIR`), which the tuning runs and the timing share. Split a long matrix
over several invocations with `--graphs` (one or two graphs each).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gir.benchmarks import G2_REFERENCE, PROGRAMS  # noqa: E402
from gir.tools import bench  # noqa: E402

CLASSES = ("default", "auto", "tuned", "best", "g2")
COLUMNS = (
    "graph", "algorithm", "vertices", "edges", "graph_class",
    "default_ms", "auto_ms", "tuned_ms", "best_ms", "g2_in_gir_ms", "g2_ref_ms",
    "tuned_vs_best", "auto_vs_tuned", "auto_vs_g2",
    "tune_s", "candidates", "failed", "space", "tuned_schedule", "notes", "gpu",
)  # fmt: skip
MEASURE_RESERVE_S = 40.0
"""Seconds kept per algorithm for timing its five classes after tuning."""


def _progress(message: str) -> None:
    print(f"tune_matrix: {message}", file=sys.stderr, flush=True)


def _arguments(algorithm: bench.Algorithm, spec: str, g: object) -> list[str]:
    """The program's argv after the graph, as gir-bench gives it."""
    start = [str(bench.start_vertex(spec, g))] if algorithm.rooted else []  # type: ignore[arg-type]
    return start + algorithm.arguments(bench.graph_class(spec))


def _ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:.3f}" if a and b else ""


def _ms(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"


def write_rows(path: Path, rows: list[dict[str, str]]) -> None:
    with path.open("w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows({column: row.get(column, "") for column in COLUMNS} for row in rows)
    _progress(f"wrote {path}")


def tune_graph(
    spec: str,
    algorithms: list[bench.Algorithm],
    options: argparse.Namespace,
    deadline: float,
    path: Path,
    done: list[dict[str, str]],
) -> list[dict[str, str]]:
    """Tunes then times every algorithm on `spec`; one row per algorithm (written
    to `path` after `done`, the earlier graphs' rows, once tuned and once timed)."""
    import gir

    rows: dict[str, dict[str, str]] = {}
    from gir.runtime.graph import load_graph

    # once, through the graph cache, which the tuning runs load from too
    weighted = any(a.weighted for a in algorithms) and not Path(spec).exists()
    g = load_graph(spec, weighted=True if weighted else None, progress=_progress)
    for index, algorithm in enumerate(algorithms):
        row = rows[algorithm.name] = {
            "graph": bench._plain_spec(spec), "algorithm": algorithm.name, "vertices": str(g.num_vertices),
            "edges": str(g.num_edges), "notes": "",
        }  # fmt: skip
        program = bench.schedulable_program(PROGRAMS, algorithm.name, bench.graph_class(spec))
        reserve = MEASURE_RESERVE_S * (len(algorithms) - index) + MEASURE_RESERVE_S
        budget = min(options.budget, deadline - time.monotonic() - reserve)
        if program is None or budget < min(5.0, options.budget):
            row["notes"] = "not tuned: " + ("no program" if program is None else "out of time")
            continue
        _progress(f"tuning {algorithm.name} on {spec} for {budget:.0f} s")
        try:
            result = gir.tune(
                str(program), spec, *_arguments(algorithm, spec, g), budget=budget, target=options.target,
                trials=options.trials, progress=_progress,
            )  # fmt: skip
        except gir.UserError as error:
            row["notes"] = f"not tuned: {bench.one_line(error)}"
            continue
        row.update({
            "graph_class": result.graph_class, "tune_s": f"{result.seconds:.1f}",
            "candidates": str(len(result.measurements)),
            "failed": str(sum(m.status != "ok" for m in result.measurements)),
            "space": str(result.space_size), "gpu": result.device,
            "tuned_schedule": " ".join(line.strip() for line in result.schedule.splitlines()[1:]),
        })  # fmt: skip
    # the tuning runs' copies of the graph, on the device gir's API shares
    gir.load_graph(spec, target=options.target).device.clear_graphs()
    write_rows(path, [*done, *rows.values()])  # the tuning, should the timing not finish
    reference = bench.read_reference(G2_REFERENCE)
    for algorithm in algorithms:  # one algorithm at a time, each written once timed
        measure = argparse.Namespace(
            algorithms=algorithm.name, graphs=spec, schedules=",".join(options.classes), programs=PROGRAMS,
            target=options.target, device=None, trials=options.trials, warmup=1, host="python",
            cell_limit=options.cell_limit,
        )  # fmt: skip
        cells, gpu, _ = bench.run_cells(measure, _progress, {spec: g})
        for cell in cells:
            row = rows[cell.algorithm]
            row["gpu"] = gpu
            column = "g2_in_gir_ms" if cell.schedule == "g2" else f"{cell.schedule}_ms"
            row[column] = _ms(cell.median_ms if cell.status == bench.STATUS_OK else None)
            if cell.status != bench.STATUS_OK:
                row["notes"] += f" {cell.schedule}: {cell.status} {cell.detail}".rstrip()
            if cell.schedule == "g2":
                row["g2_ref_ms"] = _ms(reference.lookup(cell))
        _add_ratios(rows[algorithm.name])
        write_rows(path, [*done, *rows.values()])
    del g
    return list(rows.values())


def _add_ratios(row: dict[str, str]) -> None:
    """The row's tuned/best, auto/tuned and auto/G2 ratios, where both were measured."""
    value = {name: float(row[name]) if row.get(name) else None for name in ("auto_ms", "tuned_ms", "best_ms", "g2_ref_ms")}
    row["tuned_vs_best"] = _ratio(value["tuned_ms"], value["best_ms"])
    row["auto_vs_tuned"] = _ratio(value["auto_ms"], value["tuned_ms"])
    row["auto_vs_g2"] = _ratio(value["auto_ms"], value["g2_ref_ms"])


def main(argv: list[str] | None = None) -> int:
    from gir.tune.search import parse_budget

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, type=Path, help="folder for the CSV")
    parser.add_argument("--graphs", default="rmat:22,road:2048:2048")
    parser.add_argument("--algorithms", default="bfs,sssp,pr,cc,bc")
    parser.add_argument("--budget", default="60s", help="tuning time per cell [60s]")
    parser.add_argument("--trials", type=int, default=5, help="timed runs per candidate and cell [5]")
    parser.add_argument("--time-limit", type=float, default=540.0, help="seconds for the whole run [540]")
    parser.add_argument(
        "--cell-limit", type=float, default=60.0, help="seconds for one timed cell's runs (gir-bench's) [60]"
    )
    parser.add_argument(
        "--classes", default=",".join(CLASSES),
        help="the classes timed after tuning (leave out `default` where it takes minutes) [all]",
    )  # fmt: skip
    parser.add_argument("--target", default="cuda", choices=("cuda", "opencl"))
    options = parser.parse_args(argv)
    options.classes = bench._split(options.classes)
    if unknown := sorted(set(options.classes) - set(CLASSES)):
        parser.error(f"unknown classes {', '.join(unknown)} (known: {', '.join(CLASSES)})")
    options.budget = parse_budget(options.budget)
    deadline = time.monotonic() + options.time_limit
    algorithms = [bench.ALGORITHMS[name] for name in bench._split(options.algorithms)]
    graphs = bench._graph_list(options.graphs)
    options.out.mkdir(parents=True, exist_ok=True)
    path = options.out / f"tune_matrix_{'_'.join(''.join(c if c.isalnum() else '-' for c in g) for g in graphs)}.csv"
    rows: list[dict[str, str]] = []
    for spec in graphs:
        if deadline - time.monotonic() < MEASURE_RESERVE_S * (len(algorithms) + 1):
            rows += [{"graph": spec, "algorithm": a.name, "notes": "skipped: out of time"} for a in algorithms]
        else:
            rows += tune_graph(spec, algorithms, options, deadline, path, rows)
        write_rows(path, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
