"""The BLOCKED and BLOCKED_CSC layouts on the GPU (G2's EdgeBlocking): the edges as
an edge list tiled by the range of the endpoint read at random, the neighbor.

BLOCKED (PUSH): block k holds the edges into [k*size, (k+1)*size), in source
order, at positions block_offsets[k] .. block_offsets[k+1]-1 of blocked_src,
blocked_dst and blocked_weights. BLOCKED_CSC (PULL), the same of the transpose:
block k holds the edges out of [k*size, (k+1)*size), in destination order, in
the csc_block_offsets and csc_blocked_* arrays. The runtime makes them when the
graph is loaded (`Graph.blocked`) and caches them. A vertex's edges are spread
over the blocks, so neither layout has a per-vertex edge range:
`frontier-edge-blocking` walks it block after block. A program blocks its edges
by one size (the traversals' `blocking_size` attribute), as they are reordered
once, at load."""

from __future__ import annotations

from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import memref
from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Attribute, SSAValue

from gir.diagnostics import UserError
from gir.dialects import frontier, host
from gir.dialects.host import GraphArray, buffer_type
from gir.ir_walk import walk
from gir.passes.gpu_kernels import GpuContext, ceil_div, constant
from gir.passes.layouts import LayoutStrategy, layout

BLOCKING_SIZE_ATTR = "blocking_size"
"""The discardable attribute (an i64) of a traversal or edge map over the BLOCKED
layout: how many destination vertices one block covers."""

SWEEP_ATTR = "blocked_sweep"
"""The discardable unit attribute of a traversal or edge map over a blocked
layout that `frontier-edge-blocking` walks in one sweep over all its edges
(`BLOCKED_SWEEP`), not block after block with a barrier after each (`BLOCKED`)."""


class Blocked(LayoutStrategy):
    """An edge list tiled by destination range, each block in source order: a
    thread iterates sources (PUSH) and reads destinations at random."""

    value = "BLOCKED"
    direction = "PUSH"
    blocked = True

    offsets: ClassVar[GraphArray] = GraphArray.BLOCK_OFFSETS
    """Where each block's edges begin (one entry per block, plus one)."""
    owners: ClassVar[GraphArray] = GraphArray.BLOCKED_SRC
    """The vertex a thread iterates, per edge."""
    owner_name: ClassVar[str] = "src"
    """What the iterated vertex is called in printed IR."""
    others: ClassVar[GraphArray] = GraphArray.BLOCKED_DST
    """The neighbor, per edge: the endpoint the blocks tile."""
    weights: ClassVar[GraphArray] = GraphArray.BLOCKED_WEIGHTS

    def edge_range(
        self, ctx: GpuContext, b: Builder, vertex: SSAValue
    ) -> tuple[SSAValue, SSAValue]:
        raise UserError(
            f"error: the {self.value} layout spreads a vertex's edges over its "
            "blocks and has no per-vertex edge range: only frontier-edge-blocking walks it"
        )

    def neighbor(self, ctx: GpuContext, b: Builder, position: SSAValue) -> SSAValue:
        neighbors = blocked_array(ctx, self.others)
        return b.insert(memref.LoadOp.get(neighbors, [position])).res

    def weight(
        self, ctx: GpuContext, b: Builder, position: SSAValue, weight_type: Attribute
    ) -> SSAValue:
        weights = blocked_array(ctx, self.weights, weight_type)
        return b.insert(memref.LoadOp.get(weights, [position])).res

    def owner(self, ctx: GpuContext, b: Builder, position: SSAValue) -> SSAValue:
        owners = blocked_array(ctx, self.owners)
        return b.insert(memref.LoadOp.get(owners, [position])).res

    def block_offsets(self, ctx: GpuContext) -> SSAValue:
        """The device array of where each block's edges begin."""
        return blocked_array(ctx, self.offsets)


class BlockedCsc(Blocked):
    """The transpose's BLOCKED layout: an edge list tiled by source range, each
    block in destination order: a thread iterates destinations (PULL) and reads
    sources at random."""

    value = "BLOCKED_CSC"
    direction = "PULL"

    offsets = GraphArray.CSC_BLOCK_OFFSETS
    owners = GraphArray.CSC_BLOCKED_DST
    owner_name = "dst"
    others = GraphArray.CSC_BLOCKED_SRC
    weights = GraphArray.CSC_BLOCKED_WEIGHTS


def is_blocked(name: str) -> bool:
    """Whether the layout `name` is edge-blocked (`frontier-edge-blocking` walks it)."""
    return layout(name).blocked


def blocking_size_of(op: frontier.EdgeTraverseOp | frontier.EdgeMapOp) -> int:
    """The blocking size of a traversal or edge map over the BLOCKED layout."""
    size = op.attributes.get(BLOCKING_SIZE_ATTR)
    if not isinstance(size, IntegerAttr) or size.value.data <= 0:
        raise UserError.at(op,
            f"error: a {op.name} over the BLOCKED layout needs a positive "
            f"'{BLOCKING_SIZE_ATTR}' attribute"
        )
    return size.value.data


def program_blocking_size(ctx: GpuContext) -> int:
    """The one size by which the program's edges are blocked: that of its BLOCKED
    traversals and edge maps, and of the blocked graph arrays already made."""
    sizes = {
        blocking_size_of(op)
        for op in walk(ctx.main)
        if isinstance(op, frontier.EdgeTraverseOp | frontier.EdgeMapOp)
        and is_blocked(op.layout.data)
    }
    sizes |= {
        use.operation.blocking_size.value.data
        for use in ctx.graph.uses
        if isinstance(use.operation, host.GraphArrayOp) and use.operation.blocking_size is not None
    }
    if len(sizes) != 1:
        raise UserError(
            "error: the program's edges are blocked once, by one size; found "
            + (", ".join(map(str, sorted(sizes))) if sizes else "none")
        )
    return sizes.pop()


def blocked_array(ctx: GpuContext, kind: GraphArray, element: Attribute | None = None) -> SSAValue:
    """The device array `kind` (one of `host.BLOCKED_ARRAYS`) of the program's
    blocked edges (made once, at setup)."""
    size = program_blocking_size(ctx)
    for use in ctx.graph.uses:
        op = use.operation
        if isinstance(op, host.GraphArrayOp) and op.array.data == kind:
            return op.result
    if element is None:
        element = ctx.edge_type if kind in host.OFFSET_ARRAYS else i32
    op = host.GraphArrayOp(ctx.graph, kind, size, element)
    op.result.name_hint = kind.value
    return ctx.setup_builder().insert(op).result


def block_count(ctx: GpuContext, b: Builder) -> SSAValue:
    """Host code: how many blocks tile the vertices, max(1, ceil(V / size)) =
    (V - 1) / size + 1."""
    count = ceil_div(b, ctx.vertices, constant(b, program_blocking_size(ctx)))
    count.name_hint = "blocks"
    return count
