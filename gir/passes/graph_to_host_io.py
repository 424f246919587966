"""Moves the program's command line, printing and timers from `graph` to `host`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from gir.dialects import frontier, graph, host
from gir.dialects.printing import NumberListType


def _ancestors(op: Operation) -> Iterator[Operation]:
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()


class ArgvIntToHost(RewritePattern):
    """`graph.argv_int` -> `host.argv_int`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.ArgvIntOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(
            op, host.ArgvIntOp(op.index.value.data, op.result.type, op.vertex is not None)
        )


class StringsToHost(RewritePattern):
    """`graph.string_constant`, `graph.argv_string`, `graph.string_to_int`,
    `graph.string_eq` -> their `host` namesakes (a string is a host value at every level)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: graph.StringConstantOp | graph.ArgvStringOp | graph.StringToIntOp | graph.StringEqOp,
        rewriter: PatternRewriter,
    ) -> None:
        if isinstance(op, graph.StringConstantOp):
            rewriter.replace(op, host.StringConstantOp(op.text.data))
        elif isinstance(op, graph.ArgvStringOp):
            rewriter.replace(op, host.ArgvStringOp(op.index.value.data))
        elif isinstance(op, graph.StringToIntOp):
            rewriter.replace(op, host.StringToIntOp(op.text, op.result.type))
        else:
            rewriter.replace(op, host.StringEqOp(op.lhs, op.rhs))


class NumberListsToHost(RewritePattern):
    """`graph.number_list_new`, `_append`, `_pop`, `_size` -> their `host`
    namesakes (a list of numbers is a host value at every level)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: graph.NumberListNewOp
        | graph.NumberListAppendOp
        | graph.NumberListPopOp
        | graph.NumberListSizeOp,
        rewriter: PatternRewriter,
    ) -> None:
        lowered: Operation
        if isinstance(op, graph.NumberListNewOp):
            assert isinstance(op.result.type, NumberListType)
            lowered = host.NumberListNewOp(op.result.type.element)
        elif isinstance(op, graph.NumberListAppendOp):
            lowered = host.NumberListAppendOp(op.list, op.value)
        elif isinstance(op, graph.NumberListPopOp):
            lowered = host.NumberListPopOp(op.list)
        else:
            lowered = host.NumberListSizeOp(op.list)
        lowered.location = op.location  # a pop of an empty list is reported there
        rewriter.replace(op, lowered)


class PrintToHost(RewritePattern):
    """`graph.print` -> `host.print` (of the same value or text); a print in a
    map body is device code, left to `frontier-lower-device-ops`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.PrintOp, rewriter: PatternRewriter) -> None:
        if any(isinstance(parent, frontier.MapOps) for parent in _ancestors(op)):
            return
        text = None if op.text is None else op.text.data
        rewriter.replace(op, host.PrintOp(op.value, text, op.unsigned is not None))


class StartTimerToHost(RewritePattern):
    """`graph.start_timer` -> `host.start_timer`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.StartTimerOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, host.StartTimerOp())


class StopTimerToHost(RewritePattern):
    """`graph.stop_timer` -> `host.stop_timer`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.StopTimerOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, host.StopTimerOp(op.result.type))


@dataclass(frozen=True)
class GraphToHostIo(ModulePass):
    """Rewrites the graph dialect's command-line, string, print and timer ops into the host dialect's.

    They mean the same on the host at every level; moving them before
    `frontier-to-gpu` leaves no `graph` op at the GPU level.

    Before:
    ```mlir
    %start = graph.argv_int argv[2] : i32
    %name = graph.argv_string argv[3] : !host.string
    %same = graph.string_eq %name, %name
    graph.start_timer
    %t = graph.stop_timer : f64
    graph.print %t : f64
    graph.print "done"
    ```
    After:
    ```mlir
    %start = host.argv_int argv[2] : i32
    %name = host.argv_string argv[3] : !host.string
    %same = host.string_eq %name, %name
    host.start_timer
    %t = host.stop_timer : f64
    host.print %t : f64
    host.print "done"
    ```
    """

    name = "graph-to-host-io"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    ArgvIntToHost(),
                    StringsToHost(),
                    NumberListsToHost(),
                    PrintToHost(),
                    StartTimerToHost(),
                    StopTimerToHost(),
                ]
            ),
            apply_recursively=False,
        ).rewrite_module(op)
