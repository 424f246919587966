"""G2's VERTEX_BASED load balance: one thread per frontier vertex walking its edges."""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Region
from xdsl.rewriter import InsertPoint, Rewriter

from gir.dialects import frontier, graph
from gir.dialects.schedule import LoadBalance
from gir.passes.load_balance import LoadBalanceStrategy, per_edge_body


class VertexBased(LoadBalanceStrategy):
    """VERTEX_BASED load balance: one thread per frontier vertex walking its edges in the layout.

    Rewrites every `frontier.edge_traverse` whose load balance is VERTEX_BASED
    (PUSH: the thread's vertex is the source, its out-edges are read from the
    traversal's layout) into a `frontier.vertex_map` over the input frontier whose
    body loops over the vertex's edges, checks the `to` filter on the neighbor and
    runs the edge function (whose `frontier.enqueue`s now fill the map's output).
    The vertex map becomes one kernel with one thread per frontier vertex.

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

    value = LoadBalance.VERTEX_BASED

    def owns_iterated_vertex(self) -> bool:
        return True

    def rewrite(self, traverse: frontier.EdgeTraverseOp) -> None:
        body = Block(arg_types=[graph.VertexType()])
        src = body.args[0]
        src.name_hint = "src"
        edge_range = frontier.EdgeRangeOp(traverse.layout.data, traverse.edges, src)
        edge_range.begin.name_hint, edge_range.end.name_hint = "begin", "end"
        one = arith.ConstantOp(IntegerAttr(1, IndexType()))
        loop_body = Block(arg_types=[IndexType()])
        loop = scf.ForOp(edge_range.begin, edge_range.end, one.result, [], loop_body)
        body.add_ops([edge_range, one, loop, frontier.YieldOp()])
        position = loop_body.args[0]
        position.name_hint = "edge"
        loop_end = scf.YieldOp()
        loop_body.add_op(loop_end)
        per_edge_body(traverse, src, position, InsertPoint.before(loop_end))
        vertex_map = frontier.VertexMapOp(
            traverse.input,
            Region(body),
            output=traverse.output,
            dedup=traverse.dedup is not None,
            label=None if traverse.label is None else traverse.label.data,
            block_size=frontier.block_size_of(traverse),
        )
        Rewriter.replace_op(traverse, vertex_map, new_results=list(vertex_map.results))
