"""`gir-bench --host compiled`: time the complete CUDA programs instead of gir-run.

A cell's program is printed as one `.cu` (`gir.targets.cuda_host`) and built
with nvcc once: the executable is cached under `$GIR_CACHE_DIR/compiled`, named by
the hash of its source and build command, so a rerun builds nothing. The graph is
exported once per spec as a `.gbin` file (`write_binary_graph`), which the
executable loads without parsing. Each trial runs the executable as its own
process on that file with gir-bench's arguments; a trial's time is the last
number it prints (the program's own `startTimer`/`stopTimer`), as for gir-run.
The last trial writes its vectors through `GIR_DUMP`, which gir-bench validates
against the CPU reference exactly as it does gir-run's.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gir.api import lower_for_run
from gir.cache import cache_dir, enforce_cap, mark_used
from gir.diagnostics import UserError
from gir.runtime.graph import Graph, write_binary_graph
from gir.targets.cuda_host import print_cuda_program, read_dump
from gir.frontend import parse_graphit_source
from gir.tools.bench import (
    Algorithm,
    Cell,
    CompiledCell,
    cell_timeout_detail,
    check_cell,
    graph_class,
    one_line,
    reordered_source,
    start_vertex,
    trial_seconds,
)
from gir.tools.run import parse_program
from gir.validate import find_validator

NVCC_FLAGS = ("-O3", "-std=c++17")
"""nvcc's options besides `-arch` (issue 11's build line)."""

TRIAL_TIMEOUT_S = 600
"""How long one run of an executable may take."""

Runner = Callable[..., subprocess.CompletedProcess]
"""`subprocess.run`'s signature: what runs nvcc and the executables (tests pass a fake)."""


def build_command(nvcc: str, arch: str, source: Path, binary: Path) -> list[str]:
    """The nvcc command that builds `source` into `binary` for the GPU `arch` (sm_90)."""
    return [nvcc, *NVCC_FLAGS, f"-arch={arch}", str(source), "-o", str(binary)]


def cache_name(stem: str, source: str, nvcc: str, arch: str) -> str:
    """The cached executable's file name: the program's stem and a hash of the
    source and of everything that changes the build."""
    digest = hashlib.sha256("\0".join([source, nvcc, arch, *NVCC_FLAGS]).encode()).hexdigest()
    return f"{stem}-{digest[:16]}"


def graph_file_name(spec: str, graph: Graph) -> str:
    """The `.gbin` file name of the graph of `spec` (its size and weightedness in
    the name, so a changed generator makes a new file)."""
    label = re.sub(r"[^A-Za-z0-9_.-]+", "_", spec).strip("_.") or "graph"
    weighted = "w" if graph.weights is not None else "u"
    return f"{label}-{graph.num_vertices}v{graph.num_edges}e{weighted}.gbin"


def parse_dump(path: Path) -> dict[str, np.ndarray]:
    """The vectors a run wrote to `GIR_DUMP`; a missing or unreadable file is a
    one-line error."""
    try:
        return read_dump(path.read_text())
    except (OSError, ValueError) as error:
        raise UserError(f"error: the program's GIR_DUMP file {path} is unreadable: {error}") from None


@dataclass
class CompiledHost:
    """Builds and runs complete programs for gir-bench: `nvcc` and the GPU's
    `arch`, executables cached in `cache`, `.gbin` graphs in `graphs`; `runner`
    runs nvcc and the executables."""

    nvcc: str
    arch: str
    cache: Path
    runner: Runner = subprocess.run

    @property
    def graphs(self) -> Path:
        """Where exported graphs live (beside the executables)."""
        return self.cache / "graphs"

    def build(self, stem: str, source: str) -> Path:
        """The executable of `source`, built now unless the cache has it."""
        binary = self.cache / cache_name(stem, source, self.nvcc, self.arch)
        if binary.exists():
            mark_used(binary)
            return binary
        self.cache.mkdir(parents=True, exist_ok=True)
        cu = binary.with_suffix(".cu")
        cu.write_text(source)
        partial = binary.with_name(f".{binary.name}.{os.getpid()}.tmp")
        finished = self.runner(build_command(self.nvcc, self.arch, cu, partial), capture_output=True, text=True)
        if finished.returncode != 0:
            lines = (finished.stderr or finished.stdout or "").strip().splitlines()
            last = lines[-1] if lines else f"exit status {finished.returncode}"
            raise UserError(f"error: nvcc failed on {cu}: {last}")
        os.replace(partial, binary)
        enforce_cap(binary)
        return binary

    def graph_file(self, spec: str, graph: Graph) -> Path:
        """`graph` (the graph of `spec`) as a `.gbin` file, written once."""
        path = self.graphs / graph_file_name(spec, graph)
        if path.exists():
            mark_used(path)
        else:
            self.graphs.mkdir(parents=True, exist_ok=True)
            write_binary_graph(graph, path)
            enforce_cap(path)
        return path

    def execute(
        self, binary: Path, argv: list[str], dump: Path | None, timeout: float = TRIAL_TIMEOUT_S
    ) -> tuple[str, float]:
        """Runs `binary` with the program arguments `argv[1:]` (`dump`: where its
        vectors go) for at most `timeout` seconds; its stdout and the wall time. A
        failure is a one-line error; running out of time is `TimeoutExpired`."""
        environment = dict(os.environ)
        environment.pop("GIR_DUMP", None)
        if dump is not None:
            environment["GIR_DUMP"] = str(dump)
        started = time.perf_counter()
        finished = self.runner(
            [str(binary), *argv[1:]], capture_output=True, text=True, env=environment, timeout=timeout
        )
        wall = time.perf_counter() - started
        if finished.returncode != 0:
            lines = (finished.stderr or "").strip().splitlines()
            last = lines[-1] if lines else f"exit status {finished.returncode}"
            raise UserError(f"error: {binary.name} failed: {last}")
        return finished.stdout, wall

    def compile_cell(self, path: Path, ordering: str | None = None) -> CompiledCell:
        """Parses, lowers and prints `path` (its graph reordered by `ordering`, if
        named) as a complete program and builds it (or finds it built); never
        raises for a program gir cannot lower or build."""
        started = time.perf_counter()
        try:
            if ordering is None:
                module, name = parse_program(str(path)), path.stem
            else:
                source = reordered_source(path, ordering)
                module, name = parse_graphit_source(source, str(path)), f"{path.stem}_{ordering}"
            validator = find_validator(module)
            binary = self.build(name, print_cuda_program(lower_for_run(module)))
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as error:  # as gir-bench's own compile: the run goes on
            return CompiledCell(None, None, time.perf_counter() - started, one_line(error))
        return CompiledCell(None, validator, time.perf_counter() - started, binary=binary)

    def run_cell(
        self,
        cell: Cell,
        compiled: CompiledCell,
        algorithm: Algorithm,
        g: Graph,
        spec: str,
        trials: int,
        warmup: int,
        limit: float | None = None,
    ) -> None:
        """Runs a built cell `warmup + trials` times on the `.gbin` export of `g`,
        times it by the program's own timer and validates the last trial's vectors;
        its runs together get `limit` seconds (status `timeout` past it)."""
        assert compiled.binary is not None
        start = start_vertex(spec, g) if algorithm.rooted else None
        graph = self.graph_file(spec, g)
        argv = [cell.program, str(graph), *([str(start)] if start is not None else [])]
        argv += algorithm.arguments(graph_class(spec))
        dump = self.cache / f".{compiled.binary.name}.{os.getpid()}.dump"
        vectors: dict[str, np.ndarray] = {}
        deadline = time.perf_counter() + (TRIAL_TIMEOUT_S * (warmup + trials) if limit is None else limit)
        try:
            for trial in range(warmup + trials):
                last = trial == warmup + trials - 1
                left = min(TRIAL_TIMEOUT_S, deadline - time.perf_counter())
                printed, wall = self.execute(compiled.binary, argv, dump if last else None, max(left, 0.001))
                if trial >= warmup:
                    cell.times_ms.append(trial_seconds(printed, None, wall) * 1e3)
            vectors = parse_dump(dump)
        except (KeyboardInterrupt, SystemExit):
            raise
        except subprocess.TimeoutExpired:
            if limit is None:
                cell.status, cell.detail = "failed", f"error: {compiled.binary.name} ran longer than {TRIAL_TIMEOUT_S} s"
            else:
                cell.status, cell.detail = "timeout", cell_timeout_detail(limit, len(cell.times_ms))
            cell.times_ms = []
            return
        except Exception as error:
            cell.status, cell.detail, cell.times_ms = "failed", one_line(error), []
            return
        finally:
            dump.unlink(missing_ok=True)
        check_cell(cell, compiled, algorithm, g, argv, start or 0, vectors)


def open_compiled_host(arch: str) -> CompiledHost:
    """The compiled host for a GPU of `arch`, with nvcc from PATH (or CUDA's
    default place) and the cache under `$GIR_CACHE_DIR/compiled`."""
    from gir.runtime.device import find_nvcc

    nvcc = find_nvcc()
    if nvcc is None:
        raise UserError("error: --host compiled needs nvcc (on PATH or in /usr/local/cuda/bin)")
    return CompiledHost(nvcc, arch, cache_dir() / "compiled")
