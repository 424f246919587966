"""`frontier-bucket-fusion`: small rounds of a bucket run again without leaving the traversal."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, i32
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.dialects import frontier
from gir.dialects.frontier import (
    PriorityQueueBucketSizeOp,
    PriorityQueueDequeueOp,
    PriorityQueueNewOp,
    PriorityQueueUpdates,
)
from gir.axes import LOAD_BALANCES
from gir.diagnostics import UserError
from gir.dialects.schedule import LoadBalanceAttr, SimpleScheduleAttr, Toggle, ToggleAttr
from gir.ir_walk import walk
from gir.passes.gpu_fuse_loops import SCHEDULE

def fused_load_balance() -> str:
    """How the fused rounds spread a small bucket over threads: the first
    registered load balance with one thread per vertex and no host steps
    (VERTEX_BASED): a small bucket gains nothing from finer mappings, and the
    kernel stays fusable."""
    for name in LOAD_BALANCES:
        strategy = LOAD_BALANCES.get(name)
        if strategy.owns_iterated_vertex() and strategy.fusable:
            return name
    raise UserError("error: bucket fusion needs a load balance with one thread per vertex")


@dataclass(frozen=True)
class FrontierBucketFusion(ModulePass):
    """Runs the next rounds of the current bucket inside the traversal loop while it is small.

    GraphIt's CPU bucket fusion on the GPU: after a traversal of a queue scheduled
    with `configBucketFusion(ENABLED, T)` (the threshold `T` is the queue's
    `fusion_threshold`), the vertices that it put back into the current bucket are
    processed at once, round after round, while the bucket holds between 1 and
    `T - 1` vertices, instead of going back to the outer loop (its `finished()`
    check and its bucket search) for each round; the inner traversal maps one
    thread to a vertex. Priority order is kept: every fused round processes the
    same bucket. With `fuse_kernels`, the inner loop is scheduled with kernel
    fusion, so that `gpu-fuse-loops` makes it one persistent kernel where the
    target has grid synchronization (off by default: the host printer hoists the
    launcher of a persistent kernel nested in a loop out of the OpenCL fallback,
    so OpenCL would fail to create it).

    Before:
    ```mlir
    %pq = frontier.pq_new @est, %delta, %source fusion threshold 64 : i64
    ...
    %ready = frontier.pq_dequeue %pq : !frontier.queue
    frontier.edge_traverse PUSH TWCE CSR %e : !graph.edgeset<i32> from %ready : !frontier.queue apply {
      ... frontier.pq_update_min %pq, %w, %via ...
    }
    frontier.free %ready : !frontier.queue
    ```
    After:
    ```mlir
    %pq = frontier.pq_new @est, %delta, %source fusion threshold 64 : i64
    ...
    %ready = frontier.pq_dequeue %pq : !frontier.queue
    frontier.edge_traverse PUSH TWCE CSR %e : !graph.edgeset<i32> from %ready : !frontier.queue apply {...}
    scf.while () : () -> () {
      %n = frontier.pq_bucket_size %pq
      ...   // 0 < %n < 64
      scf.condition(%small)
    } do {
      %again = frontier.pq_dequeue %pq current : !frontier.queue
      frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset<i32> from %again : !frontier.queue apply {...}
      frontier.free %again : !frontier.queue
      scf.yield
    } attributes {graph.label = "bucket_fusion"}  // + graph.schedule with kernel_fusion = ENABLED if fuse_kernels
    frontier.free %ready : !frontier.queue
    ```
    """

    name = "frontier-bucket-fusion"

    fuse_kernels: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for new in [c for c in walk(op) if isinstance(c, PriorityQueueNewOp)]:
            if new.fusion_threshold is None:
                continue
            threshold = new.fusion_threshold.value.data
            for use in list(new.result.uses):
                dequeue = use.operation
                if isinstance(dequeue, PriorityQueueDequeueOp) and dequeue.current is None:
                    for traversal in _traversals_of(dequeue):
                        _fuse_rounds(traversal, dequeue, threshold, self.fuse_kernels)


def _traversals_of(dequeue: PriorityQueueDequeueOp) -> list[frontier.EdgeTraverseOp]:
    """The traversals from the dequeued vertices that update the same queue."""
    return [
        use.operation
        for use in dequeue.result.uses
        if isinstance(use.operation, frontier.EdgeTraverseOp)
        and use.operation.input == dequeue.result
        and any(
            isinstance(child, PriorityQueueUpdates) and child.queue == dequeue.queue
            for child in walk(use.operation.body)
        )
    ]


def _fuse_rounds(
    traversal: frontier.EdgeTraverseOp,
    dequeue: PriorityQueueDequeueOp,
    threshold: int,
    fuse_kernels: bool,
) -> None:
    """The loop of small rounds, right after `traversal`."""
    queue = dequeue.queue
    size = PriorityQueueBucketSizeOp(queue)
    zero = arith.ConstantOp(IntegerAttr(0, i32))
    limit = arith.ConstantOp(IntegerAttr(threshold, i32))
    some = arith.CmpiOp(size, zero, "sgt")
    few = arith.CmpiOp(size, limit, "slt")
    small = arith.AndIOp(some, few)
    small.result.name_hint = "small_bucket"
    before = Block([size, zero, limit, some, few, small, scf.ConditionOp(small)])

    again = PriorityQueueDequeueOp(queue, current=True)
    again.result.name_hint = "again"
    rerun = traversal.clone()
    rerun.operands[1] = again.result
    rerun.properties["load_balance"] = LoadBalanceAttr(fused_load_balance())
    if traversal.label is not None:
        rerun.properties["label"] = StringAttr(f"{traversal.label.data}:fused")
    after = Block([again, rerun, frontier.FreeOp(again), scf.YieldOp()])

    loop = scf.WhileOp([], [], Region(before), Region(after))
    loop.attributes["graph.label"] = StringAttr("bucket_fusion")
    if fuse_kernels:
        loop.attributes[SCHEDULE] = SimpleScheduleAttr.default().with_options(
            kernel_fusion=ToggleAttr(Toggle.ENABLED)
        )
    Rewriter.insert_op(loop, InsertPoint.after(traversal))
