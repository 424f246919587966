#!/usr/bin/env python3
"""Where a partitioned run's time goes: each rank's thread sampled on its own.

```
python tools/profile_ranks.py PROGRAM.gt GRAPH [ARGS ...] --devices 2 [--target cuda] [--top 25] [--ops]
POCL_DEVICES="pthread pthread" python tools/profile_ranks.py test/programs/bfs_timed.gt road:64:64 0 --target opencl
```

A traversal partitioned over several devices pays a host round per level
(docs/multi-gpu.md, "What does not scale"): on two H200s about 0.55-0.8 ms a
level (4-5 ms before the NCCL queue union stayed on the device), against about
30 us on one. This runs the program once untimed (to build kernels and
warm the exchange's own kernels), then on 1 device and on `--devices` devices
while a sampler thread reads every rank's Python stack (`sys._current_frames`)
every `--interval` ms, and prints per rank the functions by the time their
samples stand for: where the rank's own code was (self) and what was on its
stack (inclusive), so a round's blocking copies, waits for the other ranks and
exchange work can be told apart. A sample stands for the time since the one
before, so a call that holds the interpreter and delays the sampler is counted
for as long as it held it. (Python 3.12's `cProfile` cannot profile two
threads at once: its events are the process's.) It is a measuring tool, not
part of gir's runtime.

`--ops` times instead each host operation of every rank between startTimer and
stopTimer — every launch by its kernel, clone, exchange (by combine), read,
write, allocation — with the device synchronised before and after it, and
lists the values the rank's host reads (a traversal's frontier sizes, in order).
Synchronising serialises what would overlap, so the whole is slower than the
unprofiled run; the parts say which kernel or exchange holds a level, and
whether the ranks' shares of the edge work are balanced.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

RANK_THREAD_PREFIX = "gir-rank-"
"""`gir.runtime.multi_device.run_partitioned` names each rank's thread so."""


def frame_name(frame: FrameType) -> str:
    """`module:line(function)`, the name a sample counts a frame under."""
    code = frame.f_code
    module = Path(code.co_filename).stem
    return f"{module}:{code.co_firstlineno}({code.co_name})"


@dataclass
class RankSamples:
    """The sampled time of one rank's thread, by function."""

    seconds: float = 0.0
    own: Counter[str] = field(default_factory=Counter)
    inclusive: Counter[str] = field(default_factory=Counter)

    def add(self, frame: FrameType | None, seconds: float) -> None:
        self.seconds += seconds
        if frame is not None:
            self.own[frame_name(frame)] += seconds
        seen: set[str] = set()
        while frame is not None:
            name = frame_name(frame)
            if name not in seen:
                seen.add(name)
                self.inclusive[name] += seconds
            frame = frame.f_back

    def report(self, top: int) -> str:
        lines = [f"sampled {self.seconds * 1e3:.1f} ms"]
        for title, counts in (("own time", self.own), ("inclusive time", self.inclusive)):
            lines.append(f"  by {title}:")
            for name, seconds in counts.most_common(top):
                share = 100 * seconds / self.seconds if self.seconds else 0.0
                lines.append(f"    {seconds * 1e3:10.1f} ms {share:5.1f}%  {name}")
        return "\n".join(lines)


class RankSampler:
    """Samples the stacks of the partitioned runs' rank threads while entered."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.by_rank: dict[str, RankSamples] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, name="profile-ranks-sampler", daemon=True)

    def __enter__(self) -> RankSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        last = time.perf_counter()
        while not self._stop.wait(self.interval):
            now = time.perf_counter()
            names = {thread.ident: thread.name for thread in threading.enumerate()}
            for ident, frame in sys._current_frames().items():
                name = names.get(ident, "")
                if name.startswith(RANK_THREAD_PREFIX):
                    self.by_rank.setdefault(name, RankSamples()).add(frame, now - last)
            last = now


@dataclass
class RankOps:
    """One rank's synchronised host operations: seconds and calls by name, and
    the values its host read, in order."""

    seconds: Counter[str] = field(default_factory=Counter)
    calls: Counter[str] = field(default_factory=Counter)
    reads: list[Any] = field(default_factory=list)

    def report(self, top: int) -> str:
        lines = []
        for name, seconds in self.seconds.most_common(top):
            lines.append(f"    {seconds * 1e3:10.3f} ms  x{self.calls[name]:<5d} {name}")
        lines.append(f"  host reads, in order: {self.reads}")
        return "\n".join(lines)


TIMED_OPERATIONS = ("clone", "allreduce", "allgather", "read", "write", "fill", "copy", "alloc", "free")
"""The `Run` methods `--ops` times (launches are timed through `Run.launcher`)."""


@contextmanager
def timed_operations(by_rank: dict[int, RankOps]) -> Iterator[None]:
    """While entered, every rank's host operations between startTimer and
    stopTimer are timed into `by_rank`, the device synchronised around each."""
    from gir.runtime.run import Run

    lock = threading.Lock()
    saved = {name: getattr(Run, name) for name in (*TIMED_OPERATIONS, "launcher", "start_timer", "stop_timer")}

    def timing(run: Run, name: str, call: Callable[[], Any]) -> Any:
        if not getattr(run, "_profiled", False):
            return call()
        run.device.synchronize()
        start = time.perf_counter()
        result = call()
        run.device.synchronize()
        seconds = time.perf_counter() - start
        with lock:
            ops = by_rank.setdefault(run.rank, RankOps())
            ops.seconds[name] += seconds
            ops.calls[name] += 1
            if name == "read":
                ops.reads.append(result)
        return result

    def timed(name: str) -> Callable[..., Any]:
        method = saved[name]

        def call(run: Run, *args: Any, **kwargs: Any) -> Any:
            label = f"allreduce {args[1]}" if name == "allreduce" else name
            if name == "allgather" and kwargs.get("claims"):
                label = "allgather claims"  # a queue union that carries its claims
            return timing(run, label, lambda: method(run, *args, **kwargs))

        return call

    def launcher(run: Run, kernel: str, site: int, fixed: Any) -> Callable[..., None]:
        launch = saved["launcher"](run, kernel, site, fixed)
        return lambda *args: timing(run, f"launch {kernel}", lambda: launch(*args))

    def start_timer(run: Run) -> None:
        saved["start_timer"](run)
        run._profiled = True  # type: ignore[attr-defined]

    def stop_timer(run: Run) -> float:
        run._profiled = False  # type: ignore[attr-defined]
        return saved["stop_timer"](run)

    for name in TIMED_OPERATIONS:
        setattr(Run, name, timed(name))
    Run.launcher, Run.start_timer, Run.stop_timer = launcher, start_timer, stop_timer  # type: ignore[method-assign]
    try:
        yield
    finally:
        for name, method in saved.items():
            setattr(Run, name, method)


def main(argv: list[str] | None = None) -> int:
    import gir

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("program")
    parser.add_argument("args", nargs="+", metavar="GRAPH ARGS")
    parser.add_argument("--devices", type=int, default=2)
    parser.add_argument("--target", default="cuda", choices=("cuda", "opencl"))
    parser.add_argument("--top", type=int, default=25, help="functions listed per rank [25]")
    parser.add_argument("--interval", type=float, default=0.2, help="ms between samples [0.2]")
    parser.add_argument("--ops", action="store_true", help="time each host operation, synchronised, per rank")
    options = parser.parse_args(argv)
    graph, *args = options.args
    program = gir.compile(options.program)
    program.run(graph, *args, target=options.target, devices=options.devices)  # builds, warms
    alone = program.run(graph, *args, target=options.target, devices=1)
    if options.ops:
        return _report_operations(program, graph, args, options, alone.times[0])
    with RankSampler(options.interval / 1e3) as sampler:
        partitioned = program.run(graph, *args, target=options.target, devices=options.devices)
    print(f"1 device: {alone.times[0] * 1e3:.2f} ms; {options.devices} devices: {partitioned.times[0] * 1e3:.2f} ms")
    for name, samples in sorted(sampler.by_rank.items()):
        print(f"== {name}: {samples.report(options.top)}")
    return 0


def _report_operations(program: Any, graph: str, args: list[str], options: argparse.Namespace, alone: float) -> int:
    """`--ops`: the timed operations of one run on 1 device and one on `--devices`."""
    for devices in (1, options.devices):
        by_rank: dict[int, RankOps] = {}
        with timed_operations(by_rank):
            result = program.run(graph, *args, target=options.target, devices=devices)
        unprofiled = f" (unprofiled: {alone * 1e3:.2f} ms)" if devices == 1 else ""
        print(f"{devices} device{'s' if devices > 1 else ''}: {result.times[0] * 1e3:.2f} ms synchronised{unprofiled}")
        for rank, ops in sorted(by_rank.items()):
            print(f"== rank {rank} of {devices}:\n{ops.report(options.top)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
