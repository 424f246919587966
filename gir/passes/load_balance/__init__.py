"""The load-balance axis: one strategy object per `LoadBalance` value.

A strategy is a class in its own module of this package, registered with one
`register_load_balance(...)` line in `gir/passes/__init__.py`. The registry is the
single source of what `graph-default-schedule` accepts for `configLoadBalance` and
of the `frontier-lb-*` passes that `lower-to-gpu` runs. A strategy says

- how threads map to work (`owns_iterated_vertex`): `graph-insert-atomics` asks it
  whether an element indexed by the vertex a thread iterates is private;
- which schedules it can lower (`unsupported`);
- its frontier-level rewrite (`rewrite`): a `frontier.edge_traverse` with its load
  balance becomes the map op(s) whose kernel the strategy forms; it runs as the
  pass named in the registry line (`frontier-lb-...`);
- its kernel former (`form_kernel`), called by `frontier-maps-to-kernels` for each
  `frontier.edge_map` carrying its value, with a `KernelBuilder` (outlining, the
  kernel skeleton, launches, frontier representations and layouts).

Shared pieces of rewrites live here: `per_edge_body` inlines a traversal's `to`
filter and edge function into the body of one edge, `to_edge_map` is the
rewrite of every strategy that forms its own kernels, and `exit_early` turns a
thread's walk over one destination's in-edges into GraphIt's pull early exit.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, UnitAttr, i1
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import frontier, graph
from gir.dialects.schedule import LoadBalance, SimpleScheduleAttr
from gir.passes.directions import direction
from gir.passes.ir_utils import statement
from gir.passes.registry import PASSES, StrategyRegistry

if TYPE_CHECKING:
    from gir.passes.gpu_kernels import KernelBuilder


class LoadBalanceStrategy(ABC):
    """How the edges of a traversal's input frontier are spread over GPU threads
    (one value of G2's `configLoadBalance`)."""

    value: ClassVar[LoadBalance]
    """The schedule value this strategy realizes."""

    @abstractmethod
    def owns_iterated_vertex(self) -> bool:
        """Whether one thread handles every edge of the vertex it iterates (the
        source in PUSH): then that vertex's elements are private to the thread
        when the input frontier holds each vertex once."""

    def unsupported(self, schedule: SimpleScheduleAttr) -> str | None:
        """Why this strategy cannot lower a traversal with `schedule` (None: it can).
        By default every direction is lowered: the direction decides what an edge
        map iterates and the work of one edge (`to_edge_map`)."""
        return None

    @abstractmethod
    def rewrite(self, traverse: frontier.EdgeTraverseOp) -> None:
        """Replaces `traverse` (with this load balance, change tracking already
        explicit) by the frontier-level ops this strategy lowers further."""

    def form_kernel(self, edge_map: frontier.EdgeMapOp, kernels: KernelBuilder) -> None:
        """Replaces `edge_map` (with this load balance) by kernels and their
        launches. Strategies whose rewrite leaves no `frontier.edge_map` keep this."""
        raise UserError.at(edge_map,
            f"error: load balance {self.value.value} forms no kernel for "
            f"{statement(edge_map)}"
        )


LOAD_BALANCES: StrategyRegistry[LoadBalance, LoadBalanceStrategy] = StrategyRegistry(
    "gir.passes.load_balance",
    lambda value: f"error: load balance {value.value} has no registered strategy",
)
"""Registered strategies by schedule value, in registration order."""

REWRITE_PASSES: dict[LoadBalance, str] = {}
"""The name of each registered strategy's frontier-level rewrite pass."""


def register_load_balance(value: LoadBalance, pass_name: str, module: str, cls: str) -> None:
    """Registers `gir.passes.load_balance.<module>.<cls>` as the strategy for `value`,
    whose frontier-level rewrite runs as the pass `pass_name` (`frontier-lb-...`)."""
    LOAD_BALANCES.register(value, module, cls)
    REWRITE_PASSES[value] = pass_name
    PASSES[pass_name] = rewrite_pass(value)


def load_balance(value: LoadBalance) -> LoadBalanceStrategy:
    """The strategy registered for `value` (a UserError if there is none)."""
    return LOAD_BALANCES.get(value)


def rewrite_pass(value: LoadBalance) -> Callable[[], type[ModulePass]]:
    """A factory of the pass that applies `value`'s frontier-level rewrite."""

    def make() -> type[ModulePass]:
        strategy = load_balance(value)
        pass_name = REWRITE_PASSES[value]

        @dataclass(frozen=True)
        class FrontierLoadBalance(ModulePass):
            __doc__ = type(strategy).__doc__

            name: ClassVar[str] = pass_name

            def apply(self, ctx: Context, op: ModuleOp) -> None:
                for child in list(op.walk()):
                    if (
                        isinstance(child, frontier.EdgeTraverseOp)
                        and child.load_balance.data == value
                    ):
                        _check_tracked(child)
                        strategy.rewrite(child)

        return FrontierLoadBalance

    return make


def _check_tracked(traverse: frontier.EdgeTraverseOp) -> None:
    if traverse.tracked is not None:
        raise UserError.at(traverse,
            f"error: {statement(traverse)} still tracks a vector implicitly: run "
            "frontier-track-changes before the frontier-lb passes"
        )


def inline_region(region: Region, args: list[SSAValue], point: InsertPoint) -> list[SSAValue]:
    """Moves `region`'s block before `point` with `args`; the values it yielded."""
    block = region.block
    terminator = block.last_op
    assert isinstance(terminator, frontier.YieldOp)
    results = list(terminator.arguments)
    block.erase_op(terminator)
    Rewriter.inline_block(block, point, args)
    return results


def per_edge_body(
    traverse: frontier.EdgeTraverseOp, vertex: SSAValue, position: SSAValue, point: InsertPoint
) -> None:
    """Inserts at `point` the work of one edge of `traverse`, the edge at
    `position` of the iterated `vertex` (the source in PUSH, the destination in
    PULL), as its direction orders it (`DirectionStrategy.edge_body`: the `to`
    filter, the neighbor, the edge function). Moves the traversal's regions:
    call it once."""
    direction(traverse.direction.data).edge_body(traverse, vertex, position, point)


def to_edge_map(traverse: frontier.EdgeTraverseOp) -> frontier.EdgeMapOp:
    """Replaces `traverse` by a `frontier.edge_map` with its load balance whose body
    is the work of one edge: the rewrite of strategies that form their own kernels.
    The map iterates what the direction says (`edge_map_input`: PULL iterates
    every destination and tests its sources against the input frontier)."""
    strategy = direction(traverse.direction.data)
    body = Block(arg_types=[graph.VertexType(), IndexType()])
    vertex, position = body.args
    vertex.name_hint = ("src", "dst")[strategy.iterated]
    position.name_hint = "edge"
    end = frontier.YieldOp()
    body.add_op(end)
    per_edge_body(traverse, vertex, position, InsertPoint.before(end))
    edge_map = frontier.EdgeMapOp(
        traverse.edges,
        strategy.edge_map_input(traverse),
        Region(body),
        load_balance=traverse.load_balance.data,
        layout=traverse.layout.data,
        output=traverse.output,
        dedup=traverse.dedup is not None,
        label=None if traverse.label is None else traverse.label.data,
        block_size=frontier.block_size_of(traverse),
    )
    edge_map.attributes.update(traverse.attributes)  # e.g. the layout's blocking_size
    Rewriter.replace_op(traverse, edge_map, new_results=list(edge_map.results))
    return edge_map


EARLY_EXIT = "gir.early_exit"
"""Marks the `scf.if` of a pull edge's `to` filter check (`Pull.edge_body`): a
walk over the in-edges of one destination may stop where it fails. It lives from
a traversal's rewrite (`frontier-lb-*`) to the forming of its kernel, which
consumes it (`exit_early`) where a thread walks one destination's edges;
`drop_early_exit_marks` removes the marks left where none does."""


def exit_early(loop: scf.ForOp) -> None:
    """Where `loop` is one thread's walk over in-edges of a single destination
    and its body checks the destination's `to` filter (an `scf.if` marked
    `EARLY_EXIT`, as pull's edge body makes), makes it stop at the first edge
    whose check fails (GraphIt's pull early exit, per thread: the thread skips
    its remaining edges of that destination; others of its warp or block stop
    at their own next check). A loop without the mark stays as it is.

    Before: `scf.for %e = %first to %end step %s { %ok = <filter>; scf.if %ok {...} }`
    After:
    ```mlir
    %last = scf.while (%e = %first) : (index) -> index {
      %more = arith.cmpi ult, %e, %end : index
      %go = scf.if %more -> (i1) { %ok = <filter>; scf.if %ok {...}; scf.yield %ok : i1 }
            else { scf.yield %false : i1 }
      %next = arith.addi %e, %s : index
      scf.condition(%go) %next : index
    } do { ^bb0(%n : index): scf.yield %n : index }
    ```"""
    body = loop.body.block
    check = next(
        (op for op in body.ops if isinstance(op, scf.IfOp) and EARLY_EXIT in op.attributes), None
    )
    if check is None or loop.iter_args:
        return
    del check.attributes[EARLY_EXIT]
    counter = loop.lb.type
    before, after = Block(arg_types=[counter]), Block(arg_types=[counter])
    edge = before.args[0]
    edge.name_hint = body.args[0].name_hint
    body.args[0].replace_all_uses_with(edge)
    walk = Block()
    for op in list(body.ops):
        op.detach()
        if not isinstance(op, scf.YieldOp):
            walk.add_op(op)
        else:
            op.erase()
    walk.add_op(scf.YieldOp(check.cond))
    stop = arith.ConstantOp(IntegerAttr(0, i1))
    more = arith.CmpiOp(edge, loop.ub, "ult" if isinstance(counter, IndexType) else "slt")
    more.result.name_hint = "more"
    go = scf.IfOp(more.result, [i1], Region(walk), Region(Block([stop, scf.YieldOp(stop)])))
    go.results[0].name_hint = "go"
    following = arith.AddiOp(edge, loop.step)
    before.add_ops([more, go, following, scf.ConditionOp(go.results[0], following.result)])
    after.add_op(scf.YieldOp(after.args[0]))
    Rewriter.replace_op(
        loop, scf.WhileOp([loop.lb], [counter], Region(before), Region(after)), new_results=[]
    )


def mark_early_exit(check: scf.IfOp) -> None:
    """Marks `check`, a pull edge's `to` filter check, for `exit_early`."""
    check.attributes[EARLY_EXIT] = UnitAttr()


def drop_early_exit_marks(root: Operation) -> None:
    """Removes the `EARLY_EXIT` marks left in `root` once its kernels are formed:
    the checks no `exit_early` consumed (walks that cross destinations, such as
    EDGE_ONLY's or TWCE's remainders) skip their edge and stay as they are."""
    for op in root.walk():
        op.attributes.pop(EARLY_EXIT, None)
