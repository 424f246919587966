"""`gpu-fuse-loops`: a host loop scheduled with kernel fusion becomes one persistent kernel."""

from __future__ import annotations

import re
from collections.abc import Sequence
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
from gir.passes.ir_utils import main_function, statement

SCHEDULE = "graph.schedule"
"""The attribute that carries a labelled loop's schedule down to the host loop."""

DEVICE_STEPS = (host.LaunchOp, host.ReadOp, host.WriteOp)
"""The host ops of a loop body that become device code in a fused kernel; the
others allowed are arithmetic, which every thread repeats."""


@dataclass(frozen=True)
class GpuFuseLoops(ModulePass):
    """Turns each `scf.while` of `@main` scheduled with `configKernelFusion(ENABLED)` into one persistent kernel.

    The fused kernel runs the whole loop in every thread: loop-carried scalars
    live in registers (each thread computes the same values), a frontier swap is a
    swap of slot numbers selecting among the loop's buffers, a launch becomes a
    grid-stride loop over the launch's threads running the launched kernel's body,
    a `host.read` a load and a `host.write` a store by thread 0. A
    `gir_gpu.grid_barrier` separates each step from the previous one unless both
    only read; one opens every iteration. The host launches the kernel once on the
    grid that `host.resident_blocks` sizes (every block resident, so the barrier
    cannot deadlock), reads the loop's results back from a state buffer, and keeps
    the original loop for targets without grid synchronization (grid 0).

    This is a GPU-level pass because a fused kernel is built from the loop's
    kernels as formed; only kernels whose threads are independent (no work-group
    arrays, barriers or sub-group ops, only `gir_gpu.id global`) can be fused.

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
        main = main_function(op)
        for loop in [o for o in main.walk() if isinstance(o, scf.WhileOp) and _fused(o)]:
            _Fusion(op, loop).run()


def _fused(loop: scf.WhileOp) -> bool:
    schedule = loop.attributes.get(SCHEDULE)
    return isinstance(schedule, SimpleScheduleAttr) and schedule.kernel_fusion.data == Toggle.ENABLED


def _const(b: Builder, value: int, type_: Attribute = i32) -> SSAValue:
    op = arith.ConstantOp(IntegerAttr(value, type_))
    b.insert(op)
    return op.result


@dataclass
class _Fusion:
    """The fusion of one host loop: checks, the kernel, the host side."""

    module: ModuleOp
    loop: scf.WhileOp
    where: str = ""
    kernels: dict[str, gir_gpu.KernelOp] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.where = statement(self.loop)
        self.kernels = {
            o.sym_name.data: o for o in self.module.ops if isinstance(o, gir_gpu.KernelOp)
        }

    def fail(self, why: str) -> UserError:
        return UserError.at(self.loop, f"error: kernel fusion of {self.where}: {why}")

    # -- checks ---------------------------------------------------------------

    def check(self) -> None:
        before, after = self.loop.before_region.block, self.loop.after_region.block
        condition = before.last_op
        assert isinstance(condition, scf.ConditionOp)
        if list(condition.args) != list(before.args):
            raise self.fail("the loop condition must pass its arguments on unchanged")
        for value in self.loop.results:
            if not isinstance(value.type, MemRefType) and value.type != i32:
                raise self.fail(f"a loop-carried {value.type} cannot stay on the device yet")
        yielded = after.last_op
        assert isinstance(yielded, scf.YieldOp)
        for value in yielded.arguments:
            if isinstance(value.type, MemRefType) and not (
                isinstance(value.owner, Block) and value.owner is after
            ):
                raise self.fail("a loop-carried buffer must be one of the loop's buffers")
        for op in before.ops:
            if not isinstance(op, scf.ConditionOp) and op.dialect_name() != "arith":
                raise self.fail(f"'{op.name}' in the loop condition cannot run on the device")
        for op in after.ops:
            if isinstance(op, host.LaunchOp):
                self.check_kernel(self.kernels[op.kernel.root_reference.data])
            elif not isinstance(op, (*DEVICE_STEPS, scf.YieldOp)) and op.dialect_name() != "arith":
                raise self.fail(f"'{op.name}' in the loop body cannot run inside a kernel")

    def check_kernel(self, kernel: gir_gpu.KernelOp) -> None:
        for op in kernel.walk():
            if isinstance(op, gir_gpu.IdOp) and op.parent_op() is not kernel:
                raise self.fail(f"kernel @{kernel.sym_name.data} reads its thread id inside control flow")
            shared = isinstance(
                op, gir_gpu.BarrierOp | gir_gpu.SharedAllocOp | gir_gpu.SubgroupOp
            )
            if shared or (isinstance(op, gir_gpu.IdOp) and op.dimension.data != gir_gpu.Dimension.GLOBAL):
                raise self.fail(
                    f"kernel @{kernel.sym_name.data} has threads that cooperate ('{op.name}'); "
                    "fusion takes thread-mapped kernels (e.g. VERTEX_BASED)"
                )

    # -- the fused kernel ----------------------------------------------------------

    def captured(self) -> list[SSAValue]:
        """The values the loop uses from outside it, in first-use order (the
        loop's initial values first)."""
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
        return list(seen)

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
        body = _KernelBody(b, outer, sync)
        gid = body.emit(gir_gpu.IdOp(gir_gpu.Dimension.GLOBAL)).results[0]
        size = body.emit(gir_gpu.IdOp(gir_gpu.Dimension.BLOCK_DIM)).results[0]
        grid = body.emit(gir_gpu.IdOp(gir_gpu.Dimension.GRID_DIM)).results[0]
        body.gid = gid
        body.threads = body.emit(arith.MuliOp(size, grid)).results[0]
        body.first = body.emit(arith.CmpiOp(gid, _const(b, 0), "eq")).results[0]
        slots = {v: i for i, v in enumerate(candidates)}
        initial = [
            _const(b, slots[v]) if isinstance(v.type, MemRefType) else outer[v]
            for v in self.loop.arguments
        ]
        loop = self.device_loop(body, initial, candidates)
        b.insertion_point = InsertPoint.at_end(block)
        with body.on_thread_0():
            for i, value in enumerate(loop.results):
                body.emit(memref.StoreOp.get(value, state, [body.index(_const(b, i))]))
        body.emit(gir_gpu.ReturnOp())
        kernel = gir_gpu.KernelOp(name, [a.type for a in block.args], Region(block))
        kernel.attributes[gir_gpu.PERSISTENT] = UnitAttr()
        return kernel

    def device_loop(
        self, body: _KernelBody, initial: Sequence[SSAValue], candidates: list[SSAValue]
    ) -> scf.WhileOp:
        """The loop in the kernel: buffers carried as slot numbers into `candidates`."""
        types = [i32] * len(initial)
        before, after = Block(arg_types=types), Block(arg_types=types)
        loop = scf.WhileOp(list(initial), types, Region(before), Region(after))
        body.emit(loop)
        for source, target in (
            (self.loop.before_region.block, before),
            (self.loop.after_region.block, after),
        ):
            body.b.insertion_point = InsertPoint.at_end(target)
            for old, slot in zip(source.args, target.args, strict=True):
                if isinstance(old.type, MemRefType):
                    body.values[old] = body.select([body.outer[c] for c in candidates], slot)
                else:
                    body.values[old] = slot
            if target is after:
                body.barrier()
            for op in source.ops:
                body.step(op, self.kernels, list(source.args), list(target.args))
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
                value = _select_host(b, candidates, value)
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


def _select_host(b: Builder, candidates: list[SSAValue], slot: SSAValue) -> SSAValue:
    """The candidate buffer whose number is `slot`, on the host."""
    chosen = candidates[-1]
    for i in reversed(range(len(candidates) - 1)):
        is_i = arith.CmpiOp(slot, _const(b, i), "eq")
        pick = arith.SelectOp(is_i.result, candidates[i], chosen)
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
    values: dict[SSAValue, SSAValue] = field(default_factory=dict)
    gid: SSAValue | None = None
    threads: SSAValue | None = None
    first: SSAValue | None = None
    phase_writes: bool = False
    """Whether a step since the last barrier wrote memory (or launched)."""
    phase_empty: bool = True
    """Whether no step ran since the last barrier."""

    def emit(self, op: Operation) -> Operation:
        self.b.insert(op)
        return op

    def value(self, old: SSAValue) -> SSAValue:
        return self.values.get(old) or self.outer[old]

    def index(self, value: SSAValue) -> SSAValue:
        return self.emit(arith.IndexCastOp(value, IndexType())).results[0]

    def select(self, buffers: list[SSAValue], slot: SSAValue) -> SSAValue:
        chosen = buffers[-1]
        for i in reversed(range(len(buffers) - 1)):
            is_i = self.emit(arith.CmpiOp(slot, _const(self.b, i), "eq")).results[0]
            chosen = self.emit(arith.SelectOp(is_i, buffers[i], chosen)).results[0]
        return chosen

    def barrier(self) -> None:
        self.emit(gir_gpu.GridBarrierOp(self.sync))
        self.phase_writes, self.phase_empty = False, True

    def on_thread_0(self) -> _Thread0:
        return _Thread0(self)

    def step(
        self,
        op: Operation,
        kernels: dict[str, gir_gpu.KernelOp],
        old_args: list[SSAValue],
        new_args: list[SSAValue],
    ) -> None:
        """`op` of the host loop, as device code."""
        if isinstance(op, DEVICE_STEPS):
            writes = not isinstance(op, host.ReadOp)
            if (writes or self.phase_writes) and not self.phase_empty:
                self.barrier()
            self.phase_writes |= writes
            self.phase_empty = False
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
            self.inline(op, kernels[op.kernel.root_reference.data])
        elif isinstance(op, scf.ConditionOp | scf.YieldOp):
            self.terminate(op, old_args)
        else:
            copy = op.clone(value_mapper={k: self.value(k) for k in op.operands})
            self.emit(copy)
            self.values.update(zip(op.results, copy.results, strict=True))

    def terminate(self, op: scf.ConditionOp | scf.YieldOp, old_args: list[SSAValue]) -> None:
        """The terminator, carrying buffers as the slot numbers of the block
        arguments they are."""
        carried = []
        for value in op.args if isinstance(op, scf.ConditionOp) else op.arguments:
            if isinstance(value.type, MemRefType):
                position = old_args.index(value)
                carried.append(self.slot_of(position))
            else:
                carried.append(self.value(value))
        if isinstance(op, scf.ConditionOp):
            self.emit(scf.ConditionOp(self.value(op.condition), *carried))
        else:
            self.emit(scf.YieldOp(*carried))

    def slot_of(self, position: int) -> SSAValue:
        block = self.b.insertion_point.block
        return block.args[position]

    def inline(self, launch: host.LaunchOp, kernel: gir_gpu.KernelOp) -> None:
        """The launch's threads as a grid-stride loop over the kernel's body."""
        assert self.gid is not None and self.threads is not None
        total = self.emit(arith.MuliOp(self.value(launch.grid), self.value(launch.block))).results[0]
        step = self.index(self.threads)
        loop_body = Block(arg_types=[IndexType()])
        loop = scf.ForOp(self.index(self.gid), self.index(total), step, [], Region(loop_body))
        self.emit(loop)
        inner = Builder(InsertPoint.at_end(loop_body))
        thread = arith.IndexCastOp(loop_body.args[0], i32)
        inner.insert(thread)
        mapping: dict[SSAValue, SSAValue] = {
            arg: self.value(value) for arg, value in zip(kernel.body.block.args, launch.args, strict=True)
        }
        for op in kernel.body.block.ops:
            if isinstance(op, gir_gpu.IdOp):
                mapping[op.result] = thread.result
            elif not isinstance(op, gir_gpu.ReturnOp):
                copy = op.clone(value_mapper=mapping)
                inner.insert(copy)
        inner.insert(scf.YieldOp())


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
