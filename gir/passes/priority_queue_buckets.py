"""`frontier-lower-priority-queues`'s queue state and bucket refill: the end of
a queue's current bucket and its pending vertices (`QueueState`), and the vertex
maps that move an empty bucket to the next non-empty one (`ensure_filled`)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from gir.dialects import frontier, graph
from gir.dialects.frontier import SparseQueueType
from gir.ir_walk import walk

UNSIGNED_PREDICATES = {"slt": "ult", "sle": "ule", "sgt": "ugt", "sge": "uge"}


@dataclass
class QueueState:
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


def uses_queue(op: Operation, handle: SSAValue) -> bool:
    """Whether `op` or an op inside it reads the queue `handle`."""
    return any(handle in child.operands for child in walk(op))


def ensure_filled(queue: QueueState, before: Operation) -> None:
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


def _refill(queue: QueueState, block: Block) -> tuple[SSAValue, SSAValue]:
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


def _vertex_body(build, queue: QueueState) -> Region:
    """A vertex-map body that loads the vertex's priority and lets `build(block,
    priority)` add the rest."""
    block = Block(arg_types=[graph.VertexType()])
    priority = graph.LoadOp(queue.priorities, block.args[0], queue.type)
    block.add_op(priority)
    build(block, priority.result)
    block.add_op(frontier.YieldOp())
    return Region(block)


def _lowest_body(
    queue: QueueState, block: Block, priority: SSAValue, none: SSAValue, zero: SSAValue
) -> None:
    """Atomic min of the priorities at or above the current bucket's end."""
    later = queue.compare(priority, queue.window, "sge")
    queued = arith.CmpiOp(priority, none, "ne")
    both = arith.AndIOp(later, queued)
    lowest = queue.kind(graph.ReduceKind.MIN)
    body = Block([graph.ReduceOp(lowest, priority, queue.scratch, zero, atomic=True), scf.YieldOp()])
    block.add_ops([later, queued, both, scf.IfOp(both, [], Region(body))])


def _in_bucket_body(
    queue: QueueState, block: Block, priority: SSAValue, low: SSAValue, end: SSAValue
) -> None:
    """Enqueues the vertex when `low <= priority < end`."""
    above = queue.compare(priority, low, "sge")
    below = queue.compare(priority, end, "slt")
    both = arith.AndIOp(above, below)
    enqueue = Block([frontier.EnqueueOp(block.args[0]), scf.YieldOp()])
    block.add_ops([above, below, both, scf.IfOp(both, [], Region(enqueue))])
