"""The sparse queue (`!frontier.queue`) on the GPU: G2's FUSED frontier creation.

Host values: `items` (a `memref<?xi32>`) and `size` (host i32). The capacity is
k * max(V, E), where k is the largest number of `frontier.enqueue`s in one vertex
map: each runs at most once per edge visited (or per vertex), and an edge is
visited once per traversal because no frontier repeats a vertex
(`frontier-track-changes` deduplicates every output whose updates can take effect
twice). The bound check on each append is a second line of defence: an enqueue
beyond the capacity is dropped rather than written out of bounds. Enqueueing appends at an index taken from a program-wide
counter with an atomic add; the host writes the queue's size into the counter
before the vertex map and reads it back after (the only read-back per traversal).
With `dedup`, a program-wide per-vertex flag array (all zero between vertex maps)
lets only the first thread that enqueues a vertex append it; the flags of the
appended vertices are reset afterwards by a small kernel. A bitmap or boolmap
becomes a queue by compaction: blocks rank their members and reserve their
slots with one atomic add each.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from gir.dialects import gir_gpu, host
from gir.dialects.frontier import AllVerticesType, SparseQueueType
from gir.dialects.gir_gpu import AtomicKind, buffer_type
from gir.passes.block_sums import block_exclusive_sum
from gir.passes.gpu_kernels import GpuContext, as_i32, as_index, constant
from gir.passes.kernel_builder import KernelBuilder
from gir.passes.ir_utils import constant_value
from gir.passes.representations import FrontierRepresentation
from gir.passes.representations.buffers import (
    counter,
    program_buffer,
    vertex_flags,
)
from gir.passes.representations.dense import SIZE_BLOCK, guarded


def _capacity(ctx: GpuContext) -> SSAValue:
    """k * max(V, E) items (host i32). With 64-bit edge indices the bound is
    computed in i64 and clamped to 2^31 - 1: queue positions stay i32, and a
    frontier of a graph with fewer than 2^31 vertices repeats no vertex."""

    def make(b: Builder) -> SSAValue:
        edge_type = ctx.edge_type
        vertices = ctx.vertices if edge_type == i32 else b.insert(arith.ExtSIOp(ctx.vertices, edge_type)).result
        capacity = b.insert(arith.MaxSIOp(vertices, ctx.edges)).result
        if ctx.enqueues_per_item > 1:
            factor = constant(b, ctx.enqueues_per_item, edge_type)
            capacity = b.insert(arith.MuliOp(capacity, factor)).result
        if edge_type != i32:
            limit = constant(b, 2**31 - 1, edge_type)
            capacity = b.insert(arith.MinSIOp(capacity, limit)).result
            capacity = b.insert(arith.TruncIOp(capacity, i32)).result
        capacity.name_hint = "queue_capacity"
        return capacity

    return ctx.shared("queue_capacity", make)


def _counter(ctx: GpuContext) -> SSAValue:
    """A one-element device buffer: the size of the queue being filled."""
    return counter(ctx, "queue_size")


def _dedup_flags(ctx: GpuContext) -> SSAValue:
    """Per-vertex i32 flags: 1 while the vertex is in the queue being filled."""
    return vertex_flags(ctx, "enqueued")


def _dedup_keep_first(b: Builder, args: Sequence[SSAValue], gid: SSAValue) -> None:
    """The first thread to flag items[gid] appends it to `kept`."""
    items, flags, kept, tally = args[0], args[1], args[2], args[3]
    vertex = b.insert(memref.LoadOp.get(items, [as_index(b, gid)])).res
    zero = constant(b, 0)
    old = b.insert(gir_gpu.AtomicCASOp(flags, as_index(b, vertex), zero, constant(b, 1))).old
    first = guarded(b, b.insert(arith.CmpiOp(old, zero, "eq")).result)
    position = first.insert(
        gir_gpu.AtomicRMWOp(AtomicKind.ADD, constant(first, 1), tally, as_index(first, zero))
    ).old
    first.insert(memref.StoreOp.get(vertex, kept, [as_index(first, position)]))


def _dedup_copy_back(b: Builder, args: Sequence[SSAValue], gid: SSAValue) -> None:
    """items[gid] = kept[gid], and that vertex's flag back to zero."""
    kept, items, flags = args[0], args[1], args[2]
    vertex = b.insert(memref.LoadOp.get(kept, [as_index(b, gid)])).res
    b.insert(memref.StoreOp.get(vertex, items, [as_index(b, gid)]))
    b.insert(memref.StoreOp.get(constant(b, 0), flags, [as_index(b, vertex)]))


def _iota(b: Builder, args: Sequence[SSAValue], gid: SSAValue) -> None:
    """items[gid] = gid."""
    b.insert(memref.StoreOp.get(gid, args[0], [as_index(b, gid)]))


def _reset_flags(b: Builder, args: Sequence[SSAValue], gid: SSAValue) -> None:
    """flags[items[first + gid]] = 0."""
    items, first, flags = args[0], args[1], args[2]
    position = b.insert(arith.AddiOp(first, gid)).result
    vertex = b.insert(memref.LoadOp.get(items, [as_index(b, position)])).res
    b.insert(memref.StoreOp.get(constant(b, 0), flags, [as_index(b, vertex)]))


def _if_else(
    b: Builder,
    condition: SSAValue,
    then: Callable[[Builder], SSAValue],
    otherwise: Callable[[Builder], SSAValue],
) -> SSAValue:
    """`condition ? then() : otherwise()` as an `scf.if` with one result, so that
    what `then` reads is only read when `condition` holds."""
    blocks: list[Block] = []
    results: list[SSAValue] = []
    for make in (then, otherwise):
        block = Block()
        at = Builder(InsertPoint.at_end(block))
        results.append(make(at))
        at.insert(scf.YieldOp(results[-1]))
        blocks.append(block)
    return b.insert(
        scf.IfOp(condition, [results[0].type], Region(blocks[0]), Region(blocks[1]))
    ).results[0]


def _member_or_false(
    b: Builder, in_range: SSAValue, member: Callable[[Builder], SSAValue | None]
) -> SSAValue:
    """Whether an in-range thread holds a vertex; false past the frontier's end."""

    def holds(at: Builder) -> SSAValue:
        value = member(at)
        assert value is not None
        return value

    return _if_else(b, in_range, holds, lambda at: at.insert(arith.ConstantOp(IntegerAttr(0, 1))).result)


class SparseQueue(FrontierRepresentation):
    """`!frontier.queue` as (items buffer, host size)."""

    type = SparseQueueType
    creation = "FUSED"
    dedup_for_capacity = True
    host_names = ("items", "size")

    def host_types(self) -> list[Attribute]:
        return [buffer_type(i32), i32]

    def capacity(self, ctx: GpuContext) -> SSAValue:
        return _capacity(ctx)

    def convert_from(
        self, source: FrontierRepresentation, ctx: GpuContext, b: Builder, values: list[SSAValue]
    ) -> list[SSAValue]:
        if source.type is AllVerticesType:
            return self.new(ctx, b, ctx.vertices)
        if source.every_thread_holds_a_vertex:
            return super().convert_from(source, ctx, b, values)
        return self._compact(source, ctx, b, values)

    def _compact(
        self, source: FrontierRepresentation, ctx: GpuContext, b: Builder, values: list[SSAValue]
    ) -> list[SSAValue]:
        """Compaction of a frontier whose threads may hold no vertex (a bitmap or
        boolmap) in one kernel: each block ranks its members (a block-level
        exclusive sum of their flags), its first thread reserves the block's slots
        with one atomic add on a counter and shares the base through work-group
        memory, and each member writes its vertex at base + rank. One atomic per
        block instead of a prefix sum over all threads (five launches and a
        read-back); the queue's order is the order in which blocks reserve, which
        no consumer relies on."""
        count = source.thread_count(ctx, b, values)
        tally = counter(ctx, "compact_size")
        b.insert(host.WriteOp(constant(b, 0), tally, constant(b, 0)))
        items = b.insert(host.AllocOp(_capacity(ctx), i32)).result
        items.name_hint = "queue"
        name = source.type.name.split(".")[-1]

        def build(inner: Builder) -> None:
            warp_totals = inner.insert(
                gir_gpu.SharedAllocOp(i32, SIZE_BLOCK // gir_gpu.SUBGROUP_SIZE)
            ).result
            warp_totals.name_hint = "warp_totals"
            block_base = inner.insert(gir_gpu.SharedAllocOp(i32, 1)).result
            block_base.name_hint = "block_base"
            gid = inner.insert(gir_gpu.IdOp(gir_gpu.Dimension.GLOBAL)).result
            gid.name_hint = "gid"
            in_range = inner.insert(arith.CmpiOp(gid, count, "slt")).result
            member = _member_or_false(inner, in_range, lambda at: source.thread_member(ctx, at, values, gid))
            flag = inner.insert(arith.ExtUIOp(member, i32)).result
            rank, total = block_exclusive_sum(inner, flag, warp_totals, SIZE_BLOCK)
            thread = inner.insert(gir_gpu.IdOp(gir_gpu.Dimension.THREAD)).result
            zero = constant(inner, 0)
            first = inner.insert(arith.CmpiOp(thread, zero, "eq")).result
            some = inner.insert(arith.CmpiOp(total, zero, "sgt")).result
            reserves = guarded(inner, inner.insert(arith.AndIOp(first, some)).result)
            reserved = reserves.insert(
                gir_gpu.AtomicRMWOp(AtomicKind.ADD, total, tally, as_index(reserves, constant(reserves, 0)))
            ).old
            reserves.insert(memref.StoreOp.get(reserved, block_base, [as_index(reserves, constant(reserves, 0))]))
            inner.insert(gir_gpu.BarrierOp())
            at = guarded(inner, member)
            base = at.insert(memref.LoadOp.get(block_base, [as_index(at, constant(at, 0))])).res
            base.name_hint = "base"
            position = at.insert(arith.AddiOp(base, rank)).result
            vertex = source.thread_vertex(ctx, at, values, gid)
            at.insert(memref.StoreOp.get(vertex, items, [as_index(at, position)]))

        KernelBuilder(ctx).launch_blocks(f"compact_{name}", count, b, build, SIZE_BLOCK)
        size = b.insert(host.ReadOp(tally, constant(b, 0))).result
        size.name_hint = "size"
        return [items, size]

    def new(self, ctx: GpuContext, b: Builder, count: SSAValue) -> list[SSAValue]:
        items = b.insert(host.AllocOp(_capacity(ctx), i32)).result
        items.name_hint = "queue"
        size = as_i32(b, count)
        start = constant_value(count)
        if not (isinstance(start, IntegerAttr) and start.value.data == 0):
            kernel = ctx.helper_kernel(
                "frontier_queue_iota", [("items", buffer_type(i32)), ("count", i32)], _iota
            )
            ctx.launch(b, kernel, size, [items, size])
        return [items, size]

    def size(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> SSAValue:
        return values[1]

    def add(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], vertex: SSAValue
    ) -> list[SSAValue]:
        items, size = values
        b.insert(host.WriteOp(as_i32(b, vertex), items, size))
        grown = b.insert(arith.AddiOp(size, constant(b, 1))).result
        return [items, grown]

    def clear(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> list[SSAValue]:
        return [values[0], constant(b, 0)]

    def deduplicate(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue]
    ) -> list[SSAValue]:
        """Unfused deduplication in two kernels: one thread per item flags its
        vertex (the dedup flags of fused enqueueing) and the first to flag it
        appends it to a scratch list of at most V vertices; a second kernel
        copies that list back over the items and clears the flags."""
        items, size = values
        flags = _dedup_flags(ctx)
        kept = program_buffer(ctx, "dedup_kept", "kept", lambda _: ctx.vertices)
        tally = _counter(ctx)
        zero = constant(b, 0)
        b.insert(host.WriteOp(zero, tally, zero))
        keep = ctx.helper_kernel(
            "frontier_queue_dedup_keep",
            [
                ("items", buffer_type(i32)),
                ("enqueued", buffer_type(i32)),
                ("kept", buffer_type(i32)),
                ("tally", buffer_type(i32)),
                ("count", i32),
            ],
            _dedup_keep_first,
        )
        ctx.launch(b, keep, size, [items, flags, kept, tally, size])
        unique = b.insert(host.ReadOp(tally, zero)).result
        unique.name_hint = "size"
        copy_back = ctx.helper_kernel(
            "frontier_queue_dedup_copy_back",
            [
                ("kept", buffer_type(i32)),
                ("items", buffer_type(i32)),
                ("enqueued", buffer_type(i32)),
                ("count", i32),
            ],
            _dedup_copy_back,
        )
        ctx.launch(b, copy_back, unique, [kept, items, flags, unique])
        return [items, unique]

    def free(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> None:
        b.insert(host.FreeOp(values[0]))

    def thread_count(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue]
    ) -> SSAValue:
        return values[1]

    def thread_vertex(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], thread: SSAValue
    ) -> SSAValue:
        vertex = b.insert(memref.LoadOp.get(values[0], [as_index(b, thread)])).res
        vertex.name_hint = "vertex"
        return vertex

    def begin_output(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> None:
        b.insert(host.WriteOp(values[1], _counter(ctx), constant(b, 0)))

    def enqueue(
        self,
        ctx: GpuContext,
        b: Builder,
        values: list[SSAValue],
        vertex: SSAValue,
        dedup: bool,
    ) -> None:
        if dedup:
            flags = _dedup_flags(ctx)
            zero = constant(b, 0)
            old = b.insert(
                gir_gpu.AtomicCASOp(flags, as_index(b, vertex), zero, constant(b, 1))
            ).old
            first = b.insert(arith.CmpiOp(old, zero, "eq")).result
            then = Block()
            b.insert(scf.IfOp(first, [], Region(then)))
            b = Builder(InsertPoint.at_end(then))
        position = b.insert(
            gir_gpu.AtomicRMWOp(
                AtomicKind.ADD, constant(b, 1), _counter(ctx), as_index(b, constant(b, 0))
            )
        ).old
        position.name_hint = "position"
        fits = b.insert(arith.CmpiOp(position, _capacity(ctx), "slt")).result
        store = Block()
        b.insert(scf.IfOp(fits, [], Region(store)))
        inner = Builder(InsertPoint.at_end(store))
        inner.insert(memref.StoreOp.get(vertex, values[0], [as_index(inner, position)]))
        inner.insert(scf.YieldOp())
        if dedup:
            b.insert(scf.YieldOp())

    def end_output(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], dedup: bool
    ) -> list[SSAValue]:
        items, first = values
        enqueued = b.insert(host.ReadOp(_counter(ctx), constant(b, 0))).result
        size = b.insert(arith.MinSIOp(enqueued, _capacity(ctx))).result
        size.name_hint = "size"
        if dedup:
            kernel = ctx.helper_kernel(
                "frontier_queue_reset_dedup",
                [
                    ("items", buffer_type(i32)),
                    ("first", i32),
                    ("enqueued", buffer_type(i32)),
                    ("count", i32),
                ],
                _reset_flags,
            )
            added = b.insert(arith.SubiOp(size, first)).result
            ctx.launch(b, kernel, added, [items, first, _dedup_flags(ctx), added])
        return [items, size]
