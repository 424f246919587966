"""The fused kernel's code for `gpu-fuse-loops`: `KernelBody` moves the ops of a
host loop scheduled with kernel fusion into one persistent kernel (launches
inlined as grid-stride or block-stride loops between grid barriers, host reads
and writes by thread 0, lists through their device views). The checks, the
kernel's frame and the host side stay in `gpu_fuse_loops.py`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, i32
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from gir.diagnostics import UserError
from gir.dialects import gir_gpu, host
from gir.ir_walk import walk


def const(b: Builder, value: int, type_: Attribute = i32) -> SSAValue:
    """An `arith.constant` of `value` inserted with `b`."""
    op = arith.ConstantOp(IntegerAttr(value, type_))
    b.insert(op)
    return op.result


def device_type(type_: Attribute) -> Attribute:
    """The type a value of the host loop has in the fused kernel: buffers travel
    as slot numbers."""
    return i32 if isinstance(type_, MemRefType) else type_


def cooperation(kernel: gir_gpu.KernelOp) -> Operation | None:
    """The first op of `kernel` through which the threads of a block work
    together (a work-group array, a block barrier, a sub-group op, or a
    coordinate other than the global id), or None for a thread-mapped kernel."""
    for op in walk(kernel):
        if isinstance(op, gir_gpu.BarrierOp | gir_gpu.SharedAllocOp | gir_gpu.SubgroupOp):
            return op
        if isinstance(op, gir_gpu.IdOp) and op.dimension.data != gir_gpu.Dimension.GLOBAL:
            return op
    return None


@dataclass
class KernelBody:
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
    loop: scf.WhileOp
    """The host loop being fused."""
    reachable_slots: Callable[[int], list[int]]
    """The slots a carried buffer of the loop at a position may hold."""
    values: dict[SSAValue, SSAValue] = field(default_factory=dict)
    lists: dict[SSAValue, tuple[SSAValue, SSAValue]] = field(default_factory=dict)
    """The kernel's storage and device view (`host.ListSlot`) of each host list."""
    counts: dict[SSAValue, SSAValue] = field(default_factory=dict)
    """Each list's entry count where the loop carries it in registers (every
    thread computes it alike, so no step reads it back from the device view and
    thread 0 records it there for the host only, without a grid barrier);
    empty where the counts live in the device view."""
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
            self.values[old] = self.select(new, old.type, self.slots_of(old))
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

    def slots_of(self, old: SSAValue) -> list[int]:
        """The slots the loop's buffer value `old` may hold."""
        blocks = (self.loop.before_region.block, self.loop.after_region.block)
        if isinstance(old, BlockArgument) and old.block in blocks:
            return self.reachable_slots(old.index)
        return list(range(len(self.candidates)))

    def select(self, slot: SSAValue, type_: Attribute, slots: list[int]) -> SSAValue:
        """The loop's buffer of type `type_` among `slots` whose number is `slot`."""
        numbered = [(i, self.candidates[i]) for i in slots if self.candidates[i].type == type_]
        chosen = numbered[-1][1]
        for i, buffer in reversed(numbered[:-1]):
            is_i = self.emit(arith.CmpiOp(slot, const(self.b, i), "eq")).results[0]
            chosen = self.emit(arith.SelectOp(is_i, buffer, chosen)).results[0]
        return chosen

    def barrier(self) -> None:
        self.emit(gir_gpu.GridBarrierOp(self.sync))

    def on_thread_0(self) -> Thread0:
        return Thread0(self)

    def step(self, op: Operation) -> None:
        """`op` of the host loop, as device code."""
        if op in self.barriers:
            self.barrier()
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
        elif isinstance(op, host.ListPushOp):
            self.list_push(op)
        elif isinstance(op, host.ListPopOp):
            self.list_pop(op)
        elif isinstance(op, scf.IfOp):
            self.branch(op)
        elif isinstance(op, scf.ConditionOp):
            self.emit(scf.ConditionOp(self.value(op.condition), *self.carried(op.args), *self.counts.values()))
        elif isinstance(op, scf.YieldOp):
            self.emit(scf.YieldOp(*self.carried(op.arguments), *self.counts.values()))
        else:
            copy = op.clone(value_mapper={k: self.value(k) for k in op.operands})
            self.emit(copy)
            self.values.update(zip(op.results, copy.results, strict=True))

    def branch(self, op: scf.IfOp) -> None:
        """An `scf.if` of the loop, whose condition every thread computes alike:
        its branches as device code, its buffer results as slot numbers."""
        types = [device_type(r.type) for r in op.results]
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
            loop, coordinates = self.block_loop(launch, gir_gpu.spreads_items(kernel))
            for position, op in enumerate(kernel.body.block.ops):
                if isinstance(op, gir_gpu.SharedAllocOp):
                    mapping[op.result] = self.shared_array(kernel, position, op)
        inner = Builder(InsertPoint.at_end(loop.body.block))
        for op in kernel.body.block.ops:
            if not isinstance(op, gir_gpu.ReturnOp | gir_gpu.SharedAllocOp):
                inner.insert(op.clone(value_mapper=mapping))
        for op in list(walk(loop.body)):
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

    def block_loop(
        self, launch: host.LaunchOp, spread: bool
    ) -> tuple[scf.ForOp, dict[gir_gpu.Dimension, SSAValue]]:
        """`for vb = block id; vb < launch's blocks; vb += grid's blocks`: every
        thread of a block runs the same virtual block `vb`; inside, `vb` is the
        block id, `vb * block_dim + thread` the global id, the launch's blocks the
        grid's. A kernel that `spread`s its items over its blocks
        (`gir_gpu.SPREAD_ITEMS`) runs on at least the whole persistent grid."""
        assert self.grid is not None
        blocks = self.value(launch.grid)
        if spread:
            blocks = self.emit(arith.MaxSIOp(blocks, self.grid)).results[0]
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

    # -- lists of frontiers on the device ------------------------------------------

    def list_slot(self, ends: SSAValue, slot: SSAValue | int) -> SSAValue:
        """`ends[slot]` (an entry of a list's device view)."""
        at = const(self.b, slot) if isinstance(slot, int) else slot
        return self.emit(memref.LoadOp.get(ends, [self.index(at)])).results[0]

    def list_end(self, ends: SSAValue, count: SSAValue, back: int) -> SSAValue:
        """Where the entry `back` places below the top ends: 0 below the first."""
        below = self.emit(arith.SubiOp(count, const(self.b, back))).results[0]
        clamped = self.emit(arith.MaxSIOp(below, const(self.b, 0))).results[0]
        at = self.emit(arith.AddiOp(clamped, const(self.b, host.ListSlot.ENDS))).results[0]
        end = self.list_slot(ends, at)
        exists = self.emit(arith.CmpiOp(below, const(self.b, 0), "sge")).results[0]
        return self.emit(arith.SelectOp(exists, end, const(self.b, 0))).results[0]

    def copy_items(self, source: SSAValue, source_at: SSAValue, target: SSAValue, target_at: SSAValue, count: SSAValue) -> None:
        """`target[target_at + t] = source[source_at + t]` for `t < count`, a
        grid-stride loop over all threads."""
        assert self.gid is not None and self.threads is not None
        loop_body = Block(arg_types=[IndexType()])
        loop = scf.ForOp(self.index(self.gid), self.index(count), self.index(self.threads), [], Region(loop_body))
        self.emit(loop)
        at = Builder(InsertPoint.at_end(loop_body))
        t = at.insert(arith.IndexCastOp(loop_body.args[0], i32)).result
        read_at = at.insert(arith.AddiOp(source_at, t)).result
        write_at = at.insert(arith.AddiOp(target_at, t)).result
        read_index = at.insert(arith.IndexCastOp(read_at, IndexType())).result
        write_index = at.insert(arith.IndexCastOp(write_at, IndexType())).result
        item = at.insert(memref.LoadOp.get(source, [read_index])).results[0]
        at.insert(memref.StoreOp.get(item, target, [write_index]))
        at.insert(scf.YieldOp())

    def list_count(self, stack: SSAValue) -> SSAValue:
        """The entries of list `stack`: its register, else read from its device view."""
        if stack in self.counts:
            return self.counts[stack]
        return self.list_slot(self.lists[stack][1], host.ListSlot.COUNT)

    def list_record(
        self, stack: SSAValue, ok: SSAValue, stores: list[tuple[SSAValue, SSAValue]], failure: host.ListStatus
    ) -> None:
        """Thread 0 makes `stores` (value, slot) into the list's device view if
        `ok`, else sets its status to `failure`: after a grid barrier where the
        count lives in the view (every thread has read it), at once where it
        lives in registers (no step of the loop reads what thread 0 writes)."""
        ends = self.lists[stack][1]
        if stack not in self.counts:
            self.barrier()
        with self.on_thread_0():
            then, otherwise = Block(), Block()
            status = (const(self.b, failure), const(self.b, host.ListSlot.STATUS))
            self.emit(scf.IfOp(ok, [], Region(then), Region(otherwise)))
            for block, writes in ((then, stores), (otherwise, [status])):
                at = Builder(InsertPoint.at_end(block))
                for value, slot in writes:
                    index = at.insert(arith.IndexCastOp(slot, IndexType())).result
                    at.insert(memref.StoreOp.get(value, ends, [index]))
                at.insert(scf.YieldOp())

    def list_push(self, op: host.ListPushOp) -> None:
        """Copies the queue onto the storage's end if the entry fits in the room
        the export made; thread 0 then records the end (or the overflow)."""
        storage, ends = self.lists[op.list]
        count = self.list_count(op.list)
        start = self.list_end(ends, count, 1)
        end = self.emit(arith.AddiOp(start, self.value(op.count))).results[0]
        items_fit = self.emit(
            arith.CmpiOp(end, self.list_slot(ends, host.ListSlot.ITEM_CAPACITY), "sle")
        ).results[0]
        entry_fits = self.emit(
            arith.CmpiOp(count, self.list_slot(ends, host.ListSlot.ENTRY_CAPACITY), "slt")
        ).results[0]
        fits = self.emit(arith.AndIOp(items_fit, entry_fits)).results[0]
        count.name_hint, start.name_hint, end.name_hint, fits.name_hint = "entries", "entry_start", "entry_end", "fits"
        copied = self.emit(arith.SelectOp(fits, self.value(op.count), const(self.b, 0))).results[0]
        self.copy_items(self.value(op.buffer), const(self.b, 0), storage, start, copied)
        slot = self.emit(arith.AddiOp(count, const(self.b, host.ListSlot.ENDS))).results[0]
        grown = self.emit(arith.AddiOp(count, const(self.b, 1))).results[0]
        self.list_record(
            op.list, fits, [(end, slot), (grown, const(self.b, host.ListSlot.COUNT))], host.ListStatus.OVERFLOWED
        )
        if op.list in self.counts:
            self.counts[op.list] = self.emit(arith.SelectOp(fits, grown, count)).results[0]

    def list_pop(self, op: host.ListPopOp) -> None:
        """Copies the last entry into the buffer (nothing if the list is empty);
        thread 0 then drops it (or flags the empty list). Its size is the op's result."""
        storage, ends = self.lists[op.list]
        count = self.list_count(op.list)
        present = self.emit(arith.CmpiOp(count, const(self.b, 0), "sgt")).results[0]
        start = self.list_end(ends, count, 2)
        end = self.list_end(ends, count, 1)
        span = self.emit(arith.SubiOp(end, start)).results[0]
        size = self.emit(arith.SelectOp(present, span, const(self.b, 0))).results[0]
        count.name_hint, start.name_hint, present.name_hint = "entries", "entry_start", "nonempty"
        size.name_hint = op.result.name_hint
        self.copy_items(storage, start, self.value(op.buffer), const(self.b, 0), size)
        shrunk = self.emit(arith.SubiOp(count, const(self.b, 1))).results[0]
        self.list_record(op.list, present, [(shrunk, const(self.b, host.ListSlot.COUNT))], host.ListStatus.EMPTIED)
        if op.list in self.counts:
            self.counts[op.list] = self.emit(arith.SelectOp(present, shrunk, count)).results[0]
        self.values[op.result] = size


@dataclass
class Thread0:
    """`with body.on_thread_0(): ...` puts the ops emitted inside under
    `scf.if (global id == 0)`."""

    body: KernelBody

    def __enter__(self) -> None:
        then = Block()
        assert self.body.first is not None
        self.body.emit(scf.IfOp(self.body.first, [], Region(then)))
        self._saved = self.body.b.insertion_point
        self.body.b.insertion_point = InsertPoint.at_end(then)

    def __exit__(self, *exc: object) -> None:
        self.body.emit(scf.YieldOp())
        self.body.b.insertion_point = self._saved
