"""Run a folder of GraphIt programs through `gir-run --validate` and sort the outcomes.

```
python tools/corpus_run.py FOLDER... [--jobs N] [--timeout S] [--cwd DIR] [--json OUT]
```

Every `.gt` file under each FOLDER is one program. A program that is only a
schedule section is not run on its own; `PROGRAM.pairs` (one schedule file per
line, relative to the `.pairs` file) runs the algorithm once with each schedule
appended, as G2's `graphitc.py -a ALGO -f SCHEDULE` compiles them.

Each run is `gir-run --target opencl PROGRAM ARGS --validate` in `--cwd` (where
the relative paths of fixed `load("...")` files must resolve). ARGS fill the
program's `argv[1..N]`, N the highest index it reads: the index it loads its
graph from gets a generated graph (`rmat:S`, `,w` when the edges carry weights,
S large enough for the vertex ids the program names), an index a G2 schedule
reads as a delta gets 2, as a hybrid threshold 0.1, every other index a small
integer (1 for a start vertex, then 5, ...). `PROGRAM.args` (one line) replaces
them; `PROGRAM.expect` holds the first lines of output the program must print
(the value GraphIt's own tests check), for programs no CPU reference covers. A
file of exports only (no `main`) has each export called once from Python, in
source order (`CALL_EXPORTS`), on the generated graph: it `runs` when every
call returns.

Outcomes:
- `validates`: the CPU reference or the expected output agrees;
- `runs`: it ran, and neither a reference nor an expected value applies;
- `refused`: one `file:line:col: error:` line (grouped by message; one without a
  location is marked `[no location]`);
- `wrong`: the reference or the expected value disagrees (a release blocker);
- `error`: any other failure (a traceback, a run-time error, a timeout).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

NO_REFERENCE = "cannot tell which CPU reference applies"
NO_MAIN = "the program has no 'main' function; its exports"
CALL_EXPORTS = """
import re, sys, gir, numpy as np
from gir.runtime.graph import load_graph
program = gir.compile(sys.argv[1], host_externs=sys.argv[3] or None, extern=sys.argv[4] or None)
graph = program_graph = sys.argv[2]
vertices = load_graph(graph).num_vertices
for name, export in program.exports.items():
    signature = export.signature
    sizes = {vector: vertices for vector in signature.vectors}
    lanes = dict(signature.lanes)  # a vector of fixed-size vectors: one row per element
    while True:
        types = dict(signature.scalars)
        args = [np.ones((sizes[p], lanes[p]) if p in lanes else sizes[p]) if p in sizes
                else 0.5 if types[p] in ('float', 'double') else 1
                for p in signature.params]
        try:
            export(*([] if signature.graph is None else [graph]), *args, target='opencl')  # own_graph: none
            break
        except gir.UserError as error:  # a fixed-size vector parameter: its size is in the message
            size = re.search(r"'(\\w+)' has (\\d+) elements in this run", str(error))
            if size is None or sizes.get(size.group(1)) == int(size.group(2)):
                raise
            sizes[size.group(1)] = int(size.group(2)) // lanes.get(size.group(1), 1)
print('called every export: OK', file=sys.stderr)
"""
"""A program of exports only: each export called once, in source order, on the
graph and with 1 (or 0.5) for each scalar parameter; argv[3] and argv[4] are the
program's host and device extern implementations, or empty."""
VALIDATION_FAILED = "validation of "
LOCATED_ERROR = re.compile(r"^(?P<where>[^\s:]+:\d+:\d+): error: (?P<message>.*)$")
UNLOCATED_ERROR = re.compile(r"^error: (?P<message>.*)$")
ARGV_INDEX = re.compile(r"argv\[(\d+)\]")
WEIGHTED_EDGESET = re.compile(r"edgeset\{\w+\}\(\s*\w+\s*,\s*\w+\s*,\s*\w+\s*\)")
VERTEX_LITERAL = re.compile(
    r"(?:addVertex\(|\[|(?:start|end|dst)_vertex\s*(?::\s*\w+\s*)?=\s*)(\d+)\s*[\])]?"
)


@dataclass
class Program:
    """One program of the corpus: a `.gt` file, or an algorithm paired with a schedule."""

    name: str
    source: str
    path: Path
    args: list[str] = field(default_factory=list)
    expect: str | None = None
    externs: list[str] = field(default_factory=list)


@dataclass
class Outcome:
    """What one run of a program gave."""

    name: str
    kind: str
    detail: str
    command: list[str]


def graph_scale(source: str) -> int:
    """The rmat scale whose vertices include every vertex id the program names."""
    largest = max((int(m) for m in VERTEX_LITERAL.findall(source) if int(m) < 1 << 22), default=0)
    return max(10, math.ceil(math.log2(largest + 2)))


def default_args(source: str) -> list[str]:
    """Values for `argv[1..N]` read from how the program uses each index."""
    indices = [int(i) for i in ARGV_INDEX.findall(source)]
    if not indices:
        return []
    weighted = ",w" if WEIGHTED_EDGESET.search(source) else ""
    integers = iter(["1", "5", "3", "4", "6", "7", "8", "9"])
    values = []
    for index in range(1, max(indices) + 1):
        token = f"argv[{index}]"
        if re.search(rf"load\s*\(\s*argv\[{index}\]\s*\)", source):
            values.append(f"rmat:{graph_scale(source)}{weighted}")
        elif re.search(rf'configDelta\(\s*"argv\[{index}\]"', source):
            values.append("2")
        elif re.search(rf'HybridGPUSchedule[^;]*"argv\[{index}\]"', source):
            values.append("0.1")
        elif token in source:
            values.append(next(integers))
        else:
            values.append("1")
    return values


def is_schedule_only(source: str) -> bool:
    """True for a file that holds only a schedule section (G2's and GraphIt's separate schedules)."""
    code = "\n".join(line.split("%")[0] for line in source.splitlines()).strip()
    return code == "" or code.startswith("schedule:")


def sidecar(path: Path, suffix: str) -> str | None:
    """The text of `path` with its `.gt` replaced by `suffix`, if present."""
    side = path.with_suffix(suffix)
    return side.read_text().strip() if side.exists() else None


def collect(folders: list[Path]) -> tuple[list[Program], list[Path]]:
    """The programs under `folders`, and the schedule-only files left unpaired."""
    programs: list[Program] = []
    schedules: list[Path] = []
    paired: set[Path] = set()
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix != ".gt":
                continue
            source = path.read_text()
            if is_schedule_only(source):
                schedules.append(path)
                continue
            name = str(path.relative_to(folder.parent))
            pairs = sidecar(path, ".pairs")
            if pairs is not None:
                for line in pairs.splitlines():
                    schedule = (path.parent / line.strip()).resolve()
                    paired.add(schedule)
                    text = source + "\n" + schedule.read_text()
                    programs.append(_program(f"{name} + {schedule.name}", text, path))
                continue
            programs.append(_program(name, source, path))
    return programs, [s for s in schedules if s.resolve() not in paired]


def _program(name: str, source: str, path: Path) -> Program:
    args = sidecar(path, ".args")
    return Program(
        name,
        source,
        path,
        args.split() if args is not None else default_args(source),
        sidecar(path, ".expect"),
        extern_options(path),
    )


def extern_options(path: Path) -> list[str]:
    """`gir-run`'s extern options for the implementation files beside `path`, if any."""
    options: list[str] = []
    for suffix, option in ((".externs.py", "--host-extern"), (".extern.cl", "--extern")):
        side = path.with_suffix(suffix)
        if side.exists():
            options += [option, str(side.resolve())]
    return options


def classify(returncode: int, stdout: str, stderr: str) -> tuple[str, str]:
    """The outcome kind of one `gir-run` and the line that says why."""
    errors = [line for line in stderr.splitlines() if "error:" in line]
    if "Traceback (most recent call last)" in stderr:
        return "error", stderr.strip().splitlines()[-1]
    if returncode == 0:
        if "against the CPU reference: OK" in stderr:
            return "validates", ""
        return "runs", ""
    for line in errors:
        if VALIDATION_FAILED in line:
            return "wrong", line
    for line in errors:
        located = LOCATED_ERROR.match(line.strip())
        if located:
            return "refused", located.group("message")
    for line in errors:
        unlocated = UNLOCATED_ERROR.match(line.strip())
        if unlocated and NO_REFERENCE not in line:
            return "refused", "[no location] " + unlocated.group("message")
    return "error", errors[0] if errors else stderr.strip()[-300:]


def run_one(program: Program, cwd: Path, timeout: int) -> Outcome:
    """Runs `program` (validated where a reference applies) and classifies the outcome."""
    with tempfile.NamedTemporaryFile("w", suffix=".gt", dir=program.path.parent, delete=False) as f:
        f.write(program.source)
        temporary = Path(f.name)
    try:
        outcome = _run(program, temporary, cwd, timeout, validate=True)
        if outcome.kind == "refused" and NO_MAIN in outcome.detail:
            return _call_exports(program, temporary, cwd, timeout)
        if outcome.kind == "error" and NO_REFERENCE in outcome.detail:
            outcome = _run(program, temporary, cwd, timeout, validate=False)
            if outcome.kind == "runs":
                outcome.detail = "no CPU reference applies"
        return outcome
    finally:
        temporary.unlink()


def _run(program: Program, path: Path, cwd: Path, timeout: int, validate: bool) -> Outcome:
    command = ["gir-run", "--target", "opencl", *program.externs, str(path), *program.args]
    if validate:
        command.append("--validate")
    at = 3 + len(program.externs)
    shown = [*command[:at], program.name, *command[at + 1 :]]
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Outcome(program.name, "error", f"timed out after {timeout} s", shown)
    stderr = done.stderr.replace(str(path), program.name)
    kind, detail = classify(done.returncode, done.stdout, stderr)
    if kind in ("runs", "validates") and program.expect is not None:
        expected = [line.strip() for line in program.expect.splitlines()]
        printed = [line.strip() for line in done.stdout.strip().splitlines()][: len(expected)]
        if len(printed) == len(expected) and all(map(_same_value, printed, expected)):
            kind, detail = "validates", f"printed {' '.join(printed)} as expected"
        else:
            kind, detail = "wrong", f"printed {printed!r}, GraphIt's test expects {expected!r}"
    return Outcome(program.name, kind, detail, shown)


def _call_exports(program: Program, path: Path, cwd: Path, timeout: int) -> Outcome:
    """Calls each export of a program without `main` from Python (`CALL_EXPORTS`)."""
    weighted = ",w" if WEIGHTED_EDGESET.search(program.source) else ""
    graph = f"rmat:{graph_scale(program.source)}{weighted}"
    implementations = dict(zip(program.externs[::2], program.externs[1::2], strict=True))
    host, device = implementations.get("--host-extern", ""), implementations.get("--extern", "")
    command = [sys.executable, "-c", CALL_EXPORTS, str(path), graph, host, device]
    shown = ["python -c CALL_EXPORTS", program.name, graph]
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Outcome(program.name, "error", f"timed out after {timeout} s", shown)
    stderr = done.stderr.replace(str(path), program.name)
    if done.returncode == 0:
        return Outcome(program.name, "runs", "exports called from Python", shown)
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    message = re.sub(r"^gir\.diagnostics\.\w+: ", "", last)
    located = LOCATED_ERROR.match(message)
    if located:
        return Outcome(program.name, "refused", located.group("message"), shown)
    if message.startswith("error: "):
        return Outcome(program.name, "refused", "[no location] " + message[7:], shown)
    return Outcome(program.name, "error", last, shown)


def _same_value(printed: str, expected: str) -> bool:
    try:
        return math.isclose(float(printed), float(expected), rel_tol=1e-4, abs_tol=1e-6)
    except ValueError:
        return printed == expected


def message_class(detail: str) -> str:
    """A refusal message with its program-specific names replaced, to group alike ones."""
    return re.sub(r"'[^']*'", "'…'", detail)


def report(outcomes: list[Outcome], schedules: list[Path]) -> str:
    """The counts by outcome, the refusals grouped by message, and every failure."""
    counts = Counter(o.kind for o in outcomes)
    lines = [f"total {len(outcomes)}: " + ", ".join(f"{k} {counts[k]}" for k in
             ("validates", "runs", "refused", "wrong", "error"))]
    if schedules:
        lines.append(f"schedule-only files not paired with an algorithm: {len(schedules)}")
    groups: dict[str, list[str]] = defaultdict(list)
    for outcome in outcomes:
        if outcome.kind == "refused":
            groups[message_class(outcome.detail)].append(outcome.name)
    for kind in ("wrong", "error"):
        for outcome in outcomes:
            if outcome.kind == kind:
                lines.append(f"{kind.upper()} {outcome.name}: {outcome.detail}\n    {' '.join(outcome.command)}")
    lines.append("refused, by message:")
    for message, names in sorted(groups.items(), key=lambda item: -len(item[1])):
        lines.append(f"  {len(names):3d}  {message}")
        lines.extend(f"         {name}" for name in names)
    runs = [o.name for o in outcomes if o.kind == "runs"]
    if runs:
        lines.append("runs without a reference or an expected value:")
        lines.extend(f"         {name}" for name in runs)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the folders' programs and print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--cwd", type=Path, default=Path.cwd())
    parser.add_argument("--json", type=Path, help="write every outcome here")
    parser.add_argument("--only", help="run only programs whose name contains this")
    options = parser.parse_args(argv)
    programs, schedules = collect([f.resolve() for f in options.folders])
    if options.only:
        programs = [p for p in programs if options.only in p.name]
    with ThreadPoolExecutor(options.jobs) as pool:
        outcomes = list(pool.map(lambda p: run_one(p, options.cwd, options.timeout), programs))
    if options.json:
        options.json.write_text(json.dumps([o.__dict__ for o in outcomes], indent=1))
    print(report(outcomes, schedules))
    return 0


if __name__ == "__main__":
    sys.exit(main())
