"""`gpu-fuse-loops`: a host loop scheduled with kernel fusion becomes one persistent kernel."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp, UnitAttr, i1, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.builder import Builder
from xdsl.rewriter import InsertPoint
from xdsl.transforms.dead_code_elimination import dce

from gir.axes import LOAD_BALANCES
from gir.diagnostics import UserError
from gir.dialects import gir_gpu, host
from gir.dialects.printing import StringType
from gir.dialects.schedule import SimpleScheduleAttr, Toggle
from gir.ir_walk import walk
from gir.passes.fused_kernel_body import KernelBody, const, cooperation, device_type
from gir.passes.grid_barriers import CarriedBuffers, plan_barriers
from gir.passes.ir_utils import constant_value, main_function, statement

SCHEDULE = "graph.schedule"
"""The attribute that carries a labelled loop's schedule down to the host loop."""

DEVICE_STEPS = (host.LaunchOp, host.ReadOp, host.WriteOp)
"""The host ops of a loop body that become device code in a fused kernel; the
others allowed are arithmetic, which every thread repeats."""

LIST_STEPS = (host.ListPushOp, host.ListPopOp)
"""The list ops that become device steps on the list's exported device view."""

_STRINGS_STAY_ON_HOST = (
    "strings live on the host: move the string's uses out of the loop, or leave it unfused"
)
"""Why a fused loop cannot touch a `!host.string`."""


def _unfusable_load_balances() -> str:
    """The registered load balances whose traversals have host steps, listed."""
    names = [name for name in LOAD_BALANCES if not LOAD_BALANCES.get(name).fusable]
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)

@dataclass(frozen=True)
class GpuFuseLoops(ModulePass):
    """Turns each `scf.while` of `@main` scheduled with `configKernelFusion(ENABLED)` into one persistent kernel.

    The fused kernel runs the whole loop in every thread: loop-carried scalars
    live in registers (each thread computes the same values: a `host.read`
    becomes a load that every thread makes after a grid barrier, so the loop
    condition, computed from them, is evaluated alike by every thread), a frontier
    swap is a swap of slot numbers selecting among the loop's buffers, a
    `host.write` is a store by thread 0, and an `scf.if` of the loop (the
    priority-queue bucket refill in the condition region) stays an `scf.if` whose
    condition every thread computes alike. A launch of a thread-mapped kernel
    becomes a grid-stride loop over the launch's threads; a launch of a
    cooperative kernel (work-group arrays, block barriers, sub-group ops:
    TWC, TWCE, CM, STRICT, WM...) a block-stride loop over the launch's blocks
    (`for vb = block; vb < blocks; vb += grid_dim`), so every thread of a block
    runs the same virtual block and its barriers stay uniform; virtual block and
    global ids replace the real ones inside, and a block barrier ends each
    virtual block before the next reuses the work-group arrays. A kernel whose
    blocks share its items evenly (`gir_gpu.spread_items`: CM, WM, TWCE) runs on at
    least every block of the grid, so a small frontier's edges spread over the
    whole device instead of the first `count / block_dim` blocks. A
    `gir_gpu.grid_barrier` precedes each step that touches a buffer a step since
    the last barrier touched, one of them writing it (`plan_barriers`: around
    the loop too, telling buffers apart by where they come from).

    No deadlock by construction: the host launches the kernel once on the grid
    that `host.resident_blocks` sizes (`per_sm`: the schedule's
    `configBlocksPerSM`), at most the blocks the device keeps
    resident at once (by occupancy, with the kernel's work-group arrays), so
    every block reaches every grid barrier; it reads the loop's results back
    from a state buffer, and keeps the original loop for targets without grid
    synchronization (grid 0: OpenCL).

    A list of frontiers that the loop pushes onto or pops from (`host.list_push`,
    `host.list_pop`: BC's levels) goes to the kernel as its storage and a device
    array of its count and ends (`host.list_export` before the launch, with room
    for one item per vertex; `host.list_import` after it). A push is a
    grid-stride copy of the queue's items onto the storage's end and thread 0
    recording the new end; a pop the same copy the other way. Where every push
    and pop runs once an iteration (none under an `scf.if`), the loop carries
    each list's count in registers, so thread 0 records the count for the host
    alone and needs no grid barrier first; else every step reads the count from
    the device array and thread 0 writes it after a grid barrier of its own. A
    push that does not fit is dropped and flagged, never written out of bounds,
    and the import fails with a clear error.

    This is a GPU-level pass because a fused kernel is built from the loop's
    kernels as formed. A cooperative kernel must run on blocks of the fused
    loop's block size; host-side scans (EDGE_ONLY, STRICT, MERGE_PATH) allocate scratch
    buffers inside the loop and are not fused (a located error says so).

    Before:
    ```mlir
    %w, %n = scf.while (%a = %q0, %s = %one) : ... {
      %c = arith.cmpi ne, %s, %zero : i32
      scf.condition(%c) %a, %s : memref<?xi32>, i32
    } do {
    ^bb0(%a1: memref<?xi32>, %s1: i32):
      host.write %zero, %size[%zero] : i32, memref<?xi32>, i32
      host.launch @map_s1 grid %g block %b (%s1, %a1, %size) : ...
      %s2 = host.read %size[%zero] : memref<?xi32>, i32 -> i32
      scf.yield %a1, %s2 : memref<?xi32>, i32
    } attributes {graph.schedule = #graph.simple_schedule<... kernel_fusion = ENABLED ...>}
    ```
    After:
    ```mlir
    gir_gpu.kernel @fused_s0(..., %state: memref<?xi32>, %sync: memref<?xi32>) attributes {gir_gpu.persistent} {
      %r = scf.while (...) { ... } do {
        gir_gpu.grid_barrier %sync : memref<?xi32>
        scf.if %is_thread_0 { memref.store %zero, %size[...] }
        gir_gpu.grid_barrier %sync : memref<?xi32>
        scf.for %t = %gid to %threads step %grid_threads { ...body of @map_s1... }
        gir_gpu.grid_barrier %sync : memref<?xi32>
        %s2 = memref.load %size[...]
        // were @map_s1 cooperative (e.g. TWCE), its launch would instead be
        // scf.for %vb = %block_id to %blocks step %grid_dim {
        //   ...body of @map_s1, %vb its block id...
        //   gir_gpu.barrier
        // }
        scf.yield ...
      }
      scf.if %is_thread_0 { memref.store %r#1, %state[...] ... }
      gir_gpu.return
    }
    func.func @main() {
      %grid = host.resident_blocks @fused_s0 block %b
      %w, %n = scf.if %fits -> (...) {
        host.launch @fused_s0 grid %grid block %b (..., %state, %sync) : ...
        ... host.read %state[...] ...
      } else {
        ... the original scf.while ...
      }
    }
    ```
    """

    name = "gpu-fuse-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not any(isinstance(o, gir_gpu.KernelOp) for o in op.ops):
            return
        for loop in fused_loops(op):
            _Fusion(op, loop).run()


def fused_loops(module: ModuleOp) -> list[scf.WhileOp]:
    """The `scf.while` loops of `@main` scheduled with kernel fusion, outermost first."""
    return [o for o in walk(main_function(module)) if is_fused_loop(o)]


def is_fused_loop(loop: Operation) -> bool:
    """Whether `loop` is an `scf.while` scheduled with kernel fusion."""
    if not isinstance(loop, scf.WhileOp):
        return False
    schedule = loop.attributes.get(SCHEDULE)
    return isinstance(schedule, SimpleScheduleAttr) and schedule.kernel_fusion.data == Toggle.ENABLED


@dataclass
class _Fusion:
    """The fusion of one host loop: checks, the kernel, the host side."""

    module: ModuleOp
    loop: scf.WhileOp
    where: str = ""
    kernels: dict[str, gir_gpu.KernelOp] = field(default_factory=dict)
    block_size: int = 0
    """Threads per block of the fused kernel: the loop's schedule's block size."""
    buffers: CarriedBuffers = field(init=False)
    """What the loop's carried buffers may be (`grid_barriers`)."""

    def __post_init__(self) -> None:
        self.where = statement(self.loop)
        self.kernels = {
            o.sym_name.data: o for o in self.module.ops if isinstance(o, gir_gpu.KernelOp)
        }
        schedule = self.loop.attributes[SCHEDULE]
        assert isinstance(schedule, SimpleScheduleAttr)
        self.block_size = schedule.block_size.value.data
        self.buffers = CarriedBuffers.of(self.loop)

    def fail(self, why: str) -> UserError:
        return UserError.at(self.loop, f"error: kernel fusion of {self.where}: {why}")

    # -- checks ---------------------------------------------------------------

    def check(self) -> None:
        for value, initial in zip(self.loop.results, self.loop.arguments, strict=True):
            if value.type == i1 and not isinstance(initial.owner, arith.ConstantOp):
                raise self.fail("a loop-carried i1 must start from a constant to stay on the device")
            if isinstance(value.type, StringType):
                raise self.fail(_STRINGS_STAY_ON_HOST)
            if not isinstance(value.type, MemRefType) and value.type not in (i32, i1):
                raise self.fail(f"a loop-carried {value.type} cannot stay on the device yet")
        self.check_ops(self.loop.before_region.block, "the loop condition")
        self.check_ops(self.loop.after_region.block, "the loop body")

    def check_ops(self, block: Block, where: str) -> None:
        for op in block.ops:
            if isinstance(op, host.LaunchOp):
                self.check_launch(op)
            elif isinstance(op, scf.IfOp):
                for region in op.regions:
                    for inner in region.blocks:
                        self.check_ops(inner, where)
            elif any(isinstance(operand.type, StringType) for operand in (*op.operands, *op.results)):
                raise self.fail(_STRINGS_STAY_ON_HOST)
            elif isinstance(op, host.AllocOp | host.FreeOp):
                raise self.fail(
                    f"'{op.name}' in {where} cannot run inside a kernel (a scratch buffer "
                    "per iteration, as a device-wide scan makes: the load balances with "
                    f"host steps, {_unfusable_load_balances()}, have one over a frontier)"
                )
            elif not isinstance(op, (*DEVICE_STEPS, *LIST_STEPS, scf.YieldOp, scf.ConditionOp)) and (
                op.dialect_name() != "arith"
            ):
                raise self.fail(f"'{op.name}' in {where} cannot run inside a kernel")

    def check_launch(self, launch: host.LaunchOp) -> None:
        kernel = self.kernels[launch.kernel.root_reference.data]
        name = kernel.sym_name.data
        for op in walk(kernel):
            if isinstance(op, gir_gpu.ReturnOp) and op.parent_op() is not kernel:
                raise self.fail(f"kernel @{name} returns from inside control flow")
        cooperating = cooperation(kernel)
        if cooperating is None:
            return
        block = constant_value(launch.block)
        if not isinstance(block, IntegerAttr) or block.value.data != self.block_size:
            size = f"{block.value.data}-thread" if isinstance(block, IntegerAttr) else "run-time sized"
            raise self.fail(
                f"kernel @{name} has threads that cooperate ('{cooperating.name}') on "
                f"{size} blocks, but the fused kernel runs blocks of {self.block_size} threads; "
                "give both schedules the same block size"
            )

    # -- the fused kernel ----------------------------------------------------------

    def captured(self) -> list[SSAValue]:
        """The values the loop uses from outside it, in first-use order (the
        loop's initial values first), but for constants, which the kernel makes
        itself (so its compiler sees them, and no i1 travels as an argument)."""
        seen: dict[SSAValue, None] = dict.fromkeys(self.loop.arguments)
        for op in walk(self.loop):
            if op is self.loop:
                continue
            for operand in op.operands:
                owner = operand.owner
                parent = owner.parent_op() if isinstance(owner, Block) else owner.parent_op()
                inside = parent is self.loop or (parent is not None and self.loop.is_ancestor(parent))
                if not inside:
                    seen.setdefault(operand, None)
        return [v for v in seen if not isinstance(v.owner, arith.ConstantOp)]

    def run(self) -> None:
        self.check()
        captured = self.captured()
        lists = [v for v in captured if isinstance(v.type, host.ListType)]
        captured = [v for v in captured if v not in lists]
        candidates = [v for v in self.loop.arguments if isinstance(v.type, MemRefType)]
        name = "fused_" + re.sub(r"[^A-Za-z0-9_]", "_", _label(self.loop))
        kernel = self.build_kernel(name, captured, candidates, lists)
        self.module.body.block.insert_op_before(kernel, next(iter(self.kernels.values())))
        self.build_host(name, captured, candidates, lists)
        dce(kernel)

    def build_kernel(
        self, name: str, captured: list[SSAValue], candidates: list[SSAValue], lists: list[SSAValue]
    ) -> gir_gpu.KernelOp:
        buffer = gir_gpu.buffer_type(i32)
        views = [buffer, buffer] * len(lists)
        block = Block(arg_types=[*(v.type for v in captured), *views, buffer, buffer])
        state, sync = block.args[-2], block.args[-1]
        for value, arg in zip(captured, block.args, strict=False):
            arg.name_hint = value.name_hint
        state.name_hint, sync.name_hint = "state", "grid_sync"
        outer = dict(zip(captured, block.args, strict=False))
        b = Builder(InsertPoint.at_end(block))
        body = KernelBody(
            b,
            outer,
            sync,
            self.fail,
            self.kernels,
            block,
            [outer[c] for c in candidates],
            plan_barriers(self.buffers, self.kernels, self.counts_in_registers()),
            self.loop,
            self.reachable_slots,
        )
        for i, stack in enumerate(lists):
            storage, ends = block.args[len(captured) + 2 * i : len(captured) + 2 * i + 2]
            storage.name_hint, ends.name_hint = f"{stack.name_hint or 'list'}_storage", f"{stack.name_hint or 'list'}_ends"
            body.lists[stack] = (storage, ends)
        gid = body.emit(gir_gpu.IdOp(gir_gpu.Dimension.GLOBAL)).results[0]
        size = body.emit(gir_gpu.IdOp(gir_gpu.Dimension.BLOCK_DIM)).results[0]
        grid = body.emit(gir_gpu.IdOp(gir_gpu.Dimension.GRID_DIM)).results[0]
        body.gid, body.grid = gid, grid
        body.threads = body.emit(arith.MuliOp(size, grid)).results[0]
        body.first = body.emit(arith.CmpiOp(gid, const(b, 0), "eq")).results[0]
        slots = {v: i for i, v in enumerate(candidates)}
        initial = [
            const(b, slots[v]) if isinstance(v.type, MemRefType) else body.value(v)
            for v in self.loop.arguments
        ]
        loop = self.device_loop(body, initial)
        b.insertion_point = InsertPoint.at_end(block)
        with body.on_thread_0():
            for i, value in enumerate(loop.results[: len(self.loop.results)]):
                if value.type == i1:  # a break flag: the state cells are i32
                    value = body.emit(arith.ExtUIOp(value, i32)).results[0]
                body.emit(memref.StoreOp.get(value, state, [body.index(const(b, i))]))
        body.emit(gir_gpu.ReturnOp())
        kernel = gir_gpu.KernelOp(name, [a.type for a in block.args], Region(block))
        kernel.attributes[gir_gpu.PERSISTENT] = UnitAttr()
        return kernel

    def counts_in_registers(self) -> bool:
        """Whether the loop carries its lists' entry counts in registers: when
        each push and pop runs once an iteration (none under an `scf.if`), so
        that every thread counts alike."""
        blocks = (self.loop.before_region.block, self.loop.after_region.block)
        return all(op.parent_block() in blocks for op in walk(self.loop) if isinstance(op, LIST_STEPS))

    def device_loop(self, body: KernelBody, initial: Sequence[SSAValue]) -> scf.WhileOp:
        """The loop in the kernel: buffers carried as slot numbers, and after the
        host loop's values each list's count where `counts_in_registers` (read
        from its device view once, before the loop)."""
        stacks = list(body.lists) if self.counts_in_registers() else []
        counts = [body.list_slot(body.lists[stack][1], host.ListSlot.COUNT) for stack in stacks]
        old_before, old_after = self.loop.before_region.block, self.loop.after_region.block
        before = Block(arg_types=[*(device_type(a.type) for a in old_before.args), *(i32 for _ in stacks)])
        after = Block(arg_types=[*(device_type(a.type) for a in old_after.args), *(i32 for _ in stacks)])
        types = [*(device_type(r.type) for r in self.loop.results), *(i32 for _ in stacks)]
        loop = scf.WhileOp([*initial, *counts], types, Region(before), Region(after))
        body.emit(loop)
        for source, target in ((old_before, before), (old_after, after)):
            body.b.insertion_point = InsertPoint.at_end(target)
            for old, new in zip(source.args, target.args, strict=False):
                body.bind(old, new)
            body.counts = dict(zip(stacks, target.args[len(source.args) :], strict=True))
            for op in source.ops:
                body.step(op)
        body.counts = {}
        return loop

    # -- the host side ----------------------------------------------------------

    def build_host(
        self, name: str, captured: list[SSAValue], candidates: list[SSAValue], lists: list[SSAValue]
    ) -> None:
        loop = self.loop
        schedule = loop.attributes[SCHEDULE]
        assert isinstance(schedule, SimpleScheduleAttr)
        b = Builder(InsertPoint.before(loop))
        block_size = const(b, schedule.block_size.value.data)
        grid = host.ResidentBlocksOp(name, block_size, schedule.blocks_per_sm.value.data or None)
        b.insert(grid)
        fits = arith.CmpiOp(grid.result, const(b, 0), "sgt")
        b.insert(fits)
        types = [r.type for r in loop.results]
        fused, fallback = Block(), Block()
        choice = scf.IfOp(fits.result, types, Region(fused), Region(fallback))
        b.insert(choice)
        b.insertion_point = InsertPoint.at_end(fused)
        count = const(b, len(types))
        two = const(b, 2)
        state = host.AllocOp(count, i32)
        sync = host.AllocOp(two, i32)
        zero = const(b, 0)
        for op in (state, sync, host.FillOp(sync.result, zero, two)):
            b.insert(op)
        exports = [host.ListExportOp(stack, self.list_room(b, stack)) for stack in lists]
        for stack, export in zip(lists, exports, strict=True):
            b.insert(export)
            for result, hint in zip(export.results, ("storage", "ends", "storage_count", "ends_count"), strict=True):
                result.name_hint = f"{stack.name_hint or 'list'}_{hint}"
        views = [value for export in exports for value in (export.storage, export.ends)]
        b.insert(host.LaunchOp(name, grid.result, block_size, [*captured, *views, state.result, sync.result]))
        results = []
        for i, type_ in enumerate(types):
            read = host.ReadOp(state.result, const(b, i))
            b.insert(read)
            value = read.result
            if type_ == i1:
                flag = arith.CmpiOp(value, const(b, 0), "ne")
                b.insert(flag)
                value = flag.result
            if isinstance(type_, MemRefType):
                value = _select_host(b, self.reachable(candidates, i), value, type_)
            results.append(value)
        for stack, export in zip(lists, exports, strict=True):
            b.insert(host.ListImportOp(stack, export.ends))
        for op in (host.FreeOp(state.result), host.FreeOp(sync.result), scf.YieldOp(*results)):
            b.insert(op)
        old_results = list(loop.results)
        loop.detach()
        fallback.add_op(loop)
        fallback.add_op(scf.YieldOp(*loop.results))
        for old, new in zip(old_results, choice.results, strict=True):
            for use in list(old.uses):
                if use.operation.parent_op() is not choice:
                    use.operation.operands[use.index] = new

    def reachable_slots(self, position: int) -> list[int]:
        """The slot numbers of the buffers that the loop's carried buffer at
        `position` may be: its orbit under the body's permutation when the
        loop's buffers are known apart, else every buffer's."""
        places = [i for i, v in enumerate(self.loop.arguments) if isinstance(v.type, MemRefType)]
        orbit = self.buffers.orbit(position)
        return list(range(len(places))) if orbit is None else [places.index(p) for p in orbit]

    def reachable(self, candidates: list[SSAValue], position: int) -> list[tuple[int, SSAValue]]:
        return [(slot, candidates[slot]) for slot in self.reachable_slots(position)]

    def list_room(self, b: Builder, stack: SSAValue) -> SSAValue:
        """The items the loop may push onto `stack`: none if it only pops, else
        one per vertex, the bound when no vertex is in two of its frontiers (BC
        with dedup: a level holds vertices not yet done, each once)."""
        pushes = (o for o in walk(self.loop) if isinstance(o, host.ListPushOp) and o.list == stack)
        if next(pushes, None) is None:
            return const(b, 0)
        main = self.loop.parent_op()
        while main is not None and not isinstance(main, func.FuncOp):
            main = main.parent_op()
        assert main is not None
        for op in walk(main):
            if isinstance(op, host.GraphSizeOp) and op.what.data == host.GraphSize.VERTICES:
                return op.result
        raise self.fail("a list of frontiers pushed inside a fused loop needs the graph's size")


def _label(loop: scf.WhileOp) -> str:
    label = loop.attributes.get("graph.label")
    return getattr(label, "data", "loop")


def _select_host(
    b: Builder, candidates: list[tuple[int, SSAValue]], slot: SSAValue, type_: Attribute
) -> SSAValue:
    """The candidate buffer of type `type_` whose number is `slot`, on the host."""
    numbered = [(i, c) for i, c in candidates if c.type == type_]
    chosen = numbered[-1][1]
    for i, buffer in reversed(numbered[:-1]):
        is_i = arith.CmpiOp(slot, const(b, i), "eq")
        pick = arith.SelectOp(is_i.result, buffer, chosen)
        b.insert(is_i)
        b.insert(pick)
        chosen = pick.result
    return chosen
