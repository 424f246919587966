"""gir from Python: compile a GraphIt program once, run it on in-memory graphs.

```python
import gir, scipy.sparse as sp
prog = gir.compile("bfs.gt")                # a path, GraphIt or IR text, or a ModuleOp
out = prog.run(sp.load_npz("g.npz"), 0)     # the graph is argv[1], then argv[2..]
out["parent"], out.times, out.stdout        # numpy arrays by vector name, seconds, prints
g = prog.load_graph(G)                      # upload once, run many times
prog.run(g, 0); prog.run(g, 7)
```

A graph is a path (`.el`, `.wel`, `.mtx`), a generator spec (`rmat:10`,
`road:16:12,w`), a scipy.sparse matrix, a NetworkX graph, `(src, dst[, weight])`
numpy arrays, a `gir.runtime.graph.Graph`, or a `LoadedGraph`; in-memory graphs are
converted in memory, never written to a text file. Errors in what the user gives
(source, schedule, graph, arguments) are `gir.diagnostics.UserError`s carrying the
message the command-line tools print (`file:line:col: error: ...` where there is a
location).

`lower_for_run` and `choose_target` are what `gir-run` does before running; the
API and the tool share them.
"""

from __future__ import annotations

import functools
import io
import os
import re
import statistics
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException, PassFailedException

from gir.diagnostics import UserError, describe_diagnostic
from gir.frontend.exports import ExportSignature
from gir.program_inputs import check_int_arguments, graph_sources, loads_graph, takes_graph_argument
from gir.runtime import reference
from gir.runtime.device import Device, DeviceGraph
from gir.runtime.graph import (
    FractionalWeights,
    Graph,
    GraphError,
    from_edges,
    from_networkx,
    from_scipy,
)
from gir.runtime.program import CompiledProgram
from gir.runtime.run import Run
from gir.validate import Validator

if TYPE_CHECKING:
    from gir.runtime.multi_device import ExchangeCount
    from gir.targets.host_externs import HostExterns

__all__ = [
    "Export",
    "GraphLike",
    "LoadedGraph",
    "Program",
    "Result",
    "choose_target",
    "compile",
    "load_graph",
    "lower_for_run",
    "to_graph",
]

GraphLike = Any
"""What `Program.run` accepts as a graph: see the module docstring."""

_MLIR_START = re.compile(r'\s*(?://[^\n]*\n\s*)*(?:"|builtin\.module\b|module\b|[a-z_]+\.[a-z_]+\b)')
"""IR text starts with an op (`builtin.module`, `"op"`, `dialect.op`) after `//` comments."""


# ---------------------------------------------------------------------------
# Compiling
# ---------------------------------------------------------------------------


def compile(
    program: str | os.PathLike[str] | ModuleOp,
    schedule: str | None = None,
    *,
    check_bounds: bool = False,
    name: str | None = None,
    extern: str | os.PathLike[str] | None = None,
    host_externs: str | os.PathLike[str] | ModuleType | Mapping[str, Callable[..., Any]] | None = None,
) -> Program:
    """Compiles a GraphIt program (or IR at any level) to a `Program`.

    `program` is a path to a `.gt` or `.mlir` file, GraphIt source text, IR text,
    or an xDSL `ModuleOp` (it is lowered in place: pass a clone to keep it).
    `schedule` is the text of a `schedule:` section (the `schedule:` line itself is
    optional); it replaces the program's own. `check_bounds` guards every device
    access (`gpu-check-bounds`): an index out of range stops the run with a
    `UserError` naming the kernel and the vector. `name` is the program's `argv[0]`.
    `extern` is the path of the device code (CUDA `.cuh` or OpenCL `.cl`) of the
    extern functions vertex and edge functions call, as `gir-run --extern`;
    `host_externs` implements those `main` calls: the path of a Python module,
    a module, or a mapping of names to functions (`gir-run --host-extern`,
    docs/language.md).
    """
    from gir.targets.externs import read_extern
    from gir.targets.host_externs import load_host_externs
    from gir.validate import find_validator

    device_code = None if extern is None else read_extern(os.fspath(extern))
    host_code = None if host_externs is None else load_host_externs(host_externs)
    module, label, exports = _parse(program, schedule, name)
    stateful = any(
        (s.graph is None and not s.own_graph) or s.state_vectors or s.state_scalars for s, _ in exports
    )
    session = ExportSession() if stateful else None
    entry_points = {}
    for signature, export in exports:
        lowered = _lowered(export, f"{label}.{signature.name}", check_bounds)
        lowered.externs = (device_code, host_code)  # an export calls externs as main does
        entry_points[signature.name] = Export(signature, lowered, session)
    if module is None:
        return Program(None, label, None, entry_points)
    result = _lowered(module, label, check_bounds, find_validator(module), entry_points)
    result.externs = (device_code, host_code)
    return result


def _lowered(
    module: ModuleOp,
    label: str,
    check_bounds: bool,
    validator: Validator | None = None,
    exports: Mapping[str, Export] | None = None,
) -> Program:
    """The Program of `module`, lowered for one device, which a graph with more
    than 2^31 edges lowers again with 64-bit edge indices (`widening`)."""
    widen = widening(module, check_bounds)
    return Program(lower_for_run(module, check_bounds), label, validator, exports, widen)


_Exports = list[tuple["ExportSignature", ModuleOp]]
"""A program's exports: each one's signature and the module that runs it."""


def _parse(
    program: str | os.PathLike[str] | ModuleOp, schedule: str | None, name: str | None
) -> tuple[ModuleOp | None, str, _Exports]:
    """The module of `program` (None for GraphIt source of exports only), the
    name it runs under, and its exports."""
    if not isinstance(program, str | os.PathLike | ModuleOp):
        raise UserError(
            "error: gir.compile takes a path, GraphIt or IR text, or a ModuleOp, "
            f"not {type(program).__name__}"
        )
    if schedule is not None and not isinstance(schedule, str):
        raise UserError(f"error: schedule= is the text of a schedule section, not {type(schedule).__name__}")
    if isinstance(program, ModuleOp):
        if schedule is not None:
            raise UserError("error: schedule= applies to GraphIt source, not to an IR module")
        return program, name or "<module>", []
    if isinstance(program, os.PathLike) or _looks_like_path(program):
        path = os.fspath(program)
        try:
            with open(path, "rb") as stream:
                source = stream.read()
        except OSError as error:
            raise UserError(f"error: cannot read program '{path}': {error.strerror}") from None
        label = name or os.path.splitext(os.path.basename(path))[0]
        if path.endswith(".gt"):
            return _graphit(source, path, schedule, label)
        return _parse_ir(source, path, schedule), label, []
    if _MLIR_START.match(program):
        return _parse_ir(program, "<string>", schedule), name or "<module>", []
    return _graphit(program, "<string>", schedule, name or "<program>")


def _looks_like_path(text: str) -> bool:
    """A one-line string naming a program file (source text has several lines)."""
    return "\n" not in text and (text.endswith((".gt", ".mlir")) or os.path.isfile(text))


def _parse_ir(source: bytes | str, filename: str, schedule: str | None) -> ModuleOp:
    from gir.dialects import register_dialects
    from gir.ir_input import parse_module_text

    if schedule is not None:
        raise UserError("error: schedule= applies to GraphIt source, not to IR")
    ctx = Context()
    register_dialects(ctx)
    return parse_module_text(source, filename, ctx)


def _graphit(
    source: bytes | str, filename: str, schedule: str | None, label: str
) -> tuple[ModuleOp | None, str, _Exports]:
    """`_parse`'s answer for GraphIt source: its `main` module unless it has only
    exports, and one module per export (see `gir.frontend.exports`)."""
    from gir.frontend import ast
    from gir.frontend.exports import export_program, exported
    from gir.frontend.parser import parse_program
    from gir.frontend.source import decode_source, ensure_recursion_headroom

    ensure_recursion_headroom()
    program = parse_program(decode_source(source, filename), filename)
    if schedule is not None:
        program = ast.Program(program.decls, _parse_schedule(schedule))
    entry_points = exported(program)
    exports = [export_program(program, decl.name, filename) for decl in entry_points]
    has_main = any(decl.name == "main" and not decl.exported for decl in program.functions)
    module = _build_graphit(program, filename, schedule) if has_main or not entry_points else None
    return module, label, [(signature, _build_graphit(run, filename, schedule)) for run, signature in exports]


def _build_graphit(program: Any, filename: str, schedule: str | None) -> ModuleOp:
    """The graph-dialect module of a parsed GraphIt `program`; errors in a
    `schedule=` text are located in it, named `<schedule>`."""
    from gir.frontend.irgen import build_module

    if schedule is None:
        return build_module(program, filename)
    from gir.frontend.deletes import check_deletes
    from gir.frontend.exports import main_program
    from gir.frontend.irgen import IRGen
    from gir.frontend.schedule import resolve_schedules
    from gir.frontend.sema import check_program

    program = main_program(program, filename)
    sema = check_program(program, filename)
    check_deletes([function.decl for function in sema.functions.values()], filename)
    bindings = resolve_schedules(program, sema, "<schedule>")
    return IRGen(program, sema, bindings).build()


def _parse_schedule(text: str) -> list[Any]:
    """The statements of a schedule section given on its own."""
    from gir.frontend.lexer import Kind, tokenize
    from gir.frontend.parser import Parser

    parser = Parser(tokenize(text, "<schedule>"), "<schedule>")
    if parser.tok.kind == Kind.IDENT and parser.tok.text == "schedule" and parser.peek().is_punct(":"):
        parser.advance()
        parser.advance()
    return parser.parse_schedule_section()


def lower_for_run(
    module: ModuleOp, check_bounds: bool = False, devices: int = 1, edge_index_width: int = 32
) -> ModuleOp:
    """`module` lowered to the GPU level (if it is above it), with every device
    access guarded (`gpu-check-bounds`) when `check_bounds`, and partitioned
    (`host-partition`) to run on several `devices`; with `edge_index_width` 64,
    its edge offsets, edge positions and sums of degrees are 64-bit (set on the
    module before it is lowered: `gir.dialects.host.EDGE_INDEX_WIDTH`); a pass
    failure is a `UserError` with the message gir-opt prints."""
    from gir.dialects import register_dialects
    from gir.dialects.host import set_edge_index_width
    from gir.dialects.levels import Level, level_of
    from gir.lowering import partition_pass
    from gir.passes.registry import parse_pipeline

    above_gpu = level_of(module) in (Level.GRAPH, Level.FRONTIER)
    if edge_index_width != 32:
        if not above_gpu:
            raise UserError("error: only a program above the GPU level can be lowered with 64-bit edge indices")
        set_edge_index_width(module, edge_index_width)
    passes = ["lower-to-gpu"] if above_gpu else []
    if devices < 1:
        raise UserError(f"error: a program runs on at least one device, not {devices}")
    if devices > 1:  # before the bounds checks: each device checks its own accesses
        passes.append(partition_pass())
    if check_bounds:
        passes.append("gpu-check-bounds")
    if passes:
        ctx = Context()
        register_dialects(ctx)
        try:
            parse_pipeline(",".join(passes)).apply(ctx, module)
        except (DiagnosticException, PassFailedException) as error:
            raise UserError(describe_diagnostic(error)) from None
    return module


def widening(module: ModuleOp, check_bounds: bool = False, devices: int = 1) -> Callable[..., ModuleOp] | None:
    """What lowers `module` (not yet lowered) again with 64-bit edge indices, for
    `compile_program`'s `widen`: a graph with more than 2^31 edges specialises
    the program on it (`CompiledProgram.for_edges`). None for a module already
    at the GPU level. Partitioned (`devices` above 1), the largest part decides
    (`gir.runtime.multi_device.run_partitioned`). The 64-bit program's accesses
    are not guarded even with `check_bounds`: `gpu-check-bounds` compares 32-bit
    lengths."""
    from gir.dialects.levels import Level, level_of

    if level_of(module) not in (Level.GRAPH, Level.FRONTIER):
        return None
    source = module.clone()

    def widened(devices: int = devices) -> ModuleOp:
        """The program lowered with 64-bit edge indices, for `devices` devices."""
        return lower_for_run(source.clone(), devices=devices, edge_index_width=64)

    return widened


def choose_target(requested: str | None) -> str:
    """`requested` ("cuda" or "opencl"), or for None / "auto": CUDA where it can
    run, else OpenCL."""
    if requested not in (None, "auto"):
        if requested not in ("cuda", "opencl"):
            raise UserError(f"error: unknown target '{requested}' (expected cuda or opencl)")
        return requested
    from gir.executor import cuda_unavailable_reason

    return "opencl" if cuda_unavailable_reason() else "cuda"


# ---------------------------------------------------------------------------
# Devices and graphs
# ---------------------------------------------------------------------------

_devices: dict[tuple[str, int | None], Device] = {}


def _device(target: str | None, index: int | None) -> Device:
    """The device of `target` and `index`, opened once per process, so that
    programs share it (and the graphs loaded on it)."""
    from gir.executor import open_device

    key = (choose_target(target), index)
    device = _devices.get(key)
    if device is None:
        device = _devices[key] = open_device(*key)
    return device


def to_graph(graph: GraphLike) -> Graph | str:
    """`graph` as a host `Graph`, or a path or generator spec left for the loader
    (which loads it with or without weights as the program asks)."""
    if isinstance(graph, Graph):
        return graph
    if isinstance(graph, (str, os.PathLike)):
        return os.fspath(graph)
    if isinstance(graph, tuple):
        return _unless_fractional(_edge_arrays_graph, graph)
    module = type(graph).__module__.split(".")[0]
    if module == "scipy":
        return _unless_fractional(from_scipy, graph)
    if module == "networkx":
        return _unless_fractional(from_networkx, graph)
    raise GraphError(
        f"cannot use a {type(graph).__name__} as a graph (expected a path, a generator "
        "spec, a scipy.sparse matrix, a networkx graph or (src, dst[, weight]) arrays)"
    )


def _unless_fractional(build: Callable[..., Graph], graph: Any) -> Graph:
    """`build(graph)`; when its weights have fractions, the graph without weights
    that says why (`Graph.weights_refused`): a program that reads no weights runs
    on it, one that reads them fails with the reason, and no weight is rounded."""
    try:
        return build(graph)
    except FractionalWeights as refusal:
        unweighted = build(graph, weighted=False)
        return Graph(unweighted.num_vertices, unweighted.src, unweighted.dst, None, refusal.message)


def _edge_arrays_graph(arrays: tuple[Any, ...], *, weighted: bool = True) -> Graph:
    """The graph of `(src, dst[, weight])` arrays, with vertices 0..max id."""
    if len(arrays) not in (2, 3):
        raise GraphError(f"expected (src, dst) or (src, dst, weight) arrays, got {len(arrays)}")
    src, dst = np.asarray(arrays[0]), np.asarray(arrays[1])
    for name, ids in (("src", src), ("dst", dst)):
        if ids.size and not np.issubdtype(ids.dtype, np.integer):
            raise GraphError(f"{name} must be an array of integer vertex ids (got dtype {ids.dtype})")
    num_vertices = max((int(ids.max()) for ids in (src, dst) if ids.size), default=-1) + 1
    weights = np.asarray(arrays[2]) if len(arrays) == 3 and weighted else None
    return from_edges(num_vertices, src, dst, weights)


class LoadedGraph:
    """A graph resident on one device: its arrays are copied there on first use and
    kept for every later run, by any program, until `release`."""

    def __init__(self, graph: GraphLike, device: Device):
        """`graph` is anything `Program.run` accepts but a LoadedGraph."""
        self.device = device
        self.source = to_graph(graph)
        self.spec = self.source if isinstance(self.source, str) else f"<{_kind(graph)} graph>"
        """The program's argv[1] for this graph."""
        self._on_device: dict[tuple[bool, str | None], DeviceGraph] = {}

    @property
    def host_graph(self) -> Graph:
        """The graph on the host (loaded with weights where it has them)."""
        if isinstance(self.source, Graph):
            return self.source
        from gir.runtime.graph import load_graph as load_host_graph

        return load_host_graph(self.source)

    def on_device(self, weighted: bool, reorder: str | None = None) -> DeviceGraph:
        """The graph's device arrays, with weights when `weighted` (the program
        reads them: a graph without weights is then an error), relabelled by the
        ordering `reorder` if the program asks for one."""
        if isinstance(self.source, str):
            return self.device.load_graph(self.source, weighted, reorder)
        resident = self._on_device.get((weighted, reorder))
        if resident is None:
            graph = self.source
            if weighted and graph.weights is None:
                raise GraphError(
                    f"the program reads edge weights, but {self.spec} has none"
                    if graph.weights_refused is None
                    else f"the program reads edge weights of {self.spec}, but {graph.weights_refused}"
                )
            if not weighted and graph.weights is not None:
                graph = Graph(graph.num_vertices, graph.src, graph.dst, None)
            relabelled = None if reorder is None else self.device.reordered(self.spec, graph, reorder)
            resident = DeviceGraph(self.device, self.spec, graph, relabelled)
            self._on_device[(weighted, reorder)] = resident
        return resident

    def release(self) -> None:
        """Frees the device arrays (a later run copies them again)."""
        for resident in self._on_device.values():
            resident.release()
        self._on_device.clear()

    def __repr__(self) -> str:
        return f"LoadedGraph({self.spec} on {self.device.name})"


def _is_graph(value: Any) -> bool:
    """Whether `value` is a graph `Program.run` would load, and never a program
    argument: strings are arguments (a path or spec is one for a program that
    loads no graph, as on gir-run's command line)."""
    if isinstance(value, (LoadedGraph, Graph, tuple, os.PathLike)):
        return True
    return type(value).__module__.split(".")[0] in ("scipy", "networkx")


def _kind(graph: GraphLike) -> str:
    """A short description of an in-memory graph's type, for argv[1] and messages."""
    if isinstance(graph, tuple):
        return "edge array"
    if isinstance(graph, os.PathLike):
        return "path"
    return f"{type(graph).__module__.split('.')[0]}.{type(graph).__name__}"


def load_graph(graph: GraphLike, *, target: str | None = None, device: int | None = None) -> LoadedGraph:
    """`graph` made resident on the device of `target` and `device` (the defaults
    of `Program.run`), for reuse across runs and programs."""
    if isinstance(graph, LoadedGraph):
        return graph
    return LoadedGraph(graph, _device(target, device))


class _GraphRun(Run):
    """A run whose program loads `graph` when it loads the graph named `graph.spec`."""

    def __init__(self, graph: LoadedGraph, *args: Any, **options: Any):
        super().__init__(*args, **options)
        self._graph = graph

    def load_graph(self, spec: str, weighted: bool, reorder: str | None = None) -> DeviceGraph:
        if spec != self._graph.spec:
            return super().load_graph(spec, weighted, reorder)
        graph = self._graph.on_device(weighted, reorder)
        if graph.relabelling is not None:
            self._relabelling = graph.relabelling
        return graph


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Result(Mapping[str, np.ndarray]):
    """What `Program.run` returns: the global vectors by name (a read-only mapping
    to numpy arrays, indexed by vertex), plus the trials' times and printed text."""

    vectors: dict[str, np.ndarray]
    """The program's global vectors after the last trial."""
    times: tuple[float, ...]
    """Seconds of each trial: the program's startTimer()..stopTimer() interval when
    it has one, else its whole `main` without loading the graph."""
    timer: bool
    """Whether `times` are the program's own timer intervals."""
    stdout: str = ""
    """What the program printed in its last trial (empty when it printed to a stream)."""
    device: str = field(default="")
    """The device it ran on."""
    exchanged: ExchangeCount | None = None
    """What the ranks of a run on several devices exchanged in the last trial:
    collectives and payload bytes per rank (`gir.runtime.multi_device.ExchangeCount`);
    None on one device."""

    @property
    def median(self) -> float:
        """The median of `times`, in seconds."""
        return statistics.median(self.times)

    def __repr__(self) -> str:
        vectors = ", ".join(f"{name}: {array.dtype}[{array.size}]" for name, array in self.vectors.items())
        return f"Result({{{vectors}}}, median {self.median * 1e3:.3f} ms over {len(self.times)} trial(s))"

    def __getitem__(self, name: str) -> np.ndarray:
        try:
            return self.vectors[name]
        except KeyError:
            raise KeyError(
                f"the program has no global vector '{name}' (it has: {', '.join(sorted(self.vectors))})"
            ) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.vectors)

    def __len__(self) -> int:
        return len(self.vectors)


class Program:
    """A program lowered to the GPU level, printed and built per target on first
    use; its GraphIt `export func`s are its methods (see `Export`)."""

    def __init__(
        self,
        module: ModuleOp | None,
        name: str = "<program>",
        validator: Validator | None = None,
        exports: Mapping[str, Export] | None = None,
        widen: Callable[[], ModuleOp] | None = None,
    ):
        """`module` is at the GPU level (see `lower_for_run`), None for a program
        of exports only; `name` is argv[0]; `validator` checks results
        (`gir.validate.find_validator` of the module before lowering), if gir
        knows the algorithm; `exports` are the entry points by name; `widen`
        lowers the program again with 64-bit edge indices (`widening`)."""
        self.module = module
        self._widen = widen
        self.name = name
        self.validator = validator
        self.exports: dict[str, Export] = dict(exports or {})
        """The program's `export func`s by name, also reachable as attributes."""
        self._compiled: dict[str, CompiledProgram] = {}
        self.externs: tuple[str | None, HostExterns | None] = (None, None)
        """The text of the device code of the extern functions (`extern=`) and
        the host functions implementing those `main` calls (`host_externs=`)."""

    def __getattr__(self, name: str) -> Export:
        exports = self.__dict__.get("exports", {})
        if name in exports:
            return exports[name]
        raise AttributeError(f"'{self.name}' has no attribute or export '{name}'")

    def __dir__(self) -> list[str]:
        return [*super().__dir__(), *self.exports]

    def _main(self) -> ModuleOp:
        """The module of `main`; a `UserError` for a program of exports only."""
        if self.module is None:
            calls = ", ".join(f"{name}(graph, ...)" for name in self.exports)
            raise UserError(f"error: '{self.name}' has no 'main' function: call its exports ({calls})")
        return self.module

    def compiled(self, target: str | None = None) -> CompiledProgram:
        """The program printed for `target` (kernels and host code), once."""
        from gir.executor import compile_program

        chosen = choose_target(target)
        program = self._compiled.get(chosen)
        if program is None:
            program = self._compiled[chosen] = compile_program(
                self._main(), chosen, self.name, *self.externs, widen=self.__dict__.get("_widen")
            )
        return program

    def source(self, target: str | None = None) -> str:
        """The kernel source for `target` (CUDA or OpenCL C)."""
        return self.compiled(target).kernel_source

    def load_graph(
        self, graph: GraphLike, *, target: str | None = None, device: int | None = None
    ) -> LoadedGraph:
        """`graph` resident on the device a run with the same `target` and `device`
        uses: pass the result to `run` to skip converting and copying it again."""
        return load_graph(graph, target=target, device=device)

    @property
    def loads_graph(self) -> bool:
        """Whether `main` loads a graph, from its argv or a fixed file."""
        return loads_graph(self._main())

    @property
    def takes_graph(self) -> bool:
        """Whether `main` loads a graph named by its argv: then `run` takes the
        graph first (its argv[1]), else only the program's arguments (a program
        that loads no graph, or only a fixed file)."""
        takes = self.__dict__.get("_takes_graph")
        if takes is None:
            takes = self.__dict__["_takes_graph"] = takes_graph_argument(self._main())
        return takes

    def _graph_kind(self) -> str:
        """What the program loads, for an error about a graph given to a program
        that takes none: "loads no graph" or where it loads one from."""
        paths = [source.path for source in graph_sources(self._main()) if source.path is not None]
        return f"loads its graph from '{paths[0]}'" if paths else "loads no graph"

    def run(
        self,
        *args: Any,
        graph: GraphLike | None = None,
        target: str | None = None,
        device: int | None = None,
        trials: int = 1,
        stdout: TextIO | None = None,
        validate: bool = False,
        devices: int = 1,
        inputs: Mapping[str, np.ndarray | None] | None = None,
    ) -> Result:
        """Runs the program `trials` times and returns its vectors and times.

        A program that loads a graph (`load(argv[1])`) takes it first, `run(graph,
        *args)`: the graph is argv[1] and `args` are argv[2..]. A program that
        loads no graph (scalars and fixed-size vectors only, as `gir-run PROGRAM
        ARGS` runs it), or only a fixed file (`load("graphs/small.el")`, relative
        to the current folder), takes its arguments alone, `run(*args)`:
        argv[1..]. Arguments are numbers or strings; a graph given to a program
        that takes none, or no graph given to one that loads one, is a
        `UserError`. The graph may also be given by keyword, `run(*args, graph=G)`.

        `target` is "cuda", "opencl" or None (CUDA where available, else OpenCL);
        `device` a device index (OpenCL: across platforms). The program's prints go
        to `stdout` when given, else into `Result.stdout`. A graph that is not a
        `LoadedGraph` is loaded for this call and released after it.

        `validate` checks the last trial's vectors as `validate` does, against
        the CPU reference built from the graph the program loaded (the one
        given, or its fixed file); a `UserError` says what differs, or that gir
        cannot tell which reference applies (then before running).

        `devices` above 1 runs the program partitioned over that many devices of
        the target, from `device` on (docs/multi-gpu.md).

        `inputs` gives the values of the program's supplied global vectors by
        name (what an `Export` passes: its vector parameters, and the state an
        earlier export call left; None for zeros).
        """
        if not isinstance(devices, int) or isinstance(devices, bool) or devices < 1:
            raise UserError(f"error: devices must be an integer of at least 1, not {devices!r}")
        if not isinstance(trials, int) or isinstance(trials, bool) or trials < 1:
            raise UserError(f"error: trials must be an integer of at least 1, not {trials!r}")
        if validate:
            self._validator()
        if inputs and devices != 1:
            raise UserError("error: an export's vectors and state cannot be given to a partitioned run")
        if graph is not None:
            args = (graph, *args)
        if self.takes_graph:
            if not args:
                raise UserError(
                    f"error: '{self.name}' loads a graph: give it as the first argument "
                    "(run(graph, *args): the graph is argv[1])"
                )
            graph, *rest = args
            loaded: LoadedGraph | None = load_graph(graph, target=target, device=device)
            if loaded is graph and (target, device) != (None, None) and loaded.device is not _device(target, device):
                raise UserError(f"error: the graph is loaded on {loaded.device.name}, not on the requested device")
            run_on = loaded.device
            argv = [self.name, loaded.spec, *(_argument(value) for value in rest)]
        else:
            for position, value in enumerate(args, 1):
                if _is_graph(value):
                    raise UserError(
                        f"error: '{self.name}' {self._graph_kind()}: its arguments are argv[1..] "
                        f"(numbers or strings), but argv[{position}] is a graph ({_kind(value)})"
                    )
            graph, loaded, run_on = None, None, _device(target, device)
            argv = [self.name, *(_argument(value) for value in args)]
        check_int_arguments(self._main(), argv)
        compiled = self.compiled(run_on.target) if devices == 1 else self._partitioned(run_on.target, devices)
        times: list[float] = []
        try:
            for _ in range(trials):
                output = stdout if stdout is not None else io.StringIO()
                if devices == 1:
                    result, elapsed = self._run_once(compiled, run_on, loaded, argv, output, inputs)
                else:
                    result, elapsed = self._run_partitioned(compiled, run_on, device, devices, loaded, argv, output)
                times.append(elapsed)
        finally:
            if loaded is not None and loaded is not graph:
                loaded.release()
        printed = output.getvalue() if isinstance(output, io.StringIO) and stdout is None else ""
        if validate:
            self._check(graph, argv, result.globals)
        return Result(
            dict(result.globals), tuple(times), result.elapsed is not None, printed, run_on.name, result.exchanged
        )

    def _partitioned(self, target: str, devices: int) -> CompiledProgram:
        """The program partitioned (`host-partition`) for `devices` devices of
        `target`, printed once per exchange format asked for (`$GIR_EXCHANGE_FORMAT`
        reaches the lowering: `gir.lowering.partition_pass`)."""
        from gir.executor import compile_program
        from gir.lowering import partition_pass

        key = f"{target}:{devices}:{partition_pass()}"
        program = self._compiled.get(key)
        if program is None:
            module = lower_for_run(self._main().clone(), devices=devices)
            single = self.__dict__.get("_widen")
            widen = None if single is None else functools.partial(single, devices=devices)
            program = self._compiled[key] = compile_program(module, target, self.name, *self.externs, widen=widen)
        return program

    def _run_partitioned(
        self,
        compiled: CompiledProgram,
        first: Device,
        index: int | None,
        count: int,
        graph: LoadedGraph | None,
        argv: list[str],
        output: TextIO,
    ) -> tuple[Any, float]:
        """One run of a partitioned program on `count` devices: `first` and the
        ones after device `index`."""
        from gir.runtime.multi_device import run_partitioned

        devices = [first, *(_device(first.target, (index or 0) + k) for k in range(1, count))]
        host_graph = None if graph is None else graph.host_graph
        result = run_partitioned(compiled, devices, argv, output, host_graph)
        return result, result.elapsed if result.elapsed is not None else result.wall

    def _run_once(
        self,
        compiled: CompiledProgram,
        device: Device,
        graph: LoadedGraph | None,
        argv: list[str],
        output: TextIO,
        inputs: Mapping[str, np.ndarray | None] | None = None,
    ) -> tuple[Any, float]:
        """One run of `compiled` on `device` (on `graph`, if the program loads
        one): its RunResult and its time."""
        if graph is not None and compiled.graph_load is not None and compiled.graph_load.argv is not None:
            resident = graph.on_device(compiled.graph_load.weighted, compiled.graph_load.reorder)
            compiled = compiled.for_edges(resident.num_edges)
            compiled.check_fits(device, graph.spec, resident.num_vertices, resident.num_edges)
        else:
            compiled = compiled.for_run(device, argv)
        kernels = compiled.kernels(device)
        if graph is None:
            run = Run(
                device, kernels, argv, output, compiled.bounds_sites, host_externs=compiled.host_externs, inputs=inputs
            )
        else:
            run = _GraphRun(
                graph, device, kernels, argv, output, compiled.bounds_sites,
                host_externs=compiled.host_externs, inputs=inputs,
            )
        try:
            compiled.host_run(run, compiled.constants)
            result = run.finish()
        except BaseException:
            run.abort()
            raise
        return result, result.elapsed if result.elapsed is not None else result.wall

    def validate(self, graph: GraphLike | None, result: Mapping[str, np.ndarray], *args: Any) -> None:
        """Checks `result` of a run on `graph` with `args` against gir's CPU
        reference (BFS, SSSP, CC, PageRank); a `UserError` says what differs, or
        that gir cannot tell which reference applies.

        The reference is built from the graph the program loaded: `graph` for a
        program that loads `argv[N]`, its fixed file for one that loads
        `load("file")` (then `graph` is None, or ignored, and `args` are
        argv[1..], as `run` takes them)."""
        if self.takes_graph:
            if graph is None:
                raise UserError(f"error: '{self.name}' loads a graph: give validate the graph it ran on")
            argv = [self.name, "<graph>", *(_argument(value) for value in args)]
        else:
            argv = [self.name, *(_argument(value) for value in args)]
        self._check(graph, argv, dict(result))

    def _validator(self) -> Validator:
        """The program's check; a `UserError` when gir knows none."""
        if self.validator is None:
            raise UserError(
                f"error: cannot tell which CPU reference applies to '{self.name}' (gir "
                "recognises BFS, SSSP, CC and PageRank by their edge traversals)"
            )
        return self.validator

    def _check(self, graph: GraphLike | None, argv: list[str], vectors: Mapping[str, np.ndarray]) -> None:
        """Checks `vectors` of a run with `argv` on `graph` (None: the program
        took none) against the reference built from the graph the program loaded."""
        from gir.runtime.graph import load_graph as load_host_graph

        validator = self._validator()
        weighted = True if validator.weighted else None
        if validator.graph.path is not None or graph is None:
            host: Graph | str = validator.graph.spec(argv)
        else:
            host = graph.host_graph if isinstance(graph, LoadedGraph) else to_graph(graph)
        if isinstance(host, str):
            host = load_host_graph(host, weighted=weighted)
        try:
            problem = validator.check(host, argv, dict(vectors))
        except reference.NotChecked as why:
            warnings.warn(f"{validator.algorithm} not checked: {why}", stacklevel=3)
            return
        if problem is not None:
            raise UserError(f"error: validation of {validator.algorithm} failed: {problem}")

    def __repr__(self) -> str:
        exports = "".join(f", {export.signature}" for export in self.exports.values())
        return f"Program({self.name}{exports})"


@dataclass
class ExportSession:
    """What the exports of a file that share state (GraphIt's `set_graph(edges)`
    then `do_pagerank_delta()`) carry from one call to the next: the graph the
    last call given one received, resident on its device, and the values the
    program-level vectors and scalars declared without a value had when the
    last call ended (zeros and 0 before the first, and again after a call that
    gives a graph other than the one held)."""

    graph: LoadedGraph | None = None
    vectors: dict[str, np.ndarray] = field(default_factory=dict)
    scalars: dict[str, int | float] = field(default_factory=dict)


class Export:
    """A GraphIt `export func` of a program, called as its method:
    `prog.pagerank_delta(graph, 20, 0.85)` returns the output vector as a numpy
    array indexed by vertex (a scalar output as a Python number); an export with
    several outputs, `-> (a : ..., b : ...)`, returns a tuple of arrays in
    declaration order, and one without output the `Result` of all vectors. The
    graph is anything `Program.run` takes; the other arguments follow the
    export's parameters in order: a number of the parameter's type (an int for
    `int`) or, for a vector parameter, an array of its elements (one per vertex
    for `vector{Vertex}(T)`). An export that takes no graph runs on the graph
    the last call of an export that took one was given, with the state that call
    left (`ExportSession`)."""

    def __init__(self, signature: ExportSignature, program: Program, session: ExportSession | None = None):
        """`program` runs the export as its `main` (see `gir.frontend.exports`);
        `session` is shared by the exports of a file whose exports share state."""
        self.signature = signature
        self.program = program
        self.session = session

    def __call__(
        self, *args: Any, target: str | None = None, device: int | None = None
    ) -> np.ndarray | tuple[np.ndarray, ...] | Result:
        """The export's output(s) on the graph with `args` (see the class docstring)."""
        result = self.run(*args, target=target, device=device)
        results = self.signature.results
        if not results:
            return result
        scalars = self.signature.scalar_outputs or (False,) * len(results)
        lanes = dict(self.signature.lanes)
        # two outputs bound to one vector get arrays of their own; a scalar
        # output is the one value of the vector that carries it; a vector of
        # fixed-size vectors is one row per element
        values = tuple(
            result[name][0].item() if scalar
            else _rows(result[name], lanes.get(name)) if name not in results[:index]
            else _rows(result[name], lanes.get(name)).copy()
            for index, (name, scalar) in enumerate(zip(results, scalars, strict=True))
        )  # fmt: skip
        return values[0] if len(values) == 1 else values

    def run(
        self,
        *args: Any,
        target: str | None = None,
        device: int | None = None,
        trials: int = 1,
        stdout: TextIO | None = None,
    ) -> Result:
        """Runs the export as `Program.run` runs a program: all its vectors, times
        and prints."""
        graph, params = self._graph(args, target, device)
        numbers, vectors = self._arguments(params)
        inputs: dict[str, np.ndarray | None] = dict(vectors)
        if self.session is not None:
            inputs.update({name: self.session.vectors.get(name) for name in self.signature.state_vectors})
            numbers += [self.session.scalars.get(name, 0) for name, _, _ in self.signature.state_scalars]
        given = [] if graph is None else [graph]
        result = self.program.run(
            *given, *numbers, target=target, device=device, trials=trials, stdout=stdout, inputs=inputs
        )
        if self.session is not None:
            self.session.vectors.update({name: np.array(result[name]) for name in self.signature.state_vectors})
            self.session.scalars.update(
                {name: result[carrier][0].item() for name, _, carrier in self.signature.state_scalars}
            )
        return result

    def _graph(self, args: tuple[Any, ...], target: str | None, device: int | None) -> tuple[Any, tuple[Any, ...]]:
        """The graph of this call (None for an export that loads its own or
        none) and the arguments after it."""
        if self.signature.own_graph:
            return None, args
        if self.signature.graph is not None:
            if not args:
                raise UserError(f"error: {self.signature} takes the graph first")
            graph, *rest = args
            if self.session is not None and self.session.graph is not graph:
                # a new graph starts the state over; it stays resident for the calls after this one
                if self.session.graph is not None:
                    self.session.graph.release()
                self.session.vectors.clear()
                self.session.scalars.clear()
                graph = self.session.graph = load_graph(graph, target=target, device=device)
            return graph, tuple(rest)
        assert self.session is not None
        if self.session.graph is None:
            raise UserError(
                f"error: '{self.signature.name}' takes no graph: it runs on the graph an earlier "
                "export call was given; call an export that takes the graph first"
            )
        return self.session.graph, args

    def _arguments(self, args: tuple[Any, ...]) -> tuple[list[int | float], dict[str, np.ndarray]]:
        """`args` checked against the parameters: the numbers (floats made
        floats) and the vectors by name."""
        params = self.signature.params or tuple(name for name, _ in self.signature.scalars)
        if len(args) != len(params):
            raise UserError(
                f"error: {self.signature} takes {len(params)} argument(s)"
                + ("" if self.signature.own_graph else " after the graph")
                + f", got {len(args)}"
            )
        types = dict(self.signature.scalars)
        numbers: list[int | float] = []
        vectors: dict[str, np.ndarray] = {}
        for name, value in zip(params, args, strict=True):
            if name in self.signature.vectors:
                vectors[name] = self._vector_argument(name, value)
                continue
            ty = types[name]
            integral = isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
            if ty in ("float", "double") and (integral or isinstance(value, (float, np.floating))):
                numbers.append(float(value))
            elif ty not in ("float", "double") and integral:
                numbers.append(int(value))
            else:
                raise UserError(
                    f"error: argument '{name}' of {self.signature.name} is {ty}, "
                    f"not {type(value).__name__} {value!r}"
                )
        return numbers, vectors

    def _vector_argument(self, name: str, value: Any) -> np.ndarray:
        """The array given for vector parameter `name`: one-dimensional, or for a
        vector of fixed-size vectors, one row of its length per element."""
        array = np.asarray(value)
        lanes = dict(self.signature.lanes).get(name)
        shape_ok = array.ndim == 1 if lanes is None else array.ndim == 2 and array.shape[1] == lanes
        if not shape_ok or not np.issubdtype(array.dtype, np.number):
            wanted = (
                "a one-dimensional array of numbers" if lanes is None
                else f"a two-dimensional array of numbers with {lanes} columns (one row per element)"
            )
            shape = f" of shape {array.shape}" if np.issubdtype(array.dtype, np.number) else ""
            raise UserError(
                f"error: argument '{name}' of {self.signature.name} is a vector: give "
                f"{wanted}, not {type(value).__name__}{shape}"
            )
        return array

    def __repr__(self) -> str:
        return f"Export({self.signature})"


def _rows(values: np.ndarray, lanes: int | None) -> np.ndarray:
    """A returned vector as the caller gets it: a vector of fixed-size vectors
    as one row of `lanes` numbers per element."""
    return values if lanes is None else values.reshape(-1, lanes)


def _argument(value: Any) -> str:
    """A run argument as the program's argv text."""
    if isinstance(value, (bool, np.bool_)):
        raise UserError("error: program arguments are numbers or strings, not booleans")
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    if isinstance(value, str):
        return value
    raise UserError(f"error: cannot pass a {type(value).__name__} as a program argument")
