"""G2's CM load balance: one block (a CTA) per frontier vertex."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.ir import SSAValue

from gir.dialects import frontier, gir_gpu
from gir.dialects.schedule import LoadBalance
from gir.passes.load_balance.warp_mapped import GroupMapped


class CtaMapped(GroupMapped):
    """CM load balance: a block per frontier vertex, its threads striding over the vertex's edges.

    The traversal becomes a `frontier.edge_map` (as for EDGE_ONLY) whose body is
    the work of one edge. Its kernel launches one block of `configBlockSize`
    threads per frontier item (at least one block): block `b` takes item `b`,
    and thread `t` of the block runs the body for the edges `begin + t, begin +
    t + block_size, ...` of the item's vertex. A frontier of more than
    `MAX_THREADS / block_size` items (2^16 at 1024 threads per block) gets that
    many blocks, which then stride over the items (block `b` also takes `b +
    blocks`, ...): the thread count stays in i32 range and the grid within
    every target's limits, and each block still runs long enough to hide its
    launch. The item loop is uniform per block and no barrier or sub-group
    operation is used, so CUDA and OpenCL print the same plain loops over
    `blockIdx.x`/`threadIdx.x` (`get_group_id(0)`/`get_local_id(0)`). A vertex's
    edges are spread over a block, so an element indexed by the source is
    shared (atomics included).

    Before:
    ```mlir
    %o = frontier.edge_traverse PUSH CM CSR %e : !graph.edgeset
        from %in : !frontier.queue into %empty : !frontier.queue to {...} apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      ...
    } -> !frontier.queue
    ```
    After `frontier-lb-cm`:
    ```mlir
    %o = frontier.edge_map CM CSR %e : !graph.edgeset from %in : !frontier.queue
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
      %block = gir_gpu.id block
      %thread = gir_gpu.id thread
      %blocks = gir_gpu.id grid_dim
      scf.for %item = %block to %in_size step %blocks : i32 {
        %vertex = memref.load %queue[%item] ...
        %begin, %end = ...                  // row_ptr[vertex], row_ptr[vertex + 1]
        %first = arith.addi %begin, %thread : index
        scf.for %edge = %first to %end step %c256 {
          ...                               // the body
        }
      }
    }
    // host: %threads = min(%in_size, MAX_THREADS / 256) * 256
    host.launch @map_s1 grid %blocks block %c256 (%in_size, ...)
    ```
    """

    value = LoadBalance.CM

    def width(self, edge_map: frontier.EdgeMapOp) -> int:
        return frontier.block_size_of(edge_map)

    def coordinates(
        self, b: Builder, edge_map: frontier.EdgeMapOp
    ) -> tuple[SSAValue, SSAValue, SSAValue]:
        block = b.insert(gir_gpu.IdOp(gir_gpu.Dimension.BLOCK)).result
        block.name_hint = "block"
        thread = b.insert(gir_gpu.IdOp(gir_gpu.Dimension.THREAD)).result
        thread.name_hint = "thread"
        blocks = b.insert(gir_gpu.IdOp(gir_gpu.Dimension.GRID_DIM)).result
        blocks.name_hint = "blocks"
        return block, thread, blocks
