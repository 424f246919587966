#!/usr/bin/env python3
"""Where a partitioned run's time goes: each rank's thread sampled on its own.

```
python tools/profile_ranks.py PROGRAM.gt GRAPH [ARGS ...] --devices 2 [--target cuda] [--top 25]
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
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

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


def main(argv: list[str] | None = None) -> int:
    import gir

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("program")
    parser.add_argument("args", nargs="+", metavar="GRAPH ARGS")
    parser.add_argument("--devices", type=int, default=2)
    parser.add_argument("--target", default="cuda", choices=("cuda", "opencl"))
    parser.add_argument("--top", type=int, default=25, help="functions listed per rank [25]")
    parser.add_argument("--interval", type=float, default=0.2, help="ms between samples [0.2]")
    options = parser.parse_args(argv)
    graph, *args = options.args
    program = gir.compile(options.program)
    program.run(graph, *args, target=options.target, devices=options.devices)  # builds, warms
    alone = program.run(graph, *args, target=options.target, devices=1)
    with RankSampler(options.interval / 1e3) as sampler:
        partitioned = program.run(graph, *args, target=options.target, devices=options.devices)
    print(f"1 device: {alone.times[0] * 1e3:.2f} ms; {options.devices} devices: {partitioned.times[0] * 1e3:.2f} ms")
    for name, samples in sorted(sampler.by_rank.items()):
        print(f"== {name}: {samples.report(options.top)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
