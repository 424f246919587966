"""Pieces of traversal bodies that the direction and load-balance axes share:
inlining a traversal's regions where its work goes (`inline_region`), and GraphIt's
pull early exit (a direction marks a pull edge's `to` filter check with
`mark_early_exit`; a load balance whose thread walks one destination's in-edges
turns the walk into a loop that stops at the first failing check, `exit_early`).

It sits below both axis packages, so that neither imports the other for them.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, UnitAttr, i1
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from gir.dialects import frontier
from gir.ir_walk import walk


def inline_region(region: Region, args: list[SSAValue], point: InsertPoint) -> list[SSAValue]:
    """Moves `region`'s block before `point` with `args`; the values it yielded."""
    block = region.block
    terminator = block.last_op
    assert isinstance(terminator, frontier.YieldOp)
    results = list(terminator.arguments)
    block.erase_op(terminator)
    Rewriter.inline_block(block, point, args)
    return results


EARLY_EXIT = "gir.early_exit"
"""Marks the `scf.if` of a pull edge's `to` filter check (`Pull.edge_body`): a
walk over the in-edges of one destination may stop where it fails. It lives from
a traversal's rewrite (`frontier-lower-load-balance`) to the forming of its kernel, which
consumes it (`exit_early`) where a thread walks one destination's edges;
`drop_early_exit_marks` removes the marks left where none does."""


def exit_early(loop: scf.ForOp) -> None:
    """Where `loop` is one thread's walk over in-edges of a single destination
    and its body checks the destination's `to` filter (an `scf.if` marked
    `EARLY_EXIT`, as pull's edge body makes), makes it stop at the first edge
    whose check fails (GraphIt's pull early exit, per thread: the thread skips
    its remaining edges of that destination; others of its warp or block stop
    at their own next check). A loop without the mark stays as it is.

    Before: `scf.for %e = %first to %end step %s { %ok = <filter>; scf.if %ok {...} }`
    After:
    ```mlir
    %last = scf.while (%e = %first) : (index) -> index {
      %more = arith.cmpi ult, %e, %end : index
      %go = scf.if %more -> (i1) { %ok = <filter>; scf.if %ok {...}; scf.yield %ok : i1 }
            else { scf.yield %false : i1 }
      %next = arith.addi %e, %s : index
      scf.condition(%go) %next : index
    } do { ^bb0(%n : index): scf.yield %n : index }
    ```"""
    body = loop.body.block
    check = next(
        (op for op in body.ops if isinstance(op, scf.IfOp) and EARLY_EXIT in op.attributes), None
    )
    if check is None or loop.iter_args:
        return
    del check.attributes[EARLY_EXIT]
    counter = loop.lb.type
    before, after = Block(arg_types=[counter]), Block(arg_types=[counter])
    edge = before.args[0]
    edge.name_hint = body.args[0].name_hint
    body.args[0].replace_all_uses_with(edge)
    rest = Block()
    for op in list(body.ops):
        op.detach()
        if not isinstance(op, scf.YieldOp):
            rest.add_op(op)
        else:
            op.erase()
    rest.add_op(scf.YieldOp(check.cond))
    stop = arith.ConstantOp(IntegerAttr(0, i1))
    more = arith.CmpiOp(edge, loop.ub, "ult" if isinstance(counter, IndexType) else "slt")
    more.result.name_hint = "more"
    go = scf.IfOp(more.result, [i1], Region(rest), Region(Block([stop, scf.YieldOp(stop)])))
    go.results[0].name_hint = "go"
    following = arith.AddiOp(edge, loop.step)
    before.add_ops([more, go, following, scf.ConditionOp(go.results[0], following.result)])
    after.add_op(scf.YieldOp(after.args[0]))
    Rewriter.replace_op(
        loop, scf.WhileOp([loop.lb], [counter], Region(before), Region(after)), new_results=[]
    )


def mark_early_exit(check: scf.IfOp) -> None:
    """Marks `check`, a pull edge's `to` filter check, for `exit_early`."""
    check.attributes[EARLY_EXIT] = UnitAttr()


def drop_early_exit_marks(root: Operation) -> None:
    """Removes the `EARLY_EXIT` marks left in `root` once its kernels are formed:
    the checks no `exit_early` consumed (walks that cross destinations, such as
    EDGE_ONLY's or TWCE's remainders) skip their edge and stay as they are."""
    for op in walk(root):
        op.attributes.pop(EARLY_EXIT, None)
