"""A compiled program: its kernel source, the printed host function and the
constants that function reads, built on a device once and run many times.

```python
program = compile_program(module, "opencl")        # gir.executor
result = program.run(device, ["bfs", "rmat:10", "0"], sys.stdout)
```
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from gir.diagnostics import UserError
from gir.dialects.gir_gpu import BoundsSite
from gir.protocol import HostRuntime
from gir.runtime.device import Device, KernelSignatures
from gir.runtime.footprint import DeviceFootprint
from gir.runtime.graph import memory
from gir.runtime.graph.memory import format_bytes
from gir.runtime.run import Run, RunResult

EXTENSION_USES = {
    "cl_khr_fp64": "double values",
    "cl_khr_int64_base_atomics": "64-bit atomic add, exchange or compare-and-swap",
    "cl_khr_int64_extended_atomics": "64-bit atomic min, max or or: min= / max= on int64 or uint_64",
}
"""What a program uses each OpenCL extension for, in the error of a device without it."""

HostFunction = Callable[[HostRuntime, tuple[Any, ...]], None]
"""The printed `run(rt, K)`: the host program over a runtime and its constants."""


@dataclass(frozen=True)
class GraphLoad:
    """The graph a program's `host.load_graph` loads: from `argv[argv]` or the
    file `path`, with weights when `weighted`, relabelled by `reorder`."""

    argv: int | None
    path: str | None
    weighted: bool
    reorder: str | None

    def spec(self, argv: list[str]) -> str | None:
        """The graph spec this load reads from `argv` (None: argv lacks it, which
        the host program reports)."""
        if self.path is not None:
            return self.path
        assert self.argv is not None
        return argv[self.argv] if self.argv < len(argv) else None


@dataclass(frozen=True)
class CompiledProgram:
    """A GPU-level program printed for one target: kernel source, host Python and
    the constants table (every string of the IR) the host function is given."""

    target: str
    kernel_source: str
    host_source: str
    signatures: KernelSignatures
    host_run: HostFunction
    constants: tuple[Any, ...]
    bounds_sites: tuple[BoundsSite, ...] | None = None
    """The accesses `gpu-check-bounds` guarded, or None when it did not run."""
    extensions: tuple[tuple[str, str], ...] = ()
    """The OpenCL extensions the kernels enable, each with the `file:line:col` of
    the first statement that needs it ("" where unknown)."""
    host_externs: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    """The Python implementations of the extern functions the host calls, by
    name (`gir.targets.host_externs`), handed to each `Run`."""
    edge_index_width: int = 32
    """How wide the program's edge indices are (`gir.dialects.host.edge_index_width`)."""
    graph_load: GraphLoad | None = None
    """The graph `@main` loads on one device, known before it runs (None: none,
    or a partitioned load)."""
    widen: Callable[[], CompiledProgram] | None = field(default=None, compare=False)
    """Compiles this program with 64-bit edge indices (None: it cannot be, say
    a module given at the GPU level): what `for_edges` runs a larger graph with."""
    footprint: DeviceFootprint | None = field(default=None, compare=False)
    """The device memory the host function asks for (None: not known)."""
    source_name: str = "<module>"
    """The program's file, for messages."""
    _specialised: dict[int, CompiledProgram] = field(default_factory=dict, compare=False, repr=False)
    _noted: list[str] = field(default_factory=list, compare=False, repr=False)

    def for_edges(self, num_edges: int) -> CompiledProgram:
        """This program, or its 64-bit specialisation (compiled once) when a graph
        of `num_edges` edges needs one (`gir.runtime.graph.edge_index_width`): the
        per-graph choice of edge index width; a `UserError` when it cannot be made."""
        width = memory.edge_index_width(num_edges)
        if width <= self.edge_index_width:
            return self
        if self.widen is None:
            reason = (
                f"has {num_edges:,} edges" if num_edges > memory.MAX_EDGES_32
                else f"runs with ${memory.FORCE_EDGE_INDEX_WIDTH}=64"
            )
            raise UserError(
                f"error: the graph {reason}, which needs 64-bit edge indices, but this program "
                "was given at the GPU level with 32-bit ones: give gir its source (or the "
                "graph/frontier-level IR) so that it can lower it again"
            )
        wide = self._specialised.get(width)
        if wide is None:
            wide = self._specialised[width] = self.widen()
        return wide

    def for_run(self, device: Device, argv: list[str]) -> CompiledProgram:
        """`for_edges` of the graph this run loads (loaded on `device` here, where
        the host program finds it again), or this program when it loads none."""
        spec = None if self.graph_load is None else self.graph_load.spec(argv)
        if spec is None:
            return self
        assert self.graph_load is not None
        graph = device.load_graph(spec, self.graph_load.weighted, self.graph_load.reorder)
        program = self.for_edges(graph.num_edges)
        program.check_fits(device, spec, graph.num_vertices, graph.num_edges)
        if program is not self and device.progress is not None and not self._noted:
            self._noted.append(spec)
            why = (
                f"more than {memory.MAX_EDGES_32:,}" if graph.num_edges > memory.MAX_EDGES_32
                else f"${memory.FORCE_EDGE_INDEX_WIDTH}=64"
            )
            device.progress(f"{spec} has {graph.num_edges:,} edges ({why}): running with 64-bit edge indices")
        return program

    def check_fits(
        self,
        device: Device,
        spec: str,
        num_vertices: int,
        num_edges: int,
        part: tuple[int, int, int] | None = None,
    ) -> None:
        """A `UserError` when this program's footprint on a graph of that size
        is larger than `device`'s memory: raised before anything is uploaded,
        with the number of devices a partitioned run would need. `part`: the
        graph is part (rank, parts, the whole graph's edges) of a partitioned
        run's graph."""
        memory = device.memory_bytes()
        if self.footprint is None or memory is None:
            return
        graph_bytes, buffer_bytes = self.footprint.bytes(num_vertices, num_edges)
        if graph_bytes + buffer_bytes <= memory:
            return
        whole_edges = num_edges if part is None else part[2]
        devices = next(
            (
                count
                for count in range(2 if part is None else part[1] + 1, 1025)
                if self.footprint.total(num_vertices, -(-whole_edges // count)) <= memory
            ),
            None,
        )
        advice = (
            "no number of devices splits it small enough (its vertex data alone is too large)"
            if devices is None
            else f"run it partitioned over {devices} devices or more (gir-run --devices {devices}, "
            f"Program.run(..., devices={devices})), each holding its part of the edges"
        )
        what = (
            f"'{spec}' ({num_vertices:,} vertices, {num_edges:,} edges)"
            if part is None
            else f"part {part[0]} of {part[1]} of '{spec}' ({num_vertices:,} vertices, {num_edges:,} of its "
            f"{whole_edges:,} edges)"
        )
        raise UserError(
            f"error: {self.source_name} needs about {format_bytes(graph_bytes + buffer_bytes)} of device "
            f"memory on {what}: {format_bytes(graph_bytes)} of graph arrays and {format_bytes(buffer_bytes)} "
            f"of vectors and queues, but {device.name} has {format_bytes(memory)}: {advice}"
        )

    def kernels(self, device: Device) -> Any:
        """The program's kernels built on `device` (once per device and source);
        a located `UserError` when the device lacks an extension they need."""
        if device.target != self.target:
            raise UserError(
                f"error: the program was compiled for {self.target}, the device is {device.target}"
            )
        missing = device.missing_extensions([name for name, _ in self.extensions])
        if missing:
            name, position = next((n, p) for n, p in self.extensions if n == missing[0])
            what = EXTENSION_USES.get(name, "it")
            message = (
                f"error: {device.name} lacks the OpenCL extension {name}, which this "
                f"statement needs ({what})"
            )
            raise UserError(f"{position}: {message}" if position else message)
        return device.load_program(self.kernel_source, self.signatures)

    def run(self, device: Device, argv: list[str], stdout: TextIO) -> RunResult:
        """Runs the program on `device` with the program's `argv` (argv[0] is its
        name, argv[1] usually the graph) printing to `stdout`; with 64-bit edge
        indices when the graph needs them (`for_run`)."""
        program = self.for_run(device, argv)
        if program is not self:
            return program.run(device, argv, stdout)
        device.activate()  # a GPU's context, whichever GPU this thread opened last
        try:
            run = Run(device, self.kernels(device), argv, stdout, self.bounds_sites, host_externs=self.host_externs)
            try:
                self.host_run(run, self.constants)
                return run.finish()
            except BaseException:
                run.abort()
                raise
        finally:
            device.deactivate()
