"""Inserts `frontier.convert` where a frontier's producer and consumer use
different representations."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.dialects import frontier
from gir.ir_walk import walk
from gir.passes import representations
from gir.passes.representations import is_frontier, representation


@dataclass(frozen=True)
class FrontierInsertConversions(ModulePass):
    """Converts a frontier where its consumer expects another representation.

    - A value passed into a loop, yielded by a loop body or a branch, or handed
      to `scf.condition` with a representation other than the slot's (a traversal
      filling a bitmap, G2's UNFUSED_BITMAP, whose result becomes the loop's next
      queue) is converted there. The conversion is the unfused creation's separate
      step; when the converted value has no other use, its storage is freed
      right after.
    - The input of a `frontier.edge_map` whose threads may hold no vertex (a
      bitmap or boolmap: its load balance indexes the input's items) is converted
      to a queue before the map and the queue freed after it.

    It runs after `graph-to-frontier` and again after the load-balance passes.

    Before:
    ```mlir
    %r = scf.while (%f = %start) : (!frontier.queue) -> !frontier.queue { ... } do {
    ^bb0(%in : !frontier.queue):
      %out = frontier.edge_traverse ... into %empty : !frontier.bitmap ... -> !frontier.bitmap
      scf.yield %out : !frontier.bitmap
    }
    ```
    After:
    ```mlir
      %out = frontier.edge_traverse ... into %empty : !frontier.bitmap ... -> !frontier.bitmap
      %0 = frontier.convert %out : !frontier.bitmap -> !frontier.queue
      frontier.free %out : !frontier.bitmap
      scf.yield %0 : !frontier.queue
    ```
    """

    name = "frontier-insert-conversions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for child in list(walk(op)):
            if isinstance(child, frontier.EdgeMapOp):
                _convert_edge_map_input(child)
                continue
            for index, expected in enumerate(_slot_types(child)):
                value = child.operands[index]
                if expected is None or not is_frontier(value.type) or value.type == expected:
                    continue
                _convert_operand(child, index, expected)


def _slot_types(op: Operation) -> list[Attribute | None]:
    """The type each operand of `op` must have (None: any), where the operands
    flow into block arguments or results of a loop or branch."""
    if isinstance(op, scf.WhileOp):
        return list(op.before_region.block.arg_types)
    if isinstance(op, scf.ForOp):
        return [None, None, None, *op.body.block.arg_types[1:]]
    parent = op.parent_op()
    if isinstance(op, scf.ConditionOp) and isinstance(parent, scf.WhileOp):
        return [None, *parent.result_types]
    if isinstance(op, scf.YieldOp) and isinstance(parent, scf.WhileOp):
        return list(parent.before_region.block.arg_types)
    if isinstance(op, scf.YieldOp) and isinstance(parent, scf.ForOp | scf.IfOp):
        return list(parent.result_types)
    return []


def _convert_operand(user: Operation, index: int, target: Attribute) -> None:
    value = user.operands[index]
    convert = frontier.ConvertOp(value, target)
    Rewriter.insert_op(convert, InsertPoint.before(user))
    user.operands[index] = convert.result
    if value.has_one_use():
        Rewriter.insert_op(frontier.FreeOp(value), InsertPoint.after(convert))


def _convert_edge_map_input(edge_map: frontier.EdgeMapOp) -> None:
    value: SSAValue = edge_map.input
    if representation(value.type).every_thread_holds_a_vertex:
        return
    queue = representations.queue_type()
    convert = frontier.ConvertOp(value, queue)
    Rewriter.insert_op(convert, InsertPoint.before(edge_map))
    edge_map.operands[1] = convert.result
    Rewriter.insert_op(frontier.FreeOp(convert.result), InsertPoint.after(edge_map))
