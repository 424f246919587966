"""G2's TWC load balance: frontier vertices split by degree into thread, warp and
block (CTA) tiers, Merrill-style, inside one kernel."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.ir import SSAValue

from gir.dialects import frontier, gir_gpu
from gir.dialects.gir_gpu import SUBGROUP_SIZE
from gir.passes.gpu_kernels import as_index, constant
from gir.passes.kernel_builder import KernelBuilder, MapBody
from gir.passes.load_balance import LoadBalanceStrategy
from gir.passes.traversal_regions import exit_early
from gir.passes.load_balance.cooperative import (
    ThreadEdges,
    frontier_threads,
    strided_loop,
)
from gir.passes.load_balance.twce import BLOCK_QUEUE, WARP_QUEUE, BlockTiers


class Twc(LoadBalanceStrategy):
    """TWC load balance: each frontier vertex walked by its block, a warp, or its own thread, by degree.

    The traversal becomes a `frontier.edge_map` whose body is the work of one
    edge. Its kernel has one thread per frontier item, in blocks of the
    schedule's block size B. A vertex of degree >= B is queued in a work-group
    queue that the whole block walks, entry by entry (thread t takes edges t, t +
    B, ...); one of degree in [32, B) in a queue the block's warps share (warp w
    takes entries w, w + B/32, ...; its lanes stride by 32); a vertex of degree
    below 32 is walked by its own thread after the cooperative stages. A vertex's
    edges all go to one tier (TWCE splits them instead).

    The formulation is Merrill's (and Gunrock's) per-block one, not G2's global
    bins with one kernel per bin: binning the frontier globally needs a binning
    kernel, a host read of each bin's size (a device-host round trip per
    traversal) and three launches, which cost more than a BFS level on a social
    graph takes on an H100; inside a block the tiers meet through work-group memory
    and two barriers. A hub's edges are spread over its block, so elements indexed
    by the source are shared (atomics included).

    The barriers sit at the kernel's top level (threads past the frontier have an
    empty edge range); the stages' loops hold none, and no sub-group operation is
    used, so CUDA and OpenCL print the same structure (`__shared__` /
    `__local` arrays, `__syncthreads()` / `barrier`). Work-group arrays: 6 x B + 2
    i32 (24 KiB at B = 1024).

    `frontier-lower-load-balance` makes its traversal a `frontier.edge_map`
    whose body is the work of one edge (the default rewrite, shown in that pass's
    docstring).

    After `frontier-maps-to-kernels` (one kernel, B = 256):
    ```mlir
    gir_gpu.kernel @map_s1(...) {
      %queued = gir_gpu.shared_alloc : memref<2xi32, #gir_gpu.workgroup>
      ...                                   // the block and warp queues
      %vertex, %begin, %end = scf.if %active -> (i32, i32, i32) {...}
      gir_gpu.barrier                       // the queue counts are 0
      scf.if %large {...}                   // degree >= 256: the block queue
      scf.if %medium {...}                  // 32 <= degree < 256: the warp queue
      gir_gpu.barrier
      scf.for %i = %c0 to %block_entries ... // all threads: edges thread, +256, ...
      scf.for %i = %warp to %warp_entries step %c8 ... // lanes: lane, +32, ...
      scf.for %edge = %begin to %own_end ... // degree < 32: the thread's own
      gir_gpu.return
    }
    ```
    """

    value = "TWC"
    wide_edges = True

    def form_kernel(self, edge_map: frontier.EdgeMapOp, kernels: KernelBuilder) -> None:
        block_size = frontier.block_size_of(edge_map)
        threads, host_b = frontier_threads(kernels, edge_map)

        def build(b: Builder, body: MapBody) -> None:
            edge_type = kernels.ctx.edge_type
            tiers = BlockTiers.allocate(b, block_size, edge_type)
            mine = ThreadEdges.load(kernels, edge_map, b, threads)
            tiers.reset(b)
            degree = b.insert(arith.SubiOp(mine.end, mine.begin)).result
            degree.name_hint = "degree"
            large = _at_least(b, degree, block_size, "large")
            tiers.push(b, BLOCK_QUEUE, large, mine.vertex, mine.begin, mine.end)
            wide = _at_least(b, degree, SUBGROUP_SIZE, "wide")
            small = b.insert(arith.XOrIOp(wide, constant(b, 1, wide.type))).result
            small.name_hint = "small"
            medium = b.insert(arith.XOrIOp(wide, large)).result  # large implies wide
            medium.name_hint = "medium"
            tiers.push(b, WARP_QUEUE, medium, mine.vertex, mine.begin, mine.end)
            b.insert(gir_gpu.BarrierOp())
            tiers.walk_block_queue(b, body)
            tiers.walk_warp_queue(b, body)
            own_end = b.insert(arith.SelectOp(small, mine.end, mine.begin)).result
            own_end.name_hint = "own_end"

            def edge(at: Builder, position: SSAValue) -> None:
                body(at, [mine.vertex, as_index(at, position)])

            exit_early(strided_loop(b, mine.begin, own_end, constant(b, 1, edge_type), edge))

        kernels.map_kernel(edge_map, threads, build, host_b)


def _at_least(b: Builder, degree: SSAValue, bound: int, name: str) -> SSAValue:
    result = b.insert(arith.CmpiOp(degree, constant(b, bound, degree.type), "sge")).result
    result.name_hint = name
    return result
