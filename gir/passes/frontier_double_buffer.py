"""Reuses the storage of a loop's freed frontier for the next iteration's output."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.dialects import frontier
from gir.dialects.frontier import SparseQueueType
from gir.passes.ir_utils import constant_value


@dataclass(frozen=True)
class FrontierDoubleBuffer(ModulePass):
    """Double-buffers loop frontiers: the frontier freed in an iteration is the next one's output.

    In a `scf.while` whose body frees a queue it received (`delete frontier`) and
    yields a queue filled into a fresh empty one (`frontier = output`), the fresh
    queue becomes the cleared spare carried by the loop, and the freed one the
    next spare: two storages swap roles instead of one allocation and one release
    per iteration. The spare is allocated before the loop and freed after it.

    Before:
    ```mlir
    %r = scf.while (%f = %start) : (!frontier.queue) -> !frontier.queue { ... } do {
    ^bb0(%in : !frontier.queue):
      %empty = frontier.new %c0 : i32 -> !frontier.queue
      %out = frontier.edge_traverse ... from %in : !frontier.queue into %empty ...
      frontier.free %in : !frontier.queue
      scf.yield %out : !frontier.queue
    }
    ```
    After:
    ```mlir
    %spare = frontier.new %c0 : i32 -> !frontier.queue
    %r:2 = scf.while (%f = %start, %s = %spare) : ... { ... } do {
    ^bb0(%in : !frontier.queue, %s2 : !frontier.queue):
      %empty = frontier.clear %s2 : !frontier.queue
      %out = frontier.edge_traverse ... from %in : !frontier.queue into %empty ...
      scf.yield %out, %in : !frontier.queue, !frontier.queue
    }
    frontier.free %r#1 : !frontier.queue
    ```
    """

    name = "frontier-double-buffer"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for loop in [child for child in op.walk() if isinstance(child, scf.WhileOp)]:
            current: scf.WhileOp | None = loop
            while current is not None:
                current = _double_buffer(current)


_SAME_STORAGE = (frontier.AddOp, frontier.ClearOp)


def _yielded_fresh_queue(new: frontier.NewOp, yield_op: scf.YieldOp) -> bool:
    """Whether the storage `new` allocates ends up (only) in `yield_op`."""
    value: SSAValue = new.result
    while True:
        storage_users = [
            use.operation
            for use in value.uses
            if isinstance(use.operation, _SAME_STORAGE)
            or (
                isinstance(use.operation, frontier.MapOps)
                and use.operation.output is value
            )
            or isinstance(use.operation, frontier.FreeOp | scf.YieldOp)
        ]
        if len(storage_users) != 1:
            return False
        (user,) = storage_users
        if user is yield_op:
            return True
        if user.parent_block() is not yield_op.parent_block() or isinstance(
            user, frontier.FreeOp | scf.YieldOp
        ):
            return False
        value = user.results[0]


def _double_buffer(loop: scf.WhileOp) -> scf.WhileOp | None:
    body = loop.after_region.block
    yield_op = body.last_op
    if not isinstance(yield_op, scf.YieldOp):
        return None
    frees = [
        op
        for op in body.ops
        if isinstance(op, frontier.FreeOp)
        and op.frontier in body.args
        and isinstance(op.frontier.type, SparseQueueType)
    ]
    fresh = [
        op
        for op in body.ops
        if isinstance(op, frontier.NewOp)
        and _is_zero(op.count)
        and _yielded_fresh_queue(op, yield_op)
    ]
    if not frees or not fresh:
        return None
    free, new = frees[0], fresh[0]
    freed = free.frontier

    zero = arith.ConstantOp(IntegerAttr(0, i32))
    spare = frontier.NewOp(zero.result)
    spare.result.name_hint = "spare"
    Rewriter.insert_op([zero, spare], _spare_insertion_point(loop, freed))

    queue = SparseQueueType()
    before = loop.before_region.block
    condition = before.last_op
    assert isinstance(condition, scf.ConditionOp)
    before_spare = before.insert_arg(queue, len(before.args))
    before_spare.name_hint = "spare"
    Rewriter.replace_op(
        condition, scf.ConditionOp(condition.condition, *condition.args, before_spare)
    )
    body_spare = body.insert_arg(queue, len(body.args))
    body_spare.name_hint = "spare"
    clear = frontier.ClearOp(body_spare)
    Rewriter.replace_op(new, clear)
    Rewriter.erase_op(free)
    Rewriter.replace_op(yield_op, scf.YieldOp(*yield_op.arguments, freed))

    new_loop = scf.WhileOp(
        [*loop.arguments, spare.result],
        [*loop.result_types, queue],
        Rewriter.move_region_contents_to_new_regions(loop.before_region),
        Rewriter.move_region_contents_to_new_regions(loop.after_region),
    )
    new_loop.attributes.update(loop.attributes)
    Rewriter.replace_op(loop, new_loop, new_results=list(new_loop.results[:-1]))
    Rewriter.insert_op(frontier.FreeOp(new_loop.results[-1]), InsertPoint.after(new_loop))
    return new_loop


def _spare_insertion_point(loop: scf.WhileOp, freed: SSAValue) -> InsertPoint:
    """Right after the loop's initial frontier is made, so that the spare's
    allocation happens with the first one's (outside a timed region that starts
    between them and the loop), else just before the loop."""
    condition = loop.before_region.block.last_op
    assert isinstance(freed, BlockArgument) and isinstance(condition, scf.ConditionOp)
    forwarded = condition.args[freed.index]
    if isinstance(forwarded, BlockArgument) and forwarded.block is loop.before_region.block:
        owner = loop.arguments[forwarded.index].owner
        if isinstance(owner, Operation) and owner.parent_block() is loop.parent_block():
            return InsertPoint.after(owner)
    return InsertPoint.before(loop)


def _is_zero(value: SSAValue) -> bool:
    constant = constant_value(value)
    return isinstance(constant, IntegerAttr) and constant.value.data == 0

