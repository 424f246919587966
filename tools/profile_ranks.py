#!/usr/bin/env python3
"""Where a partitioned run's time goes: each rank's thread profiled on its own.

```
python tools/profile_ranks.py PROGRAM.gt GRAPH [ARGS ...] --devices 2 [--target cuda] [--top 25]
POCL_DEVICES="pthread pthread" python tools/profile_ranks.py test/programs/bfs_timed.gt road:64:64 0 --target opencl
```

A traversal partitioned over several devices pays a host round per level
(docs/multi-gpu.md, "What does not scale"): on two H200s about 3-4 ms a level,
against 27 us on one. This runs the program once untimed (to build kernels and
warm the exchange's own kernels), then on 1 device and on `--devices` devices
with Python's profiler in every rank's thread (`cProfile` sees one thread
only), and prints per rank the functions by time spent in them, so a round's
blocking copies, waits for the other ranks and exchange work can be told apart.
It is a measuring tool, not part of gir's runtime.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

RANK_THREAD_PREFIX = "gir-rank-"
"""`gir.runtime.multi_device.run_partitioned` names each rank's thread so."""


class RankProfiles:
    """Profiles the threads of partitioned runs' ranks while `enabled`."""

    def __init__(self) -> None:
        self.enabled = False
        self.by_rank: dict[str, cProfile.Profile] = {}
        self._run = threading.Thread.run

    def __enter__(self) -> RankProfiles:
        profiles, run = self, self._run

        def profiled_run(thread: threading.Thread) -> None:
            if not (profiles.enabled and thread.name.startswith(RANK_THREAD_PREFIX)):
                return run(thread)
            profile = profiles.by_rank[thread.name] = cProfile.Profile()
            profile.enable()
            try:
                run(thread)
            finally:
                profile.disable()

        threading.Thread.run = profiled_run  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        threading.Thread.run = self._run  # type: ignore[method-assign]


def report(profile: cProfile.Profile, top: int) -> str:
    stream = io.StringIO()
    pstats.Stats(profile, stream=stream).sort_stats("tottime").print_stats(top)
    return stream.getvalue()


def main(argv: list[str] | None = None) -> int:
    import gir

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("program")
    parser.add_argument("args", nargs="+", metavar="GRAPH ARGS")
    parser.add_argument("--devices", type=int, default=2)
    parser.add_argument("--target", default="cuda", choices=("cuda", "opencl"))
    parser.add_argument("--top", type=int, default=25, help="functions listed per rank [25]")
    options = parser.parse_args(argv)
    graph, *args = options.args
    program = gir.compile(options.program)
    with RankProfiles() as profiles:
        program.run(graph, *args, target=options.target, devices=options.devices)  # builds, warms
        alone = program.run(graph, *args, target=options.target, devices=1)
        profiles.enabled = True
        partitioned = program.run(graph, *args, target=options.target, devices=options.devices)
        profiles.enabled = False
    print(f"1 device: {alone.times[0] * 1e3:.2f} ms; {options.devices} devices: {partitioned.times[0] * 1e3:.2f} ms")
    for name, profile in sorted(profiles.by_rank.items()):
        print(f"== {name}\n{report(profile, options.top)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
