"""Lowers priority queues to frontiers, vertex maps and a loop-carried bucket end.

The pass threads each queue's state through the program here; that state and the
bucket refill are in `priority_queue_buckets`, the traversals that update a
queue in `priority_queue_updates`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp, i32
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.passes.priority_queue_buckets import QueueState, ensure_filled, uses_queue
from gir.passes.priority_queue_updates import lower_traversal
from gir.dialects import frontier, graph
from gir.dialects.frontier import (
    PriorityQueueBucketSizeOp,
    PriorityQueueCurrentPriorityOp,
    PriorityQueueDequeueOp,
    PriorityQueueFinishedNodeOp,
    PriorityQueueFinishedOp,
    PriorityQueueFreeOp,
    PriorityQueueNewOp,
    SparseQueueType,
)
from gir.ir_walk import walk


@dataclass(frozen=True)
class FrontierLowerPriorityQueues(ModulePass):
    """Lowers priority queues with G2's lazy buckets to frontiers and vertex maps.

    A queue becomes two values threaded through the loops that use it: the end
    `W` of its current bucket `[W - delta, W)` and the `!frontier.queue` of the
    vertices waiting in that bucket. `pq_update_min` is an atomic min on the
    priority vector that enqueues the vertex into the traversal's output (the
    new pending queue) when the new priority is below `W`; vertices of later
    buckets are only re-prioritized. `pq_finished` refills an empty bucket: one
    vertex map finds the lowest priority `m >= W` (an atomic min into a
    one-element vector), `W` moves to the end of `m`'s bucket and a second vertex
    map enqueues the vertices whose priority lies in it; the queue is finished
    when that bucket is empty too. `pq_dequeue` hands the pending queue over and
    starts an empty one. A traversal whose schedule creates its output as a map
    (G2's UNFUSED_BOOLMAP / UNFUSED_BITMAP, marked `bucket_creation` by
    `graph-to-frontier`) fills a fresh map instead, converted into the next
    pending queue after it (outside loops fused into one kernel).

    `W`, `delta` and the priorities have the queue's priority type, i32 or i64:
    there is no bucket index, so no priority is narrowed. A bucket whose end
    would pass the largest value of the type ends there instead: that value is
    the type's "no priority", never in a bucket.

    Before:
    ```mlir
    %pq = frontier.pq_new @est, %delta, %source : !frontier.priority_queue<i32>
    scf.while () : () -> () {
      %done = frontier.pq_finished %pq : !frontier.priority_queue<i32>
      ...
    } do {
      %ready = frontier.pq_dequeue %pq : !frontier.priority_queue<i32> -> !frontier.queue
      frontier.edge_traverse ... from %ready : !frontier.queue apply {
        %changed = frontier.pq_update_min %pq, %w, %new : !frontier.priority_queue<i32>
        ...
      }
      frontier.free %ready : !frontier.queue
      scf.yield
    }
    ```
    After:
    ```mlir
    %q = frontier.add %source, %empty : i32, !frontier.queue
    %w_end, %left = scf.while (%w = %delta, %pending = %q) : (i32, !frontier.queue) -> ... {
      %n = frontier.size %pending : !frontier.queue -> i32
      %w2, %pending2 = scf.if %n_is_0 -> (i32, !frontier.queue) {
        ...   // min priority >= %w; the vertices of its bucket into %pending
      } else { scf.yield %w, %pending : i32, !frontier.queue }
      ...
    } do {
    ^bb0(%w3: i32, %ready: !frontier.queue):
      %empty2 = frontier.new %c0 : i32 -> !frontier.queue
      %out = frontier.edge_traverse ... from %ready : !frontier.queue
          into %empty2 : !frontier.queue apply {
        %changed = graph.reduce min %new, @est[%w] atomic : !graph.vertex, i32
        %now = arith.cmpi slt, %new, %w3 : i32
        ...   // enqueue %w if %changed and %now
      } -> !frontier.queue
      frontier.free %ready : !frontier.queue
      scf.yield %w3, %out : i32, !frontier.queue
    }
    ```
    """

    name = "frontier-lower-priority-queues"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for new in [child for child in walk(op) if isinstance(child, PriorityQueueNewOp)]:
            _lower(op, new)


def _lower(module: ModuleOp, new: PriorityQueueNewOp) -> None:
    priorities = new.priorities.root_reference.data
    unsigned = _unsigned_vector(module, priorities)
    assert isinstance(new.delta.type, IntegerType)
    scratch = _scratch_vector(module, priorities, new.delta.type, unsigned)
    zero = arith.ConstantOp(IntegerAttr(0, i32))
    empty = frontier.NewOp(zero)
    empty.result.name_hint = "bucket"
    Rewriter.insert_op([zero, empty], InsertPoint.before(new))
    if new.start is None:
        # every vertex is in the bucket of its priority: the first refill finds
        # the lowest one at or above 0
        lowest = arith.ConstantOp(IntegerAttr(0, new.delta.type))
        Rewriter.insert_op(lowest, InsertPoint.before(new))
        queue = QueueState(priorities, scratch, new.delta, lowest.result, empty.result, unsigned)
    else:
        start = frontier.AddOp(new.start, empty)
        start.result.name_hint = "bucket"
        Rewriter.insert_op(start, InsertPoint.before(new))
        queue = QueueState(priorities, scratch, new.delta, new.delta, start.result, unsigned)
    block = new.parent_block()
    assert block is not None
    following = []
    node = new.next_op
    while node is not None:
        following.append(node)
        node = node.next_op
    _thread(queue, new.result, following)
    if new.result.uses:
        raise UserError.at(new, "error: a priority queue is used where it cannot be lowered")
    Rewriter.erase_op(new)


def _unsigned_vector(module: ModuleOp, name: str) -> bool:
    """Whether the vector global `name` holds `uint` values."""
    return any(
        isinstance(child, graph.GlobalOp)
        and child.sym_name.data == name
        and child.unsigned is not None
        for child in module.ops
    )


def _scratch_vector(
    module: ModuleOp, priorities: str, priority_type: IntegerType, unsigned: bool
) -> str:
    """A fresh one-element vector global of the priority type for the
    lowest-priority search (unsigned like the priorities, so that the host reads
    it as such)."""
    names = {
        child.sym_name.data for child in module.ops if isinstance(child, graph.GlobalOp)
    }
    index = 0
    while f"{priorities}_next_priority{index or ''}" in names:
        index += 1
    name = f"{priorities}_next_priority{index or ''}"
    first = module.body.block.first_op
    scratch = graph.GlobalOp(name, graph.VectorType(priority_type, 1), unsigned)
    if first is None:
        module.body.block.add_op(scratch)
    else:
        Rewriter.insert_op(scratch, InsertPoint.before(first))
    return name


def _thread(queue: QueueState, handle: SSAValue, ops: list[Operation]) -> None:
    """Lowers the uses of `handle` in `ops` (in program order), updating `queue`."""
    for op in ops:
        if isinstance(op, PriorityQueueFinishedOp) and op.queue == handle:
            _finished(queue, op)
        elif isinstance(op, PriorityQueueFinishedNodeOp) and op.queue == handle:
            _finished_node(queue, op)
        elif isinstance(op, PriorityQueueDequeueOp) and op.queue == handle:
            _dequeue(queue, op)
        elif isinstance(op, PriorityQueueBucketSizeOp) and op.queue == handle:
            Rewriter.replace_op(op, frontier.SizeOp(queue.pending))
        elif isinstance(op, PriorityQueueCurrentPriorityOp) and op.queue == handle:
            low = arith.SubiOp(queue.window, queue.delta)
            Rewriter.replace_op(op, low)
        elif isinstance(op, PriorityQueueFreeOp) and op.queue == handle:
            Rewriter.replace_op(op, frontier.FreeOp(queue.pending))
        elif isinstance(op, frontier.EdgeTraverseOp) and uses_queue(op, handle):
            lower_traversal(queue, handle, op)
        elif isinstance(op, scf.WhileOp) and uses_queue(op, handle):
            _while(queue, handle, op)
        elif isinstance(op, scf.ForOp) and uses_queue(op, handle):
            _for(queue, handle, op)
        elif uses_queue(op, handle):
            raise UserError.at(op,
                f"error: a priority queue used inside '{op.name}' is not supported "
                "yet (use it in loops and at the top level)"
            )


def _block_ops(block: Block) -> list[Operation]:
    return list(block.ops)


def _dequeue(queue: QueueState, op: PriorityQueueDequeueOp) -> None:
    """Hands the current bucket over (moving to the next non-empty bucket first
    when it is empty and `pq_finished` did not just do so)."""
    if not queue.refilled and op.current is None:
        ensure_filled(queue, op)
    queue.refilled = False
    zero = arith.ConstantOp(IntegerAttr(0, i32))
    empty = frontier.NewOp(zero)
    empty.result.name_hint = "bucket"
    Rewriter.insert_op([zero, empty], InsertPoint.after(op))
    op.result.replace_all_uses_with(queue.pending)
    Rewriter.erase_op(op)
    queue.pending = empty.result


def _is_finished(queue: QueueState, before: Operation) -> SSAValue:
    """Ops before `before` that move an empty current bucket to the next
    non-empty one; their result: whether there was none (the queue is finished)."""
    ensure_filled(queue, before)
    zero = arith.ConstantOp(IntegerAttr(0, i32))
    left = frontier.SizeOp(queue.pending)
    done = arith.CmpiOp(left, zero, "eq")
    Rewriter.insert_op([zero, left, done], InsertPoint.before(before))
    queue.refilled = True
    return done.result


def _finished(queue: QueueState, op: PriorityQueueFinishedOp) -> None:
    """Finished when no bucket holds a vertex."""
    Rewriter.replace_op(op, [], [_is_finished(queue, op)])


def _finished_node(queue: QueueState, op: PriorityQueueFinishedNodeOp) -> None:
    """Final when the queue is finished or the vertex's priority (read on the
    host) lies below the current bucket: the buckets below were emptied, and an
    update never lowers a priority beneath the bucket being processed. "No
    priority" is never below a bucket."""
    done = _is_finished(queue, op)
    priority = graph.LoadOp(queue.priorities, op.vertex, queue.type)
    low = arith.SubiOp(queue.window, queue.delta)
    below = queue.compare(priority.result, low.result, "slt")
    final = arith.OrIOp(done, below)
    Rewriter.replace_op(op, [priority, low, below, final])


def _carry(queue: QueueState, block: Block) -> None:
    """Appends the queue's state to `block`'s arguments and makes them current."""
    window = block.insert_arg(queue.type, len(block.args))
    window.name_hint = "bucket_end"
    pending = block.insert_arg(SparseQueueType(), len(block.args))
    pending.name_hint = "bucket"
    queue.window, queue.pending = window, pending
    queue.refilled = False


def _terminate(queue: QueueState, block: Block) -> None:
    """Appends the queue's state to the operands of `block`'s terminator."""
    terminator = block.last_op
    if isinstance(terminator, scf.ConditionOp):
        replacement = scf.ConditionOp(
            terminator.condition, *terminator.args, queue.window, queue.pending
        )
    else:
        assert isinstance(terminator, scf.YieldOp)
        replacement = scf.YieldOp(*terminator.arguments, queue.window, queue.pending)
    Rewriter.replace_op(terminator, replacement)


def _while(queue: QueueState, handle: SSAValue, op: scf.WhileOp) -> None:
    before, after = [op.detach_region(region) for region in list(op.regions)]
    loop = scf.WhileOp(
        [*op.arguments, queue.window, queue.pending],
        [*op.result_types, queue.type, SparseQueueType()],
        before,
        after,
    )
    _carry(queue, before.block)
    _thread(queue, handle, _block_ops(before.block))
    _terminate(queue, before.block)
    # the body and the code after the loop start where the condition left off
    refilled = queue.refilled
    _carry(queue, after.block)
    queue.refilled = refilled
    _thread(queue, handle, _block_ops(after.block))
    _terminate(queue, after.block)
    _replace_loop(queue, op, loop)
    queue.refilled = refilled


def _for(queue: QueueState, handle: SSAValue, op: scf.ForOp) -> None:
    body = op.detach_region(op.body)
    loop = scf.ForOp(
        op.lb, op.ub, op.step, [*op.iter_args, queue.window, queue.pending], body
    )
    _carry(queue, body.block)
    _thread(queue, handle, _block_ops(body.block))
    _terminate(queue, body.block)
    _replace_loop(queue, op, loop)


def _replace_loop(queue: QueueState, old: scf.WhileOp | scf.ForOp, loop: scf.WhileOp | scf.ForOp) -> None:
    """Puts `loop` (`old` carrying the queue's state too) in `old`'s place; the
    queue's state is its last two results afterwards."""
    loop.attributes.update(old.attributes)
    Rewriter.replace_op(old, loop, new_results=list(loop.results[: len(old.results)]))
    queue.window, queue.pending = loop.results[-2:]
    queue.refilled = False
