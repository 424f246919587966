"""`gpu-rotate-counters`: a fused loop's per-iteration counters take three buffers in turn."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.dialects import host
from gir.ir_walk import walk
from gir.passes.gpu_fuse_loops import fused_loops
from gir.passes.ir_utils import constant_value

USES = (host.WriteOp, host.LaunchOp, host.ReadOp)
"""What a rotated counter's uses in the loop may be."""


@dataclass(frozen=True)
class GpuRotateCounters(ModulePass):
    """Gives each counter that a fused loop resets every iteration three buffers used in turn.

    A loop body that starts by resetting a counter (a frontier's size, which a
    kernel then bumps atomically and the host reads back) needs, once fused into
    one kernel, a grid barrier before the reset (the previous iteration's threads
    may still be reading the count) and one after it (the kernel's atomics must
    see it). With three buffers, iteration i counts into `cur`, resets `nxt` for
    iteration i+1, and leaves alone `old`, which iteration i-1 counted into and
    whose readers have all passed iteration i-1's last barrier: the reset
    conflicts with nothing in flight, and `gpu-fuse-loops`' barrier placement
    drops both barriers. The loop's condition region, when it uses the counter
    (a priority queue's bucket refill), starts its own count in `old`: its
    reset then waits for the last iteration's readers (a barrier on a rare path),
    and the body's steps conflict with nothing it did.

    A counter qualifies when its buffer comes from `host.alloc` outside the loop,
    the body's first use of it is a reset to a value fixed before the loop, every
    use in the loop is a `host.write`, `host.launch` or `host.read`, in one block
    per region and, in the condition region, starting with a write; it holds one
    element, and what it holds when the loop ends is never read. Runs before `gpu-fuse-loops`,
    and only on loops scheduled with kernel fusion: host loops gain nothing.

    Before:
    ```mlir
    %q = host.alloc %one : i32 -> memref<?xi32>
    %w, %n = scf.while (%a = %q0, %s = %one) : ... { ... } do {
    ^bb0(%a1: memref<?xi32>, %s1: i32):
      host.write %zero, %q[%zero] : i32, memref<?xi32>, i32
      host.launch @map_s1 grid %g block %b (%s1, %a1, %q) : ...
      %s2 = host.read %q[%zero] : memref<?xi32>, i32 -> i32
      scf.yield %a1, %s2 : memref<?xi32>, i32
    }
    ```
    After:
    ```mlir
    %q = host.alloc %one : i32 -> memref<?xi32>
    %q_1 = host.alloc %one : i32 -> memref<?xi32>
    %q_2 = host.alloc %one : i32 -> memref<?xi32>
    host.write %zero, %q[%zero] : i32, memref<?xi32>, i32
    %w, %n, %c0, %c1, %c2 = scf.while (%a = %q0, %s = %one, %cur = %q, %nxt = %q_1, %old = %q_2) : ... {
      ...
    } do {
    ^bb0(%a1: memref<?xi32>, %s1: i32, %cur1: memref<?xi32>, %nxt1: memref<?xi32>, %old1: memref<?xi32>):
      host.write %zero, %nxt1[%zero] : i32, memref<?xi32>, i32
      host.launch @map_s1 grid %g block %b (%s1, %a1, %cur1) : ...
      %s2 = host.read %cur1[%zero] : memref<?xi32>, i32 -> i32
      scf.yield %a1, %s2, %nxt1, %old1, %cur1 : ...
    }
    ```
    """

    name = "gpu-rotate-counters"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for loop in fused_loops(op):
            for counter in _counters(loop):
                loop = _rotate(loop, counter)


def _inside(op: Operation, loop: scf.WhileOp) -> bool:
    return loop.is_ancestor(op)


def _defined_outside(value: SSAValue, loop: scf.WhileOp) -> bool:
    owner = value.owner
    parent = owner.parent_op() if isinstance(owner, Block) else owner
    return parent is None or (parent is not loop and not _inside(parent, loop))


def _uses_in(region: Region, buffer: SSAValue) -> list[Operation]:
    return [op for op in walk(region) if buffer in op.operands]


def _counters(loop: scf.WhileOp) -> list[SSAValue]:
    body = loop.after_region.block
    found: list[SSAValue] = []
    for op in body.ops:
        if not isinstance(op, host.WriteOp) or op.buffer in found:
            continue
        if _qualifies(loop, op):
            found.append(op.buffer)
    return found


def _qualifies(loop: scf.WhileOp, reset: host.WriteOp) -> bool:
    buffer = reset.buffer
    if not isinstance(buffer.owner, host.AllocOp) or buffer in loop.arguments:
        return False
    if not all(_defined_outside(v, loop) for v in (reset.value, reset.index)):
        return False
    body_uses = _uses_in(loop.after_region, buffer)
    if body_uses[0] is not reset or any(use.parent is not reset.parent for use in body_uses):
        return False
    condition_uses = _uses_in(loop.before_region, buffer)
    if condition_uses and (
        not isinstance(condition_uses[0], host.WriteOp)
        or any(use.parent is not condition_uses[0].parent for use in condition_uses)
    ):
        return False
    if not all(isinstance(use, USES) for use in (*body_uses, *condition_uses)):
        return False
    return _single_element(buffer) and _unused_after(loop, buffer)


def _single_element(buffer: SSAValue) -> bool:
    alloc = buffer.owner
    assert isinstance(alloc, host.AllocOp)
    count = constant_value(alloc.count)
    return isinstance(count, IntegerAttr) and count.value.data == 1


def _unused_after(loop: scf.WhileOp, buffer: SSAValue) -> bool:
    """Whether what `buffer` holds when `loop` ends is never read: outside the
    loop it is freed, used before the loop, or written first after it, all in the
    loop's block; and when that block repeats (an enclosing loop), the block's
    first use of it is a write too."""
    block = loop.parent
    assert block is not None
    outside = [use.operation for use in buffer.uses if not _inside(use.operation, loop)]
    kept = [op for op in outside if not isinstance(op, host.FreeOp)]
    if any(op.parent is not block for op in kept):
        return False
    position = block.get_operation_index(loop)
    after = sorted((op for op in kept if block.get_operation_index(op) > position), key=block.get_operation_index)
    if after and not isinstance(after[0], host.WriteOp):
        return False
    repeats = block.parent_op() is not None and not isinstance(block.parent_op(), func.FuncOp)
    if repeats:
        first = min(kept, key=block.get_operation_index, default=None)
        return isinstance(first, host.WriteOp)
    return True


def _rotate(loop: scf.WhileOp, counter: SSAValue) -> scf.WhileOp:
    """Rotates `counter` in `loop`; returns the loop, rebuilt with three more
    carried buffers."""
    alloc = counter.owner
    assert isinstance(alloc, host.AllocOp)
    spares = [alloc.clone() for _ in range(2)]
    Rewriter.insert_op(spares, InsertPoint.after(alloc))
    for spare in spares:
        spare.result.name_hint = counter.name_hint
    for use in list(counter.uses):
        if isinstance(use.operation, host.FreeOp):
            frees = [host.FreeOp(spare.result) for spare in spares]
            Rewriter.insert_op(frees, InsertPoint.after(use.operation))

    reset = next(op for op in loop.after_region.block.ops if isinstance(op, host.WriteOp) and op.buffer == counter)
    first = reset.clone()
    Rewriter.insert_op(first, InsertPoint.before(loop))

    condition_uses = _uses_in(loop.before_region, counter)
    body_uses = _uses_in(loop.after_region, counter)
    loop, (cur, nxt, _old) = _carry(loop, [counter, spares[0].result, spares[1].result])
    condition_old = loop.before_region.block.args[-1]
    for op in condition_uses:
        op.operands = [condition_old if v == counter else v for v in op.operands]
    for op in body_uses:
        target = nxt if op is reset else cur
        op.operands = [target if v == counter else v for v in op.operands]
    return loop


def _carry(
    loop: scf.WhileOp, initial: list[SSAValue]
) -> tuple[scf.WhileOp, tuple[SSAValue, SSAValue, SSAValue]]:
    """Adds `initial` as three loop-carried buffers rotated by the body's yield
    (`cur, nxt, old` -> `nxt, old, cur`) and passed through by the condition;
    returns the rebuilt loop and the body's `cur`, `nxt`, `old`."""
    type_ = initial[0].type
    before, after = loop.before_region.block, loop.after_region.block
    new_before = [before.insert_arg(type_, len(before.args)) for _ in initial]
    new_after = [after.insert_arg(type_, len(after.args)) for _ in initial]
    for arg in (*new_before, *new_after):
        arg.name_hint = initial[0].name_hint
    condition = before.last_op
    assert isinstance(condition, scf.ConditionOp)
    condition.operands = [*condition.operands, *new_before]
    yield_ = after.last_op
    assert isinstance(yield_, scf.YieldOp)
    cur, nxt, old = new_after
    yield_.operands = [*yield_.operands, nxt, old, cur]
    return _add_loop_operands(loop, initial), (cur, nxt, old)


def _add_loop_operands(loop: scf.WhileOp, initial: list[SSAValue]) -> scf.WhileOp:
    """Rebuilds `loop` in place with `initial` appended to its operands and as
    many results (unused) appended to its results."""
    results = [r.type for r in loop.results] + [v.type for v in initial]
    before, after = loop.before_region, loop.after_region
    loop.detach_region(before)
    loop.detach_region(after)
    new = scf.WhileOp([*loop.arguments, *initial], results, before, after)
    new.attributes.update(loop.attributes)
    for old, result in zip((*loop.results, *initial), new.results):
        result.name_hint = old.name_hint
    Rewriter.replace_op(loop, new, [*new.results[: len(loop.results)]])
    return new
