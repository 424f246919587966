"""Reuses the storage of a loop's freed frontier for the next iteration's output."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.dialects import frontier
from gir.ir_walk import walk
from gir.passes.ir_utils import constant_value


@dataclass(frozen=True)
class FrontierDoubleBuffer(ModulePass):
    """Double-buffers loop frontiers: storage freed in an iteration is the next one's output.

    In a `scf.while` whose body frees a queue it received (`delete frontier`) and
    yields a queue filled into a fresh empty one (`frontier = output`), the fresh
    queue becomes the cleared spare carried by the loop, and the freed one the
    next spare: two storages swap roles instead of one allocation and one release
    per iteration. A fresh empty frontier freed in the same iteration (a bitmap
    or boolmap output converted to the loop's queue, UNFUSED_BITMAP/BOOLMAP
    creation) becomes a spare too, yielded where it was freed. Any mutable
    representation qualifies, and so does a fresh queue that a list's entry is
    retrieved into (`levels.retrieve(above); delete current; current = above;`:
    BC's backward pass, whose pop then writes another storage than the one the
    level's traversal reads). The spare is allocated before the loop and freed
    after it.

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
        for loop in [child for child in walk(op) if isinstance(child, scf.WhileOp)]:
            current: scf.WhileOp | None = loop
            while current is not None:
                current = _double_buffer(current)


_SAME_STORAGE = (frontier.AddOp, frontier.ClearOp, frontier.DedupOp)


def _storage_end(new: frontier.NewOp, body: Block) -> Operation | None:
    """What ends the storage `new` allocates: the loop body's `scf.yield` (it is
    the next iteration's frontier) or a `frontier.free` in the body (a scratch
    frontier of one iteration), when that storage passes only through ops of
    `body` that keep it (add, clear, dedup, filling a map's output, a list's
    retrieve into it); else None."""
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
            or (isinstance(use.operation, frontier.ListRetrieveOp) and use.operation.into is value)
            or isinstance(use.operation, frontier.FreeOp | scf.YieldOp)
        ]
        if len(storage_users) != 1:
            return None
        (user,) = storage_users
        if user.parent_block() is not body:
            return None
        if isinstance(user, frontier.FreeOp | scf.YieldOp):
            return user
        value = user.results[0]


def _reused_storage(
    body: Block, yield_op: scf.YieldOp
) -> tuple[frontier.NewOp, frontier.FreeOp] | None:
    """A fresh empty frontier of the body and the free whose storage can serve as
    the next iteration's one: the free of a frontier the body received when the
    fresh one is yielded, or the fresh one's own free when it is a scratch."""
    received = {
        op.frontier.type: op
        for op in reversed(list(body.ops))
        if isinstance(op, frontier.FreeOp) and op.frontier in body.args
    }
    for new in body.ops:
        if not isinstance(new, frontier.NewOp) or not _is_zero(new.count):
            continue
        end = _storage_end(new, body)
        if isinstance(end, frontier.FreeOp):
            return new, end
        if end is yield_op and new.result.type in received:
            return new, received[new.result.type]
    return None


def _double_buffer(loop: scf.WhileOp) -> scf.WhileOp | None:
    body = loop.after_region.block
    yield_op = body.last_op
    if not isinstance(yield_op, scf.YieldOp):
        return None
    reuse = _reused_storage(body, yield_op)
    if reuse is None:
        return None
    new, free = reuse
    freed = free.frontier
    spare_type = new.result.type

    zero = arith.ConstantOp(IntegerAttr(0, i32))
    spare = frontier.NewOp(zero.result, spare_type)
    spare.result.name_hint = "spare"
    Rewriter.insert_op([zero, spare], _spare_insertion_point(loop))

    before = loop.before_region.block
    condition = before.last_op
    assert isinstance(condition, scf.ConditionOp)
    before_spare = before.insert_arg(spare_type, len(before.args))
    before_spare.name_hint = "spare"
    Rewriter.replace_op(
        condition, scf.ConditionOp(condition.condition, *condition.args, before_spare)
    )
    body_spare = body.insert_arg(spare_type, len(body.args))
    body_spare.name_hint = "spare"
    clear = frontier.ClearOp(body_spare)
    Rewriter.replace_op(new, clear)
    Rewriter.erase_op(free)
    Rewriter.replace_op(yield_op, scf.YieldOp(*yield_op.arguments, freed))

    new_loop = scf.WhileOp(
        [*loop.arguments, spare.result],
        [*loop.result_types, spare_type],
        Rewriter.move_region_contents_to_new_regions(loop.before_region),
        Rewriter.move_region_contents_to_new_regions(loop.after_region),
    )
    new_loop.attributes.update(loop.attributes)
    Rewriter.replace_op(loop, new_loop, new_results=list(new_loop.results[:-1]))
    Rewriter.insert_op(frontier.FreeOp(new_loop.results[-1]), InsertPoint.after(new_loop))
    return new_loop


def _spare_insertion_point(loop: scf.WhileOp) -> InsertPoint:
    """Right after the op that makes the loop's first initial frontier, so that
    the spare's allocation happens with it (outside a timed region that starts
    between them and the loop), else just before the loop."""
    for initial in loop.arguments:
        owner = initial.owner
        if (
            isinstance(initial.type, frontier.FrontierType)
            and isinstance(owner, Operation)
            and owner.parent_block() is loop.parent_block()
        ):
            return InsertPoint.after(owner)
    return InsertPoint.before(loop)


def _is_zero(value: SSAValue) -> bool:
    constant = constant_value(value)
    return isinstance(constant, IntegerAttr) and constant.value.data == 0

