"""The load-balance axis: how the edges of a traversal's input frontier are spread
over GPU threads (G2's `configLoadBalance`).

A strategy is a class in its own module of this package, registered with one
`register_load_balance(NAME, module, class)` line in `gir/passes/__init__.py`
(`gir.axes.LOAD_BALANCES`). The registry is the single source of the names a
schedule takes for `load_balance` and of what `frontier-lower-load-balance` and
`frontier-maps-to-kernels` dispatch to. A strategy says

- what it composes with, asked by the other passes and by `gir.schedule_space`
  (its capability methods, one line each in `LoadBalanceStrategy`);
- its frontier-level rewrite (`rewrite`, run by `frontier-lower-load-balance`):
  by default `to_edge_map`, a `frontier.edge_map` with its load balance whose
  body is the work of one edge;
- its kernel former (`form_kernel`), called by `frontier-maps-to-kernels` for each
  `frontier.edge_map` carrying its name, with a `KernelBuilder` (outlining, the
  kernel skeleton, launches, frontier representations and layouts).

Shared pieces of rewrites live here: `per_edge_body` inlines a traversal's `to`
filter and edge function into the body of one edge, and `to_edge_map` is the
default rewrite.
"""

from __future__ import annotations

from abc import ABC
from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from gir.axes import LOAD_BALANCES
from gir.diagnostics import UserError
from gir.dialects import frontier, graph
from gir.dialects.schedule import SimpleScheduleAttr
from gir.passes.directions import direction
from gir.passes.ir_utils import statement

if TYPE_CHECKING:
    from gir.passes.kernel_builder import KernelBuilder


class LoadBalanceStrategy(ABC):
    """How the edges of a traversal's input frontier are spread over GPU threads
    (one value of G2's `configLoadBalance`).

    Capabilities (what it composes with; other passes ask, none names a strategy):
    - `owns_iterated_vertex()`: one thread handles every edge of the vertex it iterates;
    - `unsupported(schedule)` / `supports(schedule)`: whether it lowers a traversal
      with that schedule (the other axes' values, block size, ...);
    - `host_steps()` / `fusable`: the host-side steps between its kernels, which
      kernel fusion (`configKernelFusion`) cannot take into a persistent kernel;
    - `composes_with_blocking`: it walks edge blocking's BLOCKED layouts;
    - `wide_edges`: its kernels keep edge positions and sums of degrees in the
      program's edge index type, so it runs a graph with more than 2^31 edges.
    """

    value: ClassVar[str]
    """The schedule name it realizes (the key of its registration line)."""

    composes_with_blocking: ClassVar[bool] = False
    """Whether a traversal with edge blocking (`configLoadBalance(L, BLOCKED, N)`)
    can use it: blocking spreads a vertex's edges over the blocks, so only a
    strategy that takes edges one by one walks them (`frontier-edge-blocking`)."""

    wide_edges: ClassVar[bool] = False
    """Whether it lowers a program with 64-bit edge indices (`host.edge_index_width`):
    its edge positions are `index` and its sums of degrees (scans, bins) of
    the edge index type. A strategy that keeps them in i32 shared memory or
    scans is refused there, with the traversal's location."""

    def owns_iterated_vertex(self) -> bool:
        """Whether one thread handles every edge of the vertex it iterates (the
        source in PUSH): then that vertex's elements are private to the thread
        when the input frontier holds each vertex once (`graph-insert-atomics`).
        By default no: the edges of a vertex are spread over several threads."""
        return False

    def unsupported(self, schedule: SimpleScheduleAttr) -> str | None:
        """Why this strategy cannot lower a traversal with `schedule` (None: it can).
        By default every direction is lowered: the direction decides what an edge
        map iterates and the work of one edge (`to_edge_map`)."""
        return None

    def supports(self, schedule: SimpleScheduleAttr) -> bool:
        """Whether this strategy lowers a traversal with `schedule`."""
        return self.unsupported(schedule) is None

    def host_steps(self) -> tuple[str, ...]:
        """The host-side steps between its kernels in a traversal from a frontier
        (scans, read-backs, per-traversal buffers), one phrase each; () when the
        traversal is its kernels alone. Kernel fusion cannot take host steps."""
        return ()

    @property
    def fusable(self) -> bool:
        """Whether its traversals can run inside a kernel-fused loop (`gpu-fuse-loops`)."""
        return not self.host_steps()

    def rewrite(self, traverse: frontier.EdgeTraverseOp) -> None:
        """Replaces `traverse` (with this load balance, change tracking already
        explicit) by the frontier-level ops this strategy lowers further. By
        default `to_edge_map`: an edge map whose kernel `form_kernel` forms."""
        to_edge_map(traverse)

    def form_kernel(self, edge_map: frontier.EdgeMapOp, kernels: KernelBuilder) -> None:
        """Replaces `edge_map` (with this load balance) by kernels and their
        launches. Strategies whose rewrite leaves no `frontier.edge_map` keep this."""
        raise UserError.at(edge_map,
            f"error: load balance {self.value} forms no kernel for {statement(edge_map)}"
        )


def register_load_balance(name: str, module: str, cls: str) -> None:
    """Registers `gir.passes.load_balance.<module>.<cls>` as the strategy for the
    schedule value `name`."""
    LOAD_BALANCES.register(name, module, cls)


def load_balance(name: str) -> LoadBalanceStrategy:
    """The strategy registered for `name` (a UserError if there is none)."""
    return LOAD_BALANCES.get(name)


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
