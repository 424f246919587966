"""PUSH: a thread iterates a source and walks its out-edges (CSR)."""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from gir.dialects import frontier, graph
from gir.passes.directions import DirectionStrategy
from gir.passes.traversal_regions import inline_region


class Push(DirectionStrategy):
    """PUSH: one thread per input-frontier vertex, walking its out-edges.

    The thread's vertex is the source; for each out-edge the `to` filter is
    checked on the destination, then the edge function runs.

    Before:
    ```mlir
    %o = frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset
        from %in : !frontier.queue into %empty : !frontier.queue to {...} apply {...}
    ```
    After:
    ```mlir
    %o = frontier.vertex_map %in : !frontier.queue into %empty : !frontier.queue {
    ^bb0(%src : !graph.vertex):
      %begin, %end = frontier.edge_range CSR %e[%src] : !graph.edgeset
      scf.for %edge = %begin to %end step %c1 {
        %dst = frontier.neighbor CSR %e[%edge] : !graph.edgeset
        scf.if %to_dst { ... the edge function on %src, %dst ... }
      }
      frontier.yield
    }
    ```
    """

    value = "PUSH"
    iterated = 0

    def vertex_map(self, traverse: frontier.EdgeTraverseOp) -> frontier.VertexMapOp:
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
        self.edge_body(traverse, src, position, InsertPoint.before(loop_end))
        return frontier.VertexMapOp(
            traverse.input,
            Region(body),
            output=traverse.output,
            dedup=traverse.dedup is not None,
            label=None if traverse.label is None else traverse.label.data,
            block_size=frontier.block_size_of(traverse),
        )

    def edge_body(
        self,
        traverse: frontier.EdgeTraverseOp,
        vertex: SSAValue,
        position: SSAValue,
        point: InsertPoint,
    ) -> None:
        """Reads the destination (and weight) of the out-edge at `position` of
        the source `vertex`, checks the `to` filter on it, runs the edge function."""
        layout = traverse.layout.data
        dst = frontier.NeighborOp(layout, traverse.edges, position)
        dst.result.name_hint = "dst"
        Rewriter.insert_op(dst, point)
        edge_args: list[SSAValue] = [vertex, dst.result]
        if len(traverse.body.block.args) == 3:
            weight = frontier.EdgeWeightOp(layout, traverse.edges, position)
            weight.result.name_hint = "weight"
            Rewriter.insert_op(weight, point)
            edge_args.append(weight.result)
        if traverse.to_filter is not None and traverse.to_filter.blocks:
            (passes,) = inline_region(traverse.to_filter, [dst.result], point)
            then_end = scf.YieldOp()
            Rewriter.insert_op(scf.IfOp(passes, [], Region(Block([then_end]))), point)
            point = InsertPoint.before(then_end)
        inline_region(traverse.body, edge_args, point)
