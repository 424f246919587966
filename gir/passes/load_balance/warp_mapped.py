"""G2's WM load balance: each warp spreads its 32 frontier vertices' edges evenly
over its lanes."""

from __future__ import annotations

from gir.dialects import frontier
from gir.passes.kernel_builder import KernelBuilder
from gir.passes.load_balance import LoadBalanceStrategy
from gir.passes.load_balance.cta_mapped import scanned_map_kernel


class WarpMapped(LoadBalanceStrategy):
    """WM load balance: one thread per frontier vertex, each warp's edges spread evenly over its 32 lanes.

    The traversal becomes a `frontier.edge_map` (as for EDGE_ONLY) whose body is
    the work of one edge. Its kernel has one thread per frontier item, in blocks
    of the schedule's block size (G2's `WM_load_balance`), the items shared
    evenly over the blocks as CM's are (`spread_items`): each thread reads its
    vertex's edge range into work-group memory, a sub-group exclusive sum of the
    degrees numbers the warp's edges 0 .. total - 1, and lane l walks numbers l,
    l + 32, ..., finding each number's vertex by binary search over the warp's 32
    sums. Lanes share their warp's edges evenly; warps do not share with each
    other (CM's block-wide sum costs a barrier more and balances across warps).
    CUDA prints the sum as `__shfl_up_sync`; OpenCL as
    `sub_group_scan_exclusive_add` where the device has 32-wide sub-groups, else
    its work-group emulation. A vertex's edges are spread over its warp, so an
    element indexed by the source is shared (atomics included).

    `frontier-lower-load-balance` makes its traversal a `frontier.edge_map`
    whose body is the work of one edge (the default rewrite, shown in that pass's
    docstring).

    After `frontier-maps-to-kernels`:
    ```mlir
    gir_gpu.kernel @map_s1(...) {
      %range_vertex = gir_gpu.shared_alloc : memref<256xi32, #gir_gpu.workgroup>
      ...                                   // range_begin, range_first
      %vertex, %begin, %end = scf.if %active -> (i32, i32, i32) {...}
      %count = arith.subi %end, %begin : i32
      %first = gir_gpu.subgroup_exclusive_sum %count : i32
      %total = gir_gpu.subgroup_broadcast %through, %c31 : i32
      gir_gpu.barrier
      %warp_base = arith.muli %warp, %c32 : i32
      scf.for %k = %lane to %total step %c32 : i32 {
        %item = scf.while ...               // binary search in [warp_base, warp_base + 32)
        ...                                 // the body for edge begin[i] + k - first[i]
      }
    }
    ```
    """

    value = "WM"
    wide_edges = True

    def form_kernel(self, edge_map: frontier.EdgeMapOp, kernels: KernelBuilder) -> None:
        scanned_map_kernel(kernels, edge_map, per_warp=True)
