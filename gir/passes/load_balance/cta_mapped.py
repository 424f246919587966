"""G2's CM load balance: each block (a CTA) spreads its frontier vertices' edges
evenly over its threads."""

from __future__ import annotations

from xdsl.builder import Builder

from gir.dialects import frontier, gir_gpu
from gir.passes.kernel_builder import KernelBuilder, MapBody
from gir.passes.load_balance import LoadBalanceStrategy
from gir.passes.load_balance.cooperative import ScannedEdges, ThreadEdges, frontier_threads


class CtaMapped(LoadBalanceStrategy):
    """CM load balance: one thread per frontier vertex, the block's edges spread evenly over the block.

    The traversal becomes a `frontier.edge_map` (as for EDGE_ONLY) whose body is
    the work of one edge. Its kernel has one thread per frontier item, in blocks
    of the schedule's block size B (G2's `CM_load_balance`), the items shared
    evenly over the blocks, at most B each (`spread_items`: in a fused loop
    every block of the persistent grid takes a few): each thread reads
    its vertex's edge range into work-group memory, a block-wide exclusive sum
    of the degrees numbers the block's edges 0 .. total - 1, and thread t walks
    numbers t, t + B, ..., finding each number's vertex by binary search over the
    sums. Every thread of a block does the same share of the block's edges
    whatever the degrees, and no device-wide scan or host round trip is needed;
    a hub's edges stay in its block. A vertex's edges are spread over the block,
    so an element indexed by the source is shared (atomics included).

    `frontier-lower-load-balance` makes its traversal a `frontier.edge_map`
    whose body is the work of one edge (the default rewrite, shown in that pass's
    docstring).

    After `frontier-maps-to-kernels` (B = 256):
    ```mlir
    gir_gpu.kernel @map_s1(...) {
      %range_vertex = gir_gpu.shared_alloc : memref<256xi32, #gir_gpu.workgroup>
      ...                                   // range_begin, range_first, warp_totals
      %vertex, %begin, %end = scf.if %active -> (i32, i32, i32) {...}
      %count = arith.subi %end, %begin : i32
      ...                                   // block-wide exclusive sum: %first, %total
      gir_gpu.barrier
      scf.for %k = %thread to %total step %c256 : i32 {
        %item = scf.while ...               // binary search: the last first[i] <= k
        ...                                 // the body for edge begin[i] + k - first[i]
      }
    }
    ```
    """

    value = "CM"
    wide_edges = True

    def form_kernel(self, edge_map: frontier.EdgeMapOp, kernels: KernelBuilder) -> None:
        scanned_map_kernel(kernels, edge_map, per_warp=False)


def scanned_map_kernel(kernels: KernelBuilder, edge_map: frontier.EdgeMapOp, *, per_warp: bool) -> None:
    """Replaces `edge_map` by a kernel of one thread per frontier item whose block
    (or, `per_warp`, whose warps) spread their items' edges evenly over their
    threads (`ScannedEdges`): G2's CM and WM. Its blocks share the items evenly
    (`SPREAD_ITEMS`), so that in a fused loop a small frontier's edges are
    spread over every block of the grid, fewer to each thread."""
    block_size = frontier.block_size_of(edge_map)
    threads, host_b = frontier_threads(kernels, edge_map)

    def build(b: Builder, body: MapBody) -> None:
        ranges = ScannedEdges.allocate(b, block_size, per_warp=per_warp, edge_type=kernels.ctx.edge_type)
        mine = ThreadEdges.load(kernels, edge_map, b, threads, spread=True)
        ranges.publish(b, mine, mine.begin)
        b.insert(gir_gpu.BarrierOp())
        ranges.walk(b, body)

    kernels.map_kernel(edge_map, threads, build, host_b, spread_items=True)
