"""`frontier-lower-priority-queues`'s traversals: a traversal that updates a
queue fills its pending bucket, each `pq_update_*` an atomic update of the
priority vector that enqueues the vertex when it lands in the current bucket
(through a map where the schedule creates buckets unfused)."""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, i1
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import frontier, graph
from gir.dialects.frontier import (
    PriorityQueueCurrentPriorityOp,
    PriorityQueueUpdateMaxOp,
    PriorityQueueUpdateMinOp,
    PriorityQueueUpdates,
    PriorityQueueUpdateSumOp,
    SparseQueueType,
)
from gir.dialects.schedule import FrontierCreationAttr
from gir.ir_walk import walk
from gir.passes import representations
from gir.passes.gpu_fuse_loops import is_fused_loop
from gir.passes.graph_to_frontier import BUCKET_CREATION_ATTR
from gir.passes.priority_queue_buckets import QueueState, uses_queue

def lower_traversal(queue: QueueState, handle: SSAValue, op: frontier.EdgeTraverseOp) -> None:
    """The traversal filling the pending queue: each update an atomic min that
    enqueues into the current bucket."""
    if op.output is not None:
        raise UserError.at(op,
            "error: a traversal that updates a priority queue and fills a frontier "
            "is not supported yet"
        )
    for child in list(walk(op.body)):
        if isinstance(child, PriorityQueueUpdates) and child.queue == handle:
            _update(queue, child)
        elif isinstance(child, PriorityQueueCurrentPriorityOp) and child.queue == handle:
            Rewriter.replace_op(child, arith.SubiOp(queue.window, queue.delta))
    if uses_queue(op, handle):
        raise UserError.at(op, "error: a priority queue used in a traversal this way is not supported yet")
    regions = [op.detach_region(region) for region in list(op.regions)]
    to_filter, body = (None, regions[0]) if len(regions) == 1 else regions
    if to_filter is not None and not to_filter.blocks:
        to_filter = None
    emptied = queue.pending.owner
    marks = _bucket_map(queue, op)
    traverse = frontier.EdgeTraverseOp(
        op.edges,
        op.input,
        body,
        output=queue.pending if marks is None else marks.result,
        to_filter=to_filter,
        direction=op.direction.data,
        load_balance=op.load_balance.data,
        layout=op.layout.data,
        dedup=op.dedup is not None,
        label=None if op.label is None else op.label.data,
        block_size=frontier.block_size_of(op),
        edge_sample=None if op.edge_sample is None else op.edge_sample.value.data,
    )
    Rewriter.replace_op(op, traverse, new_results=[])
    assert traverse.result is not None
    traverse.result.name_hint = "bucket"
    queue.pending = traverse.result
    if marks is not None:
        bucket = frontier.ConvertOp(traverse.result, SparseQueueType())
        bucket.result.name_hint = "bucket"
        Rewriter.insert_op([bucket, frontier.FreeOp(traverse.result)], InsertPoint.after(traverse))
        Rewriter.erase_op(emptied)
        queue.pending = bucket.result


def _bucket_map(queue: QueueState, op: frontier.EdgeTraverseOp) -> frontier.NewOp | None:
    """G2's unfused bucket creation: where the schedule creates the output as a map
    (a boolmap or bitmap), the traversal marks the vertices it lands in the
    current bucket in a fresh map, which a separate step converts into the
    bucket's queue: a vertex lowered several times in the round is queued once,
    with no counter atomics. Only where the traversal would fill the queue the
    dequeue just made empty, and not inside a loop fused into one kernel (a map
    per round is a buffer per iteration). The map (inserted before `op`), or None."""
    creation = op.attributes.get(BUCKET_CREATION_ATTR)
    fill = queue.pending
    if (
        not isinstance(creation, FrontierCreationAttr)
        or not isinstance(fill.owner, frontier.NewOp)
        or fill.uses.get_length() != 0
        or _in_fused_loop(op)
    ):
        return None
    map_type = representations.output_type(creation.data)
    if map_type is None:
        return None
    marks = frontier.NewOp(fill.owner.operands[0], map_type)
    marks.result.name_hint = "marks"
    Rewriter.insert_op(marks, InsertPoint.before(op))
    return marks


def _in_fused_loop(op: Operation) -> bool:
    loop = op.parent_op()
    while loop is not None and not is_fused_loop(loop):
        loop = loop.parent_op()
    return loop is not None


def _update(
    queue: QueueState,
    update: PriorityQueueUpdateMinOp | PriorityQueueUpdateMaxOp | PriorityQueueUpdateSumOp,
) -> None:
    """One priority update as an atomic update of the priority vector that
    enqueues the vertex into the current bucket's next round when it lands there."""
    if isinstance(update, PriorityQueueUpdateSumOp):
        ops, changed, landed = _sum_update(queue, update)
    else:
        kind = (
            graph.ReduceKind.MIN
            if isinstance(update, PriorityQueueUpdateMinOp)
            else graph.ReduceKind.MAX
        )
        reduce = graph.ReduceOp(
            queue.kind(kind), update.new, queue.priorities, update.vertex, atomic=True
        )
        # below the bucket's end: now or never (later buckets are found from the
        # priorities, which never look below it again)
        now = queue.compare(update.new, queue.window, "slt")
        ops, changed, landed = [reduce, now], reduce.changed, now.result
    both = arith.AndIOp(changed, landed)
    enqueue = Block([frontier.EnqueueOp(update.vertex), scf.YieldOp()])
    Rewriter.replace_op(
        update, [*ops, both, scf.IfOp(both, [], Region(enqueue))], new_results=[changed]
    )


def _sum_update(
    queue: QueueState, update: PriorityQueueUpdateSumOp
) -> tuple[list[Operation], SSAValue, SSAValue]:
    """A compare-and-swap loop adding `diff` to a priority above `threshold`
    (clamped to it); returns the ops, whether it changed and whether it moved the
    vertex into the current bucket from a later one (true for one update only)."""
    before = Block()
    old = graph.LoadOp(queue.priorities, update.vertex, queue.type)
    above = queue.compare(old, update.threshold, "sgt")
    summed = arith.AddiOp(old, update.diff)
    clamped = (arith.MaxUIOp if queue.unsigned else arith.MaxSIOp)(summed, update.threshold)
    swap = Block()
    swapped = graph.CompareAndSwapOp(queue.priorities, update.vertex, old, clamped)
    swap.add_ops([swapped, scf.YieldOp(swapped)])
    false = arith.ConstantOp(IntegerAttr(0, i1))
    skip = Block([false, scf.YieldOp(false)])
    won = scf.IfOp(above, [i1], Region(swap), Region(skip))
    true = arith.ConstantOp(IntegerAttr(1, i1))
    lost = arith.XOrIOp(won, true)
    retry = arith.AndIOp(above, lost)
    before.add_ops([old, above, summed, clamped, won, true, lost, retry])
    before.add_op(scf.ConditionOp(retry, won, old, clamped))
    after = Block(arg_types=[i1, queue.type, queue.type])
    after.add_op(scf.YieldOp())
    loop = scf.WhileOp([], [i1, queue.type, queue.type], Region(before), Region(after))
    changed, was, now = loop.results
    changed.name_hint = "changed"
    from_later = queue.compare(was, queue.window, "sge")
    into_current = queue.compare(now, queue.window, "slt")
    landed = arith.AndIOp(from_later, into_current)
    return [loop, from_later, into_current, landed], changed, landed.result
