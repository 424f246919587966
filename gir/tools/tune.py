"""`gir-tune`: search a GraphIt program's schedule space on a graph.

```
gir-tune PROGRAM.gt GRAPH [ARGS...] [--target auto|cuda|opencl] [--device N]
         [--budget 120s] [-o OUT.gt | -o OUT.schedule] [--csv FILE]
         [--trials N] [--warmup N] [--journal FILE] [--resume] [--seed N]
         [--hang-grace SECONDS] [--compile-workers N]
```

GRAPH and ARGS are what `gir-run` takes (the program's argv[1..]). Every
candidate is compiled, run `--warmup` + `--trials` times on the graph (loaded
once), timed by the program's own timer (the median of the trials) and checked
against gir's CPU reference (else against the default schedule's result); the
fastest correct one wins. `--compile-workers` processes compile the next
candidates while the device measures one. Runs still going when the budget ends are stopped, and
the candidate is a `timeout` row, never chosen; a kernel that has not returned
`--hang-grace` seconds later (10) is called hung: the CSV is written and gir-tune exits with status 1
(`--resume` goes on without that candidate). Progress goes to stderr; the winner is written to
`-o` (a `.gt` file: the whole program with its schedule section replaced; any
other name: the `schedule:` section alone), else printed, and stored in the
tuning cache for `gir-run --schedule tuned`. The journal (by default in the
tuning cache's folder, one per program, graph and device) records every
measurement: `--resume` continues from it. docs/tuning.md describes the search.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from gir.diagnostics import UsageError, printable
from gir.output import check_writable, open_output
from gir.tools.opt import report_user_errors

CSV_COLUMNS = (
    "candidate", "origin", "status", "median_ms", "search_ms", "final_ms", "min_ms", "max_ms", "compile_s",
    "compile_wait_s",
    "kernels_reused", "detail", "schedule",
)  # fmt: skip


def _progress(message: str) -> None:
    print(printable(f"gir-tune: {message}"), file=sys.stderr, flush=True)


def _build_parser() -> argparse.ArgumentParser:
    from gir.tune.search import HANG_GRACE_S

    parser = argparse.ArgumentParser(
        prog="gir-tune",
        usage="%(prog)s PROGRAM.gt GRAPH [ARGS ...] [options]",
        description="Search a GraphIt program's schedule space on a graph for the fastest "
        "schedule whose result is correct (optuna's TPE sampler, seeded with the default, "
        "the program's own and the auto schedule).",
        epilog="example: gir-tune test/programs/bfs.gt rmat:16 0 --budget 60s -o bfs_tuned.gt",
    )
    parser.add_argument("program", help="a .gt GraphIt program")
    parser.add_argument("args", nargs="+", metavar="GRAPH ARGS", help="the program's argv[1..]: the graph first")
    parser.add_argument("--target", choices=("auto", "cuda", "opencl"), default="auto")
    parser.add_argument("--device", type=int, default=None, help="device index (OpenCL: across platforms)")
    parser.add_argument("--budget", default="120s", help="search time: seconds, or with s, m or h [120s]")
    parser.add_argument("-o", "--output", metavar="OUT", help="OUT.gt: the whole program; else the schedule section")
    parser.add_argument("--csv", metavar="FILE", help="every candidate as a CSV row")
    parser.add_argument("--trials", type=int, default=5, help="timed runs per candidate [5]")
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs first [1]")
    parser.add_argument(
        "--journal", metavar="FILE", help="the results journal [one per program, graph and device, in the tuning cache]"
    )
    parser.add_argument("--resume", action="store_true", help="continue from the journal of an earlier run")
    parser.add_argument("--seed", type=int, default=0, help="the sampler's seed [0]")
    parser.add_argument(
        "--hang-grace", type=float, default=HANG_GRACE_S, metavar="SECONDS",
        help=f"how long a candidate's kernel may run past its time before it is called hung and gir-tune "
        f"stops [{HANG_GRACE_S:g}]",
    )
    parser.add_argument(
        "--compile-workers", type=int, default=None, metavar="N",
        help="processes that compile the next candidates while one is measured; 0: none [CPUs/4, 1 to 4]",
    )  # fmt: skip
    return parser


def _summary(section: str) -> str:
    """A schedule section on one line, for the CSV."""
    return " ".join(line.strip() for line in section.splitlines() if line.strip() and line.strip() != "schedule:")


def _ms(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"


def write_csv(path: str, measurements: Sequence[object]) -> None:
    """One row per candidate, in the order measured: `median_ms` is what the
    winner was chosen by (the final round's median for a finalist, else the
    search's), `search_ms` and `final_ms` the medians of each."""
    with open_output(path) as stream:
        writer = csv.DictWriter(stream, fieldnames=CSV_COLUMNS, lineterminator="\n")
        writer.writeheader()
        for index, m in enumerate(measurements, 1):
            times = getattr(m, "times_ms") + getattr(m, "final_ms")
            median, final = getattr(m, "median_ms"), getattr(m, "final_median_ms")
            ok = median is not None
            writer.writerow({
                "candidate": index, "origin": getattr(m, "origin"), "status": getattr(m, "status"),
                "median_ms": f"{median:.6g}" if ok else "", "search_ms": _ms(getattr(m, "search_median_ms")),
                "final_ms": _ms(final), "min_ms": f"{min(times):.6g}" if ok else "",
                "max_ms": f"{max(times):.6g}" if ok else "", "compile_s": f"{getattr(m, 'compile_s'):.3f}",
                "compile_wait_s": f"{getattr(m, 'waited_s'):.3f}",
                "kernels_reused": "yes" if getattr(m, "kernels_reused") else "no",
                "detail": getattr(m, "detail"), "schedule": _summary(getattr(m, "schedule")),
            })  # fmt: skip


def tune_command(argv: Sequence[str] | None = None) -> None:
    """Parses the command line, tunes, writes the winner, the CSV and the report."""
    from gir.tune.search import parse_budget, tune

    options = _build_parser().parse_args(argv)
    if options.trials < 1 or options.warmup < 0:
        raise UsageError("error: --trials must be at least 1 and --warmup at least 0")
    if options.compile_workers is not None and options.compile_workers < 0:
        raise UsageError("error: --compile-workers must be at least 0")
    if not options.hang_grace > 0:
        raise UsageError("error: --hang-grace must be a positive number of seconds")
    if not options.program.endswith(".gt"):
        raise UsageError(f"error: gir-tune tunes GraphIt programs (.gt), not '{options.program}'")
    budget = parse_budget(options.budget)
    for path in (options.output, options.csv):
        if path:
            check_writable(path)
    graph, *args = options.args

    def stop_hung(measurements: Sequence[object]) -> NoReturn:
        """A candidate's kernel never returned: writes the CSV so far and ends the
        process, the only way to stop the kernel (the journal has the row too)."""
        if options.csv:
            write_csv(options.csv, measurements)
        _progress(
            f"error: candidate {len(measurements)} hung (a kernel did not return); stopped "
            "(run again with --resume to go on without it)"
        )
        sys.stderr.flush()
        os._exit(1)

    result = tune(
        options.program, graph, *args, budget=budget, target=options.target, device=options.device,
        trials=options.trials, warmup=options.warmup, journal=options.journal, resume=options.resume,
        seed=options.seed, progress=_progress, on_hang=stop_hung, hang_grace=options.hang_grace,
        compile_workers=options.compile_workers,
    )  # fmt: skip
    failed = sum(1 for m in result.measurements if m.status != "ok")
    reused = sum(1 for m in result.measurements if m.kernels_reused)
    compiling = sum(m.compile_s for m in result.measurements)
    waiting = sum(m.waited_s for m in result.measurements)
    by_origin = {m.origin: m for m in result.measurements if m.origin != "search"}
    seeds = ", ".join(
        f"{origin} {m.median_ms:.3f} ms" if m.median_ms is not None else f"{origin} {m.status}"
        for origin, m in by_origin.items()
    )
    _progress(
        f"best {result.median_ms:.3f} ms ({result.best.origin}) of {len(result.measurements)} candidate(s), "
        f"{failed} failed, invalid or stopped, {reused} reusing built kernels, in {result.seconds:.0f} s "
        f"(compiles: {compiling:.1f} s, {waiting:.1f} s of it waited for) "
        f"(space: {result.space_size:,} schedules); seeds: {seeds}"
    )
    if options.csv:
        write_csv(options.csv, result.measurements)
        _progress(f"wrote {options.csv}")
    text = result.program if options.output and options.output.endswith(".gt") else result.schedule
    if options.output:
        with open_output(options.output) as stream:
            stream.write(text)
        _progress(f"wrote {options.output}")
    else:
        sys.stdout.write(text)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `gir-tune`."""
    return report_user_errors(lambda: tune_command(argv))


if __name__ == "__main__":
    sys.exit(main())
