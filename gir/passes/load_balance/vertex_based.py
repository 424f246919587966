"""G2's VERTEX_BASED load balance: one thread per frontier vertex walking its edges."""

from __future__ import annotations

from xdsl.rewriter import Rewriter

from gir.dialects import frontier
from gir.passes.directions import direction
from gir.passes.load_balance import LoadBalanceStrategy


class VertexBased(LoadBalanceStrategy):
    """VERTEX_BASED load balance: one thread per frontier vertex walking its edges in the layout.

    Rewrites every `frontier.edge_traverse` whose load balance is VERTEX_BASED
    into the `frontier.vertex_map` of its direction (`gir/passes/directions/`).
    PUSH: one thread per input-frontier vertex (the source) whose body loops over
    its out-edges, checks the `to` filter on the neighbor and runs the edge
    function (whose `frontier.enqueue`s now fill the map's output); PULL: one
    thread per destination over its in-edges, leaving early once the `to` filter
    fails. The vertex map becomes one kernel with one thread per vertex.

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

    value = "VERTEX_BASED"
    wide_edges = True

    def owns_iterated_vertex(self) -> bool:
        return True

    def rewrite(self, traverse: frontier.EdgeTraverseOp) -> None:
        vertex_map = direction(traverse.direction.data).vertex_map(traverse)
        Rewriter.replace_op(traverse, vertex_map, new_results=list(vertex_map.results))
