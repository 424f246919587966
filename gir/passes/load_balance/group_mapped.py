"""A strategy base for new load balances: a group of threads per frontier vertex.

`GroupMapped` is the simplest cooperative shape (no work-group memory, barrier or
sub-group operation): a subclass says how wide a group is and where a thread sits
in it (docs/tutorial.md builds a strategy on it). G2's WM and CM spread a warp's
or a block's edges evenly instead (`warp_mapped.py`, `cta_mapped.py`).
"""

from __future__ import annotations

from abc import abstractmethod

from xdsl.builder import Builder
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, i32
from xdsl.ir import Block, SSAValue
from xdsl.rewriter import InsertPoint

from gir.dialects import frontier, gir_gpu
from gir.passes.gpu_kernels import as_index, constant
from gir.passes.kernel_builder import KernelBuilder, MapBody
from gir.passes.layouts import layout
from gir.passes.load_balance import LoadBalanceStrategy
from gir.passes.traversal_regions import exit_early

MAX_THREADS = 1 << 26
"""The most threads a `GroupMapped` kernel launches. Above `MAX_THREADS / width`
frontier items the groups stride over the items, so that the thread count stays
far from i32 overflow (a full frontier of 4M vertices at 1024 threads per item
would need 2^32) and the grid within every target's limits."""


class GroupMapped(LoadBalanceStrategy):
    """A group of `width` threads per frontier vertex, its threads striding over
    the vertex's edges.

    The traversal becomes a `frontier.edge_map` (`to_edge_map`). Its kernel: a
    group of `width` threads takes one frontier item at a time and its threads
    walk the item's edges together, rank `r` taking edges `begin + r, begin + r
    + width, ...`. Groups take items `group, group + groups, ...`: one item each
    unless the frontier exceeds `MAX_THREADS / width` items. Every loop bound is
    uniform per group and no barrier or sub-group operation is used, so the
    kernel is a plain one. A vertex's edges are spread over its group, so an
    element indexed by the source is shared (atomics included)."""

    wide_edges = True

    @abstractmethod
    def width(self, edge_map: frontier.EdgeMapOp) -> int:
        """Threads per group."""

    @abstractmethod
    def coordinates(
        self, b: Builder, edge_map: frontier.EdgeMapOp
    ) -> tuple[SSAValue, SSAValue, SSAValue]:
        """Device code: (the thread's group, its rank in the group, the number of
        groups in the launch), all i32."""

    def form_kernel(self, edge_map: frontier.EdgeMapOp, kernels: KernelBuilder) -> None:
        ctx = kernels.ctx
        width = self.width(edge_map)
        host = Builder(InsertPoint.before(edge_map))
        source, values = kernels.frontier(edge_map.input)
        edges = layout(edge_map.layout.data)
        count = source.thread_count(ctx, host, values)
        cap = constant(host, max(1, MAX_THREADS // width))
        groups = host.insert(arith.MinSIOp(count, cap)).result
        threads = host.insert(arith.MuliOp(groups, constant(host, width))).result
        threads.name_hint = "threads"

        def build(b: Builder, body: MapBody) -> None:
            group, rank, stride = self.coordinates(b, edge_map)
            item_loop = Block(arg_types=[i32])
            item = item_loop.args[0]
            item.name_hint = "item"
            b.insert(scf.ForOp(group, count, stride, [], item_loop))
            b.insert(gir_gpu.ReturnOp())
            at_item = Builder(InsertPoint.at_end(item_loop))
            vertex = source.thread_vertex(ctx, at_item, values, item)
            begin, end = edges.edge_range(ctx, at_item, vertex)
            first = at_item.insert(arith.AddiOp(begin, as_index(at_item, rank))).result
            step = at_item.insert(arith.ConstantOp(IntegerAttr(width, IndexType()))).result
            edge_loop = Block(arg_types=[IndexType()])
            edge = edge_loop.args[0]
            edge.name_hint = "edge"
            walk = at_item.insert(scf.ForOp(first, end, step, [], edge_loop))
            at_item.insert(scf.YieldOp())
            end_edge = scf.YieldOp()
            edge_loop.add_op(end_edge)
            body(Builder(InsertPoint.before(end_edge)), [vertex, edge])
            exit_early(walk)

        kernels.map_kernel(edge_map, threads, build, host, cooperative=False)
