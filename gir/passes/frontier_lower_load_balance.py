"""`frontier-lower-load-balance`: each traversal becomes what its load-balance strategy makes of it."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from gir.axes import LOAD_BALANCES
from gir.diagnostics import UserError
from gir.dialects import frontier
from gir.ir_walk import walk
from gir.passes.ir_utils import statement
from gir.passes.registry import pass_summary


def lower_traversal(traverse: frontier.EdgeTraverseOp) -> None:
    """Hands `traverse` to its load balance's `rewrite`."""
    if traverse.tracked is not None:
        raise UserError.at(traverse,
            f"error: {statement(traverse)} still tracks a vector implicitly: run "
            "frontier-track-changes before frontier-lower-load-balance"
        )
    LOAD_BALANCES.get(traverse.load_balance.data).rewrite(traverse)


@dataclass(frozen=True)
class FrontierLowerLoadBalance(ModulePass):
    """Rewrites every `frontier.edge_traverse` as its load-balance strategy says (`only=NAME`: just that strategy's).

    The strategy of the traversal's `load_balance` (`gir.axes.LOAD_BALANCES`,
    `gir/passes/load_balance/`) rewrites it: VERTEX_BASED into its direction's
    `frontier.vertex_map` (one thread per vertex walking its edges), the others
    by default into a `frontier.edge_map` whose body is the work of one edge,
    whose kernel the strategy forms in `frontier-maps-to-kernels`. Change
    tracking must already be explicit (`frontier-track-changes`). With
    `only=NAME` only the traversals with that load balance are rewritten (the
    per-strategy lit tests use it).

    Before:
    ```mlir
    %o = frontier.edge_traverse PUSH EDGE_ONLY CSR %e : !graph.edgeset
        from %in : !frontier.queue into %empty : !frontier.queue to {...} apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      ...
    } -> !frontier.queue
    ```
    After:
    ```mlir
    %o = frontier.edge_map EDGE_ONLY CSR %e : !graph.edgeset from %in : !frontier.queue
        into %empty : !frontier.queue -> !frontier.queue {
    ^bb0(%src : !graph.vertex, %edge : index):
      %dst = frontier.neighbor CSR %e[%edge] : !graph.edgeset
      ...                                   // the to filter, then the edge function
      frontier.yield
    }
    ```
    """

    name = "frontier-lower-load-balance"

    only: str | None = None

    @classmethod
    def option_help(cls) -> list[tuple[str, str]]:
        """`gir-opt --help`'s lines under the pass: each registered strategy, as
        the value of `only`, with the first line of its docstring."""
        return [
            (f"only={name}", pass_summary(type(LOAD_BALANCES.get(name))))
            for name in LOAD_BALANCES
        ]

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.only is not None and self.only not in LOAD_BALANCES:
            raise UserError(
                f"error: frontier-lower-load-balance{{only={self.only}}}: no load balance "
                f"{self.only}, expected one of {', '.join(LOAD_BALANCES)}"
            )
        # A snapshot, not a PatternRewriteWalker: a strategy's rewrite moves the
        # traversal's regions with xDSL's Rewriter, and its UserErrors must reach
        # the user as they are (a walker wraps a pattern's exceptions).
        traversals = [
            child
            for child in walk(op)
            if isinstance(child, frontier.EdgeTraverseOp)
            and (self.only is None or child.load_balance.data == self.only)
        ]
        for traverse in traversals:
            lower_traversal(traverse)
