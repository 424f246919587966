"""What the dense representations (`bitmap.py`, `boolmap.py`) share: a membership
array indexed by vertex id, one thread per vertex when a map iterates it.

Host values: the membership array (`memref<?xi8>` or `memref<?xi32>`), all zero
for the empty set; no size is kept (`frontier.size` counts the members with one
kernel, one atomic per block, and one read-back). Enqueueing marks the vertex (no duplicates, so an
output never needs deduplicating to stay within its capacity, V). A map over a
dense frontier launches V threads and skips the non-members (`thread_member`).
A subclass says how a vertex is tested and marked in device code.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType, i32
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from gir.dialects import gir_gpu, host
from gir.dialects.gir_gpu import SUBGROUP_SIZE, AtomicKind, Dimension, buffer_type
from gir.passes.block_sums import block_exclusive_sum
from gir.passes.gpu_kernels import GpuContext, as_i32, as_index, constant
from gir.passes.kernel_builder import KernelBuilder
from gir.passes.ir_utils import constant_value
from gir.passes.representations import FrontierRepresentation
from gir.passes.representations.buffers import counter

SIZE_BLOCK = 256
"""Threads per block of the kernel counting a dense frontier's members."""


def guarded(b: Builder, condition: SSAValue) -> Builder:
    """A builder inside a new `scf.if condition` at `b`."""
    then = Block()
    b.insert(scf.IfOp(condition, [], Region(then)))
    end = scf.YieldOp()
    then.add_op(end)
    return Builder(InsertPoint.before(end))


class DenseFrontier(FrontierRepresentation):
    """A frontier stored as a membership array over every vertex of the graph."""

    every_thread_holds_a_vertex = False
    membership_testable = True
    element: ClassVar[IntegerType]
    """The element type of the membership array."""

    @abstractmethod
    def slots(self, ctx: GpuContext, b: Builder) -> SSAValue:
        """Host code: the number of elements of the membership array (host i32)."""

    @abstractmethod
    def test(self, b: Builder, storage: SSAValue, vertex: SSAValue) -> SSAValue:
        """Device code: whether `vertex` (i32) is marked in `storage` (an i1)."""

    @abstractmethod
    def mark(self, b: Builder, storage: SSAValue, vertex: SSAValue) -> None:
        """Device code: marks `vertex` (i32), concurrently with other threads."""

    # -- host -------------------------------------------------------------------

    def host_types(self) -> list[Attribute]:
        return [buffer_type(self.element)]

    def capacity(self, ctx: GpuContext) -> SSAValue:
        return ctx.vertices

    def empty(self, ctx: GpuContext, b: Builder) -> SSAValue:
        """Host code: a new membership array with no vertex marked."""
        slots = self.slots(ctx, b)
        storage = b.insert(host.AllocOp(slots, self.element)).result
        storage.name_hint = self.host_names[0]
        b.insert(host.FillOp(storage, constant(b, 0, self.element), slots))
        return storage

    def _mark_first(self, ctx: GpuContext, b: Builder, storage: SSAValue, count: SSAValue) -> None:
        """Host code: marks vertices 0..count-1 (a launch of `count` threads)."""

        def build(inner: Builder, args: Sequence[SSAValue], gid: SSAValue) -> None:
            self.mark(inner, args[0], gid)

        kernel = ctx.helper_kernel(
            f"frontier_{self.type.name.split('.')[-1]}_mark_first",
            [("storage", buffer_type(self.element)), ("count", i32)],
            build,
        )
        ctx.launch(b, kernel, count, [storage, count])

    def new(self, ctx: GpuContext, b: Builder, count: SSAValue) -> list[SSAValue]:
        storage = self.empty(ctx, b)
        start = constant_value(count)
        if not (isinstance(start, IntegerAttr) and start.value.data == 0):
            self._mark_first(ctx, b, storage, as_i32(b, count))
        return [storage]

    def convert_from(
        self, source: FrontierRepresentation, ctx: GpuContext, b: Builder, values: list[SSAValue]
    ) -> list[SSAValue]:
        """Scatter: one thread per item of `source` marks its vertex."""
        storage = self.empty(ctx, b)
        count = source.thread_count(ctx, b, values)

        def build(inner: Builder, gid: SSAValue) -> None:
            member = source.thread_member(ctx, inner, values, gid)
            if member is not None:
                inner = guarded(inner, member)
            self.mark(inner, storage, source.thread_vertex(ctx, inner, values, gid))

        name = f"convert_{source.type.name.split('.')[-1]}_to_{self.type.name.split('.')[-1]}"
        KernelBuilder(ctx).launch_threads(name, count, b, build)
        return [storage]

    def size(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> SSAValue:
        """One thread per vertex tests its membership; a block-level sum (sub-group
        sums, then one over the warps' totals) lets one thread per block add the
        block's count to a device counter, which the host reads back."""
        members = counter(ctx, "members")
        zero = constant(b, 0)
        b.insert(host.WriteOp(zero, members, zero))
        storage = values[0]

        def build(inner: Builder) -> None:
            warp_totals = inner.insert(
                gir_gpu.SharedAllocOp(i32, max(1, SIZE_BLOCK // SUBGROUP_SIZE))
            ).result
            warp_totals.name_hint = "warp_totals"
            vertex = inner.insert(gir_gpu.IdOp(Dimension.GLOBAL)).result
            inside = inner.insert(arith.CmpiOp(vertex, ctx.vertices, "slt")).result
            test = Builder(InsertPoint.at_end(tested := Block()))
            held = test.insert(arith.ExtUIOp(self.test(test, storage, vertex), i32)).result
            test.insert(scf.YieldOp(held))
            outside = Builder(InsertPoint.at_end(skipped := Block()))
            outside.insert(scf.YieldOp(constant(outside, 0)))
            member = inner.insert(
                scf.IfOp(inside, [i32], Region(tested), Region(skipped))
            ).results[0]
            _, total = block_exclusive_sum(inner, member, warp_totals, SIZE_BLOCK)
            thread = inner.insert(gir_gpu.IdOp(Dimension.THREAD)).result
            first = inner.insert(arith.CmpiOp(thread, constant(inner, 0), "eq")).result
            some = inner.insert(arith.CmpiOp(total, constant(inner, 0), "sgt")).result
            adds = guarded(inner, inner.insert(arith.AndIOp(first, some)).result)
            adds.insert(
                gir_gpu.AtomicRMWOp(AtomicKind.ADD, total, members, as_index(adds, constant(adds, 0)))
            )

        name = f"frontier_{self.type.name.split('.')[-1]}_size"
        KernelBuilder(ctx).launch_blocks(name, ctx.vertices, b, build, SIZE_BLOCK)
        size = b.insert(host.ReadOp(members, zero)).result
        size.name_hint = "size"
        return size

    def add(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], vertex: SSAValue
    ) -> list[SSAValue]:
        """A one-thread kernel marks `vertex` (the host does no bit arithmetic)."""

        def build(inner: Builder, args: Sequence[SSAValue], gid: SSAValue) -> None:
            self.mark(inner, args[0], args[1])

        kernel = ctx.helper_kernel(
            f"frontier_{self.type.name.split('.')[-1]}_add",
            [("storage", buffer_type(self.element)), ("vertex", i32), ("count", i32)],
            build,
        )
        one = constant(b, 1)
        ctx.launch(b, kernel, one, [values[0], as_i32(b, vertex), one])
        return values

    def clear(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> list[SSAValue]:
        b.insert(host.FillOp(values[0], constant(b, 0, self.element), self.slots(ctx, b)))
        return values

    def free(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> None:
        b.insert(host.FreeOp(values[0]))

    # -- device -----------------------------------------------------------------

    def thread_count(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> SSAValue:
        return ctx.vertices

    def thread_vertex(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], thread: SSAValue
    ) -> SSAValue:
        return thread

    def thread_member(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], thread: SSAValue
    ) -> SSAValue | None:
        return self.test(b, values[0], thread)

    def contains(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], vertex: SSAValue
    ) -> SSAValue:
        return self.test(b, values[0], vertex)

    def begin_output(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> None:
        """Nothing: the output's storage was emptied by `frontier.new` or `clear`."""

    def enqueue(
        self,
        ctx: GpuContext,
        b: Builder,
        values: list[SSAValue],
        vertex: SSAValue,
        dedup: bool,
    ) -> None:
        self.mark(b, values[0], vertex)

    def end_output(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], dedup: bool
    ) -> list[SSAValue]:
        return values

