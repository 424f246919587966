"""G2's TWCE (ETWC) load balance: each block splits its vertices' edges into block,
warp and thread chunks through shared memory (G2's Algorithm 3).

The block-level pieces (each thread's vertex and edge range, work-group queues of
edge ranges, the block and warp stages that walk them) are shared with TWC
(`gir.passes.load_balance.twc`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IntegerType, i32
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from gir.dialects import frontier, gir_gpu
from gir.dialects.gir_gpu import SUBGROUP_SIZE, AtomicKind, Dimension
from gir.passes.gpu_kernels import as_index, constant, resize
from gir.passes.kernel_builder import KernelBuilder, MapBody
from gir.passes.load_balance import LoadBalanceStrategy
from gir.passes.traversal_regions import exit_early
from gir.passes.load_balance.cooperative import (
    ScannedEdges,
    ThreadEdges,
    frontier_threads,
    shared_array,
    strided_loop,
)


class Twce(LoadBalanceStrategy):
    """TWCE (G2's ETWC) load balance: per block, edges split into block / warp / thread chunks.

    The traversal becomes a `frontier.edge_map` whose body is the work of one
    edge. Its kernel has one thread per frontier item, in blocks of the schedule's
    block size B, the items shared evenly over the blocks, at most B each
    (`spread_items`: in a fused loop every block of the persistent grid takes a
    few), and runs G2's Algorithm 3 inside each block, in work-group
    memory. A thread cuts its vertex's edges `[begin, end)` into a multiple of B
    (queued for the whole block), then a multiple of 32 (queued for a warp), then a
    remainder of fewer than 32 edges. After a barrier the block walks each
    block-queue entry with all B threads (thread t takes edges t, t + B, ...); the
    warps share the warp queue (warp w takes entries w, w + B/32, ... and its 32
    lanes stride the edges); finally the remainders are spread evenly over the
    block: a block-level exclusive sum of the remainders (a sub-group exclusive
    sum, the warps' totals in a work-group array, a second sub-group sum of
    those) numbers the remainder edges 0 .. total-1, and thread t takes numbers t,
    t + B, ..., finding the owning thread by binary search over the sums. A hub's
    edges are spread over many threads, so elements indexed by the source are
    shared (atomics included).

    Barriers and sub-group operations sit at the kernel's top level (reached by
    the whole block: threads past the frontier carry an empty edge range); the
    stages' loops hold none. CUDA prints the sub-group sums and broadcasts as
    `__shfl_up_sync` / `__shfl_sync`; OpenCL prints `sub_group_scan_exclusive_add`
    / `sub_group_broadcast` where the device has 32-wide sub-groups (decided when
    the kernel runs), else their local-memory emulation. Work-group arrays: 9 x B
    + 2 + B/32 i32 (36 KiB at B = 1024).

    `frontier-lower-load-balance` makes its traversal a `frontier.edge_map`
    whose body is the work of one edge (the default rewrite, shown in that pass's
    docstring).

    After `frontier-maps-to-kernels` (one kernel, B = 256):
    ```mlir
    gir_gpu.kernel @map_s1(...) {
      %counts = gir_gpu.shared_alloc : memref<2xi32, #gir_gpu.workgroup>
      ...                                   // the block and warp queues, remainders
      %gid = gir_gpu.id global
      %vertex, %begin, %end = scf.if %active -> (i32, i32, i32) {...}
      gir_gpu.barrier                       // the queue counts are 0
      scf.if %has_block_chunk {...}         // enqueue [begin, begin + 256k)
      scf.if %has_warp_chunk {...}          // enqueue the next 32j edges
      %rank = gir_gpu.subgroup_exclusive_sum %remainder : i32
      gir_gpu.barrier                       // warp totals written
      ...                                   // their sum: %first, %total
      gir_gpu.barrier                       // queues and remainders complete
      scf.for %i = %c0 to %block_entries ... // all threads: edges thread, +256, ...
      scf.for %i = %warp to %warp_entries step %warps ... // lanes: lane, +32, ...
      scf.for %k = %thread to %total step %c256 ... // binary search, one edge
      gir_gpu.return
    }
    ```
    """

    value = "TWCE"
    wide_edges = True

    def form_kernel(self, edge_map: frontier.EdgeMapOp, kernels: KernelBuilder) -> None:
        block_size = frontier.block_size_of(edge_map)
        threads, host_b = frontier_threads(kernels, edge_map)

        def build(b: Builder, body: MapBody) -> None:
            edge_type = kernels.ctx.edge_type
            tiers = BlockTiers.allocate(b, block_size, edge_type)
            remainders = ScannedEdges.allocate(b, block_size, edge_type=edge_type)
            mine = ThreadEdges.load(kernels, edge_map, b, threads, spread=True)
            tiers.reset(b)
            size = b.insert(arith.SubiOp(mine.end, mine.begin)).result
            block_part = _round_down(b, size, block_size)
            warp_start = b.insert(arith.AddiOp(mine.begin, block_part)).result
            rest = b.insert(arith.SubiOp(size, block_part)).result
            warp_part = _round_down(b, rest, SUBGROUP_SIZE)
            thread_start = b.insert(arith.AddiOp(warp_start, warp_part)).result
            thread_start.name_hint = "remainder_begin"
            zero = constant(b, 0, edge_type)
            has_block = b.insert(arith.CmpiOp(block_part, zero, "sgt")).result
            tiers.push(b, BLOCK_QUEUE, has_block, mine.vertex, mine.begin, warp_start)
            has_warp = b.insert(arith.CmpiOp(warp_part, zero, "sgt")).result
            tiers.push(b, WARP_QUEUE, has_warp, mine.vertex, warp_start, thread_start)
            remainders.publish(b, mine, thread_start)
            b.insert(gir_gpu.BarrierOp())
            tiers.walk_block_queue(b, body)
            tiers.walk_warp_queue(b, body)
            remainders.walk(b, body)

        kernels.map_kernel(edge_map, threads, build, host_b, spread_items=True)


BLOCK_QUEUE, WARP_QUEUE = 0, 1
"""The two work-group queues of `BlockTiers`: edge ranges a whole block walks, and
edge ranges one warp walks."""


@dataclass
class BlockTiers:
    """Device code of a cooperative map kernel: two work-group queues of (vertex,
    begin, end) edge ranges, one walked by the whole block, one shared by its warps
    (a warp per entry). Each thread queues at most one range in each, so B slots
    suffice."""

    block_size: int
    counts: SSAValue
    """memref<2xi32>: the entries of each queue."""
    queues: tuple[tuple[SSAValue, SSAValue, SSAValue], ...]
    """Per queue: its vertex (i32), begin and end (the edge index type) arrays of B."""

    @staticmethod
    def allocate(b: Builder, block_size: int, edge_type: IntegerType = i32) -> BlockTiers:
        """Declares the queues' work-group arrays at `b` (the kernel's top level),
        edge positions of `edge_type`."""
        counts = shared_array(b, 2, "queued")
        types = {"vertex": i32, "begin": edge_type, "end": edge_type}
        queues = tuple(
            tuple(shared_array(b, block_size, f"{tier}_{part}", types[part]) for part in types)
            for tier in ("block", "warp")
        )
        return BlockTiers(block_size, counts, queues)  # type: ignore[arg-type]

    def reset(self, b: Builder) -> None:
        """Thread 0 empties both queues; a barrier makes that visible to the block."""
        thread = b.insert(gir_gpu.IdOp(Dimension.THREAD)).result
        first = b.insert(arith.CmpiOp(thread, constant(b, 0), "eq")).result
        then = Builder(InsertPoint.at_end(block := Block()))
        for queue in (BLOCK_QUEUE, WARP_QUEUE):
            then.insert(memref.StoreOp.get(constant(then, 0), self.counts, [_at(then, queue)]))
        then.insert(scf.YieldOp())
        b.insert(scf.IfOp(first, [], Region(block)))
        b.insert(gir_gpu.BarrierOp())

    def push(
        self,
        b: Builder,
        queue: int,
        condition: SSAValue,
        vertex: SSAValue,
        begin: SSAValue,
        end: SSAValue,
    ) -> None:
        """Where `condition` holds, appends the edge range to `queue`."""
        then = Builder(InsertPoint.at_end(block := Block()))
        slot = then.insert(
            gir_gpu.AtomicRMWOp(AtomicKind.ADD, constant(then, 1), self.counts, _at(then, queue))
        ).old
        slot.name_hint = "slot"
        for array, value in zip(self.queues[queue], (vertex, begin, end), strict=True):
            then.insert(memref.StoreOp.get(value, array, [as_index(then, slot)]))
        then.insert(scf.YieldOp())
        b.insert(scf.IfOp(condition, [], Region(block)))

    def walk_block_queue(self, b: Builder, body: MapBody) -> None:
        """After a barrier: the whole block walks each entry of the block queue,
        thread t taking edges begin + t, begin + t + B, ..."""
        entries = self._entries(b, BLOCK_QUEUE)
        thread = b.insert(gir_gpu.IdOp(Dimension.THREAD)).result
        self._walk(b, BLOCK_QUEUE, constant(b, 0), entries, constant(b, 1), thread, self.block_size, body)

    def walk_warp_queue(self, b: Builder, body: MapBody) -> None:
        """After a barrier: warp w walks entries w, w + B/32, ... of the warp queue,
        lane l taking edges begin + l, begin + l + 32, ..."""
        entries = self._entries(b, WARP_QUEUE)
        warp = b.insert(gir_gpu.IdOp(Dimension.SUBGROUP)).result
        lane = b.insert(gir_gpu.IdOp(Dimension.LANE)).result
        warps = constant(b, max(1, self.block_size // SUBGROUP_SIZE))
        self._walk(b, WARP_QUEUE, warp, entries, warps, lane, SUBGROUP_SIZE, body)

    def _entries(self, b: Builder, queue: int) -> SSAValue:
        entries = b.insert(memref.LoadOp.get(self.counts, [_at(b, queue)])).res
        entries.name_hint = ("block_entries", "warp_entries")[queue]
        return entries

    def _walk(
        self,
        b: Builder,
        queue: int,
        first: SSAValue,
        entries: SSAValue,
        step: SSAValue,
        offset: SSAValue,
        stride: int,
        body: MapBody,
    ) -> None:
        def entry(inner: Builder, i: SSAValue) -> None:
            vertex, begin, end = (
                inner.insert(memref.LoadOp.get(array, [as_index(inner, i)])).res
                for array in self.queues[queue]
            )
            start = inner.insert(arith.AddiOp(begin, resize(inner, offset, begin.type))).result

            def edge(at: Builder, position: SSAValue) -> None:
                body(at, [vertex, as_index(at, position)])

            # one vertex's edges: a pull walk leaves at its first failing check
            exit_early(strided_loop(inner, start, end, constant(inner, stride, begin.type), edge))

        strided_loop(b, first, entries, step, entry)


def _round_down(b: Builder, value: SSAValue, multiple: int) -> SSAValue:
    """`value` (>= 0) rounded down to a multiple of `multiple` (a power of two)."""
    return b.insert(arith.AndIOp(value, constant(b, -multiple, value.type))).result


def _at(b: Builder, position: int) -> SSAValue:
    return as_index(b, constant(b, position))
