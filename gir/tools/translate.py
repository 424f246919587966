"""`gir-translate`: GPU-level IR (or any higher level) to source code.

```
gir-translate FILE [--to-cuda [--kernels-only] | --to-opencl | --to-host-python] [-o OUT]
              [--extern DEVICE_CODE] [--host-extern HOST_CODE] [--devices N]
              [--edge-index-width 32|64]
```

FILE is a GraphIt program (`.gt`) or IR (`.mlir`) at any level; a module that is not
yet at the GPU level is lowered with the `lower-to-gpu` pipeline first.

- `--to-cuda` (the default) prints one complete `.cu` program: the kernels, a small
  C++ runtime and a host `main(argc, argv)` printed from `@main`
  (`gir.targets.cuda_host`); `nvcc -O3 -arch=sm_90 -std=c++17 x.cu -o x` builds it
  and `./x graph.el 0` runs it without Python. A module without `@main` prints its
  kernels only.
- `--to-cuda --kernels-only` prints the kernels alone, as `extern "C" __global__`
  functions plus the device helpers they need (what `gir.runtime` loads); it
  compiles with `nvcc -arch=sm_90 -std=c++17 -c`.
- `--to-opencl` prints the OpenCL C kernels (and the pragmas they need).
- `--to-host-python` prints the host side, `@main`, as the Python function
  `run(rt, argv)` that `gir.runtime` runs over either target's kernels.
- `--devices N` partitions the program (`host-partition`, docs/multi-gpu.md):
  with `--to-cuda`, the program runs once per GPU on N GPUs (`$GIR_DEVICES`
  overrides N) with NCCL exchanges; build it with `-lnccl`.
- `--extern FILE` gives the device code of the program's `extern func`s, printed
  verbatim before the kernels (`gir.targets.externs`).
- `--host-extern FILE` gives the C++ code of the `extern func`s that `main`
  calls, printed verbatim before `main` in a complete CUDA program, each checked
  against its declaration by a `static_assert` (`gir.targets.host_externs`).
- `--edge-index-width 64` lowers the program with 64-bit edge offsets, edge
  positions and sums of degrees (`gir.dialects.host.EDGE_INDEX_WIDTH`): what a
  graph of more than 2^31 edges needs. gir-run chooses it per graph; a
  complete CUDA program is printed with one width, and one printed with 32
  refuses such a graph with a message naming this option.

The output file is written only when everything succeeded; user errors are one line
on stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from gir.diagnostics import UserError
from gir.dialects import register_dialects
from gir.dialects.host import edge_index_width, set_edge_index_width
from gir.dialects.levels import Level, level_of
from gir.frontend.notes import STRICT_SCHEDULE_HELP
from gir.ir_input import parse_module_text
from gir.lowering import translate
from gir.targets.externs import EXTERN_HELP, read_extern
from gir.targets.host_externs import HOST_EXTERN_HELP, read_host_extern
from gir.tools.opt import report_user_errors
from gir.tools.output import check_not_input, write_text


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gir-translate",
        description="Print GPU-level IR (lowering it first when needed) as CUDA, "
        "OpenCL C or the host program in Python.",
    )
    parser.add_argument("file", help="a .gt GraphIt program or an .mlir file (- for stdin)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument(
        "--to-cuda", dest="to", action="store_const", const="cuda",
        help="a complete CUDA program: kernels and a C++ host main (default)",
    )  # fmt: skip
    output.add_argument(
        "--to-opencl", dest="to", action="store_const", const="opencl",
        help="the kernels as OpenCL C",
    )  # fmt: skip
    output.add_argument(
        "--to-host-python", dest="to", action="store_const", const="host-python",
        help="the host function @main as Python (run(rt, argv))",
    )  # fmt: skip
    parser.add_argument(
        "--kernels-only", action="store_true",
        help="with --to-cuda: the kernels alone, without the host program",
    )  # fmt: skip
    parser.add_argument(
        "--devices", type=int, default=1,
        help="partition the program over this many GPUs (docs/multi-gpu.md) [1]",
    )  # fmt: skip
    parser.add_argument(
        "--edge-index-width", type=int, choices=(32, 64),
        help="bits of edge offsets and positions: 64 for graphs of more than 2^31 edges "
        "[the module's gir.edge_index_width, else 32]",
    )  # fmt: skip
    parser.add_argument("-o", "--output", help="output file (default: stdout)")
    parser.add_argument("--extern", metavar="FILE", help=EXTERN_HELP)
    parser.add_argument("--host-extern", metavar="FILE", help=HOST_EXTERN_HELP)
    parser.add_argument("--strict-schedule", action="store_true", help=STRICT_SCHEDULE_HELP)
    return parser


def read_module(path: str, strict_schedule: bool = False) -> ModuleOp:
    """The module of a `.gt` program or of an `.mlir` file (`-`: stdin), verified
    (by the frontend or by the IR reader)."""
    if path == "-":
        source, name = sys.stdin.buffer.read(), "<stdin>"
    else:
        with open(path, "rb") as stream:
            source, name = stream.read(), path
    if name.endswith(".gt"):
        from gir.frontend import parse_graphit_source

        module = parse_graphit_source(source, name, strict_schedule)
    else:
        ctx = Context()
        register_dialects(ctx)
        module = parse_module_text(source, name, ctx)
    return module


def run(argv: Sequence[str] | None = None) -> None:
    """Parses the command line, translates, writes the output."""
    parser = _build_parser()
    options = parser.parse_args(argv)
    to = options.to or "cuda"
    if options.kernels_only and to != "cuda":
        parser.error("--kernels-only goes with --to-cuda")
    check_not_input(options.output, options.file)
    extern = None if options.extern is None else read_extern(options.extern)
    host_extern = None if options.host_extern is None else read_host_extern(options.host_extern)
    module = read_module(options.file, options.strict_schedule)
    if options.edge_index_width not in (None, edge_index_width(module)):
        if level_of(module) not in (Level.GRAPH, Level.FRONTIER):
            raise UserError(
                f"error: --edge-index-width {options.edge_index_width}: the module is at the GPU "
                "level already, lowered with another edge index width"
            )
        set_edge_index_width(module, options.edge_index_width)
    text = translate(
        module, to, options.file, kernels_only=options.kernels_only, extern=extern,
        devices=options.devices, host_extern=host_extern,
    )  # fmt: skip
    if options.output is None:
        sys.stdout.write(text)
    else:
        write_text(options.output, text)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `gir-translate`."""
    return report_user_errors(lambda: run(argv))


if __name__ == "__main__":
    sys.exit(main())
