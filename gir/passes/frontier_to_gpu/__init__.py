"""`frontier-to-gpu`: the frontier level to the GPU level, and its strategy
registries (one entry per frontier representation and per layout)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    SymbolRefAttr,
    i1,
    i8,
    i32,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import dce

from gir.diagnostics import UserError
from gir.dialects import frontier, gir_gpu, graph, host
from gir.dialects.frontier import AllVerticesType, Layout, SparseQueueType
from gir.dialects.gir_gpu import AtomicKind, Dimension
from gir.dialects.host import GraphArray, GraphSize
from gir.passes.frontier_to_gpu.all_vertices import AllVertices
from gir.passes.frontier_to_gpu.context import (
    FrontierLowering,
    GpuContext,
    LayoutLowering,
    as_i32,
    as_index,
    constant,
    resize,
)
from gir.passes.frontier_to_gpu.csr import Csr
from gir.passes.frontier_to_gpu.sparse_queue import SparseQueue
from gir.passes.ir_utils import main_function, statement

REPRESENTATIONS: dict[type[Attribute], FrontierLowering] = {
    SparseQueueType: SparseQueue(),
    AllVerticesType: AllVertices(),
}
"""How each frontier type lives on the GPU (a new representation: one entry)."""

LAYOUTS: dict[Layout, LayoutLowering] = {
    Layout.CSR: Csr(),
}
"""How each topology layout is read on the GPU (a new layout: one entry)."""


@dataclass(frozen=True)
class FrontierToGpu(ModulePass):
    """Lowers the frontier level to GPU kernels and a host main (the gir_gpu level).

    Host: the graph is loaded once where `graph.load_edges` was; every global
    vector becomes a device buffer (bool vectors: i8) named with
    `host.bind_global` right after its allocation and zero-filled unless `main`
    fills it first; vector fills, out-degrees and element reads/writes in `main`
    become `host.fill` / `copy` / `read` / `write`; frontier values become the
    host values of their representation (a queue: items buffer + size), carried
    through `scf` loops as such; a vertex map becomes a kernel (one thread per
    frontier vertex, its body inlined: vector accesses are `memref` ops or atomics
    on the buffers, layout ops read the graph's arrays) and its launch, with the
    host values the body uses passed as kernel arguments (an i1 as i8).

    Before:
    ```mlir
    %o = frontier.vertex_map %in : !frontier.queue into %e : !frontier.queue
        -> !frontier.queue {
    ^bb0(%v : !graph.vertex):
      ...
      frontier.enqueue %dst
      frontier.yield
    }
    ```
    After:
    ```mlir
    gir_gpu.kernel @map_s1(%queue : memref<?xi32>, %size : i32, ...) {
      %gid = gir_gpu.id global
      ...  // if gid < size: v = queue[gid]; body; enqueue = atomic add + store
      gir_gpu.return
    }
    func.func @main() {
      ...
      host.write %e_size, %queue_size[%c0] : i32, memref<?xi32>, i32
      host.launch @map_s1 grid %grid block %block (%queue, %size, ...) : ...
      %o_size = host.read %queue_size[%c0] : memref<?xi32>, i32 -> i32
      ...
    }
    ```
    """

    name = "frontier-to-gpu"

    block_size: int = 256

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _Lowering(op, self.block_size).run()


def _hoist_frontier_sizes(main: func.FuncOp) -> None:
    """Moves `frontier.size` of a host frontier out of traversal and map bodies
    (GraphIt's `vertices.size()` in a vertex function): the size is computed on
    the host before the launch and reaches the kernel as a scalar argument."""
    for device_op in [
        op for op in main.walk() if isinstance(op, frontier.EdgeTraverseOp | frontier.VertexMapOp)
    ]:
        for size in [op for op in device_op.walk() if isinstance(op, frontier.SizeOp)]:
            if not _defined_inside(size.frontier, device_op):
                size.detach()
                Rewriter.insert_op(size, InsertPoint.before(device_op))


def _defined_inside(value: SSAValue, op: Operation) -> bool:
    """Whether `value` is defined in one of `op`'s regions."""
    owner = value.owner
    if isinstance(owner, Block):
        parent = owner.parent_op()
        return parent is not None and op.is_ancestor(parent)
    return owner is not op and op.is_ancestor(owner)


def _is_frontier(value_type: Attribute) -> bool:
    return type(value_type) in REPRESENTATIONS


def _element(vector: graph.VectorType) -> Attribute:
    """A vector's element type on the device (bool: i8)."""
    return i8 if vector.element_type == i1 else vector.element_type


def _is_float(value_type: Attribute) -> bool:
    return not isinstance(value_type, IntegerType)


def _compare(b: Builder, predicate: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    """`lhs <predicate> rhs` with predicate one of eq, ne, gt, lt (signed/ordered)."""
    if _is_float(lhs.type):
        names = {"eq": "oeq", "ne": "one", "gt": "ogt", "lt": "olt"}
        return b.insert(arith.CmpfOp(lhs, rhs, names[predicate])).result
    names = {"eq": "eq", "ne": "ne", "gt": "sgt", "lt": "slt"}
    return b.insert(arith.CmpiOp(lhs, rhs, names[predicate])).result


def _combine(b: Builder, kind: graph.ReduceKind, old: SSAValue, value: SSAValue) -> SSAValue:
    floating = _is_float(value.type)
    ops = {
        graph.ReduceKind.MIN: arith.MinimumfOp if floating else arith.MinSIOp,
        graph.ReduceKind.MAX: arith.MaximumfOp if floating else arith.MaxSIOp,
        graph.ReduceKind.ADD: arith.AddfOp if floating else arith.AddiOp,
    }
    return b.insert(ops[kind](old, value)).result


def _zero(b: Builder, value_type: Attribute) -> SSAValue:
    if isinstance(value_type, IntegerType):
        return b.insert(arith.ConstantOp(IntegerAttr(0, value_type))).result
    return b.insert(arith.ConstantOp(FloatAttr(0.0, value_type))).result  # type: ignore[arg-type]


_ATOMIC_KINDS = {
    graph.ReduceKind.MIN: AtomicKind.MIN,
    graph.ReduceKind.MAX: AtomicKind.MAX,
    graph.ReduceKind.ADD: AtomicKind.ADD,
}

_KEPT_DIALECTS = ("arith", "math", "scf")
_DEVICE_DIALECTS = (*_KEPT_DIALECTS, "memref", "gir_gpu")


class _Lowering:
    """One run of frontier-to-gpu over a module."""

    def __init__(self, module: ModuleOp, block_size: int):
        self.module = module
        self.main = main_function(module)
        self.block_size = block_size
        self.vectors: dict[str, graph.VectorType] = {
            op.sym_name.data: op.global_type
            for op in module.ops
            if isinstance(op, graph.GlobalOp) and isinstance(op.global_type, graph.VectorType)
        }
        self.buffers: dict[str, SSAValue] = {}
        self.values: dict[SSAValue, list[SSAValue]] = {}
        self.graveyard: list[Operation] = []
        self.dead_args: list[BlockArgument] = []
        self.output: tuple[FrontierLowering, list[SSAValue], bool] | None = None
        self.ctx: GpuContext

    # -- driver -------------------------------------------------------------

    def run(self) -> None:
        self._check_input()
        _hoist_frontier_sizes(self.main)
        self._retype_vertices()
        self._load_graph()
        self._lower_block(self.main.body.block)
        for op in reversed(self.graveyard):
            Rewriter.erase_op(op)
        for arg in self.dead_args:
            arg.block.erase_arg(arg)
        for op in list(self.module.ops):
            if isinstance(op, graph.GlobalOp):
                self.module.body.block.erase_op(op)
        for kernel in self.ctx.kernels:
            self.module.body.block.insert_op_before(kernel, self.main)
            _tidy_constants(kernel.body.block)
        _tidy_constants(self.main.body.block)
        dce(self.module)

    def _check_input(self) -> None:
        for op in self.module.walk():
            if isinstance(op, frontier.EdgeTraverseOp):
                raise UserError(
                    f"error: load balance {op.load_balance.data.value} of "
                    f"{statement(op)} was not lowered by any frontier-lb pass"
                )
            if isinstance(op, func.FuncOp) and op is not self.main:
                raise UserError(
                    f"error: function '@{op.sym_name.data}' is left: run "
                    "graph-to-frontier before frontier-to-gpu"
                )
            if isinstance(op, graph.GlobalOp) and op.sym_name.data not in self.vectors:
                raise UserError(
                    f"error: global '@{op.sym_name.data}' is left: run "
                    "graph-to-frontier before frontier-to-gpu"
                )

    def _retype_vertices(self) -> None:
        """Vertices carried by scf ops become i32 ids."""
        for op in list(self.main.walk()):
            if not isinstance(op, scf.WhileOp | scf.ForOp | scf.IfOp):
                continue
            for result in list(op.results):
                if isinstance(result.type, graph.VertexType):
                    Rewriter.replace_value_with_new_type(result, i32)
            for region in op.regions:
                for block in region.blocks:
                    for arg in list(block.args):
                        if isinstance(arg.type, graph.VertexType):
                            Rewriter.replace_value_with_new_type(arg, i32)

    def _load_graph(self) -> None:
        loads = [op for op in self.main.walk() if isinstance(op, graph.LoadEdgesOp)]
        if len(loads) != 1:
            raise UserError(
                "error: the program must load exactly one graph (graph.load_edges) "
                f"in main, it loads {len(loads)}"
            )
        (load,) = loads
        if load.parent_block() is not self.main.body.block:
            raise UserError("error: the graph must be loaded at the top level of main")
        edges_type = load.result.type
        assert isinstance(edges_type, graph.EdgeSetType)
        b = Builder(InsertPoint.before(load))
        handle = b.insert(
            host.LoadGraphOp(
                argv=None if load.argv is None else load.argv.value.data,
                path=None if load.path is None else load.path.data,
                weighted=edges_type.is_weighted,
            )
        ).result
        handle.name_hint = "graph"
        vertices = b.insert(host.GraphSizeOp(handle, GraphSize.VERTICES)).result
        vertices.name_hint = "num_vertices"
        edges = b.insert(host.GraphSizeOp(handle, GraphSize.EDGES)).result
        edges.name_hint = "num_edges"
        fanout = max(
            [1]
            + [
                sum(isinstance(inner, frontier.EnqueueOp) for inner in op.walk())
                for op in self.main.walk()
                if isinstance(op, frontier.VertexMapOp)
            ]
        )
        self.ctx = GpuContext(
            self.module,
            vertices,
            edges,
            handle,
            load,
            block_size=self.block_size,
            enqueues_per_item=fanout,
        )
        first_uses = self._first_uses()
        for name, vector in self.vectors.items():
            first = first_uses.get(name)
            if first is not None and first.is_before_in_block(load):
                raise UserError(f"error: vector '@{name}' is used before the graph is loaded")
            b = self.ctx.setup_builder()
            count = vertices if vector.per_vertex else constant(b, vector.size.value.data)
            buffer = b.insert(host.AllocOp(count, _element(vector))).result
            buffer.name_hint = name
            b.insert(host.BindGlobalOp(buffer, name))
            if not isinstance(first, graph.VectorFillOp | graph.OutDegreesOp):
                b.insert(host.FillOp(buffer, _zero(b, _element(vector)), count))
            self.buffers[name] = buffer
        self.graveyard.append(load)

    def _first_uses(self) -> dict[str, Operation]:
        """The top-level op of main where each vector is first named."""
        first: dict[str, Operation] = {}
        for top in self.main.body.block.ops:
            for op in top.walk():
                for value in [*op.properties.values(), *op.attributes.values()]:
                    if isinstance(value, SymbolRefAttr):
                        first.setdefault(value.root_reference.data, top)
        return first

    # -- values ---------------------------------------------------------------

    def _repr(self, value_type: Attribute) -> FrontierLowering:
        lowering = REPRESENTATIONS.get(type(value_type))
        if lowering is None:
            raise UserError(f"error: frontier type {value_type} has no GPU lowering")
        return lowering

    def _frontier(self, value: SSAValue) -> list[SSAValue]:
        if value not in self.values:
            raise UserError(f"error: frontier value {value.name_hint or ''} was not lowered")
        return self.values[value]

    def _expand(self, values) -> list[SSAValue]:
        expanded: list[SSAValue] = []
        for value in values:
            if _is_frontier(value.type):
                expanded.extend(self._frontier(value))
            else:
                expanded.append(value)
        return expanded

    def _expand_types(self, types) -> list[Attribute]:
        expanded: list[Attribute] = []
        for value_type in types:
            if _is_frontier(value_type):
                expanded.extend(self._repr(value_type).host_types())
            else:
                expanded.append(value_type)
        return expanded

    def _buffer(self, vector: SymbolRefAttr) -> tuple[SSAValue, graph.VectorType]:
        name = vector.root_reference.data
        if name not in self.buffers:
            raise UserError(f"error: '@{name}' is not a global vector of the program")
        return self.buffers[name], self.vectors[name]

    def _replace(self, op: Operation, results: list[SSAValue]) -> None:
        for old, new in zip(op.results, results, strict=True):
            old.replace_all_uses_with(new)
        Rewriter.erase_op(op)

    # -- host -------------------------------------------------------------------

    def _lower_block(self, block: Block) -> None:
        for op in list(block.ops):
            self._lower_host(op)

    def _lower_host(self, op: Operation) -> None:
        b = Builder(InsertPoint.before(op))
        ctx = self.ctx
        if isinstance(op, graph.LoadEdgesOp) or op.dialect_name() in ("gir_gpu", "host"):
            return
        if isinstance(op, graph.VectorFillOp):
            buffer, vector = self._buffer(op.vector)
            count = ctx.vertices if vector.per_vertex else constant(b, vector.size.value.data)
            b.insert(host.FillOp(buffer, self._to_element(b, op.value, vector), count))
            Rewriter.erase_op(op)
        elif isinstance(op, graph.OutDegreesOp):
            buffer, vector = self._buffer(op.vector)
            if vector.element_type != i32:
                raise UserError("error: getOutDegrees() is stored in vectors of int (i32) only")
            degrees = ctx.graph_array(GraphArray.OUT_DEGREES)
            b.insert(host.CopyOp(degrees, buffer, ctx.vertices))
            Rewriter.erase_op(op)
        elif isinstance(op, graph.LoadOp):
            buffer, vector = self._buffer(op.vector)
            read = b.insert(host.ReadOp(buffer, as_i32(b, op.index))).result
            self._replace(op, [self._from_element(b, read, vector)])
        elif isinstance(op, graph.StoreOp):
            buffer, vector = self._buffer(op.vector)
            value = self._to_element(b, op.value, vector)
            b.insert(host.WriteOp(value, buffer, as_i32(b, op.index)))
            Rewriter.erase_op(op)
        elif isinstance(op, graph.ReduceOp):
            buffer, vector = self._buffer(op.vector)
            index = as_i32(b, op.index)
            old = self._from_element(b, b.insert(host.ReadOp(buffer, index)).result, vector)
            new = _combine(b, op.kind.data, old, op.value)
            b.insert(host.WriteOp(self._to_element(b, new, vector), buffer, index))
            self._replace(op, [_compare(b, "ne", new, old)])
        elif isinstance(op, graph.CompareAndSwapOp):
            buffer, vector = self._buffer(op.vector)
            index = as_i32(b, op.index)
            old = self._from_element(b, b.insert(host.ReadOp(buffer, index)).result, vector)
            success = _compare(b, "eq", old, op.expected)
            write = Block(
                [
                    host.WriteOp(op.desired, buffer, index),
                    scf.YieldOp(),
                ]
            )
            b.insert(scf.IfOp(success, [], Region(write)))
            self._replace(op, [success])
        elif isinstance(op, graph.VertexIdOp):
            self._replace(op, [resize(b, op.vertex, op.result.type)])
        elif isinstance(op, graph.ToVertexOp):
            self._replace(op, [as_i32(b, op.id)])
        elif isinstance(op, frontier.NewOp):
            self.values[op.result] = self._repr(op.result.type).new(ctx, b, op.count)
            self.graveyard.append(op)
        elif isinstance(op, frontier.AllVerticesOp):
            self.values[op.result] = []
            self.graveyard.append(op)
        elif isinstance(op, frontier.SizeOp):
            lowering = self._repr(op.frontier.type)
            size = lowering.size(ctx, b, self._frontier(op.frontier))
            self._replace(op, [resize(b, size, op.result.type)])
        elif isinstance(op, frontier.AddOp):
            lowering = self._repr(op.frontier.type)
            self.values[op.result] = lowering.add(
                ctx, b, self._frontier(op.frontier), op.vertex
            )
            self.graveyard.append(op)
        elif isinstance(op, frontier.ClearOp):
            lowering = self._repr(op.frontier.type)
            self.values[op.result] = lowering.clear(ctx, b, self._frontier(op.frontier))
            self.graveyard.append(op)
        elif isinstance(op, frontier.FreeOp):
            self._repr(op.frontier.type).free(ctx, b, self._frontier(op.frontier))
            Rewriter.erase_op(op)
        elif isinstance(op, frontier.VertexMapOp):
            self._vertex_map(op)
        elif isinstance(op, scf.WhileOp | scf.ForOp | scf.IfOp):
            self._scf(op)
        elif isinstance(op, scf.YieldOp | scf.ConditionOp):
            self._terminator(op)
        elif isinstance(op, func.ReturnOp):
            return
        elif op.dialect_name() in _KEPT_DIALECTS:
            for region in op.regions:
                for block in region.blocks:
                    self._lower_block(block)
        else:
            raise UserError(f"error: '{op.name}' in main has no GPU lowering")

    def _to_element(self, b: Builder, value: SSAValue, vector: graph.VectorType) -> SSAValue:
        if vector.element_type == i1:
            return b.insert(arith.ExtUIOp(value, i8)).result
        return value

    def _from_element(self, b: Builder, value: SSAValue, vector: graph.VectorType) -> SSAValue:
        if vector.element_type == i1:
            return b.insert(arith.TruncIOp(value, i1)).result
        return value

    def _scf(self, op: scf.WhileOp | scf.ForOp | scf.IfOp) -> None:
        carries_frontiers = any(_is_frontier(t) for t in op.result_types) or any(
            _is_frontier(arg.type)
            for region in op.regions
            for block in region.blocks
            for arg in block.args
        )
        if not carries_frontiers:
            for region in op.regions:
                for block in region.blocks:
                    self._lower_block(block)
            return
        result_types = self._expand_types(op.result_types)
        moved = [Rewriter.move_region_contents_to_new_regions(r) for r in op.regions]
        if isinstance(op, scf.WhileOp):
            new = scf.WhileOp(self._expand(op.arguments), result_types, *moved)
        elif isinstance(op, scf.ForOp):
            new = scf.ForOp(op.lb, op.ub, op.step, self._expand(op.iter_args), moved[0])
        else:
            new = scf.IfOp(op.cond, result_types, *moved)
        new.attributes.update(op.attributes)
        Rewriter.insert_op(new, InsertPoint.before(op))
        for region in new.regions:
            for block in region.blocks:
                self._expand_args(block)
        for region in new.regions:
            for block in region.blocks:
                self._lower_block(block)
        index = 0
        for old in op.results:
            if _is_frontier(old.type):
                count = len(self._repr(old.type).host_types())
                self.values[old] = list(new.results[index : index + count])
                index += count
            else:
                old.replace_all_uses_with(new.results[index])
                index += 1
        self.graveyard.append(op)

    def _expand_args(self, block: Block) -> None:
        for arg in list(block.args):
            if not _is_frontier(arg.type):
                continue
            at = arg.index
            new_args = []
            for offset, host_type in enumerate(self._repr(arg.type).host_types()):
                new_arg = block.insert_arg(host_type, at + offset)
                if arg.name_hint:
                    new_arg.name_hint = f"{arg.name_hint}_{'items' if offset == 0 else 'size'}"
                new_args.append(new_arg)
            self.values[arg] = new_args
            self.dead_args.append(arg)

    def _terminator(self, op: scf.YieldOp | scf.ConditionOp) -> None:
        if not any(_is_frontier(value.type) for value in op.operands):
            return
        if isinstance(op, scf.ConditionOp):
            new: Operation = scf.ConditionOp(op.condition, *self._expand(op.args))
        else:
            new = scf.YieldOp(*self._expand(op.arguments))
        Rewriter.replace_op(op, new)

    # -- kernels ------------------------------------------------------------------

    def _vertex_map(self, op: frontier.VertexMapOp) -> None:
        ctx = self.ctx
        b = Builder(InsertPoint.before(op))
        source = self._repr(op.input.type)
        source_values = self._frontier(op.input)
        count = source.thread_count(ctx, b, source_values)
        output = None
        if op.output is not None:
            target = self._repr(op.output.type)
            target_values = self._frontier(op.output)
            target.begin_output(ctx, b, target_values)
            output = (target, target_values, op.dedup is not None)

        kernel_block = Block()
        kb = Builder(InsertPoint.at_end(kernel_block))
        gid = kb.insert(gir_gpu.IdOp(Dimension.GLOBAL)).result
        gid.name_hint = "gid"
        active = kb.insert(arith.CmpiOp(gid, count, "slt")).result
        then = Block()
        kb.insert(scf.IfOp(active, [], Region(then)))
        kb.insert(gir_gpu.ReturnOp())
        vertex = source.thread_vertex(ctx, Builder(InsertPoint.at_end(then)), source_values, gid)
        body = op.body.block
        terminator = body.last_op
        assert terminator is not None
        body.erase_op(terminator)
        Rewriter.inline_block(body, InsertPoint.at_end(then), [vertex])
        then.add_op(scf.YieldOp())

        saved, self.output = self.output, output
        self._lower_device_block(then)
        self.output = saved

        label = op.label.data if op.label is not None else "vertices"
        name = ctx.unique_name(f"map_{label}")
        kernel, args = self._outline(name, kernel_block, b)
        ctx.kernels.append(kernel)
        ctx.launch(b, name, count, args)
        if output is not None:
            target, target_values, dedup = output
            self.values[op.results[0]] = target.end_output(ctx, b, target_values, dedup)
        self.graveyard.append(op)

    def _outline(
        self, name: str, block: Block, host: Builder
    ) -> tuple[gir_gpu.KernelOp, list[SSAValue]]:
        """The kernel whose body is `block`; the host values it uses become its
        arguments (constants are copied in)."""
        inside_ops = {inner for op in block.ops for inner in op.walk()}
        inside_blocks = {block} | {
            inner_block
            for op in inside_ops
            for region in op.regions
            for inner_block in region.blocks
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
        for op in [inner for top in list(block.ops) for inner in top.walk()]:
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
            if _is_frontier(value.type) or isinstance(
                value.type, graph.EdgeSetType | graph.VertexType
            ):
                raise UserError(
                    f"error: kernel '{name}' uses a host value of type {value.type}"
                )
            arg_type = i8 if value.type == i1 else value.type
            arg = block.insert_arg(arg_type, position)
            arg.name_hint = value.name_hint
            replacement: SSAValue = arg
            host_value = value
            if value.type == i1:
                narrow = arith.TruncIOp(arg, i1)
                block.insert_op_before(narrow, start)
                replacement = narrow.result
                host_value = host.insert(arith.ExtUIOp(value, i8)).result
            value.replace_uses_with_if(replacement, lambda use: use.operation in inside_ops)
            host_args.append(host_value)
        kernel = gir_gpu.KernelOp(name, [arg.type for arg in block.args], Region(block))
        return kernel, host_args

    # -- device -----------------------------------------------------------------

    def _lower_device_block(self, block: Block) -> None:
        for op in list(block.ops):
            self._lower_device(op)

    def _lower_device(self, op: Operation) -> None:
        b = Builder(InsertPoint.before(op))
        ctx = self.ctx
        if isinstance(op, graph.LoadOp):
            buffer, vector = self._buffer(op.vector)
            load = b.insert(memref.LoadOp.get(buffer, [as_index(b, op.index)])).res
            self._replace(op, [self._from_element(b, load, vector)])
        elif isinstance(op, graph.StoreOp):
            buffer, vector = self._buffer(op.vector)
            value = self._to_element(b, op.value, vector)
            b.insert(memref.StoreOp.get(value, buffer, [as_index(b, op.index)]))
            Rewriter.erase_op(op)
        elif isinstance(op, graph.ReduceOp):
            self._reduce(b, op)
        elif isinstance(op, graph.CompareAndSwapOp):
            buffer, vector = self._buffer(op.vector)
            if vector.element_type == i1:
                raise UserError("error: compare_and_swap on a bool vector is not supported")
            old = b.insert(
                gir_gpu.AtomicCASOp(buffer, as_index(b, op.index), op.expected, op.desired)
            ).old
            self._replace(op, [_compare(b, "eq", old, op.expected)])
        elif isinstance(op, graph.VertexIdOp):
            self._replace(op, [resize(b, op.vertex, op.result.type)])
        elif isinstance(op, graph.ToVertexOp):
            self._replace(op, [as_i32(b, op.id)])
        elif isinstance(op, frontier.EdgeRangeOp):
            begin, end = self._layout(op).edge_range(ctx, b, op.vertex)
            self._replace(op, [begin, end])
        elif isinstance(op, frontier.NeighborOp):
            neighbor = self._layout(op).neighbor(ctx, b, op.position)
            neighbor.name_hint = op.result.name_hint
            self._replace(op, [neighbor])
        elif isinstance(op, frontier.EdgeWeightOp):
            weight = self._layout(op).weight(ctx, b, op.position, op.result.type)
            weight.name_hint = op.result.name_hint
            self._replace(op, [weight])
        elif isinstance(op, frontier.EnqueueOp):
            assert self.output is not None
            target, values, dedup = self.output
            target.enqueue(ctx, b, values, op.vertex, dedup)
            Rewriter.erase_op(op)
        elif op.dialect_name() in _DEVICE_DIALECTS:
            for region in op.regions:
                for block in region.blocks:
                    self._lower_device_block(block)
        else:
            raise UserError(f"error: '{op.name}' has no lowering to device code")

    def _layout(self, op: Operation) -> LayoutLowering:
        layout = op.properties["layout"].data  # type: ignore[union-attr]
        lowering = LAYOUTS.get(layout)
        if lowering is None:
            raise UserError(f"error: layout {layout.value} has no GPU lowering yet")
        return lowering

    def _reduce(self, b: Builder, op: graph.ReduceOp) -> None:
        buffer, vector = self._buffer(op.vector)
        index = as_index(b, op.index)
        kind = op.kind.data
        if op.atomic is not None:
            if vector.element_type == i1:
                raise UserError("error: atomic reductions of bool vectors are not supported")
            old = b.insert(gir_gpu.AtomicRMWOp(_ATOMIC_KINDS[kind], op.value, buffer, index)).old
            if kind == graph.ReduceKind.MIN:
                changed = _compare(b, "gt", old, op.value)
            elif kind == graph.ReduceKind.MAX:
                changed = _compare(b, "lt", old, op.value)
            else:
                changed = _compare(b, "ne", op.value, _zero(b, op.value.type))
        else:
            old = self._from_element(b, b.insert(memref.LoadOp.get(buffer, [index])).res, vector)
            new = _combine(b, kind, old, op.value)
            b.insert(memref.StoreOp.get(self._to_element(b, new, vector), buffer, [index]))
            changed = _compare(b, "ne", new, old)
        self._replace(op, [changed])



def _tidy_constants(entry: Block) -> None:
    """Puts each distinct constant of a kernel or of main once at the start of its
    entry block, and drops unused ones."""
    first: dict[tuple[Attribute, Attribute], SSAValue] = {}
    hoisted: list[Operation] = []
    for op in list(entry.walk()):
        if not isinstance(op, arith.ConstantOp):
            continue
        key = (op.value, op.result.type)
        if not op.result.uses:
            Rewriter.erase_op(op)
        elif key in first:
            op.result.replace_all_uses_with(first[key])
            Rewriter.erase_op(op)
        else:
            first[key] = op.result
            op.detach()
            hoisted.append(op)
    if hoisted:
        start = entry.first_op
        if start is None:
            entry.add_ops(hoisted)
        else:
            entry.insert_ops_before(hoisted, start)
