"""G2's VERTEX_BASED load balance: one thread per frontier vertex walking its edges."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import frontier, graph
from gir.dialects.schedule import Direction, LoadBalance
from gir.passes.ir_utils import statement


@dataclass(frozen=True)
class FrontierLbVertexBased(ModulePass):
    """VERTEX_BASED load balance: one thread per frontier vertex walking its edges in the layout.

    Rewrites every `frontier.edge_traverse` whose load balance is VERTEX_BASED
    (PUSH: the thread's vertex is the source, its out-edges are read from the
    traversal's layout) into a `frontier.vertex_map` over the input frontier whose
    body loops over the vertex's edges, checks the `to` filter on the neighbor and
    runs the edge function (whose `frontier.enqueue`s now fill the map's output).

    Before:
    ```mlir
    %o = frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset
        from %in : !frontier.queue into %empty : !frontier.queue to {
    ^bb0(%v : !graph.vertex):
      ...  frontier.yield %ok : i1
    } apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      ...  frontier.enqueue %dst  ...
      frontier.yield
    } -> !frontier.queue
    ```
    After:
    ```mlir
    %o = frontier.vertex_map %in : !frontier.queue into %empty : !frontier.queue
        -> !frontier.queue {
    ^bb0(%src : !graph.vertex):
      %begin, %end = frontier.edge_range CSR %e[%src] : !graph.edgeset
      %c1 = arith.constant 1 : index
      scf.for %i = %begin to %end step %c1 {
        %dst = frontier.neighbor CSR %e[%i] : !graph.edgeset
        ...                                   // the to filter on %dst
        scf.if %ok {
          ...                                 // the edge function on %src, %dst
          frontier.enqueue %dst ...
        }
      }
      frontier.yield
    }
    ```
    """

    name = "frontier-lb-vertex-based"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for child in list(op.walk()):
            if (
                isinstance(child, frontier.EdgeTraverseOp)
                and child.load_balance.data == LoadBalance.VERTEX_BASED
            ):
                _lower(child)


def _inline(region: Region, args: list[SSAValue], point: InsertPoint) -> list[SSAValue]:
    """Moves `region`'s block before `point` with `args`; the values it yielded."""
    block = region.block
    terminator = block.last_op
    assert isinstance(terminator, frontier.YieldOp)
    results = list(terminator.arguments)
    block.erase_op(terminator)
    Rewriter.inline_block(block, point, args)
    return results


def _lower(traverse: frontier.EdgeTraverseOp) -> None:
    where = statement(traverse)
    if traverse.direction.data != Direction.PUSH:
        raise UserError(
            f"error: VERTEX_BASED load balance of {where} is only lowered for PUSH"
        )
    if traverse.tracked is not None:
        raise UserError(
            f"error: {where} still tracks a vector implicitly: run "
            "frontier-track-changes before frontier-lb-vertex-based"
        )
    layout = traverse.layout.data
    edges = traverse.edges
    weighted = len(traverse.body.block.args) == 3

    body = Block(arg_types=[graph.VertexType()])
    src = body.args[0]
    src.name_hint = "src"
    edge_range = frontier.EdgeRangeOp(layout, edges, src)
    edge_range.begin.name_hint, edge_range.end.name_hint = "begin", "end"
    one = arith.ConstantOp(IntegerAttr(1, IndexType()))
    loop_body = Block(arg_types=[IndexType()])
    loop = scf.ForOp(edge_range.begin, edge_range.end, one.result, [], loop_body)
    body.add_ops([edge_range, one, loop, frontier.YieldOp()])

    position = loop_body.args[0]
    position.name_hint = "edge"
    neighbor = frontier.NeighborOp(layout, edges, position)
    neighbor.result.name_hint = "dst"
    loop_body.add_op(neighbor)
    edge_args: list[SSAValue] = [src, neighbor.result]
    if weighted:
        weight = frontier.EdgeWeightOp(layout, edges, position)
        weight.result.name_hint = "weight"
        loop_body.add_op(weight)
        edge_args.append(weight.result)
    loop_end = scf.YieldOp()
    loop_body.add_op(loop_end)

    apply_point = InsertPoint.before(loop_end)
    if traverse.to_filter is not None and traverse.to_filter.blocks:
        (passes,) = _inline(
            traverse.to_filter, [neighbor.result], InsertPoint.before(loop_end)
        )
        then_end = scf.YieldOp()
        loop_body.insert_op_before(
            scf.IfOp(passes, [], Region(Block([then_end]))), loop_end
        )
        apply_point = InsertPoint.before(then_end)
    _inline(traverse.body, edge_args, apply_point)

    vertex_map = frontier.VertexMapOp(
        traverse.input,
        Region(body),
        output=traverse.output,
        dedup=traverse.dedup is not None,
        label=None if traverse.label is None else traverse.label.data,
    )
    Rewriter.replace_op(traverse, vertex_map, new_results=list(vertex_map.results))
