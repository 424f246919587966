"""G2's WM load balance: one warp (a sub-group of 32 threads) per frontier vertex.

Also the strategy base shared with CM (`cta_mapped.py`), which maps a whole block
to a vertex: `GroupMapped`.
"""

from __future__ import annotations

from abc import abstractmethod

from xdsl.builder import Builder
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, i32
from xdsl.ir import Block, SSAValue
from xdsl.rewriter import InsertPoint

from gir.dialects import frontier, gir_gpu
from gir.dialects.schedule import LoadBalance
from gir.passes.gpu_kernels import KernelBuilder, MapBody, as_index, constant
from gir.passes.layouts import layout
from gir.passes.load_balance import LoadBalanceStrategy, exit_early, to_edge_map

MAX_THREADS = 1 << 26
"""The most threads a `GroupMapped` kernel launches. Above `MAX_THREADS / width`
frontier items the groups stride over the items, so that the thread count stays
far from i32 overflow (a full frontier of 4M vertices at 1024 threads per item
would need 2^32) and the grid within every target's limits."""


class GroupMapped(LoadBalanceStrategy):
    """A group of threads per frontier vertex (WM: a warp, CM: a block), its
    threads striding over the vertex's edges.

    The traversal becomes a `frontier.edge_map` (`to_edge_map`). Its kernel: a
    group of `width` threads takes one frontier item at a time and its threads
    walk the item's edges together, rank `r` taking edges `begin + r, begin + r
    + width, ...`. Groups take items `group, group + groups, ...`: one item each
    unless the frontier exceeds `MAX_THREADS / width` items. Every loop bound is
    uniform per group and no barrier or sub-group operation is used, so the
    kernel is a plain one. A vertex's edges are spread over its group, so an
    element indexed by the source is shared (atomics included)."""

    @abstractmethod
    def width(self, edge_map: frontier.EdgeMapOp) -> int:
        """Threads per group."""

    @abstractmethod
    def coordinates(
        self, b: Builder, edge_map: frontier.EdgeMapOp
    ) -> tuple[SSAValue, SSAValue, SSAValue]:
        """Device code: (the thread's group, its rank in the group, the number of
        groups in the launch), all i32."""

    def owns_iterated_vertex(self) -> bool:
        return False

    def rewrite(self, traverse: frontier.EdgeTraverseOp) -> None:
        to_edge_map(traverse)

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


class WarpMapped(GroupMapped):
    """WM load balance: a warp of 32 threads per frontier vertex, its lanes striding over the vertex's edges.

    The traversal becomes a `frontier.edge_map` (as for EDGE_ONLY) whose body is
    the work of one edge. Its kernel launches 32 threads per frontier item (at
    most `MAX_THREADS`): thread `gid` is lane `gid % 32` of warp `gid / 32`, the
    warp takes item `gid / 32` (and every `warps`-th one after it when the
    frontier is larger than the launch), and lane `l` runs the body for the edges
    `begin + l, begin + l + 32, ...` of the item's vertex. The warp is a group of
    32 consecutive global ids, which is a hardware warp on CUDA and NVIDIA OpenCL
    (block sizes are multiples of 32); no sub-group operation or barrier is used,
    so CUDA and OpenCL print the same plain loops (no sub-group extension
    needed). A vertex's edges are spread over 32 threads, so an element indexed
    by the source is shared (atomics included).

    Before:
    ```mlir
    %o = frontier.edge_traverse PUSH WM CSR %e : !graph.edgeset
        from %in : !frontier.queue into %empty : !frontier.queue to {...} apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      ...
    } -> !frontier.queue
    ```
    After `frontier-lb-wm`:
    ```mlir
    %o = frontier.edge_map WM CSR %e : !graph.edgeset from %in : !frontier.queue
        into %empty : !frontier.queue -> !frontier.queue {
    ^bb0(%src : !graph.vertex, %edge : index):
      %dst = frontier.neighbor CSR %e[%edge] : !graph.edgeset
      ...                                   // the to filter, then the edge function
      frontier.yield
    }
    ```
    After `frontier-maps-to-kernels`:
    ```mlir
    gir_gpu.kernel @map_s1(%in_size : i32, ...) {
      %gid = gir_gpu.id global
      %warp = arith.divui %gid, %c32 : i32
      %lane = arith.remui %gid, %c32 : i32
      %warps = arith.muli %grid_dim, %warps_per_block : i32
      scf.for %item = %warp to %in_size step %warps : i32 {
        %vertex = memref.load %queue[%item] ...
        %begin, %end = ...                  // row_ptr[vertex], row_ptr[vertex + 1]
        %first = arith.addi %begin, %lane : index
        scf.for %edge = %first to %end step %c32 {
          ...                               // the body
        }
      }
    }
    // host: %threads = min(%in_size, MAX_THREADS / 32) * 32
    host.launch @map_s1 grid %blocks block %c256 (%in_size, ...)
    ```
    """

    value = LoadBalance.WM

    def width(self, edge_map: frontier.EdgeMapOp) -> int:
        return gir_gpu.SUBGROUP_SIZE

    def coordinates(
        self, b: Builder, edge_map: frontier.EdgeMapOp
    ) -> tuple[SSAValue, SSAValue, SSAValue]:
        width = constant(b, gir_gpu.SUBGROUP_SIZE)
        gid = b.insert(gir_gpu.IdOp(gir_gpu.Dimension.GLOBAL)).result
        gid.name_hint = "gid"
        warp = b.insert(arith.DivUIOp(gid, width)).result
        warp.name_hint = "warp"
        lane = b.insert(arith.RemUIOp(gid, width)).result
        lane.name_hint = "lane"
        grid = b.insert(gir_gpu.IdOp(gir_gpu.Dimension.GRID_DIM)).result
        per_block = frontier.block_size_of(edge_map) // gir_gpu.SUBGROUP_SIZE
        warps = b.insert(arith.MuliOp(grid, constant(b, per_block))).result
        warps.name_hint = "warps"
        return warp, lane, warps
