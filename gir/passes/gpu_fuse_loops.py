"""`gpu-fuse-loops`: a host loop scheduled with kernel fusion becomes one persistent kernel."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp, UnitAttr, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.builder import Builder
from xdsl.rewriter import InsertPoint
from xdsl.transforms.dead_code_elimination import dce

from gir.diagnostics import UserError
from gir.dialects import gir_gpu, host
from gir.dialects.schedule import SimpleScheduleAttr, Toggle
from gir.passes.grid_barriers import plan_barriers
from gir.passes.ir_utils import constant_value, main_function, statement

SCHEDULE = "graph.schedule"
"""The attribute that carries a labelled loop's schedule down to the host loop."""

DEVICE_STEPS = (host.LaunchOp, host.ReadOp, host.WriteOp)
"""The host ops of a loop body that become device code in a fused kernel; the
others allowed are arithmetic, which every thread repeats."""


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
    virtual block before the next reuses the work-group arrays. A
    `gir_gpu.grid_barrier` precedes each step that touches a buffer a step since
    the last barrier touched, one of them writing it (`plan_barriers`: around
    the loop too, telling buffers apart by where they come from).

    No deadlock by construction: the host launches the kernel once on the grid
    that `host.resident_blocks` sizes, at most the blocks the device keeps
    resident at once (by occupancy, with the kernel's work-group arrays), so
    every block reaches every grid barrier; it reads the loop's results back
    from a state buffer, and keeps the original loop for targets without grid
    synchronization (grid 0: OpenCL).

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
    return [o for o in main_function(module).walk() if isinstance(o, scf.WhileOp) and _fused(o)]


def _fused(loop: scf.WhileOp) -> bool:
    schedule = loop.attributes.get(SCHEDULE)
    return isinstance(schedule, SimpleScheduleAttr) and schedule.kernel_fusion.data == Toggle.ENABLED


def _const(b: Builder, value: int, type_: Attribute = i32) -> SSAValue:
    op = arith.ConstantOp(IntegerAttr(value, type_))
    b.insert(op)
    return op.result


def _device_type(type_: Attribute) -> Attribute:
    """The type a value of the host loop has in the fused kernel: buffers travel
    as slot numbers."""
    return i32 if isinstance(type_, MemRefType) else type_


def cooperation(kernel: gir_gpu.KernelOp) -> Operation | None:
    """The first op of `kernel` through which the threads of a block work
    together (a work-group array, a block barrier, a sub-group op, or a
    coordinate other than the global id), or None for a thread-mapped kernel."""
    for op in kernel.walk():
        if isinstance(op, gir_gpu.BarrierOp | gir_gpu.SharedAllocOp | gir_gpu.SubgroupOp):
            return op
        if isinstance(op, gir_gpu.IdOp) and op.dimension.data != gir_gpu.Dimension.GLOBAL:
            return op
    return None


@dataclass
class _Fusion:
    """The fusion of one host loop: checks, the kernel, the host side."""

    module: ModuleOp
    loop: scf.WhileOp
    where: str = ""
    kernels: dict[str, gir_gpu.KernelOp] = field(default_factory=dict)
    block_size: int = 0
    """Threads per block of the fused kernel: the loop's schedule's block size."""

    def __post_init__(self) -> None:
        self.where = statement(self.loop)
        self.kernels = {
            o.sym_name.data: o for o in self.module.ops if isinstance(o, gir_gpu.KernelOp)
        }
        schedule = self.loop.attributes[SCHEDULE]
        assert isinstance(schedule, SimpleScheduleAttr)
        self.block_size = schedule.block_size.value.data

    def fail(self, why: str) -> UserError:
        return UserError.at(self.loop, f"error: kernel fusion of {self.where}: {why}")

    # -- checks ---------------------------------------------------------------

    def check(self) -> None:
        for value in self.loop.results:
            if not isinstance(value.type, MemRefType) and value.type != i32:
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
            elif isinstance(op, host.AllocOp | host.FreeOp):
                raise self.fail(
                    f"'{op.name}' in {where} cannot run inside a kernel (a scratch buffer "
                    "per iteration, as the device-wide scans of EDGE_ONLY, STRICT and MERGE_PATH make; "
                    "fusion takes the other load balances)"
                )
            elif not isinstance(op, (*DEVICE_STEPS, scf.YieldOp, scf.ConditionOp)) and (
                op.dialect_name() != "arith"
            ):
                raise self.fail(f"'{op.name}' in {where} cannot run inside a kernel")

    def check_launch(self, launch: host.LaunchOp) -> None:
        kernel = self.kernels[launch.kernel.root_reference.data]
        name = kernel.sym_name.data
        for op in kernel.walk():
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
        for op in self.loop.walk():
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
        candidates = [v for v in self.loop.arguments if isinstance(v.type, MemRefType)]
        name = "fused_" + re.sub(r"[^A-Za-z0-9_]", "_", _label(self.loop))
        kernel = self.build_kernel(name, captured, candidates)
        self.module.body.block.insert_op_before(kernel, next(iter(self.kernels.values())))
        self.build_host(name, captured, candidates)
        dce(kernel)

    def build_kernel(
        self, name: str, captured: list[SSAValue], candidates: list[SSAValue]
    ) -> gir_gpu.KernelOp:
        buffer = gir_gpu.buffer_type(i32)
        block = Block(arg_types=[*(v.type for v in captured), buffer, buffer])
        state, sync = block.args[-2], block.args[-1]
        for value, arg in zip(captured, block.args, strict=False):
            arg.name_hint = value.name_hint
        state.name_hint, sync.name_hint = "state", "grid_sync"
        outer = dict(zip(captured, block.args, strict=False))
        b = Builder(InsertPoint.at_end(block))
        body = _KernelBody(
            b,
            outer,
            sync,
            self.fail,
            self.kernels,
            block,
            [outer[c] for c in candidates],
            plan_barriers(self.loop, self.kernels),
        )
        gid = body.emit(gir_gpu.IdOp(gir_gpu.Dimension.GLOBAL)).results[0]
        size = body.emit(gir_gpu.IdOp(gir_gpu.Dimension.BLOCK_DIM)).results[0]
        grid = body.emit(gir_gpu.IdOp(gir_gpu.Dimension.GRID_DIM)).results[0]
        body.gid, body.grid = gid, grid
        body.threads = body.emit(arith.MuliOp(size, grid)).results[0]
        body.first = body.emit(arith.CmpiOp(gid, _const(b, 0), "eq")).results[0]
        slots = {v: i for i, v in enumerate(candidates)}
        initial = [
            _const(b, slots[v]) if isinstance(v.type, MemRefType) else body.value(v)
            for v in self.loop.arguments
        ]
        loop = self.device_loop(body, initial)
        b.insertion_point = InsertPoint.at_end(block)
        with body.on_thread_0():
            for i, value in enumerate(loop.results):
                body.emit(memref.StoreOp.get(value, state, [body.index(_const(b, i))]))
        body.emit(gir_gpu.ReturnOp())
        kernel = gir_gpu.KernelOp(name, [a.type for a in block.args], Region(block))
        kernel.attributes[gir_gpu.PERSISTENT] = UnitAttr()
        return kernel

    def device_loop(self, body: _KernelBody, initial: Sequence[SSAValue]) -> scf.WhileOp:
        """The loop in the kernel: buffers carried as slot numbers."""
        old_before, old_after = self.loop.before_region.block, self.loop.after_region.block
        before = Block(arg_types=[_device_type(a.type) for a in old_before.args])
        after = Block(arg_types=[_device_type(a.type) for a in old_after.args])
        types = [_device_type(r.type) for r in self.loop.results]
        loop = scf.WhileOp(list(initial), types, Region(before), Region(after))
        body.emit(loop)
        for source, target in ((old_before, before), (old_after, after)):
            body.b.insertion_point = InsertPoint.at_end(target)
            for old, new in zip(source.args, target.args, strict=True):
                body.bind(old, new)
            for op in source.ops:
                body.step(op)
        return loop

    # -- the host side ----------------------------------------------------------

    def build_host(self, name: str, captured: list[SSAValue], candidates: list[SSAValue]) -> None:
        loop = self.loop
        schedule = loop.attributes[SCHEDULE]
        assert isinstance(schedule, SimpleScheduleAttr)
        b = Builder(InsertPoint.before(loop))
        block_size = _const(b, schedule.block_size.value.data)
        grid = host.ResidentBlocksOp(name, block_size)
        b.insert(grid)
        fits = arith.CmpiOp(grid.result, _const(b, 0), "sgt")
        b.insert(fits)
        types = [r.type for r in loop.results]
        fused, fallback = Block(), Block()
        choice = scf.IfOp(fits.result, types, Region(fused), Region(fallback))
        b.insert(choice)
        b.insertion_point = InsertPoint.at_end(fused)
        count = _const(b, len(types))
        two = _const(b, 2)
        state = host.AllocOp(count, i32)
        sync = host.AllocOp(two, i32)
        zero = _const(b, 0)
        for op in (state, sync, host.FillOp(sync.result, zero, two)):
            b.insert(op)
        b.insert(host.LaunchOp(name, grid.result, block_size, [*captured, state.result, sync.result]))
        results = []
        for i, type_ in enumerate(types):
            read = host.ReadOp(state.result, _const(b, i))
            b.insert(read)
            value = read.result
            if isinstance(type_, MemRefType):
                value = _select_host(b, candidates, value, type_)
            results.append(value)
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


def _label(loop: scf.WhileOp) -> str:
    label = loop.attributes.get("graph.label")
    return getattr(label, "data", "loop")


def _select_host(b: Builder, candidates: list[SSAValue], slot: SSAValue, type_: Attribute) -> SSAValue:
    """The candidate buffer of type `type_` whose number is `slot`, on the host."""
    numbered = [(i, c) for i, c in enumerate(candidates) if c.type == type_]
    chosen = numbered[-1][1]
    for i, buffer in reversed(numbered[:-1]):
        is_i = arith.CmpiOp(slot, _const(b, i), "eq")
        pick = arith.SelectOp(is_i.result, buffer, chosen)
        b.insert(is_i)
        b.insert(pick)
        chosen = pick.result
    return chosen


@dataclass
class _KernelBody:
    """Builds the fused kernel's code: the loop's ops moved to device form."""

    b: Builder
    outer: dict[SSAValue, SSAValue]
    sync: SSAValue
    fail: Callable[[str], UserError]
    kernels: dict[str, gir_gpu.KernelOp]
    top: Block
    """The fused kernel's block, where work-group arrays are declared."""
    candidates: list[SSAValue]
    """The loop's buffers in the kernel, in slot order."""
    barriers: set[Operation]
    """The host loop's device steps that a grid barrier precedes (`plan_barriers`)."""
    values: dict[SSAValue, SSAValue] = field(default_factory=dict)
    slots: dict[SSAValue, SSAValue] = field(default_factory=dict)
    """The slot number in the kernel of each buffer value of the loop."""
    shared: dict[tuple[str, int], SSAValue] = field(default_factory=dict)
    """The work-group arrays of the inlined cooperative kernels, by kernel and
    position: steps are separated by barriers, so launches of one kernel share them."""
    gid: SSAValue | None = None
    grid: SSAValue | None = None
    threads: SSAValue | None = None
    first: SSAValue | None = None

    def emit(self, op: Operation) -> Operation:
        self.b.insert(op)
        return op

    def value(self, old: SSAValue) -> SSAValue:
        """The kernel's value for the loop's (or the host's) `old`."""
        new = self.values.get(old) or self.outer.get(old)
        if new is None:
            constant = old.owner
            assert isinstance(constant, arith.ConstantOp)
            copy = constant.clone()
            self.top.insert_op_before(copy, self.top.first_op)  # type: ignore[arg-type]
            new = self.values[old] = copy.result
        return new

    def index(self, value: SSAValue) -> SSAValue:
        return self.emit(arith.IndexCastOp(value, IndexType())).results[0]

    def bind(self, old: SSAValue, new: SSAValue) -> None:
        """`new` stands for the loop's `old` in the kernel (a slot number for a buffer)."""
        if isinstance(old.type, MemRefType):
            self.slots[old] = new
            self.values[old] = self.select(new, old.type)
        else:
            self.values[old] = new

    def carried(self, values: Sequence[SSAValue]) -> list[SSAValue]:
        """`values` as a terminator in the kernel passes them on."""
        result = []
        for value in values:
            if not isinstance(value.type, MemRefType):
                result.append(self.value(value))
            elif value in self.slots:
                result.append(self.slots[value])
            else:
                raise self.fail("a loop-carried buffer must be one of the loop's buffers")
        return result

    def select(self, slot: SSAValue, type_: Attribute) -> SSAValue:
        """The loop's buffer of type `type_` whose number is `slot`."""
        numbered = [(i, c) for i, c in enumerate(self.candidates) if c.type == type_]
        chosen = numbered[-1][1]
        for i, buffer in reversed(numbered[:-1]):
            is_i = self.emit(arith.CmpiOp(slot, _const(self.b, i), "eq")).results[0]
            chosen = self.emit(arith.SelectOp(is_i, buffer, chosen)).results[0]
        return chosen


    def on_thread_0(self) -> _Thread0:
        return _Thread0(self)

    def step(self, op: Operation) -> None:
        """`op` of the host loop, as device code."""
        if op in self.barriers:
            self.emit(gir_gpu.GridBarrierOp(self.sync))
        if isinstance(op, host.ReadOp):
            load = memref.LoadOp.get(self.value(op.buffer), [self.index(self.value(op.index))])
            self.values[op.result] = self.emit(load).results[0]
        elif isinstance(op, host.WriteOp):
            store = memref.StoreOp.get(
                self.value(op.value), self.value(op.buffer), [self.index(self.value(op.index))]
            )
            with self.on_thread_0():
                self.emit(store)
        elif isinstance(op, host.LaunchOp):
            self.inline(op, self.kernels[op.kernel.root_reference.data])
        elif isinstance(op, scf.IfOp):
            self.branch(op)
        elif isinstance(op, scf.ConditionOp):
            self.emit(scf.ConditionOp(self.value(op.condition), *self.carried(op.args)))
        elif isinstance(op, scf.YieldOp):
            self.emit(scf.YieldOp(*self.carried(op.arguments)))
        else:
            copy = op.clone(value_mapper={k: self.value(k) for k in op.operands})
            self.emit(copy)
            self.values.update(zip(op.results, copy.results, strict=True))

    def branch(self, op: scf.IfOp) -> None:
        """An `scf.if` of the loop, whose condition every thread computes alike:
        its branches as device code, its buffer results as slot numbers."""
        types = [_device_type(r.type) for r in op.results]
        old_blocks = [region.block for region in op.regions if region.blocks]
        new_blocks = [Block() for _ in old_blocks]
        otherwise = Region(new_blocks[1]) if len(new_blocks) > 1 else None
        branch = scf.IfOp(self.value(op.cond), types, Region(new_blocks[0]), otherwise)
        self.emit(branch)
        saved = self.b.insertion_point
        for old, new in zip(old_blocks, new_blocks, strict=True):
            self.b.insertion_point = InsertPoint.at_end(new)
            for inner in old.ops:
                self.step(inner)
        self.b.insertion_point = saved
        for old, new in zip(op.results, branch.results, strict=True):
            self.bind(old, new)

    def inline(self, launch: host.LaunchOp, kernel: gir_gpu.KernelOp) -> None:
        """The launch's threads running the kernel's body: a grid-stride loop over
        its threads for a thread-mapped kernel, a block-stride loop over its blocks
        for a cooperative one."""
        mapping: dict[SSAValue, SSAValue] = {
            arg: self.value(value) for arg, value in zip(kernel.body.block.args, launch.args, strict=True)
        }
        if cooperation(kernel) is None:
            loop, coordinates = self.thread_loop(launch)
        else:
            loop, coordinates = self.block_loop(launch)
            for position, op in enumerate(kernel.body.block.ops):
                if isinstance(op, gir_gpu.SharedAllocOp):
                    mapping[op.result] = self.shared_array(kernel, position, op)
        inner = Builder(InsertPoint.at_end(loop.body.block))
        for op in kernel.body.block.ops:
            if not isinstance(op, gir_gpu.ReturnOp | gir_gpu.SharedAllocOp):
                inner.insert(op.clone(value_mapper=mapping))
        for op in list(loop.body.walk()):
            if isinstance(op, gir_gpu.IdOp) and op.dimension.data in coordinates:
                op.result.replace_all_uses_with(coordinates[op.dimension.data])
                op.detach()
                op.erase()
        if cooperation(kernel) is not None:
            # The next virtual block of this thread's block reuses the arrays.
            inner.insert(gir_gpu.BarrierOp())
        inner.insert(scf.YieldOp())

    def thread_loop(self, launch: host.LaunchOp) -> tuple[scf.ForOp, dict[gir_gpu.Dimension, SSAValue]]:
        """`for t = global id; t < launch's threads; t += grid's threads`; inside,
        `t` is the global id."""
        assert self.gid is not None and self.threads is not None
        total = self.emit(arith.MuliOp(self.value(launch.grid), self.value(launch.block))).results[0]
        loop_body = Block(arg_types=[IndexType()])
        loop = scf.ForOp(self.index(self.gid), self.index(total), self.index(self.threads), [], Region(loop_body))
        self.emit(loop)
        thread = arith.IndexCastOp(loop_body.args[0], i32)
        loop_body.add_op(thread)
        return loop, {gir_gpu.Dimension.GLOBAL: thread.result}

    def block_loop(self, launch: host.LaunchOp) -> tuple[scf.ForOp, dict[gir_gpu.Dimension, SSAValue]]:
        """`for vb = block id; vb < launch's blocks; vb += grid's blocks`: every
        thread of a block runs the same virtual block `vb`; inside, `vb` is the
        block id, `vb * block_dim + thread` the global id, the launch's blocks the
        grid's."""
        assert self.grid is not None
        blocks = self.value(launch.grid)
        block = self.emit(gir_gpu.IdOp(gir_gpu.Dimension.BLOCK)).results[0]
        loop_body = Block(arg_types=[IndexType()])
        loop = scf.ForOp(self.index(block), self.index(blocks), self.index(self.grid), [], Region(loop_body))
        self.emit(loop)
        at = Builder(InsertPoint.at_end(loop_body))
        virtual = at.insert(arith.IndexCastOp(loop_body.args[0], i32)).result
        size = at.insert(gir_gpu.IdOp(gir_gpu.Dimension.BLOCK_DIM)).result
        thread = at.insert(gir_gpu.IdOp(gir_gpu.Dimension.THREAD)).result
        first = at.insert(arith.MuliOp(virtual, size)).result
        global_id = at.insert(arith.AddiOp(first, thread)).result
        return loop, {
            gir_gpu.Dimension.BLOCK: virtual,
            gir_gpu.Dimension.GLOBAL: global_id,
            gir_gpu.Dimension.GRID_DIM: blocks,
        }

    def shared_array(self, kernel: gir_gpu.KernelOp, position: int, op: gir_gpu.SharedAllocOp) -> SSAValue:
        """The fused kernel's copy of work-group array `op` of `kernel`, declared
        at the kernel's top level."""
        key = (kernel.sym_name.data, position)
        if key not in self.shared:
            copy = op.clone()
            assert self.top.first_op is not None
            self.top.insert_op_before(copy, self.top.first_op)
            self.shared[key] = copy.result
        return self.shared[key]


@dataclass
class _Thread0:
    """`with body.on_thread_0(): ...` puts the ops emitted inside under
    `scf.if (global id == 0)`."""

    body: _KernelBody

    def __enter__(self) -> None:
        then = Block()
        assert self.body.first is not None
        self.body.emit(scf.IfOp(self.body.first, [], Region(then)))
        self._saved = self.body.b.insertion_point
        self.body.b.insertion_point = InsertPoint.at_end(then)

    def __exit__(self, *exc: object) -> None:
        self.body.emit(scf.YieldOp())
        self.body.b.insertion_point = self._saved
