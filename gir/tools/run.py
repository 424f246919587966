"""`gir-run`: compile a GraphIt program and run it on a graph.

```
gir-run PROGRAM.gt|IR.mlir GRAPH [ARGS...] [--target auto|cuda|opencl]
        [--device N] [--trials N] [--dump FILE.npz] [--validate]
```

GRAPH is the program's `argv[1]` (a graph file or a generator spec such as
`rmat:16` or `road:64:64,w`), ARGS are `argv[2..]`. The program's `print` output
goes to stdout; progress and timings go to stderr. Timings follow G2 and Gunrock:
the graph is loaded and copied to the device once, before the first trial, and is
excluded; each trial reports the program's `startTimer()`..`stopTimer()` interval
when it has one, else the time of its whole `main` without the graph load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from gir.dialects import register_dialects
from gir.diagnostics import UserError
from gir.ir_input import parse_module_text
from gir.tools.opt import report_user_errors


def _progress(message: str) -> None:
    print(f"gir-run: {message}", file=sys.stderr, flush=True)


def parse_program(path: str) -> ModuleOp:
    """The module of a `.gt` program or of an `.mlir` file at any level."""
    try:
        with open(path, "rb") as stream:
            source = stream.read()
    except OSError as error:
        raise UserError(f"error: cannot read program '{path}': {error.strerror}") from None
    if path.endswith(".gt"):
        from gir.frontend import parse_graphit_source

        return parse_graphit_source(source, path)
    ctx = Context()
    register_dialects(ctx)
    return parse_module_text(source, path, ctx)


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gir-run",
        description="Compile a GraphIt program (or IR) and run it on a graph.",
        epilog="example: gir-run test/programs/bfs.gt rmat:16 0 --validate",
    )
    parser.add_argument("program", help="a .gt GraphIt program or an .mlir file")
    parser.add_argument(
        "graph",
        help="the program's argv[1]: a .el/.wel/.mtx file or rmat:SCALE[:EF], "
        "road:W:H, uniform:N:M (append ,w for weights, ,seed=N)",
    )
    parser.add_argument("args", nargs="*", help="the program's argv[2..]")
    parser.add_argument(
        "--target",
        choices=("auto", "cuda", "opencl"),
        default="auto",
        help="where to run: CUDA (needs an NVIDIA GPU and pycuda), OpenCL, or "
        "auto (CUDA when available, else OpenCL) [auto]",
    )
    parser.add_argument(
        "--device", type=int, default=None, help="device index (OpenCL: across platforms)"
    )
    parser.add_argument("--trials", type=int, default=1, help="runs to time [1]")
    parser.add_argument(
        "--dump", metavar="FILE.npz", help="write every global vector after the run"
    )
    parser.add_argument(
        "--validate",
        action="store_true",
        help="check the result against the CPU reference (BFS, SSSP, CC, PageRank)",
    )
    return parser


def _lower(module: ModuleOp) -> ModuleOp:
    from gir.passes.registry import parse_pipeline
    from gir.runtime.executor import is_gpu_level

    if not is_gpu_level(module):
        ctx = Context()
        register_dialects(ctx)
        parse_pipeline("lower-to-gpu").apply(ctx, module)
    return module


def _choose_target(requested: str) -> str:
    if requested != "auto":
        return requested
    from gir.runtime.executor import cuda_unavailable_reason

    return "opencl" if cuda_unavailable_reason() else "cuda"


def _write_dump(path: str, vectors: dict[str, np.ndarray]) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(suffix=".npz", dir=directory)
    os.close(handle)
    try:
        np.savez(temporary, **vectors)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def run(argv: Sequence[str] | None = None) -> None:
    """Parses the command line, compiles, runs, times, dumps and validates."""
    from gir.runtime.executor import compile_program, open_device
    from gir.runtime.graph import load_graph

    options = _build_parser().parse_args(argv)
    if options.trials < 1:
        raise UserError("error: --trials must be at least 1")
    if options.dump and not options.dump.endswith(".npz"):
        raise UserError("error: --dump needs a file name ending in .npz")

    program = parse_program(options.program)
    validator = None
    if options.validate:
        from gir.validate import find_validator

        validator = find_validator(program)
        if validator is None:
            _progress("--validate: cannot tell which CPU reference applies; not validated")

    target = _choose_target(options.target)
    started = time.perf_counter()
    compiled = compile_program(_lower(program), target)
    device = open_device(target, options.device)
    device.progress = _progress
    _progress(f"compiled for {device.name} in {time.perf_counter() - started:.2f} s")

    program_argv = [options.program, options.graph, *options.args]
    times: list[float] = []
    result = None
    for trial in range(options.trials):
        result = compiled.run(device, program_argv, sys.stdout)
        seconds = result.elapsed if result.elapsed is not None else result.wall
        times.append(seconds)
        if options.trials > 1:
            _progress(f"trial {trial + 1}: {seconds * 1e3:.3f} ms")
    assert result is not None
    scope = "timer interval" if result.elapsed is not None else "main without graph load"
    _progress(
        f"time ({scope}): median {statistics.median(times) * 1e3:.3f} ms "
        f"over {len(times)} trial(s)"
    )

    if options.dump:
        _write_dump(options.dump, result.globals)
        _progress(f"wrote {', '.join(sorted(result.globals))} to {options.dump}")
    if validator is not None:
        graph = device.host_graph(options.graph) or load_graph(
            options.graph, weighted=None, progress=_progress
        )
        problem = validator.check(graph, program_argv, result.globals)
        if problem is not None:
            raise UserError(f"error: validation of {validator.algorithm} failed: {problem}")
        _progress(f"validated {validator.algorithm} against the CPU reference: OK")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `gir-run`."""
    return report_user_errors(lambda: run(argv))


if __name__ == "__main__":
    sys.exit(main())
