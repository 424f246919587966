"""`gir-bench`: time gir's benchmark programs cell by cell and compare with G2.

```
gir-bench [--target auto|cuda|opencl] [--device N] [--algorithms bfs,sssp,pr,cc,bc]
          [--graphs rmat:22,road:2048:2048] [--schedules g2,default,best,auto,tuned] [--trials N]
          [--warmup N] [--programs DIR] [--host python|compiled] [--csv FILE]
          [--plot FILE.png] [--compare FILE.csv]
```

A cell is one algorithm on one graph under one schedule class. Its program is
`<algorithm>_<schedule>_<class>.gt` or else `<algorithm>_<schedule>.gt` in the
programs folder (`gir/benchmarks/programs`), where the class is `road` for `road:`
graphs and `social` for every other graph. The classes `auto` and `tuned` are made
per graph: the `best` program's algorithm (else G2's) under the schedule the auto model picks
for the graph, or under gir-tune's cached result for it (docs/tuning.md). Each program is compiled once (the
compile time covers parsing, lowering, printing and building the kernels) and run
`--warmup` + `--trials` times through gir-run's runtime: the graph is loaded and
copied to the device once and is not timed. A program prints, as its last line,
the seconds its own timer measured around the algorithm's loop (PageRank: per
iteration); a cell reports the median, min and max over the trials, and GTEPS =
the graph's directed edges / the median time. The last trial's result is checked
against gir's CPU reference (`gir.validate`, else the algorithm's own check).

`--host compiled` times the complete CUDA programs instead (`gir.tools.compiled`:
built with nvcc once, run as processes on a `.gbin` export of the graph).

A schedule `CLASS+ORDERING` (`best+DEGREE`) runs the class's programs with
their graph reordered (`program->configReorder(ORDERING)` added to the schedule
section, in place of a program's own ordering); the one-time reordering is part of loading the graph, reported on
stderr and not timed.

A program gir cannot lower yet becomes a `not lowered: <gir's error>` cell and the
run goes on. Ratios (gir / reference) come from `--compare FILE.csv` (default:
`gir/benchmarks/g2_h200.csv`, G2's times on an H200); a CSV written by `--csv` is a valid
reference too.
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from gir.benchmarks import G2_REFERENCE, PROGRAMS
from gir.diagnostics import UsageError, UserError, one_line
from gir.runtime import reference
from gir.runtime.device import Device
from gir.runtime.graph import Graph, load_graph
from gir.runtime.program import CompiledProgram
from gir.runtime.run import RunDeadline, run_deadline
from gir.tools.arguments import nonnegative_int, positive_float, positive_int
from gir.tools.opt import report_user_errors
from gir.tools.output import check_writable, open_output
from gir.api import choose_target, lower_for_run, widening
from gir.tools.run import check_graph_spec, parse_program
from gir.validate import Validator, find_validator

if TYPE_CHECKING:
    from gir.tools.compiled import CompiledHost


HYBRID_THRESHOLD = "0.01"
"""BENCHMARKS.md: the hybrid schedules switch to pull at 0.01 * V active vertices."""
DELTAS = {"social": 250, "road": 80000}
"""BENCHMARKS.md: G2's best delta-stepping bucket width per graph class."""

Check = Callable[[Graph, int, dict[str, np.ndarray]], str | None]


@dataclass(frozen=True)
class Algorithm:
    """One benchmarked algorithm: how its programs are called and checked.

    `arguments(graph_class)` gives the program's argv after the graph (and the
    start vertex, when `rooted`). `fallback` checks a result when `gir.validate`
    does not recognise the program."""

    name: str
    title: str
    rooted: bool
    weighted: bool = False
    arguments: Callable[[str], list[str]] = lambda graph_class: []
    fallback: Check | None = None


ALGORITHMS = {
    algorithm.name: algorithm
    for algorithm in (
        Algorithm("bfs", "BFS", rooted=True, arguments=lambda _: [HYBRID_THRESHOLD]),
        Algorithm(
            "sssp",
            "SSSP",
            rooted=True,
            weighted=True,
            arguments=lambda graph_class: [str(DELTAS[graph_class])],
            fallback=lambda g, start, vectors: reference.check_sssp(g, start, vectors["dist"]),
        ),
        Algorithm("pr", "PageRank / iteration", rooted=False),
        Algorithm("cc", "CC", rooted=False),
        Algorithm(
            "bc",
            "BC (one source)",
            rooted=True,
            arguments=lambda _: [HYBRID_THRESHOLD],
            fallback=lambda g, start, vectors: reference.check_bc(g, start, vectors["credit"]),
        ),
    )
}

STATUS_OK = "ok"


@dataclass
class Cell:
    """One measured (or refused) combination of algorithm, graph and schedule."""

    algorithm: str
    graph: str
    schedule: str
    program: str = ""
    status: str = STATUS_OK
    """`ok`, `no program`, `not lowered`, `failed`, `timeout` or `invalid`."""
    detail: str = ""
    """One line: why the cell did not run, or the validation's outcome."""
    vertices: int = 0
    edges: int = 0
    times_ms: list[float] = field(default_factory=list)
    compile_s: float | None = None
    reference_ms: float | None = None

    @property
    def median_ms(self) -> float | None:
        return statistics.median(self.times_ms) if self.times_ms else None

    @property
    def gteps(self) -> float | None:
        median = self.median_ms
        return self.edges / (median * 1e6) if median else None

    @property
    def ratio(self) -> float | None:
        median = self.median_ms
        if self.status != STATUS_OK or median is None or not self.reference_ms:
            return None
        return median / self.reference_ms


# --------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gir-bench",
        description="Time gir's benchmark programs (algorithm x graph x schedule), "
        "validate every cell and compare with reference times (G2 on an H200).",
        epilog="example: gir-bench --target cuda --trials 10",
    )
    parser.add_argument("--target", choices=("auto", "cuda", "opencl"), default="auto")
    parser.add_argument("--device", type=nonnegative_int, default=None, help="device index")
    parser.add_argument(
        "--algorithms", default=",".join(ALGORITHMS), help="comma-separated [%(default)s]"
    )
    parser.add_argument(
        "--graphs",
        default="rmat:22,road:2048:2048",
        help="comma-separated generator specs or graph files [%(default)s]",
    )
    parser.add_argument(
        "--schedules",
        default="g2,default",
        help="schedule classes: program <algorithm>_<schedule>[_<social|road>].gt; "
        "CLASS+ORDERING adds program->configReorder(ORDERING), e.g. best+DEGREE [%(default)s]",
    )
    parser.add_argument("--trials", type=positive_int, default=10, help="timed runs per cell [10]")
    parser.add_argument("--warmup", type=nonnegative_int, default=1, help="untimed runs first [1]")
    parser.add_argument(
        "--cell-limit",
        type=positive_float,
        default=None,
        metavar="SECONDS",
        help="stop a cell's runs after this long and report it as 'timeout' (a default "
        "schedule can take minutes on a road graph) [no limit]",
    )
    parser.add_argument(
        "--programs", type=Path, default=PROGRAMS, help="folder of the benchmark programs"
    )
    parser.add_argument(
        "--host",
        choices=("python", "compiled"),
        default="python",
        help="python: gir-run's runtime; compiled: the complete CUDA program "
        "(gir-translate --to-cuda) built with nvcc, timed by its own timer [python]",
    )
    parser.add_argument("--csv", metavar="FILE", help="write every cell as a CSV row")
    parser.add_argument(
        "--plot", metavar="FILE.png", help="bar chart of gir vs the reference (matplotlib)"
    )
    parser.add_argument(
        "--compare",
        metavar="FILE.csv",
        type=Path,
        default=G2_REFERENCE,
        help="reference times: columns algorithm, graph, median_ms[, schedule, gpu] "
        "(a --csv output works) [gir/benchmarks/g2_h200.csv]",
    )
    return parser


def _split(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


def _graph_list(text: str) -> list[str]:
    """Graph specs from `--graphs`: a `,w`, `,seed=N` or `,a=P` belongs to the spec before it."""
    graphs: list[str] = []
    for item in _split(text):
        if graphs and (item == "w" or item.startswith(("seed=", "a="))):
            graphs[-1] += f",{item}"
        else:
            graphs.append(item)
    return graphs


def graph_class(spec: str) -> str:
    """`road` for road-grid graphs, `social` for every other graph."""
    return "road" if spec.startswith("road:") else "social"


def _plain_spec(spec: str) -> str:
    """A graph spec without the weights option, as cells and references name graphs."""
    return ",".join(part for part in spec.split(",") if part != "w")


def find_program(folder: Path, algorithm: str, schedule: str, klass: str) -> Path | None:
    """The program of a cell: the graph class's own file first, else the shared one."""
    for name in (f"{algorithm}_{schedule}_{klass}.gt", f"{algorithm}_{schedule}.gt"):
        if (folder / name).is_file():
            return folder / name
    return None


# --------------------------------------------------------------------------------------
# Compiling and running cells
# --------------------------------------------------------------------------------------


@dataclass
class CompiledCell:
    """A program compiled once for every graph: the compiled program or why not."""

    program: CompiledProgram | None
    validator: Validator | None
    seconds: float
    error: str = ""
    binary: Path | None = None
    """`--host compiled`: the built complete program (`gir.tools.compiled`)."""


_REORDER_LINE = re.compile(r"\s*program->configReorder\(\s*\w+\s*\);\s*(%.*)?")
"""A schedule line that orders the program's graph (which `CLASS+ORDERING` replaces)."""


def split_schedule(schedule: str) -> tuple[str, str | None]:
    """A schedule token's class and the graph ordering it adds: `best+DEGREE` is
    the `best` programs with `program->configReorder(DEGREE)`."""
    klass, plus, ordering = schedule.partition("+")
    if plus and (not klass or not ordering):
        raise UserError(f"error: schedule '{schedule}' is not CLASS or CLASS+ORDERING")
    return klass, ordering or None


def reordered_source(path: Path, ordering: str) -> bytes:
    """`path`'s program with `program->configReorder(ordering)` at the end of its
    schedule section (a section of its own if it has none), in place of the
    ordering the program names itself, if any."""
    lines = [line for line in path.read_text().splitlines() if not _REORDER_LINE.fullmatch(line)]
    text = "\n".join(lines).rstrip("\n") + "\n"
    if not any(line.strip() == "schedule:" for line in lines):
        text += "\nschedule:\n"
    return f"{text}    program->configReorder({ordering});\n".encode()



def _compile(path: Path, target: str, device: Device, ordering: str | None = None) -> CompiledCell:
    """Parses, lowers, prints and builds `path` (with its graph reordered by
    `ordering`, if named); never raises for a program gir cannot lower."""
    from gir.executor import compile_program
    from gir.frontend import parse_graphit_source

    started = time.perf_counter()
    try:
        if ordering is None:
            module = parse_program(str(path))
        else:
            module = parse_graphit_source(reordered_source(path, ordering), str(path))
        validator = find_validator(module)
        widen = widening(module)
        compiled = compile_program(lower_for_run(module), target, str(path), widen=widen)
        compiled.kernels(device)
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as error:  # a half-landed strategy must not end the run
        return CompiledCell(None, None, time.perf_counter() - started, one_line(error))
    return CompiledCell(compiled, validator, time.perf_counter() - started)


def _compile_cell(
    path: Path, ordering: str | None, target: str, device: Device, host: CompiledHost | None
) -> CompiledCell:
    """A cell's program compiled for gir-run's runtime, or with `host` as a
    complete CUDA program."""
    if host is None:
        return _compile(path, target, device, ordering)
    return host.compile_cell(path, ordering)


def trial_seconds(printed: str, elapsed: float | None, wall: float) -> float:
    """A trial's time: the last number the program printed (its timer, per
    iteration where it reports so), else its timer interval, else its whole run."""
    lines = printed.split()
    if lines:
        try:
            return float(lines[-1])
        except ValueError:
            pass
    return elapsed if elapsed is not None else wall


def check_cell(
    cell: Cell,
    compiled: CompiledCell,
    algorithm: Algorithm,
    g: Graph,
    argv: list[str],
    start: int,
    vectors: dict[str, np.ndarray],
) -> None:
    """Validates the last trial's vectors: `cell.status` becomes `invalid` on a mismatch."""
    validator = compiled.validator
    if validator is not None:
        try:
            problem = validator.check(g, argv, vectors)
        except reference.NotChecked as why:
            cell.detail = f"not checked: {why}"
            return
    elif algorithm.fallback is not None:
        try:
            problem = algorithm.fallback(g, start, vectors)
        except KeyError as missing:
            problem = f"the program has no result vector {missing}"
    else:
        cell.detail = "not validated: gir has no CPU reference for this program"
        return
    if problem is None:
        cell.detail = "validated"
    else:
        cell.status, cell.detail = "invalid", problem


def start_vertex(spec: str, g: Graph) -> int:
    """BENCHMARKS.md's start vertex: 0 (a corner) on road grids, else the vertex of
    largest degree."""
    return 0 if graph_class(spec) == "road" else g.largest_degree_vertex()


def run_cell(
    cell: Cell,
    compiled: CompiledCell,
    algorithm: Algorithm,
    g: Graph,
    spec: str,
    device: Device,
    trials: int,
    warmup: int,
    limit: float | None = None,
) -> None:
    """Runs a compiled cell `warmup + trials` times, times and validates it;
    after `limit` seconds its run stops at the next launch (status `timeout`)."""
    assert compiled.program is not None
    start = start_vertex(spec, g) if algorithm.rooted else None
    argv = [cell.program, spec, *([str(start)] if start is not None else [])]
    argv += algorithm.arguments(graph_class(spec))
    result = None
    deadline = math.inf if limit is None else time.perf_counter() + limit
    try:
        with run_deadline(deadline):
            for trial in range(warmup + trials):
                printed = io.StringIO()
                result = compiled.program.run(device, argv, printed)
                if trial >= warmup:
                    seconds = trial_seconds(printed.getvalue(), result.elapsed, result.wall)
                    cell.times_ms.append(seconds * 1e3)
    except (KeyboardInterrupt, SystemExit):
        raise
    except RunDeadline:
        cell.status, cell.detail = "timeout", cell_timeout_detail(limit, len(cell.times_ms))
        cell.times_ms = []
        return
    except Exception as error:
        cell.status, cell.detail, cell.times_ms = "failed", one_line(error), []
        return
    assert result is not None
    check_cell(cell, compiled, algorithm, g, argv, start or 0, result.globals)


def _reference_graph(spec: str, weighted: bool, progress: Callable[[str], None]) -> Graph:
    """The host graph of `spec` for start vertices, edge counts and validation,
    built without the cache as gir-run's `--validate` does."""
    generated = not Path(spec).exists()  # a generator spec (else load_graph reports it)
    return load_graph(
        spec, weighted=True if weighted and generated else None, cache=False, progress=progress
    )


def run_cells(
    options: argparse.Namespace, progress: Callable[[str], None], graphs_loaded: dict[str, Graph] | None = None
) -> tuple[list[Cell], str, str]:
    """Every cell of the command line, measured; the device's name and its driver.
    `graphs_loaded` gives host graphs already loaded by spec (with weights where an
    algorithm reads them); the others are loaded without the cache."""
    from gir.executor import open_device

    algorithms = [_algorithm(name) for name in _split(options.algorithms)]
    schedules, graphs = _split(options.schedules), _graph_list(options.graphs)
    if not algorithms or not schedules or not graphs:
        raise UsageError("error: --algorithms, --graphs and --schedules must each name something")
    if not options.programs.is_dir():
        raise UserError(f"error: no benchmark programs folder '{options.programs}'")
    _check_schedules(options.programs, algorithms, schedules)
    for spec in graphs:  # a typo fails before any device work
        check_graph_spec(spec)
    target = choose_target(options.target)
    device = open_device(target, options.device)
    host = _compiled_host(target, device) if options.host == "compiled" else None
    compiled: dict[tuple[Path, str | None], CompiledCell] = {}
    cells: list[Cell] = []
    total = len(algorithms) * len(schedules) * len(graphs)
    for spec in graphs:
        progress(f"loading {spec} for start vertices and validation...")
        g = (graphs_loaded or {}).get(spec)
        if g is None:
            g = _reference_graph(spec, any(a.weighted for a in algorithms), progress)
        for algorithm in algorithms:
            for schedule in schedules:
                cell = Cell(
                    algorithm.name,
                    _plain_spec(spec),
                    schedule,
                    vertices=g.num_vertices,
                    edges=g.num_edges,
                )
                cells.append(cell)
                progress(f"[{len(cells)}/{total}] {algorithm.name} {spec} {schedule}")
                klass, ordering = split_schedule(schedule)
                path = find_program(options.programs, algorithm.name, klass, graph_class(spec))
                if klass in SCHEDULE_MODES:
                    path = _scheduled(cell, options, algorithm.name, klass, spec, g, target)
                if path is None and cell.status != STATUS_OK:
                    continue
                if path is None:
                    cell.status = "no program"
                    cell.detail = f"no {algorithm.name}_{klass}[_{graph_class(spec)}].gt"
                    continue
                cell.program = path.name
                if (path, ordering) not in compiled:
                    compiled[(path, ordering)] = _compile_cell(path, ordering, target, device, host)
                program = compiled[(path, ordering)]
                if program.program is None and program.binary is None:
                    cell.status, cell.detail = "not lowered", program.error
                    continue
                cell.compile_s = program.seconds
                if host is None:
                    run_cell(
                        cell, program, algorithm, g, spec, device, options.trials, options.warmup,
                        options.cell_limit,
                    )  # fmt: skip
                else:
                    host.run_cell(
                        cell, program, algorithm, g, spec, options.trials, options.warmup, options.cell_limit
                    )
                outcome = f"median {cell.median_ms:.3f} ms, " if cell.times_ms else ""
                progress(f"  {outcome}{cell.status}: {cell.detail}")
        del g
        device.clear_graphs()
    return cells, device.name, driver_version(device)


def cell_timeout_detail(limit: float | None, finished: int) -> str:
    """Why a cell stopped by `--cell-limit` has no time."""
    return f"stopped after {limit:g} s (--cell-limit), {finished} timed trial(s) done"


SCHEDULE_MODES = ("auto", "tuned")
"""Schedule classes made per graph rather than read from a file (docs/tuning.md):
the auto model's choice, or gir-tune's cached result, for the algorithm of the
cell's `schedulable_program`."""


def schedulable_program(folder: Path, algorithm: str, klass: str) -> Path | None:
    """The program whose algorithm the `auto` and `tuned` classes schedule: the
    `best` one (the algorithm text the hand-written schedules were made for),
    else G2's, else the default one."""
    for schedule in ("best", "g2", "default"):
        path = find_program(folder, algorithm, schedule, klass)
        if path is not None:
            return path
    return None


def _scheduled(
    cell: Cell, options: argparse.Namespace, algorithm: str, mode: str, spec: str, g: Graph, target: str
) -> Path | None:
    """The program of an `auto` or `tuned` cell, written to a scratch folder: the
    `schedulable_program`'s algorithm under the schedule `mode` chooses for `g`; None
    (and the cell's status saying why) when there is none."""
    import tempfile

    from gir.tune.api import chosen_schedule, schedulable_source
    from gir.tune.cache import algorithm_text

    best = schedulable_program(options.programs, algorithm, graph_class(spec))
    if best is None:
        cell.status, cell.detail = "no program", f"no {algorithm}_best|g2|default[_{graph_class(spec)}].gt to schedule"
        return None
    source = schedulable_source(str(best))
    try:
        section = chosen_schedule(source, mode, g, target=target, device=options.device)
    except UserError as error:
        cell.status, cell.detail = "no program", one_line(error)
        return None
    folder = Path(tempfile.mkdtemp(prefix="gir-bench-"))
    name = "".join(c if c.isalnum() else "_" for c in _plain_spec(spec))
    path = folder / f"{algorithm}_{mode}_{name}.gt"
    path.write_text(algorithm_text(source) + "\n\n" + section)
    return path


def driver_version(device: Device) -> str:
    """The driver a run used, for the plot's title: the OpenCL device's driver
    version, or the CUDA driver's; empty when the runtime does not say."""
    if device.target == "opencl":
        version = getattr(getattr(device, "device", None), "driver_version", "")
        return f"driver {version.strip()}" if version else ""
    try:
        import pycuda.driver as cuda

        version = cuda.get_driver_version()
    except Exception:  # pycuda missing or its driver not started: nothing to say
        return ""
    return f"CUDA driver {version // 1000}.{version % 1000 // 10}"


def _compiled_host(target: str, device: Device) -> CompiledHost:
    """`--host compiled`'s builder and runner (`gir.tools.compiled`), for CUDA only."""
    from gir.tools.compiled import open_compiled_host

    if target != "cuda":
        raise UserError("error: --host compiled runs complete CUDA programs: it needs --target cuda")
    return open_compiled_host(device.arch)  # type: ignore[attr-defined]


def _check_schedules(folder: Path, algorithms: list[Algorithm], schedules: list[str]) -> None:
    """A UsageError for a `--schedules` name that no program of the chosen
    algorithms has, for any graph class (a typo, not a missing cell); `auto` and
    `tuned` are made per cell."""
    from gir.reorder import unknown_ordering

    for schedule in schedules:
        name, ordering = split_schedule(schedule)
        refused = None if ordering is None else unknown_ordering(ordering)
        if refused is not None:
            raise UsageError(f"error: --schedules: '{schedule}': {refused}")
        if name not in SCHEDULE_MODES and not any(
            find_program(folder, algorithm.name, name, klass)
            for algorithm in algorithms
            for klass in ("social", "road")
        ):
            raise UsageError(
                f"error: --schedules: no program in '{folder}' has schedule '{schedule}' "
                f"for {', '.join(algorithm.name for algorithm in algorithms)}"
            )


def _algorithm(name: str) -> Algorithm:
    algorithm = ALGORITHMS.get(name)
    if algorithm is None:
        raise UsageError(
            f"error: unknown algorithm '{name}' (expected {', '.join(ALGORITHMS)})"
        )
    return algorithm


# --------------------------------------------------------------------------------------
# References and ratios
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reference:
    """Reference times by (algorithm, graph[, schedule]) and where they were measured."""

    times: dict[tuple[str, str, str], float]
    gpu: str
    source: str

    def lookup(self, cell: Cell) -> float | None:
        """The cell's own schedule's time, else the reference's only time for the pair."""
        exact = self.times.get((cell.algorithm, cell.graph, cell.schedule))
        if exact is not None:
            return exact
        pair = (cell.algorithm, cell.graph)
        matches = [ms for (a, g, _), ms in self.times.items() if (a, g) == pair]
        return matches[0] if len(matches) == 1 else None


def read_reference(path: Path) -> Reference:
    """Reads a reference CSV (`#` lines are comments); a UserError on a bad file."""
    try:
        text = path.read_text()
    except OSError as error:
        raise UserError(f"error: cannot read reference '{path}': {error.strerror}") from None
    rows = list(csv.DictReader(line for line in text.splitlines() if not line.startswith("#")))
    missing = {"algorithm", "graph", "median_ms"} - set(rows[0] if rows else {})
    if missing:
        raise UserError(
            f"error: reference '{path}' lacks the column(s) {', '.join(sorted(missing))}"
        )
    times: dict[tuple[str, str, str], float] = {}
    for row in rows:
        try:
            value = float(row["median_ms"])
        except ValueError:
            continue  # a cell that did not run in a gir-bench CSV
        key = (row["algorithm"], _plain_spec(row["graph"]), row.get("schedule") or "")
        times[key] = value
    gpus = sorted({row.get("gpu") or "" for row in rows} - {""})
    return Reference(times, ", ".join(gpus) or "unknown GPU", str(path))


def geometric_mean(values: Sequence[float]) -> float | None:
    """The geometric mean of positive `values`, None when there are none."""
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


# --------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------

CSV_COLUMNS = (
    "algorithm", "graph", "schedule", "program", "status", "detail", "vertices", "edges",
    "trials", "median_ms", "min_ms", "max_ms", "gteps", "compile_s", "reference_ms", "ratio",
    "gpu", "target", "date",
)  # fmt: skip


def _number(value: float | None, digits: int = 3) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def _precise(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"


def csv_rows(cells: Sequence[Cell], gpu: str, target: str) -> list[dict[str, str]]:
    """The CSV rows of `cells`, one per cell, in `CSV_COLUMNS`."""
    today = date.today().isoformat()
    return [
        {
            "algorithm": cell.algorithm, "graph": cell.graph, "schedule": cell.schedule,
            "program": cell.program, "status": cell.status, "detail": cell.detail,
            "vertices": str(cell.vertices), "edges": str(cell.edges),
            "trials": str(len(cell.times_ms)),
            "median_ms": _precise(cell.median_ms),
            "min_ms": _precise(min(cell.times_ms) if cell.times_ms else None),
            "max_ms": _precise(max(cell.times_ms) if cell.times_ms else None),
            "gteps": _precise(cell.gteps), "compile_s": _precise(cell.compile_s),
            "reference_ms": _precise(cell.reference_ms), "ratio": _precise(cell.ratio),
            "gpu": gpu, "target": target, "date": today,
        }  # fmt: skip
        for cell in cells
    ]


NO_REFERENCE = "none*"
"""The table's `ref ms` of a measured cell the reference has no time for."""
NOT_MEASURED = "-"
"""The table's `gir/ref` of a cell that did not run (its status says why)."""


def _reference_column(cell: Cell) -> str:
    if cell.reference_ms is None:
        return NO_REFERENCE if cell.status == STATUS_OK else ""
    return _number(cell.reference_ms)


def _ratio_column(cell: Cell) -> str:
    if cell.ratio is not None:
        return _number(cell.ratio, 2)
    return NOT_MEASURED if cell.status != STATUS_OK else ""


def _ratio_footnotes(cells: Sequence[Cell], reference: Reference) -> list[str]:
    """Why `gir/ref` is absent, for the reasons that occur among `cells`."""
    notes = []
    if any(cell.status == STATUS_OK and cell.reference_ms is None for cell in cells):
        notes.append(
            f"{NO_REFERENCE}: {reference.source} has no time for this algorithm, graph and "
            "schedule, so the cell has no gir/ref (--compare FILE.csv gives other references)."
        )
    if any(cell.status != STATUS_OK for cell in cells):
        notes.append(f"{NOT_MEASURED}: no gir/ref for a cell without a valid time (see its status).")
    return notes


def format_table(cells: Sequence[Cell], gpu: str, reference: Reference) -> str:
    """The human-readable table: one line per cell, then footnotes on the absent
    ratios and the ratios' geometric mean."""
    header = ("algorithm", "graph", "schedule", "median ms", "min-max ms", "GTEPS",
              "compile s", "ref ms", "gir/ref", "status")  # fmt: skip
    rows = [header]
    for cell in cells:
        spread = (
            f"{min(cell.times_ms):.3f}-{max(cell.times_ms):.3f}" if cell.times_ms else ""
        )
        status = cell.status if not cell.detail else f"{cell.status}: {cell.detail}"
        rows.append((
            ALGORITHMS[cell.algorithm].title, cell.graph, cell.schedule,
            _number(cell.median_ms), spread, _number(cell.gteps), _number(cell.compile_s, 2),
            _reference_column(cell), _ratio_column(cell), status,
        ))  # fmt: skip
    widths = [max(len(row[i]) for row in rows) for i in range(len(header) - 1)]
    lines = [
        "  ".join(text.ljust(width) for text, width in zip(row, widths)) + "  " + row[-1]
        for row in rows
    ]
    ratios = [cell.ratio for cell in cells if cell.ratio is not None]
    mean = geometric_mean(ratios)
    lines += [
        "",
        f"GPU: {gpu}. Times: median of the trials of each program's own timer around the "
        "algorithm's loop (graph load and upload excluded; PageRank per iteration).",
        "GTEPS: the graph's directed edges / the median time.",
        f"Reference: {reference.source} (measured on {reference.gpu}); gir/ref < 1: gir is faster.",
        *_ratio_footnotes(cells, reference),
    ]
    if mean is not None:
        lines.append(f"Geometric mean of gir/ref over {len(ratios)} cell(s): {mean:.2f}")
    if reference.times and mean is not None and not same_gpu(gpu, reference.gpu):
        lines.append(
            f"Note: the reference ran on {reference.gpu}, this run on {gpu}: the ratios "
            "compare different GPUs."
        )
    return "\n".join(lines)


def same_gpu(run_gpu: str, reference_gpu: str) -> bool:
    """Whether this run's GPU (`NAME (TARGET, ...)`) is the reference's (`NAME`)."""
    return run_gpu.split(" (")[0].strip() == reference_gpu.strip()


def write_csv(path: str, cells: Sequence[Cell], gpu: str, target: str) -> None:
    """Writes one CSV row per cell (through a temporary file, as gir's other outputs)."""
    with open_output(path) as stream:
        writer = csv.DictWriter(stream, fieldnames=CSV_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(csv_rows(cells, gpu, target))


def _pyplot():  # type: ignore[no-untyped-def]
    """matplotlib's pyplot (non-interactive), or a UserError saying how to get it."""
    try:
        import matplotlib
    except ImportError:
        raise UserError(
            "error: --plot needs matplotlib, which is not installed "
            "(pip install 'gir[plot]' or pip install matplotlib)"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot

    return pyplot


def plot_title(target: str, gpu: str, driver: str, day: str) -> str:
    """The plot's title: where gir ran (target, GPU, driver) and when."""
    return "\n".join([f"gir-bench --target {target}, {day}", gpu, *([driver] if driver else [])])


def plot_figure(cells: Sequence[Cell], reference: Reference, title: str) -> Any:
    """A matplotlib figure of gir's median time per measured cell (log scale),
    with the reference's bar beside it only where the reference has the cell."""
    pyplot = _pyplot()
    measured = [cell for cell in cells if cell.status == STATUS_OK and cell.median_ms]
    has_reference = np.array([bool(cell.reference_ms) for cell in measured], dtype=bool)
    labels = [f"{cell.algorithm}\n{cell.graph}\n{cell.schedule}" for cell in measured]
    positions = np.arange(len(measured), dtype=float)
    figure, axes = pyplot.subplots(figsize=(max(7.0, 1.1 * len(measured) + 2), 5.0))
    width = 0.4 if has_reference.any() else 0.6
    gir_positions = positions - np.where(has_reference, width / 2, 0.0)
    axes.bar(gir_positions, [cell.median_ms for cell in measured], width, label="gir")
    if has_reference.any():
        axes.bar(
            positions[has_reference] + width / 2,
            [cell.reference_ms for cell in measured if cell.reference_ms],
            width,
            label=f"reference ({reference.gpu})",
        )
    axes.set_xticks(positions, labels, fontsize=7)
    if measured:
        axes.set_yscale("log")
        axes.legend(fontsize=8)
    else:
        axes.text(0.5, 0.5, "no cell has a valid time", ha="center", transform=axes.transAxes)
    axes.set_ylabel("median ms (PageRank: per iteration)")
    missing = int((~has_reference).sum())
    subtitle = f"\n{missing} cell(s) without a reference time" if measured and missing else ""
    axes.set_title(title + subtitle, fontsize=9)
    figure.tight_layout()
    return figure


def write_plot(path: str, cells: Sequence[Cell], reference: Reference, title: str) -> None:
    """Writes `plot_figure`'s chart as a PNG."""
    figure = plot_figure(cells, reference, title)
    with open_output(path, binary=True) as stream:
        figure.savefig(stream, format="png")
    _pyplot().close(figure)


# --------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------


def _progress(message: str) -> None:
    print(f"gir-bench: {message}", file=sys.stderr, flush=True)


def bench(argv: Sequence[str] | None = None) -> None:
    """Parses the command line, runs every cell, prints the table and writes the files."""
    options = _build_parser().parse_args(argv)
    for path in (options.csv, options.plot):
        if path:
            check_writable(path)
    if options.plot:
        _pyplot()
    reference = read_reference(options.compare)
    cells, gpu, driver = run_cells(options, _progress)
    for cell in cells:
        cell.reference_ms = reference.lookup(cell)
    print(format_table(cells, gpu, reference))
    target = choose_target(options.target)
    if options.csv:
        write_csv(options.csv, cells, gpu, target)
        _progress(f"wrote {options.csv}")
    if options.plot:
        title = plot_title(target, gpu, driver, date.today().isoformat())
        write_plot(options.plot, cells, reference, title)
        _progress(f"wrote {options.plot}")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `gir-bench`."""
    return report_user_errors(lambda: bench(argv))


if __name__ == "__main__":
    sys.exit(main())
