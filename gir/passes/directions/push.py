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
    After (with `edge_sample = N`, `configEdgeSample(N)`, the loop ends at
    `arith.minsi %end, %begin + N` instead):
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
    samples_edges = True

    def vertex_map(self, traverse: frontier.EdgeTraverseOp) -> frontier.VertexMapOp:
        body = Block(arg_types=[graph.VertexType()])
        src = body.args[0]
        src.name_hint = "src"
        edge_range = frontier.EdgeRangeOp(traverse.layout.data, traverse.edges, src)
        edge_range.begin.name_hint, edge_range.end.name_hint = "begin", "end"
        body.add_op(edge_range)
        end = _sampled_end(body, edge_range, traverse.edge_sample)
        one = arith.ConstantOp(IntegerAttr(1, IndexType()))
        loop_body = Block(arg_types=[IndexType()])
        loop = scf.ForOp(edge_range.begin, end, one.result, [], loop_body)
        body.add_ops([one, loop, frontier.YieldOp()])
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


def _sampled_end(
    body: Block, edge_range: frontier.EdgeRangeOp, edge_sample: IntegerAttr | None
) -> SSAValue:
    """The end of the edges a thread walks: the vertex's end, or with an
    `edge_sample` of N, `min(end, begin + N)` (appended to `body`)."""
    if edge_sample is None:
        return edge_range.end
    count = arith.ConstantOp(IntegerAttr(edge_sample.value.data, IndexType()))
    limit = arith.AddiOp(edge_range.begin, count.result)
    end = arith.MinSIOp(edge_range.end, limit.result)
    end.result.name_hint = "sample_end"
    body.add_ops([count, limit, end])
    return end.result
