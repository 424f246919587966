"""`frontier-lower-intersections`: each `graph.intersect_neighbors` in a map
body becomes the loop of the intersection strategy it names.

`graph-to-frontier` has inlined the edge function (triangle counting's
`vertexArray[src] += intersectNeighbor(edges, src, dst)`) into a map body, with
the edgeset the program loaded; the strategy registered for the op's `method`
(`gir/passes/intersections/`) reads both vertices' sorted out-neighbour lists
through the CSR layout and counts their common neighbours up to `dst`.

Before:
```mlir
%n = graph.intersect_neighbors "merge" %edges[%src, %dst] : !graph.edgeset, !graph.vertex, !graph.vertex -> i64
```
After (`merge`):
```mlir
%a_begin, %a_end = frontier.edge_range CSR %edges[%src] : !graph.edgeset
%b_begin, %b_end = frontier.edge_range CSR %edges[%dst] : !graph.edgeset
%limit = graph.vertex_id %dst : i32
%i, %j, %n = scf.while (%i0 = %a_begin, %j0 = %b_begin, %n0 = %zero) ... {
  // both lists open and dst's next neighbour <= limit
} do {
  // advance the smaller head (both on a match, counting it)
}
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from gir.diagnostics import UserError
from gir.dialects import frontier, graph
from gir.passes.intersections import Adjacency, intersection


class _LowerIntersection(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.IntersectNeighborsOp, rewriter: PatternRewriter) -> None:
        if not _in_map_body(op):
            raise UserError.at(
                op,
                "error: intersectNeighbor runs in the edge function of an edgeset apply "
                "(device code), not in host code",
            )
        b = Builder(InsertPoint.before(op))
        lists = Adjacency.of(b, op.edges, _vertex(b, op.src), _vertex(b, op.dst))
        assert isinstance(op.result.type, IntegerType)
        count = intersection(op.method.data).count(b, lists, op.result.type)
        rewriter.replace(op, [], [count])


def _vertex(b: Builder, value: SSAValue) -> SSAValue:
    """`value` as a `!graph.vertex` (an integer id is converted)."""
    if isinstance(value.type, graph.VertexType):
        return value
    return b.insert(graph.ToVertexOp(value)).result


def _in_map_body(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, frontier.MapOps):
        parent = parent.parent_op()
    return parent is not None


@dataclass(frozen=True)
class FrontierLowerIntersections(ModulePass):
    """Lowers `graph.intersect_neighbors` in map bodies to its strategy's loop.

    See the module docstring for the before/after."""

    name = "frontier-lower-intersections"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(_LowerIntersection(), apply_recursively=False).rewrite_module(op)
