"""Frontier edge offsets: what the strategies that cut a frontier's edges evenly
(EDGE_ONLY, STRICT, MERGE_PATH) build before their map kernel (not a pass).

Such a strategy subclasses `EdgeOffsetsStrategy`: its rewrite is `to_edge_map`
(the body of the edge map is the work of one edge), and its kernel former gets
the frontier's edge offsets built and forms only the map kernel.

`frontier_edge_offsets` launches a kernel that writes the degree of each item of
an edge map's input frontier, turns the degrees into edge offsets with a
device-wide exclusive scan, and reads the total back: item `i`'s edges are the
frontier edges `offsets[i]` to `offsets[i + 1] - 1`. `FrontierEdges` then maps a
frontier edge back to its item (`item_of`, a binary search over the offsets) and
to its vertex and edge position in the layout (`edge_of`). The degrees, offsets
and total are of the program's edge index type (`GpuContext.edge_type`): i64
with 64-bit edge indices, where a frontier's edges may pass 2^31.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerType, i32
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from gir.dialects import frontier, gir_gpu, host
from gir.passes.gpu_kernels import GpuContext, as_i32, as_index, constant
from gir.passes.kernel_builder import KernelBuilder
from gir.passes.layouts import LayoutStrategy, layout
from gir.passes.load_balance import LoadBalanceStrategy
from gir.passes.representations import FrontierRepresentation
from gir.passes.representations.buffers import item_scratch


@dataclass
class FrontierEdges:
    """The scanned edge offsets of one edge map's input frontier, on the host."""

    ctx: GpuContext
    source: FrontierRepresentation
    """The input frontier's representation."""
    values: list[SSAValue]
    """The input frontier's host values."""
    edges: LayoutStrategy
    """The edge map's layout."""
    count: SSAValue
    """The number of frontier items (host i32)."""
    offsets: SSAValue
    """`count + 1` edge offsets of the edge index type: item `i`'s first frontier
    edge; the last is the total."""
    total: SSAValue
    """The number of frontier edges (host, the edge index type, read back)."""

    def item_of(
        self, b: Builder, target: SSAValue, low: SSAValue | None = None, high: SSAValue | None = None
    ) -> SSAValue:
        """Device code: the item whose frontier edges hold `target`, searched among
        the items `low` (default 0) to `high - 1` (default: all), which must hold it."""
        return last_at_most(
            b,
            self.offsets,
            constant(b, 0) if low is None else low,
            self.count if high is None else high,
            target,
        )

    def edge_of(self, b: Builder, item: SSAValue, target: SSAValue) -> list[SSAValue]:
        """Device code: the vertex (i32) and edge position (index) of frontier edge
        `target` (of the edge index type), one of `item`'s: the arguments of an
        edge map's body."""
        vertex = self.source.thread_vertex(self.ctx, b, self.values, item)
        begin, _ = self.edges.edge_range(self.ctx, b, vertex)
        first = b.insert(memref.LoadOp.get(self.offsets, [as_index(b, item)])).res
        rank = b.insert(arith.SubiOp(target, first)).result
        edge = b.insert(arith.AddiOp(begin, as_index(b, rank))).result
        return [vertex, edge]


class EdgeOffsetsStrategy(LoadBalanceStrategy):
    """A strategy that spreads a hub's edges over many threads, found through the
    frontier's scanned edge offsets: an element indexed by the source is shared."""

    kernel_prefix: str
    """The prefix of the degree kernel's name (`<prefix>_degrees_<label>`)."""

    def host_steps(self) -> tuple[str, ...]:
        return (
            "a device-wide exclusive scan of the frontier's degrees (gir_gpu.exclusive_scan)",
            "a read-back of the frontier's edge count",
        )

    def form_kernel(self, edge_map: frontier.EdgeMapOp, kernels: KernelBuilder) -> None:
        b = Builder(InsertPoint.before(edge_map))
        edges = frontier_edge_offsets(edge_map, kernels, b, self.kernel_prefix)
        self.form_map_kernel(edge_map, kernels, b, edges)

    @abstractmethod
    def form_map_kernel(
        self, edge_map: frontier.EdgeMapOp, kernels: KernelBuilder, b: Builder, edges: FrontierEdges
    ) -> None:
        """Replaces `edge_map` by its kernel and launch (host code with `b`), the
        frontier's `edges` offsets built."""


def frontier_edge_offsets(
    edge_map: frontier.EdgeMapOp, kernels: KernelBuilder, b: Builder, prefix: str
) -> FrontierEdges:
    """Builds, with the host builder `b`, the degree kernel (`<prefix>_degrees_<label>`:
    one thread per item of `edge_map`'s input), the exclusive scan of the degrees
    (one more slot holds 0, so the last offset is the total) and the read-back of
    the total, the number of frontier edges; all of the edge index type."""
    ctx = kernels.ctx
    source, values = kernels.frontier(edge_map.input)
    edges = layout(edge_map.layout.data)
    count = source.thread_count(ctx, b, values)
    degrees = item_scratch(ctx, source, "degrees", "edge_offsets", ctx.edge_type)
    offsets = item_scratch(ctx, source, "offsets", "edge_offsets", ctx.edge_type)
    label = edge_map.label.data if edge_map.label is not None else "edges"

    def count_degree(inner: Builder, gid: SSAValue) -> None:
        vertex = source.thread_vertex(ctx, inner, values, gid)
        begin, end = edges.edge_range(ctx, inner, vertex)
        degree = _edge_count(inner, inner.insert(arith.SubiOp(end, begin)).result, ctx.edge_type)
        inner.insert(memref.StoreOp.get(degree, degrees, [as_index(inner, gid)]))

    kernels.launch_threads(
        f"{prefix}_degrees_{label}", count, b, count_degree, frontier.block_size_of(edge_map)
    )
    b.insert(host.WriteOp(constant(b, 0, ctx.edge_type), degrees, count))
    slots = b.insert(arith.AddiOp(count, constant(b, 1))).result
    b.insert(gir_gpu.ExclusiveScanOp(degrees, offsets, slots))
    total = b.insert(host.ReadOp(offsets, count)).result
    total.name_hint = "frontier_edges"
    return FrontierEdges(ctx, source, values, edges, count, offsets, total)


def _edge_count(b: Builder, value: SSAValue, edge_type: IntegerType) -> SSAValue:
    """Device code: a count of edges (an `index`) as the edge index type."""
    if edge_type == i32:
        return as_i32(b, value)
    assert isinstance(value.type, IndexType)
    return b.insert(arith.IndexCastOp(value, edge_type)).result


def last_at_most(
    b: Builder, offsets: SSAValue, low: SSAValue, high: SSAValue, target: SSAValue
) -> SSAValue:
    """Device code: the last i in [low, high) with offsets[i] <= target, by binary
    search over the nondecreasing offsets (offsets[low] <= target < offsets[high])."""
    before = Block(arg_types=[i32, i32])
    lo, hi = before.args
    c = Builder(InsertPoint.at_end(before))
    width = c.insert(arith.SubiOp(hi, lo)).result
    wide = c.insert(arith.CmpiOp(width, constant(c, 1), "sgt")).result
    c.insert(scf.ConditionOp(wide, lo, hi))
    after = Block(arg_types=[i32, i32])
    a = Builder(InsertPoint.at_end(after))
    lo, hi = after.args
    middle = a.insert(arith.DivSIOp(a.insert(arith.AddiOp(lo, hi)).result, constant(a, 2))).result
    value = a.insert(memref.LoadOp.get(offsets, [as_index(a, middle)])).res
    at_most = a.insert(arith.CmpiOp(value, target, "sle")).result
    new_low = a.insert(arith.SelectOp(at_most, middle, lo)).result
    new_high = a.insert(arith.SelectOp(at_most, hi, middle)).result
    a.insert(scf.YieldOp(new_low, new_high))
    search = b.insert(scf.WhileOp([low, high], [i32, i32], Region(before), Region(after)))
    search.results[0].name_hint = "item"
    return search.results[0]


def when(b: Builder, condition: SSAValue) -> Builder:
    """Inserts `scf.if condition` (no results, no else) with `b`; a builder inside it."""
    end = scf.YieldOp()
    b.insert(scf.IfOp(condition, [], Region(Block([end]))))
    return Builder(InsertPoint.before(end))
