"""Compiling gir-tune's candidates ahead of their measurement, in worker processes.

A candidate's compile is its lowering (gir's passes over xDSL, pure Python that
holds the GIL: a tenth of a second to seconds per program), the printing of its
kernels and host code, and the build of its kernels (the OpenCL driver's, or
nvcc's for CUDA: seconds). The device measures one candidate at a time, so the
search hands the program texts of the next candidates to a pool of spawned
worker processes (`CompileAhead`), which lower and print them (and run nvcc on
CUDA kernels) while the device measures the current one. A worker returns the
printed program without its host function (a compiled Python function does not
cross processes): `load_host` makes it again from the printed host source, and
`CandidateProgram` runs it as the tuned program's `main` (its arguments, its
validator) with that candidate's kernels and host code.

Builds are reused where what they depend on is the same: the device builds once
per kernel source (`Device.load_program`), and a worker runs nvcc once per kernel
source. So candidates that differ only in values that reach the host alone
(a hybrid's threshold, bucket fusion's threshold, delta outside fused loops, and
the block size of load balances whose kernels do not size anything by it) build
their kernels once; their lowering still runs per candidate, in a worker
(docs/tuning.md says why).

```python
ahead = CompileAhead("bfs", "opencl", workers=2)
ahead.submit(text)                   # starts lowering `text` (a whole program) in a worker
printed = ahead.take(text)           # waits for it: a PrintedCandidate, its failure if any
program = CandidateProgram(default, load_host(printed.compiled, text, "bfs"))
program.run(graph, 0, validate=True) # default: a gir.Program of the same algorithm
```
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import multiprocessing
import os
import subprocess
import tempfile
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from gir.api import Program, choose_target
from gir.diagnostics import UserError, one_line
from gir.runtime.device import Device, find_nvcc
from gir.runtime.program import CompiledProgram

__all__ = ["CandidateProgram", "CompileAhead", "PrintedCandidate", "default_workers", "print_candidate"]

MAX_WORKERS = 4
"""The most worker processes `default_workers` starts: lowering several
candidates ahead pays only while the device measures fast enough to use them."""


def default_workers() -> int:
    """Worker processes for compiling ahead: one per four CPU cores this process
    may use, at most `MAX_WORKERS`; none below four cores, where the main process
    (which runs the device and checks results) and an OpenCL CPU device need them."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return min(MAX_WORKERS, cores // 4)


@dataclass(frozen=True)
class PrintedCandidate:
    """A candidate's program text lowered and printed (in a worker), ready to be
    built and run: what crosses from a worker to the main process."""

    compiled: CompiledProgram | None
    """The printed program, its `host_run` and `widen` left out (`_not_loaded`):
    None when it did not compile."""
    failure: str = ""
    """Why it did not compile (gir's one-line message), else empty."""
    lower_s: float = 0.0
    """Seconds spent parsing, lowering and printing it."""
    build_s: float = 0.0
    """Seconds the worker spent building its kernels (nvcc), 0 where it did not."""
    binary: bytes | None = None
    """Its CUDA kernels built for the device's architecture (a cubin), else None:
    the device builds them from the source."""


def _not_loaded(runtime: Any, constants: tuple[Any, ...]) -> None:
    """The host function of a printed program that crossed processes: it is made
    again from `host_source` before the program runs (`load_host`)."""
    raise AssertionError("a printed candidate ran before its host function was loaded")


_cubins: dict[tuple[str, str], bytes | None] = {}
"""A worker's CUDA builds by (kernel source, architecture): nvcc runs once per source."""


def _cubin(source: str, arch: str) -> bytes | None:
    """`source` built by nvcc for `arch` as pycuda's `SourceModule` builds it
    (`nvcc --cubin -arch ARCH -std=c++17`), or None when nvcc is missing or
    fails: then the device builds it, and reports the error as it always has."""
    key = (source, arch)
    if key in _cubins:
        return _cubins[key]
    nvcc = find_nvcc()
    binary = None
    if nvcc is not None:
        with tempfile.TemporaryDirectory(prefix="gir-tune-") as folder:
            kernels, cubin = os.path.join(folder, "kernels.cu"), os.path.join(folder, "kernels.cubin")
            with open(kernels, "w") as stream:
                stream.write(source)
            built = subprocess.run(
                [nvcc, "--cubin", "-arch", arch, "-std=c++17", "-o", cubin, kernels], capture_output=True
            )
            if built.returncode == 0:
                with open(cubin, "rb") as stream:
                    binary = stream.read()
    _cubins[key] = binary
    return binary


def print_candidate(text: str, name: str, target: str, cuda_arch: str | None = None) -> PrintedCandidate:
    """`text` (a whole GraphIt program) compiled and printed for `target`, with its
    CUDA kernels built for `cuda_arch` when given: what a worker does per
    candidate (a failure is a result, not an exception)."""
    from gir.api import compile as compile_program

    started = time.perf_counter()
    try:
        compiled = compile_program(text, name=name).compiled(target)
    except Exception as error:
        return PrintedCandidate(None, one_line(error), time.perf_counter() - started)
    printed = dataclasses.replace(compiled, host_run=_not_loaded, widen=None)
    lowered = time.perf_counter()
    binary = None if cuda_arch is None else _cubin(compiled.kernel_source, cuda_arch)
    return PrintedCandidate(printed, "", lowered - started, time.perf_counter() - lowered, binary)


def _warm_up() -> None:
    """A worker's start: the imports every candidate's lowering needs."""
    import gir.api  # noqa: F401
    import gir.passes  # noqa: F401
    import gir.targets  # noqa: F401


def _ready() -> None:
    """The first task of a pool: once it is done, a worker has started."""


def _widened(text: str, name: str, target: str) -> CompiledProgram:
    """The 64-bit-edge-index program of `text` (a graph past 2^31 edges), compiled
    here: a worker's printed program does not carry the way to lower it again."""
    from gir.api import compile as compile_program

    compiled = compile_program(text, name=name).compiled(target)
    if compiled.widen is None:
        raise UserError("error: this program cannot be lowered with 64-bit edge indices")
    return compiled.widen()


def load_host(printed: CompiledProgram, text: str, name: str) -> CompiledProgram:
    """`printed` (from a worker) with its host function made from its host source,
    as `gir.executor.compile_program` makes it, and lowered again here should a
    graph need 64-bit edge indices."""
    namespace: dict[str, Any] = {"__name__": "gir_host_program"}
    exec(compile(printed.host_source, f"<host program of {printed.source_name}>", "exec"), namespace)
    wide = functools.partial(_widened, text, name, printed.target) if printed.edge_index_width == 32 else None
    return dataclasses.replace(printed, host_run=namespace["run"], widen=wide)


class CandidateProgram(Program):
    """One candidate of a tuned program: the program's `main` (its arguments, the
    graph it loads, its validator), taken from `algorithm` (a `gir.Program` of
    the same source under any schedule), run with the kernels and host code
    printed for the candidate's schedule."""

    def __init__(self, algorithm: Program, printed: CompiledProgram):
        super().__init__(algorithm.module, algorithm.name, algorithm.validator)
        self.printed = printed

    def compiled(self, target: str | None = None) -> CompiledProgram:
        """The candidate's printed program (for its one target)."""
        if choose_target(target) != self.printed.target:
            raise UserError(f"error: the candidate was compiled for {self.printed.target}, not {target}")
        return self.printed


class CompileAhead:
    """Program texts lowered and printed by `workers` spawned processes ahead of
    their use (0: in this process, when taken). A pool that breaks (a worker
    killed) is not restarted: what is left compiles in this process."""

    def __init__(self, name: str, target: str, workers: int, device: Device | None = None):
        self.name, self.target = name, target
        self.cuda_arch: str | None = getattr(device, "arch", None) if target == "cuda" else None
        self.pool: ProcessPoolExecutor | None = None
        self.started: Future[None] | None = None
        """Done once a worker has started (its imports take seconds)."""
        if workers > 0:
            self.pool = ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("spawn"), initializer=_warm_up
            )
            self.started = self.pool.submit(_ready)
        self.pending: dict[str, Future[PrintedCandidate]] = {}

    def submit(self, text: str) -> None:
        """Starts compiling `text` in a worker (nothing without workers, or when
        it is already under way)."""
        if self.pool is None or text in self.pending:
            return
        try:
            self.pending[text] = self.pool.submit(print_candidate, text, self.name, self.target, self.cuda_arch)
        except (BrokenProcessPool, RuntimeError):
            self.pool = None

    def take(self, text: str) -> PrintedCandidate:
        """`text` lowered and printed: by its worker (waiting for it), else here
        now, as while no worker has started yet (a short search would spend its
        budget waiting for the workers' imports)."""
        future = self.pending.pop(text, None)
        if future is not None and (future.done() or self.started is None or self.started.done()):
            try:
                return future.result()
            except BrokenProcessPool:
                self.pool = None
        elif future is not None:
            future.cancel()
        return print_candidate(text, self.name, self.target, self.cuda_arch)

    def close(self, wait: bool = False) -> None:
        """Drops what is pending and lets the workers go: at once (a lowering
        under way ends on its own), or with `wait`, once they have ended and
        their queues are released, before a process ends by `os._exit` (else
        multiprocessing's resource tracker reports their semaphores as leaked)."""
        for future in self.pending.values():
            future.cancel()
        self.pending.clear()
        if self.pool is not None:
            pool, self.pool = self.pool, None
            pool.shutdown(wait=wait, cancel_futures=True)
            if wait:
                del pool
                gc.collect()
