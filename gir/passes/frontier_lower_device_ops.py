"""`frontier-lower-device-ops`: the vector and layout ops of map bodies become
buffer accesses, atomics and graph-array reads."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.builder import Builder
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, SymbolRefAttr, UnitAttr, i1
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import frontier, gir_gpu, graph
from gir.dialects.gir_gpu import COMBINE_RUNS, AtomicKind
from gir.ir_walk import walk
from gir.passes.gpu_elements import (
    combine,
    compare,
    element_position,
    from_element,
    global_vectors,
    to_element,
    zero,
)
from gir.passes.gpu_kernels import GpuContext, as_i32, as_vertex, resize
from gir.passes.layouts import layout

_ATOMIC_KINDS = {
    graph.ReduceKind.MIN: AtomicKind.MIN,
    graph.ReduceKind.MAX: AtomicKind.MAX,
    graph.ReduceKind.ADD: AtomicKind.ADD,
    graph.ReduceKind.UMIN: AtomicKind.UMIN,
    graph.ReduceKind.UMAX: AtomicKind.UMAX,
}

_DEVICE_DIALECTS = ("arith", "math", "scf", "memref", "gir_gpu", "builtin")


@dataclass(frozen=True)
class FrontierLowerDeviceOps(ModulePass):
    """Lowers the vector and layout ops of map bodies to buffer accesses and atomics.

    Inside `frontier.vertex_map` / `frontier.edge_map` bodies (device code):
    `graph.load` / `graph.store` become `memref.load` / `memref.store` on the
    vector's buffer (found by its `host.bind_global`); an atomic `graph.reduce`
    becomes `gir_gpu.atomic_rmw` whose "changed" result compares the old value,
    a plain one a load-combine-store; `graph.compare_and_swap` becomes
    `gir_gpu.atomic_cas`; the layout ops read the graph's arrays through the
    layout registry. A vertex is its i32 id on the GPU: where a `!graph.vertex`
    meets an i32, an `unrealized_conversion_cast` stands until
    `frontier-maps-to-kernels` gives the body's vertices their ids. The vector
    globals go, and so does the edgeset load unless an edge map still names it.

    Before:
    ```mlir
    frontier.vertex_map %in : !frontier.queue {
    ^bb0(%src : !graph.vertex):
      %begin, %end = frontier.edge_range CSR %e[%src] : !graph.edgeset
      ...
      %lowered = graph.reduce min %new, @dist[%dst] atomic : !graph.vertex, i32
    }
    ```
    After:
    ```mlir
    frontier.vertex_map %in : !frontier.queue {
    ^bb0(%src : !graph.vertex):
      %0 = builtin.unrealized_conversion_cast %src : !graph.vertex to i32
      %1 = arith.index_cast %0 : i32 to index
      %2 = memref.load %row_ptr[%1] : memref<?xi32>
      ...
      %old = gir_gpu.atomic_rmw min %new, %dist[%3] : i32, memref<?xi32>
      %lowered = arith.cmpi sgt, %old, %new : i32
    }
    ```
    """

    name = "frontier-lower-device-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        gpu = GpuContext.of(op)
        vectors = global_vectors(op)
        patterns = [
            _VectorAccess(gpu, vectors),
            _Atomics(gpu, vectors),
            _Vertices(),
            _VertexCount(gpu),
            _LayoutOps(gpu),
            _DevicePrint(),
        ]
        PatternRewriteWalker(
            GreedyRewritePatternApplier(patterns), apply_recursively=False
        ).rewrite_module(op)
        _check_bodies(op)
        for child in list(walk(op)):
            if isinstance(child, graph.LoadEdgesOp):
                _drop_edgeset(child)
        for child in list(op.ops):
            if isinstance(child, graph.GlobalOp):
                op.body.block.erase_op(child)


def _drop_edgeset(load: graph.LoadEdgesOp) -> None:
    """Erases the edgeset load once only edge maps name it (as the edgeset they
    traverse; `frontier-maps-to-kernels` erases it after them)."""
    users = {use.operation for use in load.result.uses}
    if not users:
        Rewriter.erase_op(load)
    elif not all(isinstance(user, frontier.EdgeMapOp) for user in users):
        raise UserError.at(load, "error: the edgeset is used outside map bodies")


def _on_device(op: Operation) -> bool:
    """Whether `op` lies in an edge or vertex map's body: a scan of its
    ancestors, so the patterns ask it only of the ops they rewrite."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, frontier.MapOps):
            return True
        parent = parent.parent_op()
    return False


def _check_bodies(module: ModuleOp) -> None:
    for op in walk(module):
        if not isinstance(op, frontier.MapOps):
            continue
        for inner in walk(op):
            if inner is op or isinstance(
                inner, frontier.EnqueueOp | frontier.YieldOp | frontier.ContainsOp
            ):
                continue  # lowered with the frontier's representation
            if isinstance(inner, func.CallOp):
                continue  # an extern function: the printers call it by name
            if inner.dialect_name() not in _DEVICE_DIALECTS:
                raise UserError.at(inner, f"error: '{inner.name}' has no lowering to device code")


@dataclass
class _VectorPattern(RewritePattern):
    gpu: GpuContext
    vectors: dict[str, graph.VectorType]

    def vector(self, ref: SymbolRefAttr) -> tuple[SSAValue, graph.VectorType]:
        name = ref.root_reference.data
        if name not in self.vectors:
            raise UserError(f"error: '@{name}' is not a global vector of the program")
        return self.gpu.buffer(name), self.vectors[name]


class _VectorAccess(_VectorPattern):
    """graph.load / graph.store -> memref.load / memref.store."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, graph.LoadOp | graph.StoreOp) or not _on_device(op):
            return
        if isinstance(op, graph.LoadOp):
            buffer, vector = self.vector(op.vector)
            index = element_position(rewriter, vector, op.index, op.lane)
            load = rewriter.insert(memref.LoadOp.get(buffer, [index])).res
            rewriter.replace(op, [], [from_element(rewriter, load, vector)])
        elif isinstance(op, graph.StoreOp):
            buffer, vector = self.vector(op.vector)
            value = to_element(rewriter, op.value, vector)
            index = element_position(rewriter, vector, op.index, op.lane)
            rewriter.insert(memref.StoreOp.get(value, buffer, [index]))
            rewriter.erase(op)


class _DevicePrint(RewritePattern):
    """graph.print in a map body -> gir_gpu.print (device printf)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.PrintOp, rewriter: PatternRewriter) -> None:
        if _on_device(op):
            text = None if op.text is None else op.text.data
            rewriter.replace(op, gir_gpu.PrintOp(op.value, text, op.unsigned is not None))


class _Atomics(_VectorPattern):
    """graph.reduce / graph.compare_and_swap -> atomics (or a plain update)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, graph.ReduceOp | graph.CompareAndSwapOp) or not _on_device(op):
            return
        if isinstance(op, graph.ReduceOp):
            start = op.prev_op
            changed = self._reduce(op, rewriter)
            # the update's ops name its statement (where a device without the
            # atomic's extension is reported), not the first statement of the body
            built = op.prev_op
            while built is not None and built is not start:
                for inner in walk(built):
                    inner.location = op.location
                built = built.prev_op
            rewriter.replace(op, [], [changed])
        elif isinstance(op, graph.CompareAndSwapOp):
            buffer, vector = self.vector(op.vector)
            index = element_position(rewriter, vector, op.index, op.lane)
            # a bool is stored as a byte: the swap compares and stores bytes
            expected = to_element(rewriter, op.expected, vector)
            desired = to_element(rewriter, op.desired, vector)
            old = rewriter.insert(gir_gpu.AtomicCASOp(buffer, index, expected, desired)).old
            rewriter.replace(op, [], [compare(rewriter, "eq", old, expected)])

    def _reduce(self, op: graph.ReduceOp, b: PatternRewriter) -> SSAValue:
        buffer, vector = self.vector(op.vector)
        index = element_position(b, vector, op.index, op.lane)
        kind = op.kind.data
        if op.atomic is None:
            old = from_element(b, b.insert(memref.LoadOp.get(buffer, [index])).res, vector)
            new = combine(b, kind, old, op.value)
            b.insert(memref.StoreOp.get(to_element(b, new, vector), buffer, [index]))
            return compare(b, "ne", new, old)
        if vector.element_type == i1:
            raise UserError.at(op, "error: atomic reductions of bool vectors are not supported")
        if kind == graph.ReduceKind.ADD:
            add = b.insert(gir_gpu.AtomicRMWOp(_ATOMIC_KINDS[kind], op.value, buffer, index))
            if op.clustered is not None:
                add.attributes[COMBINE_RUNS] = UnitAttr()
            return compare(b, "ne", op.value, zero(b, op.value.type))
        changed = _bounded_atomic(b, kind, op.value, buffer, index)
        changed.name_hint = op.changed.name_hint
        return changed


def _bounded_atomic(
    b: PatternRewriter, kind: graph.ReduceKind, value: SSAValue, buffer: SSAValue, index: SSAValue
) -> SSAValue:
    """An atomic min (max; unsigned for `umin`/`umax`) that is only issued when a
    plain read says it would lower (raise) the element; whether it did. Values only move one way, so a
    stale read can only let a useless atomic through, never skip a useful one.
    Many edges hooking onto one root (CC) or relaxing one hub (SSSP) would
    otherwise serialise on one address, one atomic each."""
    sign = "u" if kind.is_unsigned else ""
    improves, worsens = (f"{sign}lt", f"{sign}gt") if kind.is_min else (f"{sign}gt", f"{sign}lt")
    current = b.insert(memref.LoadOp.get(buffer, [index])).res
    current.name_hint = "current"
    worth = compare(b, improves, value, current)
    attempt = Builder(InsertPoint.at_end(tried := Block()))
    old = attempt.insert(gir_gpu.AtomicRMWOp(_ATOMIC_KINDS[kind], value, buffer, index)).old
    attempt.insert(scf.YieldOp(compare(attempt, worsens, old, value)))
    skip = Builder(InsertPoint.at_end(skipped := Block()))
    skip.insert(scf.YieldOp(skip.insert(arith.ConstantOp(IntegerAttr(0, i1))).result))
    return b.insert(scf.IfOp(worth, [i1], Region(tried), Region(skipped))).results[0]


class _Vertices(RewritePattern):
    """graph.vertex_id / graph.to_vertex -> the id, as an integer of the asked width."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, graph.VertexIdOp | graph.ToVertexOp) or not _on_device(op):
            return
        if isinstance(op, graph.VertexIdOp):
            rewriter.replace(op, [], [resize(rewriter, op.vertex, op.result.type)])
        elif isinstance(op, graph.ToVertexOp):
            rewriter.replace(op, [], [as_vertex(rewriter, as_i32(rewriter, op.id))])


@dataclass
class _VertexCount(RewritePattern):
    """`frontier.size` of every vertex in a body (`edges.getVertices()` used as a
    number in a vertex or edge function) -> the graph's vertex count, which the
    kernel takes from the host as it takes any value of `main`."""

    gpu: GpuContext

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: frontier.SizeOp, rewriter: PatternRewriter) -> None:
        every = op.frontier.owner
        if not _on_device(op) or not isinstance(every, frontier.AllVerticesOp):
            return
        rewriter.replace_op(op, [], [resize(rewriter, self.gpu.vertices, op.result.type)])
        if not every.result.uses:
            rewriter.erase_op(every)


@dataclass
class _LayoutOps(RewritePattern):
    """frontier.edge_range / neighbor / edge_weight -> reads of the graph's arrays."""

    gpu: GpuContext

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: frontier.EdgeRangeOp | frontier.NeighborOp | frontier.EdgeWeightOp,
        rewriter: PatternRewriter,
    ) -> None:
        strategy = layout(op.layout.data)
        if isinstance(op, frontier.EdgeRangeOp):
            begin, end = strategy.edge_range(self.gpu, rewriter, as_i32(rewriter, op.vertex))
            rewriter.replace(op, [], [begin, end])
            return
        if isinstance(op, frontier.NeighborOp):
            neighbor = strategy.neighbor(self.gpu, rewriter, op.position)
            neighbor.name_hint = op.result.name_hint
            value = as_vertex(rewriter, neighbor)
        else:
            value = strategy.weight(self.gpu, rewriter, op.position, op.result.type)
        value.name_hint = op.result.name_hint
        rewriter.replace(op, [], [value])
