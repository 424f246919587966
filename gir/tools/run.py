"""`gir-run`: compile a GraphIt program and run it on a graph.

```
gir-run PROGRAM.gt|IR.mlir [GRAPH] [ARGS...] [--target auto|cuda|opencl]
        [--device N] [--devices N] [--trials N] [--warmup N] [--dump FILE.npz] [--validate]
        [--check-bounds | --no-check-bounds] [--max-memory BYTES|auto]
        [--extern DEVICE_CODE] [--host-extern HOST_CODE.py]
```

GRAPH is the program's `argv[1]` (a graph file or a generator spec such as
`rmat:16` or `road:64:64,w`), ARGS are `argv[2..]`. A program that loads no
graph (it computes on scalars and fixed-size vectors), or only a fixed file
(`load("graphs/small.el")`, relative to the folder it runs in), takes no GRAPH:
its arguments are `argv[1..]`. The program's `print` output
goes to stdout; progress and timings go to stderr. Timings follow G2 and Gunrock:
the graph is loaded and copied to the device once, before the first trial, and is
excluded; the kernels are built before the first run, and `--warmup` runs (by
default 1 when `--trials` is above 1, else none, so that one run prints once:
a warmup's device `print` and extern output cannot be taken back) precede the
timed trials; each trial reports the program's `startTimer()`..`stopTimer()` interval
when it has one, else the time of its whole `main` without the graph load.

`--check-bounds` (the default with `--validate`) compiles with `gpu-check-bounds`:
a device access outside its vector is skipped and the run stops with one line
naming the kernel, the vector and the statement. `--validate` builds its CPU
reference from the graph the program loaded: the fixed file, or GRAPH.

`--devices N` runs the program partitioned over N devices of the target (from
`--device` on, docs/multi-gpu.md): each holds a part of the edges, and the
exchanges the `host-partition` pass inserted keep their vertex data equal.

`--extern FILE` gives the device code (CUDA `.cuh` or OpenCL `.cl`) of the
extern functions that vertex and edge functions call; `--host-extern FILE.py` a
Python module implementing those that `main` calls (`gir.targets.host_externs`).
"""

from __future__ import annotations

import argparse
import io
import os
import re
import statistics
import sys
import time
from collections.abc import Sequence

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from gir.dialects import register_dialects
from gir.frontend.notes import STRICT_SCHEDULE_HELP
from gir.diagnostics import UsageError, UserError, printable
from gir.ir_input import parse_module_text
from gir.program_inputs import (
    check_int_arguments,
    graph_sources,
    loads_graph,
    takes_graph_argument,
    unused_graph_note,
)
from gir.targets.externs import EXTERN_HELP, read_extern
from gir.targets.host_externs import HOST_EXTERN_HELP, load_host_externs
from gir.tools.arguments import nonnegative_int, positive_int
from gir.tools.opt import report_user_errors
from gir.tools.output import check_writable, open_output, write_npz
from gir.api import choose_target, lower_for_run, widening
from gir.runtime import reference
from gir.validate import Validator, find_validator


def _progress(message: str) -> None:
    print(printable(f"gir-run: {message}"), file=sys.stderr, flush=True)


def parse_program(path: str, strict_schedule: bool = False) -> ModuleOp:
    """The module of a `.gt` program or of an `.mlir` file at any level."""
    try:
        with open(path, "rb") as stream:
            source = stream.read()
    except OSError as error:
        raise UserError(f"error: cannot read program '{path}': {error.strerror}") from None
    if path.endswith(".gt"):
        from gir.frontend import parse_graphit_source

        return parse_graphit_source(source, path, strict_schedule)
    ctx = Context()
    register_dialects(ctx)
    return parse_module_text(source, path, ctx)


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gir-run",
        usage="%(prog)s PROGRAM [GRAPH] [ARGS ...] [options]",
        description="Compile a GraphIt program (or IR) and run it on a graph. "
        "GRAPH, the program's argv[1], is a .el/.wel/.mtx file or rmat:SCALE[:EF], "
        "road:W:H, uniform:N:M (append ,w for weights, ,seed=N); ARGS are argv[2..]. "
        "A program that loads no graph, or only a fixed file, takes no GRAPH: ARGS are "
        "its argv[1..].",
        epilog="examples: gir-run test/programs/bfs.gt rmat:16 0 --validate; "
        "gir-run test/programs/lang_hostonly.gt 5",
    )
    parser.add_argument("program", help="a .gt GraphIt program or an .mlir file")
    parser.add_argument(
        "args",
        nargs="*",
        metavar="GRAPH ARGS",
        help="the program's argv[1..]: GRAPH first when the program loads a graph",
    )
    parser.add_argument(
        "--target",
        choices=("auto", "cuda", "opencl"),
        default="auto",
        help="where to run: CUDA (needs an NVIDIA GPU and pycuda), OpenCL, or "
        "auto (CUDA when available, else OpenCL) [auto]",
    )
    parser.add_argument(
        "--device", type=nonnegative_int, default=None, help="device index (OpenCL: across platforms)"
    )
    parser.add_argument(
        "--devices",
        type=positive_int,
        default=1,
        help="run partitioned over this many devices, from --device on "
        "(docs/multi-gpu.md) [1]",
    )
    parser.add_argument("--trials", type=positive_int, default=1, help="runs to time [1]")
    parser.add_argument(
        "--warmup",
        type=nonnegative_int,
        default=None,
        help="untimed runs before the trials, their host output discarded "
        "[1 with --trials above 1, else 0: a single run prints once, device "
        "printf and extern output included]",
    )
    parser.add_argument(
        "--dump", metavar="FILE.npz", help="write every global vector after the run"
    )
    parser.add_argument(
        "--validate",
        action="store_true",
        help="check the result against the CPU reference (BFS, SSSP, CC, PageRank); "
        "an error when gir cannot tell which reference applies",
    )
    parser.add_argument(
        "--check-bounds",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="guard every device-side vector and frontier access: an index out of "
        "range stops the run with one line naming the kernel and the vector "
        "[on with --validate, else off]",
    )
    parser.add_argument(
        "--max-memory",
        metavar="BYTES|auto",
        type=_memory_size,
        default=None,
        help="host memory a graph may use, e.g. 64G; auto: what the system has "
        "available [auto]",
    )
    parser.add_argument("--strict-schedule", action="store_true", help=STRICT_SCHEDULE_HELP)
    parser.add_argument(
        "--schedule",
        choices=("auto", "tuned"),
        default=None,
        help="replace the program's schedule: auto (chosen from GRAPH's statistics) or tuned "
        "(gir-tune's cached result for this program, GRAPH and device); docs/tuning.md",
    )
    parser.add_argument("--extern", metavar="FILE", help=EXTERN_HELP)
    parser.add_argument("--host-extern", metavar="FILE", help=HOST_EXTERN_HELP)
    return parser


_MEMORY_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def _memory_size(text: str) -> int | None:
    """`--max-memory`'s value: None for auto, else bytes (suffixes K, M, G, T)."""
    if text == "auto":
        return None
    match = re.fullmatch(r"([0-9]+)([KMGT]?)B?", text.strip(), re.IGNORECASE)
    if match is None or int(match[1]) == 0:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a positive byte count (e.g. 17179869184, 16G) or 'auto'"
        )
    return int(match[1]) * _MEMORY_UNITS[match[2].upper()]


def check_graph_files(program: ModuleOp, program_argv: Sequence[str]) -> None:
    """Says at once, before the compile, that a graph the program loads names a
    file that does not exist or a generator spec that does not parse (`rmat:x`,
    `rnat:16`): a typo costs no compile."""
    for source in graph_sources(program):
        check_graph_spec(source.spec(program_argv))


def check_graph_spec(spec: str) -> None:
    """A UserError unless `spec` names a file or is a generator spec that parses
    (as `load_graph` tells them apart)."""
    from gir.runtime.graph.generators import GENERATOR_PREFIX, parse_generator_spec

    if GENERATOR_PREFIX.match(spec) and not os.path.exists(spec):
        parse_generator_spec(spec, weighted=None)
    elif not os.path.isfile(spec):
        raise UserError(f"error: graph file not found: {spec}")


def checks_bounds(options: argparse.Namespace) -> bool:
    """Whether the run guards device accesses: `--check-bounds`, else `--validate`."""
    return options.validate if options.check_bounds is None else options.check_bounds


def _write_dump(path: str, vectors: dict[str, np.ndarray]) -> None:
    with open_output(path, binary=True) as stream:
        write_npz(stream, vectors)


def run(argv: Sequence[str] | None = None) -> None:
    """Parses the command line, compiles, runs, times, dumps and validates."""
    from gir.executor import compile_program, open_devices, run_program
    from gir.runtime.graph import set_max_memory

    parser = _build_parser()
    # Intermixed: options may stand between PROGRAM, GRAPH and ARGS.
    options = parser.parse_intermixed_args(argv)
    if options.dump and not options.dump.endswith(".npz"):
        parser.error("argument --dump: needs a file name ending in .npz")
    if options.dump:
        check_writable(options.dump)

    extern = None if options.extern is None else read_extern(options.extern)
    host_externs = None if options.host_extern is None else load_host_externs(options.host_extern)
    program = parse_program(options.program, options.strict_schedule)
    if options.schedule is not None:
        from gir.tune.api import scheduled_module

        program = scheduled_module(options.program, options.schedule, options.args, options.target, options.device)
    program_argv = [options.program, *options.args]
    if takes_graph_argument(program) and not options.args:
        raise UsageError(
            f"error: '{options.program}' loads a graph: give it as GRAPH "
            "(gir-run PROGRAM GRAPH [ARGS...])"
        )
    note = unused_graph_note(program, options.args)
    if note is not None:
        print(note, file=sys.stderr)
    check_int_arguments(program, program_argv)
    check_graph_files(program, program_argv)
    set_max_memory(options.max_memory)
    validator = None
    if options.validate:
        validator = find_validator(program)
        if validator is None:
            raise UserError(
                "error: --validate: cannot tell which CPU reference applies to "
                f"'{options.program}' (gir recognises BFS, SSSP, CC and PageRank by their "
                "edge traversals); run it without --validate"
            )

    target = choose_target(options.target)
    started = time.perf_counter()
    widen = widening(program, checks_bounds(options), options.devices)
    compiled = compile_program(
        lower_for_run(program, checks_bounds(options), devices=options.devices),
        target,
        options.program,
        extern,
        host_externs,
        widen=widen,
    )
    devices = open_devices(target, options.devices, options.device)
    for device in devices:
        device.progress = _progress
        compiled.kernels(device)
    where = devices[0].name if len(devices) == 1 else f"{len(devices)} x {devices[0].name}"
    _progress(f"compiled for {where} in {time.perf_counter() - started:.2f} s")

    for _ in range(_warmup_runs(options)):
        run_program(compiled, devices, program_argv, io.StringIO())
    times: list[float] = []
    result = None
    exchanged = None
    for trial in range(options.trials):
        result = run_program(compiled, devices, program_argv, sys.stdout)
        if result.exchanged is not None:
            exchanged = result.exchanged if exchanged is None else exchanged + result.exchanged
        seconds = result.elapsed if result.elapsed is not None else result.wall
        times.append(seconds)
        if options.trials > 1:
            _progress(f"trial {trial + 1}: {seconds * 1e3:.3f} ms")
    assert result is not None
    scope = (
        "timer interval" if result.elapsed is not None
        else "main without graph load" if loads_graph(program)
        else "main"
    )
    _progress(
        f"time ({scope}): median {statistics.median(times) * 1e3:.3f} ms "
        f"over {len(times)} trial(s)"
    )
    if exchanged is not None:
        _progress(
            f"exchanged {exchanged.bytes} bytes (payload sent, all ranks) in {exchanged.collectives} "
            f"collectives per rank over {len(times)} trial(s): {exchanged.bytes // len(times)} bytes per trial"
        )

    if options.dump:
        _write_dump(options.dump, result.globals)
        _progress(f"wrote {', '.join(sorted(result.globals))} to {options.dump}")
    if validator is not None:
        _validate(validator, program_argv, result.globals)


def _validate(validator: Validator, program_argv: list[str], vectors: dict[str, np.ndarray]) -> None:
    """Checks a run's `vectors` against the CPU reference, built from the graph the
    program loaded (its fixed file, or its argv entry) loaded again."""
    from gir.runtime.graph import load_graph

    spec = validator.graph.spec(program_argv)
    _progress(f"loading {spec} again, bypassing the cache, for the reference...")
    reference_graph = load_graph(spec, weighted=True if validator.weighted else None, cache=False)
    try:
        problem = validator.check(reference_graph, program_argv, vectors)
    except reference.NotChecked as why:
        _progress(f"{validator.algorithm} not checked: {why}")
        return
    if problem is not None:
        raise UserError(f"error: validation of {validator.algorithm} failed: {problem}")
    _progress(f"validated {validator.algorithm} on {spec} against the CPU reference: OK")


def _warmup_runs(options: argparse.Namespace) -> int:
    """The untimed runs before the trials: `--warmup`, else one when several
    trials are timed (a single run is the user's run, printed once)."""
    if options.warmup is not None:
        return options.warmup
    return 1 if options.trials > 1 else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `gir-run`."""
    return report_user_errors(lambda: run(argv))


if __name__ == "__main__":
    sys.exit(main())
