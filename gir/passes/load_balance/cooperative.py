"""Building blocks of cooperative map kernels: one thread per frontier item, its
edges spread over a group of threads (the block or the thread's warp) through
work-group memory.

G2's CM and WM load balances are `ThreadEdges` + `ScannedEdges` over a block and a
warp; TWCE uses `ScannedEdges` for its thread stage, TWC and TWCE `ThreadEdges`
and `strided_loop` (the block-wide sum they and the frontier representations'
compaction kernels use is `gir.passes.block_sums.block_exclusive_sum`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerType, i32
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from gir.dialects import frontier, gir_gpu
from gir.dialects.gir_gpu import SUBGROUP_SIZE, Dimension
from gir.passes.block_sums import block_exclusive_sum
from gir.passes.gpu_kernels import as_i32, as_index, ceil_div, constant, resize
from gir.passes.kernel_builder import KernelBuilder, MapBody
from gir.passes.layouts import layout
from gir.passes.load_balance.edge_offsets import last_at_most


def as_edge(b: Builder, value: SSAValue, edge_type: IntegerType) -> SSAValue:
    """An edge position or count (index or integer) as the program's edge index
    type `edge_type` (i32, or i64 with 64-bit edge indices)."""
    if edge_type == i32:
        return as_i32(b, value)
    if isinstance(value.type, IndexType):
        return b.insert(arith.IndexCastOp(value, edge_type)).result
    return resize(b, value, edge_type)


@dataclass
class ThreadEdges:
    """Device code of a cooperative map kernel: the vertex (i32) and [begin, end)
    edge positions (the edge index type) of the thread's frontier item; past the
    frontier vertex 0 and an empty range, so every thread runs the block's
    barriers alike."""

    thread: SSAValue
    vertex: SSAValue
    begin: SSAValue
    end: SSAValue

    @staticmethod
    def load(
        kernels: KernelBuilder,
        edge_map: frontier.EdgeMapOp,
        b: Builder,
        count: SSAValue,
        *,
        spread: bool = False,
    ) -> ThreadEdges:
        """Inserts at `b` (a kernel's top level) the reads of the thread's item of
        `edge_map`'s input frontier (of `count` items, a host i32) and of its edge
        range in `edge_map`'s layout. Block `k` holds items `k * B ...` (B the
        block size), or with `spread` the grid's blocks share the items evenly
        (`spread_items`): the kernel must then carry `SPREAD_ITEMS`."""
        ctx = kernels.ctx
        source, values = kernels.frontier(edge_map.input)
        thread = b.insert(gir_gpu.IdOp(Dimension.THREAD)).result
        thread.name_hint = "thread"
        if spread:
            gid, active = spread_items(b, thread, count, frontier.block_size_of(edge_map))
        else:
            gid = b.insert(gir_gpu.IdOp(Dimension.GLOBAL)).result
            active = b.insert(arith.CmpiOp(gid, count, "slt")).result
        gid.name_hint = "gid"
        active.name_hint = "active"
        edge_type = ctx.edge_type
        inside = Builder(InsertPoint.at_end(then := Block()))
        vertex = source.thread_vertex(ctx, inside, values, gid)
        begin, end = layout(edge_map.layout.data).edge_range(ctx, inside, vertex)
        inside.insert(scf.YieldOp(vertex, as_edge(inside, begin, edge_type), as_edge(inside, end, edge_type)))
        outside = Builder(InsertPoint.at_end(otherwise := Block()))
        zero, no_edge = constant(outside, 0), constant(outside, 0, edge_type)
        outside.insert(scf.YieldOp(zero, no_edge, no_edge))
        item = b.insert(scf.IfOp(active, [i32, edge_type, edge_type], Region(then), Region(otherwise)))
        for result, hint in zip(item.results, ("vertex", "begin", "end"), strict=True):
            result.name_hint = hint
        return ThreadEdges(thread, *item.results)


@dataclass
class ScannedEdges:
    """Device code of a cooperative map kernel: each thread's edge range
    `[begin, end)` numbered across its group (the whole block, or the thread's
    warp) by an exclusive sum, then walked evenly by the group: rank `r` of the
    group takes the group's edges `r, r + G, r + 2G, ...` (G the group's size),
    each found by binary search over the numbers. G2's CM (block) and WM (warp)
    load balances, and TWCE's thread stage (the remainders, block-wide)."""

    group_size: int
    """Threads per group: the block size, or `SUBGROUP_SIZE` for a warp."""
    block_size: int
    vertex: SSAValue
    begin: SSAValue
    first: SSAValue
    """Work-group array: the group-wide number of each thread's first edge."""
    warp_totals: SSAValue | None
    total: SSAValue | None = None

    @staticmethod
    def allocate(
        b: Builder, block_size: int, *, per_warp: bool = False, edge_type: IntegerType = i32
    ) -> ScannedEdges:
        """Declares the work-group arrays at `b` (the kernel's top level): the
        group is the block, or each warp with `per_warp`; edge positions and
        their numbers are `edge_type`s."""
        vertex = shared_array(b, block_size, "range_vertex")
        begin = shared_array(b, block_size, "range_begin", edge_type)
        first = shared_array(b, block_size, "range_first", edge_type)
        if per_warp:  # block sizes are multiples of the warp
            return ScannedEdges(SUBGROUP_SIZE, block_size, vertex, begin, first, None)
        totals = shared_array(b, max(1, block_size // SUBGROUP_SIZE), "warp_totals", edge_type)
        return ScannedEdges(block_size, block_size, vertex, begin, first, totals)

    def publish(self, b: Builder, mine: ThreadEdges, begin: SSAValue) -> None:
        """Stores the thread's range `[begin, mine.end)` and its group-wide number
        (a block's sum holds a barrier; the caller's next barrier makes the
        arrays visible)."""
        count = b.insert(arith.SubiOp(mine.end, begin)).result
        count.name_hint = "count"
        thread = as_index(b, mine.thread)
        b.insert(memref.StoreOp.get(mine.vertex, self.vertex, [thread]))
        b.insert(memref.StoreOp.get(begin, self.begin, [thread]))
        if self.warp_totals is not None:
            first, self.total = block_exclusive_sum(b, count, self.warp_totals, self.block_size)
        else:
            first = b.insert(gir_gpu.SubgroupExclusiveSumOp(count)).result
            first.name_hint = "first"
            through = b.insert(arith.AddiOp(first, count)).result
            last_lane = constant(b, self.group_size - 1)
            self.total = b.insert(gir_gpu.SubgroupBroadcastOp(through, last_lane)).result
            self.total.name_hint = "total"
        b.insert(memref.StoreOp.get(first, self.first, [thread]))

    def walk(self, b: Builder, body: MapBody) -> None:
        """After a barrier: each rank of the group takes every G-th of the group's
        edges, finding the owning thread by binary search over the numbers."""
        assert self.total is not None, "publish first"
        if self.warp_totals is not None:
            rank = b.insert(gir_gpu.IdOp(Dimension.THREAD)).result
            low = constant(b, 0)
        else:
            rank = b.insert(gir_gpu.IdOp(Dimension.LANE)).result
            warp = b.insert(gir_gpu.IdOp(Dimension.SUBGROUP)).result
            low = b.insert(arith.MuliOp(warp, constant(b, self.group_size))).result
            low.name_hint = "warp_base"
        high = b.insert(arith.AddiOp(low, constant(b, self.group_size))).result
        edge_type = self.total.type
        size = constant(b, self.group_size, edge_type)
        rank = resize(b, rank, edge_type)

        def edge(at: Builder, k: SSAValue) -> None:
            owner = as_index(at, last_at_most(at, self.first, low, high, k))
            vertex = at.insert(memref.LoadOp.get(self.vertex, [owner])).res
            begin = at.insert(memref.LoadOp.get(self.begin, [owner])).res
            first = at.insert(memref.LoadOp.get(self.first, [owner])).res
            offset = at.insert(arith.SubiOp(k, first)).result
            position = at.insert(arith.AddiOp(begin, offset)).result
            body(at, [vertex, as_index(at, position)])

        strided_loop(b, rank, self.total, size, edge)


def spread_items(
    b: Builder, thread: SSAValue, count: SSAValue, block_size: int
) -> tuple[SSAValue, SSAValue]:
    """Device code at a kernel's top level: the index of this thread's item of
    `count` (an i32) when the grid's blocks share them evenly, `P = min(B,
    ceil(count / grid_dim))` consecutive items each (B = `block_size`), and
    whether the thread has one (`thread < P`, index < count). With a grid of
    `ceil(count / B)` blocks this is about B a block; with more blocks each takes
    fewer, and a cooperative block's edges spread over more threads."""
    block = b.insert(gir_gpu.IdOp(Dimension.BLOCK)).result
    grid = b.insert(gir_gpu.IdOp(Dimension.GRID_DIM)).result
    ceiling = ceil_div(b, count, grid)
    per_block = b.insert(arith.MinSIOp(ceiling, constant(b, block_size))).result
    per_block.name_hint = "per_block"
    first = b.insert(arith.MuliOp(block, per_block)).result
    item = b.insert(arith.AddiOp(first, thread)).result
    mine = b.insert(arith.CmpiOp(thread, per_block, "slt")).result
    inside = b.insert(arith.CmpiOp(item, count, "slt")).result
    active = b.insert(arith.AndIOp(mine, inside)).result
    return item, active


def strided_loop(
    b: Builder,
    start: SSAValue,
    stop: SSAValue,
    step: SSAValue,
    build: Callable[[Builder, SSAValue], None],
) -> scf.ForOp:
    """`for (i = start; i < stop; i += step)` over `start`'s type (i32, or i64
    for edge positions of 64-bit edge indices), its body by `build(b, i)`."""
    body = Block(arg_types=[start.type])
    inner = Builder(InsertPoint.at_end(body))
    build(inner, body.args[0])
    inner.insert(scf.YieldOp())
    return b.insert(scf.ForOp(start, stop, step, [], body))


def frontier_threads(
    kernels: KernelBuilder, edge_map: frontier.EdgeMapOp
) -> tuple[SSAValue, Builder]:
    """The number of items of `edge_map`'s input frontier (a host i32, one thread
    each), and a host builder before `edge_map`."""
    host_b = Builder(InsertPoint.before(edge_map))
    source, values = kernels.frontier(edge_map.input)
    return source.thread_count(kernels.ctx, host_b, values), host_b


def shared_array(b: Builder, size: int, name: str, element: Attribute = i32) -> SSAValue:
    """Declares a work-group array of `size` `element`s (i32 unless said) at `b`
    (a kernel's top level)."""
    array = b.insert(gir_gpu.SharedAllocOp(element, size)).result
    array.name_hint = name
    return array
