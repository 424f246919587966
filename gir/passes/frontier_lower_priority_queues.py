"""Lowers priority queues to frontiers, vertex maps and a loop-carried bucket end."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp, i1, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects.schedule import FrontierCreationAttr
from gir.passes import representations
from gir.passes.gpu_fuse_loops import is_fused_loop
from gir.passes.graph_to_frontier import BUCKET_CREATION_ATTR
from gir.dialects import frontier, graph
from gir.dialects.frontier import (
    PriorityQueueBucketSizeOp,
    PriorityQueueCurrentPriorityOp,
    PriorityQueueDequeueOp,
    PriorityQueueFinishedNodeOp,
    PriorityQueueFinishedOp,
    PriorityQueueFreeOp,
    PriorityQueueNewOp,
    PriorityQueueUpdateMaxOp,
    PriorityQueueUpdateMinOp,
    PriorityQueueUpdates,
    PriorityQueueUpdateSumOp,
    SparseQueueType,
)

UNSIGNED_PREDICATES = {"slt": "ult", "sle": "ule", "sgt": "ugt", "sge": "uge"}


@dataclass
class _Queue:
    """One queue's lowered state at the current point of the program: `window` is
    the end of the current bucket `[window - delta, window)`, `pending` the
    vertices waiting in it."""

    priorities: str
    scratch: str
    delta: SSAValue
    window: SSAValue
    pending: SSAValue
    unsigned: bool = False
    """Whether the priorities are `uint` or `uint_64`: every comparison, the
    bucket arithmetic and the atomic updates are then unsigned, and no priority
    is the type's largest unsigned value rather than its largest signed one."""
    refilled: bool = False
    """Whether `pending` was just refilled (a dequeue then need not look again)."""

    def compare(self, left: SSAValue, right: SSAValue, predicate: str) -> arith.CmpiOp:
        """`left predicate right` on priorities (`slt`, `sge`, ... as written for
        int; the unsigned predicate for uint priorities)."""
        if self.unsigned:
            predicate = UNSIGNED_PREDICATES.get(predicate, predicate)
        return arith.CmpiOp(left, right, predicate)

    def kind(self, kind: graph.ReduceKind) -> graph.ReduceKind:
        """An atomic min or max on priorities (`umin`/`umax` for uint)."""
        if not self.unsigned:
            return kind
        unsigned = {graph.ReduceKind.MIN: graph.ReduceKind.UMIN, graph.ReduceKind.MAX: graph.ReduceKind.UMAX}
        return unsigned[kind]

    @property
    def type(self) -> IntegerType:
        """The priorities' type (i32 or i64), that of `delta` and of `window`."""
        assert isinstance(self.delta.type, IntegerType)
        return self.delta.type

    @property
    def none(self) -> int:
        """The priority of a vertex in no bucket, GraphIt's null priority (what
        an unreached vertex keeps): the largest value of the priority type (INT_MAX,
        UINT_MAX, INT64_MAX or UINT64_MAX), as the signless constant's value."""
        width = self.type.width.data
        return -1 if self.unsigned else 2 ** (width - 1) - 1

    def constant(self, value: int) -> arith.ConstantOp:
        """A constant of the priority type."""
        return arith.ConstantOp(IntegerAttr(value, self.type))


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
        for new in [child for child in op.walk() if isinstance(child, PriorityQueueNewOp)]:
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
        queue = _Queue(priorities, scratch, new.delta, lowest.result, empty.result, unsigned)
    else:
        start = frontier.AddOp(new.start, empty)
        start.result.name_hint = "bucket"
        Rewriter.insert_op(start, InsertPoint.before(new))
        queue = _Queue(priorities, scratch, new.delta, new.delta, start.result, unsigned)
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


def _uses(op: Operation, handle: SSAValue) -> bool:
    return any(handle in child.operands for child in op.walk())


def _thread(queue: _Queue, handle: SSAValue, ops: list[Operation]) -> None:
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
        elif isinstance(op, frontier.EdgeTraverseOp) and _uses(op, handle):
            _traversal(queue, handle, op)
        elif isinstance(op, scf.WhileOp) and _uses(op, handle):
            _while(queue, handle, op)
        elif isinstance(op, scf.ForOp) and _uses(op, handle):
            _for(queue, handle, op)
        elif _uses(op, handle):
            raise UserError.at(op,
                f"error: a priority queue used inside '{op.name}' is not supported "
                "yet (use it in loops and at the top level)"
            )


def _block_ops(block: Block) -> list[Operation]:
    return list(block.ops)


def _dequeue(queue: _Queue, op: PriorityQueueDequeueOp) -> None:
    """Hands the current bucket over (moving to the next non-empty bucket first
    when it is empty and `pq_finished` did not just do so)."""
    if not queue.refilled and op.current is None:
        _ensure_filled(queue, op)
    queue.refilled = False
    zero = arith.ConstantOp(IntegerAttr(0, i32))
    empty = frontier.NewOp(zero)
    empty.result.name_hint = "bucket"
    Rewriter.insert_op([zero, empty], InsertPoint.after(op))
    op.result.replace_all_uses_with(queue.pending)
    Rewriter.erase_op(op)
    queue.pending = empty.result


def _is_finished(queue: _Queue, before: Operation) -> SSAValue:
    """Ops before `before` that move an empty current bucket to the next
    non-empty one; their result: whether there was none (the queue is finished)."""
    _ensure_filled(queue, before)
    zero = arith.ConstantOp(IntegerAttr(0, i32))
    left = frontier.SizeOp(queue.pending)
    done = arith.CmpiOp(left, zero, "eq")
    Rewriter.insert_op([zero, left, done], InsertPoint.before(before))
    queue.refilled = True
    return done.result


def _finished(queue: _Queue, op: PriorityQueueFinishedOp) -> None:
    """Finished when no bucket holds a vertex."""
    Rewriter.replace_op(op, [], [_is_finished(queue, op)])


def _finished_node(queue: _Queue, op: PriorityQueueFinishedNodeOp) -> None:
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


def _ensure_filled(queue: _Queue, before: Operation) -> None:
    """Ops before `before` that move an empty current bucket to the next
    non-empty one (which stays empty when there is none)."""
    zero = arith.ConstantOp(IntegerAttr(0, i32))
    size = frontier.SizeOp(queue.pending)
    drained = arith.CmpiOp(size, zero, "eq")
    refill = Block()
    window, filled = _refill(queue, refill)
    refill.add_op(scf.YieldOp(window, filled))
    keep = Block([scf.YieldOp(queue.window, queue.pending)])
    choice = scf.IfOp(drained, [queue.type, SparseQueueType()], Region(refill), Region(keep))
    choice.results[0].name_hint = "bucket_end"
    choice.results[1].name_hint = "bucket"
    Rewriter.insert_op([zero, size, drained, choice], InsertPoint.before(before))
    queue.window, queue.pending = choice.results


def _refill(queue: _Queue, block: Block) -> tuple[SSAValue, SSAValue]:
    """Ops at the end of `block` that find the next non-empty bucket and fill the
    (empty) pending queue with it; returns its end and the filled queue."""
    zero = arith.ConstantOp(IntegerAttr(0, i32))
    none = queue.constant(queue.none)
    reset = graph.StoreOp(none, queue.scratch, zero)
    every = frontier.AllVerticesOp()
    search = frontier.VertexMapOp(
        every, _vertex_body(lambda b, p: _lowest_body(queue, b, p, none.result, zero.result), queue),
        label="next_bucket",
    )
    lowest = graph.LoadOp(queue.scratch, zero, queue.type)
    # the end of the lowest priority's bucket, no priority where it would pass it
    # (so that a bucket end never wraps around, however large the priorities)
    rem = (arith.RemUIOp if queue.unsigned else arith.RemSIOp)(lowest, queue.delta)
    base = arith.SubiOp(lowest, rem)
    limit = arith.SubiOp(none, queue.delta)
    past = queue.compare(base, limit, "sgt")
    after = arith.AddiOp(base, queue.delta)
    end = arith.SelectOp(past, none, after)
    end.result.name_hint = "bucket_end"
    block.add_ops([zero, none, reset, every, search, lowest, rem, base, limit, past, after, end])
    old_end = queue.window
    fill = frontier.VertexMapOp(
        every,
        _vertex_body(lambda b, p: _in_bucket_body(queue, b, p, old_end, end.result), queue),
        output=queue.pending,
        label="bucket",
    )
    block.add_op(fill)
    assert fill.result is not None
    return end.result, fill.result


def _vertex_body(build, queue: _Queue) -> Region:
    """A vertex-map body that loads the vertex's priority and lets `build(block,
    priority)` add the rest."""
    block = Block(arg_types=[graph.VertexType()])
    priority = graph.LoadOp(queue.priorities, block.args[0], queue.type)
    block.add_op(priority)
    build(block, priority.result)
    block.add_op(frontier.YieldOp())
    return Region(block)


def _lowest_body(
    queue: _Queue, block: Block, priority: SSAValue, none: SSAValue, zero: SSAValue
) -> None:
    """Atomic min of the priorities at or above the current bucket's end."""
    later = queue.compare(priority, queue.window, "sge")
    queued = arith.CmpiOp(priority, none, "ne")
    both = arith.AndIOp(later, queued)
    lowest = queue.kind(graph.ReduceKind.MIN)
    body = Block([graph.ReduceOp(lowest, priority, queue.scratch, zero, atomic=True), scf.YieldOp()])
    block.add_ops([later, queued, both, scf.IfOp(both, [], Region(body))])


def _in_bucket_body(
    queue: _Queue, block: Block, priority: SSAValue, low: SSAValue, end: SSAValue
) -> None:
    """Enqueues the vertex when `low <= priority < end`."""
    above = queue.compare(priority, low, "sge")
    below = queue.compare(priority, end, "slt")
    both = arith.AndIOp(above, below)
    enqueue = Block([frontier.EnqueueOp(block.args[0]), scf.YieldOp()])
    block.add_ops([above, below, both, scf.IfOp(both, [], Region(enqueue))])


def _traversal(queue: _Queue, handle: SSAValue, op: frontier.EdgeTraverseOp) -> None:
    """The traversal filling the pending queue: each update an atomic min that
    enqueues into the current bucket."""
    if op.output is not None:
        raise UserError.at(op,
            "error: a traversal that updates a priority queue and fills a frontier "
            "is not supported yet"
        )
    for child in list(op.body.walk()):
        if isinstance(child, PriorityQueueUpdates) and child.queue == handle:
            _update(queue, child)
        elif isinstance(child, PriorityQueueCurrentPriorityOp) and child.queue == handle:
            Rewriter.replace_op(child, arith.SubiOp(queue.window, queue.delta))
    if _uses(op, handle):
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


def _bucket_map(queue: _Queue, op: frontier.EdgeTraverseOp) -> frontier.NewOp | None:
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
    queue: _Queue,
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
    queue: _Queue, update: PriorityQueueUpdateSumOp
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


def _carry(queue: _Queue, block: Block) -> None:
    """Appends the queue's state to `block`'s arguments and makes them current."""
    window = block.insert_arg(queue.type, len(block.args))
    window.name_hint = "bucket_end"
    pending = block.insert_arg(SparseQueueType(), len(block.args))
    pending.name_hint = "bucket"
    queue.window, queue.pending = window, pending
    queue.refilled = False


def _terminate(queue: _Queue, block: Block) -> None:
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


def _while(queue: _Queue, handle: SSAValue, op: scf.WhileOp) -> None:
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


def _for(queue: _Queue, handle: SSAValue, op: scf.ForOp) -> None:
    body = op.detach_region(op.body)
    loop = scf.ForOp(
        op.lb, op.ub, op.step, [*op.iter_args, queue.window, queue.pending], body
    )
    _carry(queue, body.block)
    _thread(queue, handle, _block_ops(body.block))
    _terminate(queue, body.block)
    _replace_loop(queue, op, loop)


def _replace_loop(queue: _Queue, old: scf.WhileOp | scf.ForOp, loop: scf.WhileOp | scf.ForOp) -> None:
    """Puts `loop` (`old` carrying the queue's state too) in `old`'s place; the
    queue's state is its last two results afterwards."""
    loop.attributes.update(old.attributes)
    Rewriter.replace_op(old, loop, new_results=list(loop.results[: len(old.results)]))
    queue.window, queue.pending = loop.results[-2:]
    queue.refilled = False
