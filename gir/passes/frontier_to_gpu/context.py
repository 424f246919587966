"""The narrow interface between `frontier-to-gpu` and its strategies.

A frontier representation (`FrontierLowering`) or a topology layout
(`LayoutLowering`) is a class in its own file that builds GPU-level IR through a
`GpuContext`: the loaded graph's sizes and arrays, program-wide scratch buffers,
helper kernels and launches. Host code is built with a `Builder` placed in `main`;
device code with a `Builder` placed inside a kernel body, where host values may be
used directly (the kernel outliner turns them into kernel arguments).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from gir.dialects import gir_gpu, host
from gir.dialects.gir_gpu import Dimension, buffer_type
from gir.dialects.host import GraphArray
from gir.dialects.graph import VertexType


def constant(b: Builder, value: int, value_type: Attribute = i32) -> SSAValue:
    """An integer constant (i32 unless said)."""
    return b.insert(arith.ConstantOp(IntegerAttr(value, value_type))).result


def as_i32(b: Builder, value: SSAValue) -> SSAValue:
    """`value` (a vertex or an integer) as an i32 vertex id or count."""
    value_type = value.type
    if value_type == i32 or isinstance(value_type, VertexType):
        return value
    if isinstance(value_type, IndexType):
        return b.insert(arith.IndexCastOp(value, i32)).result
    assert isinstance(value_type, IntegerType)
    if value_type.width.data > 32:
        return b.insert(arith.TruncIOp(value, i32)).result
    return b.insert(arith.ExtSIOp(value, i32)).result


def as_index(b: Builder, value: SSAValue) -> SSAValue:
    """`value` (a vertex or an integer) as an `index`, for memref accesses."""
    if isinstance(value.type, IndexType):
        return value
    return b.insert(arith.IndexCastOp(value, IndexType())).result


def resize(b: Builder, value: SSAValue, target: Attribute) -> SSAValue:
    """An integer `value` converted (sign-extended or truncated) to `target`."""
    source = i32 if isinstance(value.type, VertexType) else value.type
    if source == target:
        return value
    assert isinstance(source, IntegerType) and isinstance(target, IntegerType)
    if source.width.data > target.width.data:
        return b.insert(arith.TruncIOp(value, target)).result
    return b.insert(arith.ExtSIOp(value, target)).result


def c_name(text: str) -> str:
    """`text` made a C identifier (kernel names)."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", text)
    return name if name and not name[0].isdigit() else f"_{name}"


@dataclass
class GpuContext:
    """What strategies build with: the graph on the device and shared resources."""

    module: ModuleOp
    vertices: SSAValue
    """The number of vertices V (host i32)."""
    edges: SSAValue
    """The number of edges E (host i32)."""
    graph: SSAValue
    """The `host.load_graph` handle."""
    setup_point: Operation
    """Program-wide setup (arrays, scratch buffers) is inserted before this op of
    `main`'s entry block, right after the graph is loaded."""
    block_size: int = 256
    enqueues_per_item: int = 1
    """The most `frontier.enqueue`s in one vertex map (each runs at most once per
    edge or vertex a thread visits): what bounds an output's size."""
    kernels: list[gir_gpu.KernelOp] = field(default_factory=list)
    _arrays: dict[GraphArray, SSAValue] = field(default_factory=dict)
    _shared: dict[str, SSAValue] = field(default_factory=dict)
    _helpers: dict[str, str] = field(default_factory=dict)
    _names: set[str] = field(default_factory=set)

    def setup_builder(self) -> Builder:
        """A builder for program-wide setup code (after the graph is loaded)."""
        return Builder(InsertPoint.before(self.setup_point))

    def graph_array(self, kind: GraphArray, element: Attribute = i32) -> SSAValue:
        """A device array of the loaded graph (made once, at setup)."""
        if kind not in self._arrays:
            op = host.GraphArrayOp(self.graph, kind)
            if element != i32:
                op = host.GraphArrayOp.create(
                    operands=[self.graph],
                    properties=dict(op.properties),
                    result_types=[buffer_type(element)],
                )
            op.result.name_hint = kind.value
            self.setup_builder().insert(op)
            self._arrays[kind] = op.result
        return self._arrays[kind]

    def shared(self, key: str, make: Callable[[Builder], SSAValue]) -> SSAValue:
        """A program-wide value made once at setup by `make` (a scratch buffer, a
        capacity), by `key`."""
        if key not in self._shared:
            self._shared[key] = make(self.setup_builder())
        return self._shared[key]

    def unique_name(self, base: str) -> str:
        """A symbol name for a new kernel, unique in the module."""
        if not self._names:
            self._names = {
                name.data
                for op in self.module.ops
                if isinstance(name := op.properties.get("sym_name"), StringAttr)
            }
        name, index = c_name(base), 1
        candidate = name
        while candidate in self._names:
            index += 1
            candidate = f"{name}_{index}"
        self._names.add(candidate)
        return candidate

    def helper_kernel(
        self,
        key: str,
        args: Sequence[tuple[str, Attribute]],
        build: Callable[[Builder, Sequence[SSAValue], SSAValue], None],
    ) -> str:
        """A kernel made once per program, named after `key`; returns its name.
        `args` are its (name, type) arguments, the last one the i32 thread count; `build(b, args, gid)` fills in
        what each thread with `gid < count` does."""
        if key in self._helpers:
            return self._helpers[key]
        arg_names = [name for name, _ in args]
        arg_types = [arg_type for _, arg_type in args]
        block = Block(arg_types=arg_types)
        for arg, hint in zip(block.args, arg_names, strict=True):
            arg.name_hint = hint
        b = Builder(InsertPoint.at_end(block))
        gid = b.insert(gir_gpu.IdOp(Dimension.GLOBAL)).result
        gid.name_hint = "gid"
        active = b.insert(arith.CmpiOp(gid, block.args[-1], "slt")).result
        then = Block()
        b.insert(scf.IfOp(active, [], Region(then)))
        b.insert(gir_gpu.ReturnOp())
        inner = Builder(InsertPoint.at_end(then))
        build(inner, block.args, gid)
        inner.insert(scf.YieldOp())
        name = self.unique_name(key)
        self.kernels.append(gir_gpu.KernelOp(name, arg_types, Region(block)))
        self._helpers[key] = name
        return name

    def launch(
        self, b: Builder, kernel: str, count: SSAValue, args: Sequence[SSAValue]
    ) -> None:
        """Launches `kernel` with at least `count` threads (at least one block, so
        an empty frontier is a valid launch)."""
        block = constant(b, self.block_size)
        rounding = constant(b, self.block_size - 1)
        padded = b.insert(arith.AddiOp(count, rounding)).result
        blocks = b.insert(arith.DivSIOp(padded, block)).result
        grid = b.insert(arith.MaxSIOp(blocks, constant(b, 1))).result
        b.insert(host.LaunchOp(kernel, grid, block, args))


class FrontierLowering(ABC):
    """How one frontier representation lives on the GPU: its host values (what one
    frontier value becomes in `main`) and its host and device operations."""

    @abstractmethod
    def host_types(self) -> list[Attribute]:
        """The types of the host values one frontier becomes."""

    def new(self, ctx: GpuContext, b: Builder, count: SSAValue) -> list[SSAValue]:
        """`frontier.new`: fresh storage holding vertices 0..count-1."""
        raise NotImplementedError(f"{type(self).__name__} cannot be created")

    @abstractmethod
    def size(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> SSAValue:
        """`frontier.size`: the number of vertices (host i32)."""

    def add(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], vertex: SSAValue
    ) -> list[SSAValue]:
        """`frontier.add` on the host."""
        raise NotImplementedError(f"{type(self).__name__} cannot be added to")

    def clear(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> list[SSAValue]:
        """`frontier.clear`: empty, same storage."""
        raise NotImplementedError(f"{type(self).__name__} cannot be cleared")

    def free(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> None:
        """`frontier.free`: releases the storage."""

    @abstractmethod
    def thread_count(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue]
    ) -> SSAValue:
        """How many threads a vertex map over this frontier launches (host i32)."""

    @abstractmethod
    def thread_vertex(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], thread: SSAValue
    ) -> SSAValue:
        """Device code: the vertex (i32) of thread `thread` (< thread_count)."""

    def begin_output(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> None:
        """Host code before a vertex map fills this frontier."""
        raise NotImplementedError(f"{type(self).__name__} cannot be an output")

    def enqueue(
        self,
        ctx: GpuContext,
        b: Builder,
        values: list[SSAValue],
        vertex: SSAValue,
        dedup: bool,
    ) -> None:
        """Device code: adds `vertex` (i32), concurrently with other threads."""
        raise NotImplementedError(f"{type(self).__name__} cannot be an output")

    def end_output(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], dedup: bool
    ) -> list[SSAValue]:
        """Host code after the vertex map: the filled frontier's host values."""
        raise NotImplementedError(f"{type(self).__name__} cannot be an output")


class LayoutLowering(ABC):
    """How one topology layout is read in device code."""

    @abstractmethod
    def edge_range(
        self, ctx: GpuContext, b: Builder, vertex: SSAValue
    ) -> tuple[SSAValue, SSAValue]:
        """The [begin, end) edge positions (index) of `vertex` (i32)."""

    @abstractmethod
    def neighbor(self, ctx: GpuContext, b: Builder, position: SSAValue) -> SSAValue:
        """The other endpoint (i32) of the edge at `position` (index)."""

    @abstractmethod
    def weight(
        self, ctx: GpuContext, b: Builder, position: SSAValue, weight_type: Attribute
    ) -> SSAValue:
        """The weight of the edge at `position` (index)."""
