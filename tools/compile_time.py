"""Compile time against program size: generates GraphIt programs of N functions,
each called once from `main`, and times gir's tools on them.

    python tools/compile_time.py 1000 2000 5000          # a table, one row per N
    python tools/compile_time.py --bytes 1000000         # the program of about 1 MB
    python tools/compile_time.py --write 5000 > big.gt   # just the program

Each function is `fI(x) = x + I`, so `main` prints the sum 0 + 1 + ... + (N-1).
The table (markdown) gives the program's size and the CPU and wall time of
`gir-opt` (parse, check, verify) and `gir-translate --to-opencl` (the whole
lowering), each run as `python -m gir.tools.X` in a fresh process (with the
`gir` that `PYTHONPATH` names, so two checkouts compare). See the
"Compile time" section of docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time


def program(calls: int) -> str:
    """A GraphIt program of `calls` functions, each called once from `main`."""
    lines: list[str] = []
    for index in range(calls):
        lines += [f"func f{index}(x : int) -> y : int", f"    y = x + {index};", "end"]
    lines += ["func main()", "    var s : int = 0;"]
    lines += [f"    s = f{index}(s);" for index in range(calls)]
    lines += ["    print s;", "end", ""]
    return "\n".join(lines)


def calls_for_bytes(size: int) -> int:
    """The number of calls whose program is about `size` bytes long."""
    calls = 1
    while len(program(calls * 2)) <= size:
        calls *= 2
    low, high = calls, calls * 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if len(program(middle)) <= size else (low, middle)
    return low


def timed(command: list[str]) -> str:
    """The CPU seconds (user and system) and the wall seconds `command` takes, as
    `CPU s (wall s)`; its failure is this script's. CPU time is what to compare on
    a shared machine: wall time grows with the load of other processes."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return f"{cpu:.1f} s ({wall:.1f} s)"


def row(calls: int, directory: str) -> str:
    """The table row of the program of `calls` calls."""
    source = program(calls)
    path = os.path.join(directory, f"calls_{calls}.gt")
    with open(path, "w") as stream:
        stream.write(source)
    opt = timed([sys.executable, "-m", "gir.tools.opt", path, "-o", os.devnull])
    translate = timed(
        [sys.executable, "-m", "gir.tools.translate", "--to-opencl", path, "-o", os.devnull]
    )
    return f"| {calls:,} | {len(source) / 1e6:.2f} MB | {opt} | {translate} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("calls", type=int, nargs="*", help="numbers of calls")
    parser.add_argument("--bytes", type=int, action="append", default=[], help="a program size")
    parser.add_argument("--write", action="store_true", help="print the program instead")
    args = parser.parse_args()
    sizes = args.calls + [calls_for_bytes(size) for size in args.bytes]
    if args.write:
        for calls in sizes:
            sys.stdout.write(program(calls))
        return
    print("| calls | program | gir-opt: CPU (wall) | gir-translate --to-opencl: CPU (wall) |")
    print("|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as directory:
        for calls in sizes:
            print(row(calls, directory), flush=True)


if __name__ == "__main__":
    main()
