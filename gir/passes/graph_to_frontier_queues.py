"""`graph-to-frontier`'s priority queues: the graph level's queue ops become the
frontier level's, with the bucket width (`delta`) and bucket-fusion threshold
of the schedules of the program's `applyUpdatePriority` traversals; reads of a
queue global become the queue its dominating store made."""

from __future__ import annotations

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import frontier, graph
from gir.dialects.schedule import ArgvAttr, SimpleScheduleAttr, Toggle
from gir.ir_walk import walk

def queue_delta(module: ModuleOp) -> IntegerAttr | ArgvAttr:
    """The bucket width of the program's priority queues: the `delta` of the
    schedules of its `applyUpdatePriority` traversals, which must agree (G2's
    default of 1 where there is none)."""
    deltas = {
        child.schedule.delta: child
        for child in walk(module)
        if isinstance(child, graph.EdgeSetApplyOp)
        and child.kind.data == graph.ApplyKind.APPLY_UPDATE_PRIORITY
        and isinstance(child.schedule, SimpleScheduleAttr)
    }
    if len(deltas) > 1:
        raise UserError.at(list(deltas.values())[-1],
            "error: the applyUpdatePriority traversals have different deltas "
            f"({', '.join(str(d) for d in deltas)}), which is not supported yet"
        )
    return next(iter(deltas), IntegerAttr(1, 64))


def queue_fusion_threshold(module: ModuleOp) -> int | None:
    """The bucket-fusion threshold of the program's priority queues: that of the
    `applyUpdatePriority` traversals scheduled with `configBucketFusion(ENABLED)`
    (None when none is), which must agree."""
    thresholds = {
        child.schedule.bucket_fusion_threshold.value.data
        for child in walk(module)
        if isinstance(child, graph.EdgeSetApplyOp)
        and child.kind.data == graph.ApplyKind.APPLY_UPDATE_PRIORITY
        and isinstance(child.schedule, SimpleScheduleAttr)
        and child.schedule.bucket_fusion.data == Toggle.ENABLED
    }
    if len(thresholds) > 1:
        raise UserError(
            "error: the applyUpdatePriority traversals have different bucket fusion "
            f"thresholds ({', '.join(map(str, sorted(thresholds)))}), which is not supported yet"
        )
    return next(iter(thresholds), None)


def promote_queue_globals(module: ModuleOp, main: func.FuncOp) -> None:
    """Replaces reads of priority-queue globals by the value of the store that
    dominates them (a queue may be made anew inside a loop of `main`)."""
    names = {
        child.sym_name.data
        for child in module.ops
        if isinstance(child, graph.GlobalOp)
        and isinstance(child.global_type, graph.PriorityQueueType)
    }
    stores: dict[str, list[graph.GlobalStoreOp]] = {name: [] for name in names}
    for child in list(walk(main)):
        if isinstance(child, graph.GlobalStoreOp):
            name = child.global_name.root_reference.data
            if name in names:
                stores[name].append(child)
        elif isinstance(child, graph.GlobalLoadOp):
            name = child.global_name.root_reference.data
            if name not in names:
                continue
            store = next(
                (s for s in reversed(stores[name]) if _dominates(s, child)), None
            )
            if store is None:
                raise UserError.at(child, f"error: priority queue '@{name}' is used before it is made")
            child.result.replace_all_uses_with(store.value)
            Rewriter.erase_op(child)
    for found in stores.values():
        for store in found:
            Rewriter.erase_op(store)


def _dominates(store: Operation, user: Operation) -> bool:
    """Whether `store` runs before `user` on every path (structured control flow)."""
    block = store.parent_block()
    assert block is not None
    ancestor = block.find_ancestor_op_in_block(user)
    return ancestor is not None and store.is_before_in_block(ancestor)


def priority_queues_to_frontier(
    main: func.FuncOp, delta: IntegerAttr | ArgvAttr, fusion: int | None
) -> None:
    """The graph's priority-queue ops as frontier ones; `delta` becomes an operand
    of each new queue, `fusion` its bucket-fusion threshold."""
    for op in list(walk(main)):
        if isinstance(op, graph.PriorityQueueNewOp):
            _new_queue(op, delta, fusion)
        elif isinstance(op, graph.UpdatePriorityOp | graph.UpdatePrioritySumOp):
            _priority_update(op)
        elif isinstance(op, graph.DequeueReadySetOp):
            Rewriter.replace_op(op, frontier.PriorityQueueDequeueOp(op.queue))
        elif isinstance(op, graph.PriorityQueueFinishedOp):
            Rewriter.replace_op(op, frontier.PriorityQueueFinishedOp(op.queue))
        elif isinstance(op, graph.PriorityQueueFinishedNodeOp):
            Rewriter.replace_op(op, frontier.PriorityQueueFinishedNodeOp(op.queue, op.vertex))
        elif isinstance(op, graph.GetCurrentPriorityOp):
            Rewriter.replace_op(op, frontier.PriorityQueueCurrentPriorityOp(op.queue))
        elif isinstance(op, graph.DeleteOp) and isinstance(
            op.value.type, graph.PriorityQueueType | frontier.PriorityQueueType
        ):
            Rewriter.replace_op(op, frontier.PriorityQueueFreeOp(op.value))


def _priority_update(op: graph.UpdatePriorityOp | graph.UpdatePrioritySumOp) -> None:
    """`updatePriorityMin/Max/Sum` as the frontier op of the same name."""
    if not isinstance(op.vertex.type, graph.VertexType):
        raise UserError.at(op, "error: updating the priority of a vertex id is not supported yet")
    update: Operation
    if isinstance(op, graph.UpdatePrioritySumOp):
        update = frontier.PriorityQueueUpdateSumOp(op.queue, op.vertex, op.diff, op.threshold)
    elif op.kind.data == graph.ReduceKind.MIN:
        update = frontier.PriorityQueueUpdateMinOp(op.queue, op.vertex, op.new)
    else:
        update = frontier.PriorityQueueUpdateMaxOp(op.queue, op.vertex, op.new)
    Rewriter.replace_op(op, update)


def _new_queue(
    op: graph.PriorityQueueNewOp, delta: IntegerAttr | ArgvAttr, fusion: int | None
) -> None:
    """`pq_new` as the frontier op, over priorities of 32 bits (int, uint) or 64
    (int64, uint_64); `delta` becomes a value of the priority type."""
    assert isinstance(op.result.type, graph.PriorityQueueType)
    priority = op.result.type.priority_type
    if priority not in (i32, i64):
        raise UserError.at(op,
            f"error: priority queues of {priority} priorities are not supported yet "
            "(only integer ones: int, uint, int64 and uint_64)"
        )
    assert isinstance(priority, IntegerType)
    width: Operation = (
        graph.ArgvIntOp(delta.index.value.data, priority)
        if isinstance(delta, ArgvAttr)
        else arith.ConstantOp(IntegerAttr(delta.value.data, priority))
    )
    width.results[0].name_hint = "delta"
    start: SSAValue | None = op.start
    new_ops = [width]
    if op.starts_with_every_vertex:
        # every vertex starts in the bucket of its priority: no start vertex
        start = None
    elif isinstance(start.type, graph.VertexType):
        to_id = graph.VertexIdOp(start)
        new_ops.append(to_id)
        start = to_id.result
    Rewriter.insert_op(new_ops, InsertPoint.before(op))
    queue = frontier.PriorityQueueNewOp(
        op.priorities.root_reference.data, width.results[0], start, fusion
    )
    Rewriter.replace_op(op, queue)
