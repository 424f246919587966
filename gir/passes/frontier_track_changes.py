"""Makes a traversal's change tracking explicit: a vertex is enqueued when the edge
function changed its entry of the tracked vector."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp, SymbolRefAttr, UnitAttr, i1
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import frontier, graph
from gir.ir_walk import walk
from gir.passes.ir_utils import constant_value, index_source, parameter_index, statement


@dataclass(frozen=True)
class FrontierTrackChanges(ModulePass):
    """Makes applyModified explicit: enqueue the destination when an update of the tracked vector took effect.

    GraphIt's `applyModified(f, v)` (push) adds to the output the vertices whose
    entry of `v` `f` modified; an update of another vertex's entry (CC hooks
    `v[v[dst]]`) enqueues that vertex right after it took effect, as G2 does.
    For the destination's own entry the edge function gets a flag that is the
    or of its updates of `v[dst]` that took effect: the `changed` result of a
    `graph.reduce` (`min=` lowered the value), the `success` of a
    `graph.compare_and_swap` (BFS: only the thread that set the parent), `true` for
    a plain store; updates inside `scf.if` pass theirs out as one more i1 result.
    A swap that may write the value it expects (`desired` not provably another)
    changes nothing when it does, so its flag is its success and `desired !=
    expected`.
    At its end the destination is enqueued when the flag is set (at most once per
    edge). The `tracked` property goes. `dedup` goes too when the updates make it
    redundant: when they are all `compare_and_swap(v[dst], C, x)` with one constant
    C, a destination's entry changes once (from C; BFS's parent, with x the
    source's id, and BC's level claim, with x the source's level plus one), and so
    does a `frontier.dedup` of the output (unfused deduplication). Otherwise (`min=`,
    `+=`, plain stores) the output is deduplicated whatever the program asked, so
    no frontier ever repeats a vertex and sparse queues cannot overflow: while
    enqueueing (`dedup`) unless a `frontier.dedup` follows the traversal (its
    output then holds at most one entry per edge visited, within the capacity).

    Before:
    ```mlir
    %o = frontier.edge_traverse ... into %empty : !frontier.queue tracked @dist apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex, %w : i32):
      ...
      %c = graph.reduce min %new, @dist[%dst] atomic : !graph.vertex, i32
      frontier.yield
    } -> !frontier.queue
    ```
    After:
    ```mlir
    %o = frontier.edge_traverse ... into %empty : !frontier.queue apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex, %w : i32):
      ...
      %c = graph.reduce min %new, @dist[%dst] atomic : !graph.vertex, i32
      scf.if %c {
        frontier.enqueue %dst
      }
      frontier.yield
    } -> !frontier.queue
    ```
    """

    name = "frontier-track-changes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for child in list(walk(op)):
            if isinstance(child, frontier.EdgeTraverseOp) and child.tracked is not None:
                _track(child)


def _track(traverse: frontier.EdgeTraverseOp) -> None:
    tracked = traverse.tracked
    assert tracked is not None
    block = traverse.body.block
    changed = _changed_in(block, tracked, traverse)
    terminator = block.last_op
    assert isinstance(terminator, frontier.YieldOp)
    if changed is not None:
        enqueue = Block([frontier.EnqueueOp(block.args[1]), scf.YieldOp()])
        Rewriter.insert_op(
            scf.IfOp(changed, [], Region(enqueue)), InsertPoint.before(terminator)
        )
    unfused = _unfused_dedup(traverse)
    if _succeeds_once_per_destination(block, tracked):
        traverse.properties.pop("dedup", None)
        if unfused is not None:
            unfused.result.replace_all_uses_with(unfused.frontier)
            Rewriter.erase_op(unfused)
    elif unfused is None:
        # An update that can take effect several times per destination (min=, +=)
        # would enqueue a vertex several times; the next traversal would then visit
        # its edges more than once and its output could outgrow any fixed
        # capacity. Deduplicating keeps every queue within the vertex count.
        traverse.properties["dedup"] = UnitAttr()
    del traverse.properties["tracked"]


def _unfused_dedup(traverse: frontier.EdgeTraverseOp) -> frontier.DedupOp | None:
    """The `frontier.dedup` of the traversal's output (unfused deduplication), if any."""
    for use in traverse.results[0].uses if traverse.results else ():
        if isinstance(use.operation, frontier.DedupOp):
            return use.operation
    return None


def _succeeds_once_per_destination(block: Block, tracked: SymbolRefAttr) -> bool:
    """Whether every update of `tracked` is `compare_and_swap(v[dst], C, x)` with one
    integer constant C: a destination's entry can change once, from C (a swap
    that writes C back changes nothing, and its flag says so: `_swap_changed`)."""
    updates = [op for op in walk(block) if _writes(op, tracked)]
    expected_values = set()
    for op in updates:
        if (
            not isinstance(op, graph.CompareAndSwapOp)
            or parameter_index(op.index, block) != 1
            or op.lane is not None  # one entry per lane, each of which could change
        ):
            return False
        expected = constant_value(op.expected)
        if not isinstance(expected, IntegerAttr):
            return False
        expected_values.add(expected.value.data)
    return len(expected_values) == 1


def _swap_changed(op: graph.CompareAndSwapOp) -> tuple[SSAValue, Operation]:
    """Whether `op` changed its entry, and the op that says so: its success, and
    where an integer `desired` may equal `expected` (anything but a vertex id
    swapped for a negative constant), also `desired != expected`."""
    expected = constant_value(op.expected)
    provably_other = (
        isinstance(expected, IntegerAttr)
        and expected.value.data < 0
        and isinstance(index_source(op.desired).type, graph.VertexType)
    )
    if provably_other or not isinstance(op.desired.type, IntegerType):
        return op.success, op
    differs = arith.CmpiOp(op.desired, op.expected, "ne")
    changed = arith.AndIOp(op.success, differs.result)
    Rewriter.insert_op([differs, changed], InsertPoint.after(op))
    return changed.result, changed


def _writes(op: Operation, tracked: SymbolRefAttr) -> bool:
    return (
        isinstance(op, graph.StoreOp | graph.ReduceOp | graph.CompareAndSwapOp)
        and op.vector == tracked
    )


def _other_vertex_written(op: graph.StoreOp | graph.ReduceOp | graph.CompareAndSwapOp, traverse: Operation) -> SSAValue | None:
    """The vertex whose entry `op` updates when that is a vertex other than the
    edge's destination (G2 enqueues the index of each tracked update: CC's hooks
    update the labels of the ends' roots); None for the destination itself, whose
    updates are or-ed into one enqueue per edge, and for an index that is no vertex."""
    assert isinstance(traverse, frontier.EdgeTraverseOp)
    if parameter_index(op.index, traverse.body.block) == 1:
        return None
    return op.index if isinstance(op.index.type, graph.VertexType) else None


def _false_before(op: Operation) -> SSAValue:
    false = arith.ConstantOp(IntegerAttr(0, i1))
    Rewriter.insert_op(false, InsertPoint.before(op))
    return false.result


def _changed_in(block: Block, tracked: SymbolRefAttr, where: Operation) -> SSAValue | None:
    """The or of the tracked updates of `block` (nested ifs included) that took
    effect, available at its end; None when it has none."""
    accumulated: SSAValue | None = None
    for op in list(block.ops):
        changed: SSAValue | None = None
        after: Operation = op
        if _writes(op, tracked):
            if isinstance(op, graph.ReduceOp):
                changed = op.changed
            elif isinstance(op, graph.CompareAndSwapOp):
                changed, after = _swap_changed(op)
            else:
                true = arith.ConstantOp(IntegerAttr(1, i1))
                Rewriter.insert_op(true, InsertPoint.after(op))
                changed, after = true.result, true
            written = _other_vertex_written(op, where)
            if written is not None:
                enqueue = Block([frontier.EnqueueOp(written), scf.YieldOp()])
                Rewriter.insert_op(scf.IfOp(changed, [], Region(enqueue)), InsertPoint.after(after))
                continue
        elif isinstance(op, scf.IfOp) and any(_writes(c, tracked) for c in walk(op)):
            new_if = _if_with_changed(op, tracked, where)
            changed, after = new_if.results[-1], new_if
        elif op.regions and any(_writes(c, tracked) for c in walk(op)):
            raise UserError.at(op,
                f"error: {statement(where)} updates the tracked vector inside "
                f"'{op.name}', which change tracking does not support yet"
            )
        if changed is None:
            continue
        if accumulated is None:
            accumulated = changed
        else:
            either = arith.OrIOp(accumulated, changed)
            Rewriter.insert_op(either, InsertPoint.after(after))
            accumulated = either.result
    return accumulated


def _if_with_changed(op: scf.IfOp, tracked: SymbolRefAttr, where: Operation) -> scf.IfOp:
    """`op` with one more i1 result: whether its branch changed `tracked`."""
    if not op.false_region.blocks:
        op.false_region.add_block(Block([scf.YieldOp()]))
    for region in (op.true_region, op.false_region):
        branch = region.block
        terminator = branch.last_op
        assert isinstance(terminator, scf.YieldOp)
        changed = _changed_in(branch, tracked, where)
        if changed is None:
            changed = _false_before(terminator)
        Rewriter.replace_op(terminator, scf.YieldOp(*terminator.arguments, changed))
    new_if = scf.IfOp(
        op.cond,
        [*op.result_types, i1],
        Rewriter.move_region_contents_to_new_regions(op.true_region),
        Rewriter.move_region_contents_to_new_regions(op.false_region),
    )
    Rewriter.replace_op(op, new_if, new_results=list(new_if.results[:-1]))
    return new_if
