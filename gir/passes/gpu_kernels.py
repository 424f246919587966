"""What the frontier -> GPU passes and the strategy files build GPU-level IR with
(not a pass).

- scalar conversions (`constant`, `as_i32`, `as_index`, `resize`) and `c_name`;
- `GpuContext`: the loaded graph of a module's `@main` (its `host.load_graph`,
  sizes and arrays), program-wide setup values made once and found again by
  later passes through their `setup` attribute, kernel names, helper kernels and
  launches. It is rebuilt from the IR by each pass (`GpuContext.of`), so the
  passes share nothing but the module;
- the kernel skeleton (`kernel_skeleton`: one thread per unit of work, `if gid <
  count`) and the outliner (`outline`: a block of host-built code becomes a
  `gir_gpu.kernel` whose arguments are the host values it uses).

Vector elements in device code are `gpu_elements.py`'s; frontier host values and
the `KernelBuilder` of kernel formers are `kernel_builder.py`'s.

Host code is built with a `Builder` placed in `main`; device code with a
`Builder` placed inside a kernel body, where host values may be used directly
until `outline` turns them into kernel arguments.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

from xdsl.builder import Builder
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    UnrealizedConversionCastOp,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import frontier, gir_gpu, host
from gir.dialects.graph import VERTEX_COUNT, EdgeSetType, LoadEdgesOp, VectorType, VertexType
from gir.dialects.host import GraphArray, GraphSize, buffer_type
from gir.dialects.schedule import DEFAULT_BLOCK_SIZE
from gir.ir_walk import walk
from gir.passes.ir_utils import main_function

SETUP_ATTR = "setup"
"""The discardable attribute of program-wide setup code right after the graph
load (a unit attribute), naming a shared value (a scratch buffer, a capacity) so
that later passes find it again (a string). `frontier-maps-to-kernels` drops it."""


def constant(b: Builder, value: int, value_type: Attribute = i32) -> SSAValue:
    """An integer constant (i32 unless said)."""
    return b.insert(arith.ConstantOp(IntegerAttr(value, value_type))).result


def ceil_div(b: Builder, total: SSAValue, divisor: SSAValue) -> SSAValue:
    """ceil(total / divisor) for a nonnegative `total` and a positive `divisor`
    (integers of one type), as (total - 1) / divisor + 1: it cannot overflow, and
    it is 1 when `total` is 0 (C's division truncates -1 / divisor to 0), so
    what it counts is never empty."""
    one = constant(b, 1, total.type)
    before_last = b.insert(arith.SubiOp(total, one)).result
    quotient = b.insert(arith.DivSIOp(before_last, divisor)).result
    return b.insert(arith.AddiOp(quotient, one)).result


def as_i32(b: Builder, value: SSAValue) -> SSAValue:
    """`value` (a vertex id or an integer) as an i32 vertex id or count."""
    value_type = value.type
    if value_type == i32:
        return value
    if isinstance(value_type, VertexType):
        return vertex_id(b, value)
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
    if value.type == i64:  # an edge offset of a 64-bit program: no truncation
        return b.insert(arith.IndexCastOp(value, IndexType())).result
    return b.insert(arith.IndexCastOp(as_i32(b, value), IndexType())).result


def resize(b: Builder, value: SSAValue, target: Attribute) -> SSAValue:
    """An integer (or vertex) `value` converted (sign-extended or truncated) to `target`."""
    value = as_i32(b, value) if isinstance(value.type, VertexType) else value
    source = value.type
    if source == target:
        return value
    assert isinstance(source, IntegerType) and isinstance(target, IntegerType)
    if source.width.data > target.width.data:
        return b.insert(arith.TruncIOp(value, target)).result
    return b.insert(arith.ExtSIOp(value, target)).result


def vertex_id(b: Builder, vertex: SSAValue) -> SSAValue:
    """The i32 id of a `!graph.vertex` value: on the GPU a vertex is its id, so this
    is a cast that `frontier-maps-to-kernels` folds once the vertex is an i32."""
    owner = vertex.owner
    if isinstance(owner, UnrealizedConversionCastOp) and owner.inputs[0].type == i32:
        return owner.inputs[0]
    return b.insert(UnrealizedConversionCastOp.get([vertex], [i32])).results[0]


def as_vertex(b: Builder, value: SSAValue) -> SSAValue:
    """An i32 vertex id as a `!graph.vertex` (the cast `vertex_id` undoes)."""
    owner = value.owner
    if isinstance(owner, UnrealizedConversionCastOp) and isinstance(
        owner.inputs[0].type, VertexType
    ):
        return owner.inputs[0]
    return b.insert(UnrealizedConversionCastOp.get([value], [VertexType()])).results[0]


def replace(op: Operation, results: Sequence[SSAValue]) -> None:
    """Replaces `op`'s results by `results` (built before it) and erases it."""
    for old, new in zip(op.results, results, strict=True):
        old.replace_all_uses_with(new)
    Rewriter.erase_op(op)


def c_name(text: str) -> str:
    """`text` made a C identifier (kernel names)."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", text)
    return name if name and not name[0].isdigit() else f"_{name}"


_IndexedOp = TypeVar("_IndexedOp", bound=Operation)


def _mark_setup(op: Operation) -> None:
    op.attributes.setdefault(SETUP_ATTR, UnitAttr())


_SIZE_MARKS = {GraphSize.VERTICES: "graph.num_vertices", GraphSize.EDGES: "graph.num_edges"}
"""The attributes that mark the size constants of a program without a graph."""


def _declared_vertex_count(main: func.FuncOp) -> dict[GraphSize, SSAValue]:
    """The sizes of a program that loads no graph: the vertex count its `main`
    declares (`VERTEX_COUNT`) and no edges, as `arith.constant`s at the start of
    `main` (marked `setup`, made once and found again by their marks), or none."""
    count = main.attributes.get(VERTEX_COUNT)
    if not isinstance(count, IntegerAttr):
        return {}
    values = {GraphSize.VERTICES: count.value.data, GraphSize.EDGES: 0}
    sizes: dict[GraphSize, SSAValue] = {}
    for what, mark in _SIZE_MARKS.items():
        found = [op for op in main.body.block.ops if isinstance(op, arith.ConstantOp) and mark in op.attributes]
        if found:
            sizes[what] = found[0].result
            continue
        constant_op = arith.ConstantOp(IntegerAttr(values[what], i32))
        constant_op.attributes[mark] = UnitAttr()
        constant_op.attributes[SETUP_ATTR] = UnitAttr()
        constant_op.result.name_hint = mark.removeprefix("graph.")
        Rewriter.insert_op(constant_op, InsertPoint.at_start(main.body.block))
        sizes[what] = constant_op.result
    return sizes


@dataclass
class GpuContext:
    """The graph on the device and the program-wide resources of one module.

    A program that loads no graph (it computes on scalars and fixed-size vectors
    only) has a context too: its setup code goes to the start of `main`, and
    asking for the graph or its sizes is a `UserError`."""

    module: ModuleOp
    main: func.FuncOp
    loaded: SSAValue | None
    """The `host.load_graph` handle, or None when the program loads no graph."""
    sizes: dict[GraphSize, SSAValue] = field(default_factory=dict)
    """The graph's sizes (host i32), one `host.graph_size` each."""
    _names: set[str] = field(default_factory=set)
    _bindings: dict[str, host.BindGlobalOp] = field(default_factory=dict)
    """`main`'s `host.bind_global`s by name, indexed on the first lookup (and
    again when a lookup misses or finds a binding erased since)."""
    _shared: dict[str, Operation] = field(default_factory=dict)
    """The setup ops that make a `shared` value, by key (indexed as `_bindings`)."""
    _setup_end: Operation | None = None
    """The first op of `main` after the setup code, as `setup_builder` last found it."""

    @staticmethod
    def of(module: ModuleOp) -> GpuContext:
        """The context of `module`, whose `@main` loads the graph with
        `host.load_graph` at its top level (made by `frontier-host-setup`), or
        loads none."""
        main = main_function(module)
        loads = [op for op in walk(main) if isinstance(op, host.LoadGraphOp)]
        if not loads and not any(isinstance(op, LoadEdgesOp) for op in walk(main)):
            return GpuContext(module, main, None, _declared_vertex_count(main))
        if len(loads) != 1 or loads[0].parent_block() is not main.body.block:
            raise UserError(
                "error: main must load the graph once at its top level "
                "(host.load_graph): run frontier-host-setup first"
            )
        handle = loads[0].result
        sizes: dict[GraphSize, SSAValue] = {}
        for use in handle.uses:
            if isinstance(use.operation, host.GraphSizeOp):
                sizes.setdefault(use.operation.what.data, use.operation.result)
        after = Builder(InsertPoint.after(loads[0]), operation_insertion_handler=[_mark_setup])
        for what, hint in ((GraphSize.VERTICES, "num_vertices"), (GraphSize.EDGES, "num_edges")):
            if what not in sizes:
                size_type = host.edge_index_type(module) if what == GraphSize.EDGES else i32
                sizes[what] = after.insert(host.GraphSizeOp(handle, what, size_type)).result
                sizes[what].name_hint = hint
        return GpuContext(module, main, handle, sizes)

    @property
    def graph(self) -> SSAValue:
        """The `host.load_graph` handle (a `UserError` when the program loads none)."""
        if self.loaded is None:
            raise UserError(
                "error: the program loads no graph, but uses one (a vertex vector, "
                "a vertex set or a traversal): load it with `load(argv[1])`"
            )
        return self.loaded

    @property
    def vertices(self) -> SSAValue:
        """The number of vertices V (host i32); in a program that loads no graph,
        the count `VERTEX_COUNT` declares."""
        if GraphSize.VERTICES not in self.sizes:
            self.graph  # noqa: B018 -- the error of a program without a graph
        return self.sizes[GraphSize.VERTICES]

    @property
    def edges(self) -> SSAValue:
        """The number of edges E (host i32); none in a program that loads no
        graph but declares its vertices."""
        if GraphSize.EDGES not in self.sizes:
            self.graph  # noqa: B018 -- the error of a program without a graph
        return self.sizes[GraphSize.EDGES]

    # -- program-wide setup ---------------------------------------------------

    def setup_builder(self) -> Builder:
        """A builder for program-wide setup code: right after the graph load (at
        the start of `main` when the program loads no graph) and the setup code
        already there (the ops marked `setup`, as this builder marks what it
        inserts)."""
        point = self._setup_end
        if point is None or not self._still_ends_setup(point):
            point = self._setup_start()
        # Setup ops inserted since (before the point) need no walk: they precede it.
        while point is not None and SETUP_ATTR in point.attributes:
            point = point.next_op
        assert point is not None, "main ends with its terminator"
        self._setup_end = point
        return Builder(InsertPoint.before(point), operation_insertion_handler=[_mark_setup])

    def _setup_start(self) -> Operation | None:
        """Where the setup code starts: right after the graph load, else at the
        start of `main`."""
        if self.loaded is None:
            return self.main.body.block.first_op
        load = self.loaded.owner
        assert isinstance(load, Operation)
        return load.next_op

    def _still_ends_setup(self, point: Operation) -> bool:
        """Whether the remembered end of the setup code still is one: in `main`'s
        block, right after the graph load or a setup op (an op inserted before it
        that is not setup code ends the setup code instead, and is found by
        walking again from the load)."""
        if point.parent is not self.main.body.block:
            return False
        before = point.prev_op
        if before is None:
            return self.loaded is None
        return SETUP_ATTR in before.attributes or (
            self.loaded is not None and before is self.loaded.owner
        )

    @property
    def edge_type(self) -> IntegerType:
        """i32 or i64: the program's edge index type (`host.edge_index_type`),
        of edge offsets, edge counts and sums of degrees."""
        return host.edge_index_type(self.module)

    def graph_array(self, kind: GraphArray, element: Attribute | None = None) -> SSAValue:
        """A device array of the loaded graph (made once, at setup); `element`
        defaults to the edge index type for offsets, else i32."""
        for use in self.graph.uses:
            op = use.operation
            if isinstance(op, host.GraphArrayOp) and op.array.data == kind:
                return op.result
        if element is None:
            element = self.edge_type if kind in host.OFFSET_ARRAYS else i32
        op = host.GraphArrayOp(self.graph, kind, element=element)
        op.result.name_hint = kind.value
        return self.setup_builder().insert(op).result

    def shared(self, key: str, make: Callable[[Builder], SSAValue]) -> SSAValue:
        """A program-wide value (a scratch buffer, a capacity) made once at setup by
        `make` and found again by `key`, in this pass or a later one."""
        found = self._indexed(self._shared, key, self._index_shared)
        if found is not None:
            return found.results[0]
        value = make(self.setup_builder())
        owner = value.owner
        assert isinstance(owner, Operation)
        owner.attributes[SETUP_ATTR] = StringAttr(key)
        self._shared[key] = owner
        return value

    @cached_property
    def vectors(self) -> dict[str, VectorType]:
        """The module's global vectors by name (`gpu_elements.global_vectors`),
        read once per context rather than once per access."""
        from gir.passes.gpu_elements import global_vectors  # gpu_elements imports this module

        return global_vectors(self.module)

    def buffer(self, name: str) -> SSAValue:
        """The device buffer of the global vector `name` (its `host.bind_global`)."""
        binding = self._indexed(self._bindings, name, self._index_bindings)
        if binding is None:
            raise UserError(f"error: '@{name}' is not a global vector of the program")
        return binding.buffer

    def _indexed(
        self, index: dict[str, _IndexedOp], key: str, rebuild: Callable[[], None]
    ) -> _IndexedOp | None:
        """`index[key]` while its op is still in `main`; else the index is built
        again from `main` (one walk of its block) and asked once more. Lookups
        cost one walk per pass, not one per lookup (programs with thousands of
        globals)."""
        op = index.get(key)
        if op is None or op.parent is not self.main.body.block:
            rebuild()
            op = index.get(key)
        return op

    def _index_bindings(self) -> None:
        self._bindings.clear()
        for op in self.main.body.block.ops:
            if isinstance(op, host.BindGlobalOp):
                self._bindings.setdefault(op.global_name.data, op)

    def _index_shared(self) -> None:
        self._shared.clear()
        for op in self.main.body.block.ops:
            marker = op.attributes.get(SETUP_ATTR)
            if isinstance(marker, StringAttr):
                self._shared.setdefault(marker.data, op)

    @property
    def enqueues_per_item(self) -> int:
        """The most `frontier.enqueue`s in one map op: each runs at most once per edge
        or vertex a thread visits, which bounds an output's size."""
        return max(
            [1]
            + [
                sum(isinstance(inner, frontier.EnqueueOp) for inner in walk(op))
                for op in walk(self.main)
                if isinstance(op, frontier.MapOps)
            ]
        )

    # -- kernels ----------------------------------------------------------------

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

    def add_kernel(self, kernel: gir_gpu.KernelOp) -> None:
        """Puts `kernel` into the module, before `main`."""
        self.module.body.block.insert_op_before(kernel, self.main)

    def helper_kernel(
        self,
        key: str,
        args: Sequence[tuple[str, Attribute]],
        build: Callable[[Builder, Sequence[SSAValue], SSAValue], None],
    ) -> str:
        """A kernel made once per program, named `key`; returns its name. `args` are
        its (name, type) arguments, the last one the i32 thread count;
        `build(b, args, gid)` fills in what each thread with `gid < count` does."""
        name = c_name(key)
        for op in self.module.ops:
            if isinstance(op, gir_gpu.KernelOp) and op.sym_name.data == name:
                return name
        arg_types = [arg_type for _, arg_type in args]
        block = Block(arg_types=arg_types)
        for arg, (hint, _) in zip(block.args, args, strict=True):
            arg.name_hint = hint
        inner, gid = kernel_skeleton(block, block.args[-1])
        build(inner, block.args, gid)
        self._names.add(name)
        self.add_kernel(gir_gpu.KernelOp(name, arg_types, Region(block)))
        return name

    def launch(
        self,
        b: Builder,
        kernel: str,
        count: SSAValue,
        args: Sequence[SSAValue],
        block_size: int = DEFAULT_BLOCK_SIZE,
    ) -> None:
        """Launches `kernel` in blocks of `block_size` threads, with at least `count`
        threads (at least one block, so an empty frontier is a valid launch)."""
        block = constant(b, block_size)
        rounding = constant(b, block_size - 1)
        padded = b.insert(arith.AddiOp(count, rounding)).result
        blocks = b.insert(arith.DivSIOp(padded, block)).result
        grid = b.insert(arith.MaxSIOp(blocks, constant(b, 1))).result
        b.insert(host.LaunchOp(kernel, grid, block, args))


def kernel_skeleton(block: Block, count: SSAValue) -> tuple[Builder, SSAValue]:
    """Fills `block` (a kernel body) with `gid = global id; if gid < count {...}`;
    returns a builder inside the `if` and `gid`. `count` may be a host value."""
    b = Builder(InsertPoint.at_end(block))
    gid = b.insert(gir_gpu.IdOp(gir_gpu.Dimension.GLOBAL)).result
    gid.name_hint = "gid"
    active = b.insert(arith.CmpiOp(gid, count, "slt")).result
    then = Block()
    b.insert(scf.IfOp(active, [], Region(then)))
    b.insert(gir_gpu.ReturnOp())
    end = scf.YieldOp()
    then.add_op(end)
    return Builder(InsertPoint.before(end)), gid


def outline(name: str, block: Block, host_builder: Builder) -> tuple[gir_gpu.KernelOp, list[SSAValue]]:
    """The kernel named `name` whose body is `block`; the host values it uses become
    its arguments (constants are copied in, an i1 travels as an i8). Returns the
    kernel and the host values to launch it with."""
    inside_ops = {inner for op in block.ops for inner in walk(op)}
    inside_blocks = {block} | {
        inner_block for op in inside_ops for region in op.regions for inner_block in region.blocks
    }

    def outside(value: SSAValue) -> bool:
        owner = value.owner
        if isinstance(owner, Block):
            return owner not in inside_blocks
        return owner not in inside_ops

    captured: list[SSAValue] = []
    constants: dict[SSAValue, SSAValue] = {}
    start = block.first_op
    assert start is not None
    for op in [inner for top in list(block.ops) for inner in walk(top)]:
        for value in op.operands:
            if not outside(value) or value in captured or value in constants:
                continue
            if isinstance(value.owner, arith.ConstantOp):
                copy = value.owner.clone()
                block.insert_op_before(copy, start)
                constants[value] = copy.result
            else:
                captured.append(value)
    for value, copy in constants.items():
        value.replace_uses_with_if(copy, lambda use: use.operation in inside_ops)
    host_args: list[SSAValue] = []
    for position, value in enumerate(captured):
        if isinstance(value.type, frontier.FrontierType | EdgeSetType | VertexType):
            raise UserError(f"error: kernel '{name}' uses a host value of type {value.type}")
        arg_type = i8 if value.type == i1 else value.type
        arg = block.insert_arg(arg_type, position)
        arg.name_hint = value.name_hint
        replacement: SSAValue = arg
        host_value = value
        if value.type == i1:
            narrow = arith.TruncIOp(arg, i1)
            block.insert_op_before(narrow, start)
            replacement = narrow.result
            host_value = host_builder.insert(arith.ExtUIOp(value, i8)).result
        value.replace_uses_with_if(replacement, lambda use: use.operation in inside_ops)
        host_args.append(host_value)
    kernel = gir_gpu.KernelOp(name, [arg.type for arg in block.args], Region(block))
    return kernel, host_args
