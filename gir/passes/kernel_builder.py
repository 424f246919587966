"""How kernel formers build kernels (not a pass): a frontier value's host values
(`frontier_value`, `host_values`, `fold_casts`) and the `KernelBuilder` that the
generic vertex-map former and the load-balance strategies form kernels with
(launches of one thread per unit of work or of whole blocks, thread kernels and
map kernels, a `MapBody` placing copies of the per-edge body)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, UnitAttr, UnrealizedConversionCastOp, i32, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from gir.dialects import frontier, gir_gpu, host
from gir.dialects.graph import VertexType
from gir.dialects.schedule import DEFAULT_BLOCK_SIZE
from gir.ir_walk import walk
from gir.passes.gpu_kernels import GpuContext, as_i32, as_index, as_vertex, constant, kernel_skeleton, outline
from gir.passes.representations import FrontierRepresentation, representation

STRIDED_THREADS = 4 * 132 * gir_gpu.RESIDENT_THREADS_PER_SM
"""The most threads of a thread kernel whose units may pass 2^31 (`thread_kernel`
with an i64 count): four times the threads an H100 or H200 keeps resident, as
for edge blocking's walk with barriers."""


# -- frontier values on the host -------------------------------------------------


def frontier_value(b: Builder, values: Sequence[SSAValue], frontier_type: Attribute) -> SSAValue:
    """A frontier-typed value standing for its host `values` (a cast that
    `frontier-maps-to-kernels` removes once no map op needs it)."""
    cast = b.insert(UnrealizedConversionCastOp.get(values, [frontier_type]))
    return cast.results[0]


def host_values(value: SSAValue) -> list[SSAValue]:
    """The host values of a frontier value: the inputs of the cast that made it, or
    the results of a new cast from it (a map's output, until its kernel is formed)."""
    owner = value.owner
    if isinstance(owner, UnrealizedConversionCastOp) and not any(
        isinstance(arg.type, frontier.FrontierType) for arg in owner.inputs
    ):
        return list(owner.inputs)
    for use in value.uses:
        user = use.operation
        if isinstance(user, UnrealizedConversionCastOp) and len(user.inputs) == 1:
            return list(user.results)
    types = representation(value.type).host_types()
    cast = UnrealizedConversionCastOp.get([value], types)
    if isinstance(owner, Block):
        Rewriter.insert_op(cast, InsertPoint.at_start(owner))
    else:
        Rewriter.insert_op(cast, InsertPoint.after(owner))
    return list(cast.results)


def fold_casts(scope: Block | Operation) -> None:
    """Removes the casts in `scope` whose input is the result of a cast back from
    the same types (frontier <-> host values, vertex <-> i32), then unused casts."""
    tops = list(scope.ops) if isinstance(scope, Block) else [scope]
    casts = [
        op for top in tops for op in walk(top) if isinstance(op, UnrealizedConversionCastOp)
    ]
    for op in casts:
        source = op.inputs[0].owner if len(op.inputs) == 1 else None
        if isinstance(source, UnrealizedConversionCastOp) and [
            value.type for value in source.inputs
        ] == [result.type for result in op.results]:
            for result, original in zip(op.results, source.inputs, strict=True):
                result.replace_all_uses_with(original)
    for op in reversed(casts):
        if not any(result.uses for result in op.results):
            Rewriter.erase_op(op)


# -- kernel formation ---------------------------------------------------------------


@dataclass
class KernelBuilder:
    """What a kernel former (the generic one of `frontier.vertex_map`, or a
    load-balance strategy's for `frontier.edge_map`) builds with."""

    ctx: GpuContext

    def frontier(self, value: SSAValue) -> tuple[FrontierRepresentation, list[SSAValue]]:
        """The representation and host values of a frontier operand."""
        return representation(value.type), host_values(value)

    def launch_threads(
        self,
        name: str,
        count: SSAValue,
        host_builder: Builder,
        build: Callable[[Builder, SSAValue], None],
        block_size: int = DEFAULT_BLOCK_SIZE,
    ) -> None:
        """Builds a kernel named after `name` in which each thread with `gid <
        count` (a host i32) runs what `build(b, gid)` inserts, and launches it
        from `host_builder`, in blocks of `block_size`, with the host values it
        uses as arguments."""
        block = Block()
        inner, gid = kernel_skeleton(block, count)
        build(inner, gid)
        self._outline_and_launch(name, block, count, host_builder, block_size)

    def launch_blocks(
        self,
        name: str,
        threads: SSAValue,
        host_builder: Builder,
        build: Callable[[Builder], None],
        block_size: int = DEFAULT_BLOCK_SIZE,
        *,
        spread_items: bool = False,
        resident: bool = False,
    ) -> None:
        """As `launch_threads`, for cooperative kernels: `build(b)` fills the whole
        kernel body (`b` at its top level, where `gir_gpu.shared_alloc`s go), with
        no `gid < threads` guard, so that barriers and sub-group operations are
        reached by whole blocks; it checks the bounds of its work itself. The launch
        has at least `threads` threads, rounded up to whole blocks. With
        `spread_items` the kernel is marked `gir_gpu.SPREAD_ITEMS`: its blocks
        share the items evenly, whatever their number; with `resident` it is
        marked `gir_gpu.RESIDENT_BLOCKS`: held to the registers that let every
        multiprocessor keep as many of its blocks as its threads allow."""
        block = Block()
        b = Builder(InsertPoint.at_end(block))
        build(b)
        b.insert(gir_gpu.ReturnOp())
        self._outline_and_launch(name, block, threads, host_builder, block_size, spread_items, resident)

    def _outline_and_launch(
        self,
        name: str,
        block: Block,
        threads: SSAValue,
        host_builder: Builder,
        block_size: int,
        spread_items: bool = False,
        resident: bool = False,
    ) -> None:
        fold_casts(block)
        unique = self.ctx.unique_name(name)
        kernel, kernel_args = outline(unique, block, host_builder)
        if spread_items:
            kernel.attributes[gir_gpu.SPREAD_ITEMS] = UnitAttr()
        if resident:
            kernel.attributes[gir_gpu.RESIDENT_BLOCKS] = IntegerAttr(block_size, i64)
        self.ctx.add_kernel(kernel)
        self.ctx.launch(host_builder, unique, threads, kernel_args, block_size)

    def thread_kernel(
        self,
        map_op: frontier.VertexMapOp | frontier.EdgeMapOp,
        count: SSAValue,
        thread: Callable[[Builder, SSAValue], list[SSAValue]],
        host_builder: Builder,
    ) -> None:
        """Replaces `map_op` by one kernel of `count` threads (a host i32) and its
        launch: each thread with `gid < count` runs `thread(b, gid)`, which returns
        the body's arguments (its vertices as i32 ids), then the map's body; the
        body's enqueues fill the map's output frontier. A wider `count` (an i64:
        a count of edges with 64-bit edge indices) may pass what one launch's
        thread ids hold: the kernel then runs on at most `STRIDED_THREADS`
        threads, each taking units `gid`, `gid + threads`, ... below `count`,
        `thread(b, unit)` with `unit` an i64."""
        if count.type == i32:

            def build(b: Builder, body: MapBody) -> None:
                inner, gid = kernel_skeleton(b.insertion_point.block, count)
                body(inner, thread(inner, gid))

            self.map_kernel(map_op, count, build, host_builder, cooperative=False)
            return

        def build_strided(b: Builder, body: MapBody) -> None:
            inner, unit = strided_skeleton(b, count)
            body(inner, thread(inner, unit))

        threads = strided_threads(host_builder, count)
        self.map_kernel(map_op, threads, build_strided, host_builder, cooperative=False)

    def map_kernel(
        self,
        map_op: frontier.VertexMapOp | frontier.EdgeMapOp,
        threads: SSAValue,
        build: Callable[[Builder, MapBody], None],
        host_builder: Builder,
        *,
        cooperative: bool = True,
        spread_items: bool = False,
        resident: bool = False,
    ) -> None:
        """Replaces `map_op` by one kernel of at least `threads` threads (a host
        i32, rounded up to whole blocks of the map's `block_size`) and its launch.
        `build(b, body)` fills the kernel body (`b` at its top level); it calls
        `body(at, args)` wherever one instance of the map's body runs (any number
        of times: each call inserts a copy at `at` with `args`, the body's
        arguments, vertices as i32 ids). The copies' enqueues fill the map's
        output frontier. `cooperative` kernels (barriers, shared arrays, sub-group
        operations) are launched with `launch_blocks`; others are expected to
        guard themselves as `kernel_skeleton` does. `spread_items`: the kernel
        shares its items evenly over its blocks (`gir_gpu.SPREAD_ITEMS`);
        `resident`: it asks for full occupancy (`gir_gpu.RESIDENT_BLOCKS`)."""
        ctx, b = self.ctx, host_builder
        output = None
        if map_op.output is not None:
            target, target_values = self.frontier(map_op.output)
            target.begin_output(ctx, b, target_values)
            output = (target, target_values, map_op.dedup is not None)

        def body(at: Builder, values: Sequence[SSAValue]) -> None:
            args = [
                as_vertex(at, arg) if isinstance(param.type, VertexType) else arg
                for param, arg in zip(map_op.body.block.args, values, strict=True)
            ]
            copy = map_op.body.clone().block
            terminator = copy.last_op
            assert terminator is not None
            copy.erase_op(terminator)
            enqueues = [op for op in walk(copy) if isinstance(op, frontier.EnqueueOp)]
            Rewriter.inline_block(copy, at.insertion_point, args)
            for enqueue in enqueues:
                assert output is not None
                target, target_values, dedup = output
                here = Builder(InsertPoint.before(enqueue))
                target.enqueue(ctx, here, target_values, as_i32(here, enqueue.vertex), dedup)
                Rewriter.erase_op(enqueue)

        label = map_op.label.data if map_op.label is not None else "vertices"
        block_size = frontier.block_size_of(map_op)
        if cooperative:
            self.launch_blocks(
                f"map_{label}", threads, b, lambda at: build(at, body), block_size,
                spread_items=spread_items, resident=resident,
            )
        else:
            kernel = Block()
            build(Builder(InsertPoint.at_end(kernel)), body)
            self._outline_and_launch(f"map_{label}", kernel, threads, b, block_size)
        if output is not None:
            target, target_values, dedup = output
            filled = target.end_output(ctx, b, target_values, dedup)
            map_op.results[0].replace_all_uses_with(
                frontier_value(b, filled, map_op.results[0].type)
            )
        Rewriter.erase_op(map_op)


MapBody = Callable[[Builder, Sequence[SSAValue]], None]
"""Inserts one copy of a map op's body at a builder's point, with the given
arguments (see `KernelBuilder.map_kernel`)."""


def strided_threads(b: Builder, units: SSAValue) -> SSAValue:
    """Host code: the threads (an i32) of a kernel over `units` (an i64) that
    strides over them: min(units, STRIDED_THREADS)."""
    few = b.insert(arith.MinSIOp(units, constant(b, STRIDED_THREADS, units.type))).result
    threads = b.insert(arith.TruncIOp(few, i32)).result  # at most STRIDED_THREADS
    threads.name_hint = "threads"
    return threads


def strided_skeleton(b: Builder, count: SSAValue) -> tuple[Builder, SSAValue]:
    """Device code at a kernel's top level (`b`): `for unit = gid; unit < count;
    unit += the grid's threads`, over `count`'s integer type; a builder inside
    the loop and the unit (of that type)."""
    gid = b.insert(gir_gpu.IdOp(gir_gpu.Dimension.GLOBAL)).result
    gid.name_hint = "gid"
    grid = b.insert(gir_gpu.IdOp(gir_gpu.Dimension.GRID_DIM)).result
    per_block = b.insert(gir_gpu.IdOp(gir_gpu.Dimension.BLOCK_DIM)).result
    width = b.insert(arith.MuliOp(grid, per_block)).result
    units = Block(arg_types=[IndexType()])
    units.add_op(scf.YieldOp())
    inner = Builder(InsertPoint.before(units.last_op))
    unit = inner.insert(arith.IndexCastOp(units.args[0], count.type)).result
    unit.name_hint = "unit"
    b.insert(scf.ForOp(as_index(b, gid), as_index(b, count), as_index(b, width), [], Region(units)))
    b.insert(gir_gpu.ReturnOp())
    return inner, unit
