"""`graph-to-frontier`'s vertexsets: vertexsets and lists of them become
frontier values (`!frontier.queue`, `!frontier.all`, `!frontier.list`), also
where loops and branches carry them; `addVertex` returns the changed queue."""

from __future__ import annotations

from xdsl.dialects import func, scf
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import frontier, graph
from gir.dialects.frontier import AllVerticesType, SparseQueueType
from gir.ir_walk import walk

def _queue() -> SparseQueueType:
    return SparseQueueType()


def _materialize(value: SSAValue, before: Operation) -> SSAValue:
    """A queue of every vertex, where an `!frontier.all` must become a queue."""
    convert = frontier.ConvertOp(value, _queue())
    Rewriter.insert_op(convert, InsertPoint.before(before))
    return convert.result


def _as_queues(op: Operation) -> None:
    """Makes the operands of `op` that are `!frontier.all` queues."""
    for index, operand in enumerate(op.operands):
        if isinstance(operand.type, AllVerticesType):
            op.operands[index] = _materialize(operand, op)


def frontier_values(main: func.FuncOp) -> None:
    """Makes `main`'s vertexsets and lists frontier values, also where a loop or
    branch carries them; an error for a vertexset that has no lowering."""
    for op in list(walk(main)):
        if isinstance(op, graph.VertexSetNewOp):
            Rewriter.replace_op(op, frontier.NewOp(op.count))
        elif isinstance(op, graph.GetVerticesOp):
            Rewriter.replace_op(op, frontier.AllVerticesOp())
        elif isinstance(op, graph.VertexSetSizeOp):
            Rewriter.replace_op(op, frontier.SizeOp(op.set, op.result.type))
        elif isinstance(op, graph.DeleteOp):
            if isinstance(op.value.type, AllVerticesType):
                Rewriter.erase_op(op)
            else:
                Rewriter.replace_op(op, frontier.FreeOp(op.value))
        elif isinstance(op, graph.AddVertexOp):
            _add_vertex(op)
        elif isinstance(op, graph.ListNewOp | graph.ListInsertOp | graph.ListRetrieveOp):
            _list_op(op)
        elif isinstance(op, scf.WhileOp | scf.ForOp | scf.IfOp):
            for result in list(op.results):
                if isinstance(result.type, graph.VertexSetType | graph.ListType):
                    Rewriter.replace_value_with_new_type(result, _frontier_type(result.type))
            for region in op.regions:
                for block in region.blocks:
                    for arg in list(block.args):
                        if isinstance(arg.type, graph.VertexSetType | graph.ListType):
                            Rewriter.replace_value_with_new_type(arg, _frontier_type(arg.type))
            if not isinstance(op, scf.IfOp):
                _as_queues(op)
        elif isinstance(op, scf.YieldOp | scf.ConditionOp):
            _as_queues(op)
    for op in walk(main):
        for value in [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]:
            if isinstance(value.type, graph.VertexSetType):
                raise UserError.at(op,
                    f"error: a vertexset made by '{op.name}' has no frontier lowering yet"
                )


def _frontier_type(value_type: Attribute) -> Attribute:
    """What a vertexset or list carried by a loop or branch becomes."""
    return frontier.ListType() if isinstance(value_type, graph.ListType) else _queue()


def _list_op(op: graph.ListNewOp | graph.ListInsertOp | graph.ListRetrieveOp) -> None:
    """A list op as its frontier-level twin over queues."""
    if isinstance(op, graph.ListNewOp):
        Rewriter.replace_op(op, frontier.ListNewOp())
        return
    if isinstance(op, graph.ListInsertOp):
        pushed = op.set
        if not isinstance(pushed.type, SparseQueueType):
            convert = frontier.ConvertOp(pushed, _queue())
            Rewriter.insert_op(convert, InsertPoint.before(op))
            Rewriter.insert_op(frontier.FreeOp(convert.result), InsertPoint.after(op))
            pushed = convert.result
        Rewriter.replace_op(op, frontier.ListInsertOp(op.list, pushed))
        return
    into = op.set
    if into is not None and not isinstance(into.type, SparseQueueType):
        if not isinstance(into.type, AllVerticesType):
            Rewriter.insert_op(frontier.FreeOp(into), InsertPoint.before(op))
        into = None
    retrieve = frontier.ListRetrieveOp(op.list, into)
    retrieve.result.name_hint = op.result.name_hint
    Rewriter.replace_op(op, retrieve)


def _add_vertex(op: graph.AddVertexOp) -> None:
    """`set.addVertex(v)`: the changed queue replaces `set` after this statement."""
    vertex = op.vertex
    if isinstance(vertex.type, graph.VertexType):
        to_id = graph.VertexIdOp(vertex)
        Rewriter.insert_op(to_id, InsertPoint.before(op))
        vertex = to_id.result
    target = op.set
    if isinstance(target.type, AllVerticesType):
        target = _materialize(target, op)
    add = frontier.AddOp(vertex, target)
    add.result.name_hint = op.set.name_hint
    block = op.parent_block()
    assert block is not None
    for use in list(op.set.uses):
        user = use.operation
        if user is op:
            continue
        ancestor = block.find_ancestor_op_in_block(user)
        if ancestor is None:
            if _after(user, op):
                raise UserError.at(user,
                    "error: a vertexset changed inside control flow and used after "
                    "it is not supported yet"
                )
            continue
        if op.is_before_in_block(ancestor):
            user.operands[use.index] = add.result
    Rewriter.replace_op(op, add, new_results=[])


def _after(user: Operation, op: Operation) -> bool:
    """Whether `user` comes after `op` in `op`'s function (conservatively)."""
    node: Operation | None = op
    while node is not None:
        block = node.parent_block()
        if block is None:
            return False
        ancestor = block.find_ancestor_op_in_block(user)
        if ancestor is not None:
            return node.is_before_in_block(ancestor)
        node = node.parent_op()
    return False
