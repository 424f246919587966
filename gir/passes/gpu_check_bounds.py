"""`gpu-check-bounds`: every device-side buffer access checks its index, and the first miss is recorded."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    i32,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError, source_position
from gir.dialects import gir_gpu, host
from gir.dialects.gir_gpu import BOUNDS_RECORD, BOUNDS_SITES, BoundsSite
from gir.ir_walk import walk
from gir.passes.ir_utils import main_function

_ACCESS_OPS = (memref.LoadOp, memref.StoreOp, gir_gpu.AtomicRMWOp, gir_gpu.AtomicCASOp)
_RECORD_SLOTS = 3  # site + 1, index, element count

_POINTER_ARRAYS = (host.GraphArray.ROW_PTR, host.GraphArray.CSC_PTR)
_VERTEX_ARRAYS = (host.GraphArray.OUT_DEGREES, *host.BLOCK_OFFSET_ARRAYS)


@dataclass(frozen=True)
class GpuCheckBounds(ModulePass):
    """Guards every buffer access in kernels: an index outside the buffer skips the access and records the first such miss.

    Each kernel gets one extra `i32` argument per device buffer argument (its
    element count, passed by every launch: a `host.alloc`'s count, a graph array's
    length from `host.graph_size`) and the program's bounds record, a buffer of
    three i32s that `@main` allocates, zeroes and binds as the global
    `gir.bounds`. A load, store or atomic whose index is negative or not below
    the count does nothing (a load yields 0) and compare-and-swaps its site
    number + 1 into the record's first slot; the thread that wins writes the
    index and the count beside it. The module attribute `gir_gpu.bounds_sites`
    says, per site, which kernel accessed which vector, graph array or frontier
    storage, how, and where in the source (the access's location); the runtime reads the record and stops the run with that
    description (`gir.runtime.run`). Work-group arrays are checked against their
    static size. A module guarded already is left as it is.

    Before:
    ```mlir
    gir_gpu.kernel @k(%x : memref<?xi32>, %i : index) {
      %v = memref.load %x[%i] : memref<?xi32>
      gir_gpu.return
    }
    func.func @main() {
      %x = host.alloc %n : i32 -> memref<?xi32>
      host.launch @k grid %c1 block %c1 (%x, %i) : memref<?xi32>, index
    }
    ```
    After:
    ```mlir
    gir_gpu.kernel @k(%x : memref<?xi32>, %i : index, %x_size : i32, %bounds : memref<?xi32>) {
      %ok = arith.cmpi ult, %i, %x_size_index : index
      %v = scf.if %ok -> (i32) {
        %loaded = memref.load %x[%i] : memref<?xi32>
        scf.yield %loaded : i32
      } else {
        %old = gir_gpu.atomic_cas %bounds[%c0], %c0_i32, %site_1 : memref<?xi32>, index, i32
        ...  // the winner stores the index and the size
        scf.yield %c0_i32 : i32
      }
      gir_gpu.return
    }
    func.func @main() {
      %bounds = host.alloc %c3 : i32 -> memref<?xi32>
      host.fill %bounds, %c0, %c3 : memref<?xi32>, i32, i32
      host.bind_global %bounds as "gir.bounds" : memref<?xi32>
      %x = host.alloc %n : i32 -> memref<?xi32>
      host.launch @k grid %c1 block %c1 (%x, %i, %n, %bounds) : memref<?xi32>, index, i32, memref<?xi32>
    }
    ```
    and on the module: `gir_gpu.bounds_sites = [{access = "loads", buffer = "frontier storage", kernel = "k"}]`.
    """

    name = "gpu-check-bounds"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if BOUNDS_SITES in op.attributes:
            return
        if host.edge_index_width(op) != 32:
            raise UserError(
                "error: gpu-check-bounds compares 32-bit buffer lengths: it does not check a "
                "program with 64-bit edge indices (a graph with more than 2^31 edges)"
            )
        main = main_function(op)
        record = _make_record(main)
        kernels = [kernel for kernel in op.ops if isinstance(kernel, gir_gpu.KernelOp)]
        launches = [launch for launch in walk(main) if isinstance(launch, host.LaunchOp)]
        sites: list[BoundsSite] = []
        for kernel in kernels:
            own = [launch for launch in launches if launch.kernel.root_reference.data == kernel.sym_name.data]
            sites.extend(_guard_kernel(kernel, own, len(sites)))
        sizes = _HostSizes()
        for launch in launches:
            _extend_launch(launch, sizes, record)
        op.attributes[BOUNDS_SITES] = ArrayAttr([site.to_attribute() for site in sites])


# ---------------------------------------------------------------------------
# The host side
# ---------------------------------------------------------------------------


def _make_record(main: func.FuncOp) -> SSAValue:
    """Allocates, zeroes and binds the bounds record at the start of `main`."""
    zero = arith.ConstantOp(IntegerAttr(0, i32))
    slots = arith.ConstantOp(IntegerAttr(_RECORD_SLOTS, i32))
    record = host.AllocOp(slots, i32)
    record.result.name_hint = "bounds"
    ops = [zero, slots, record, host.FillOp(record, zero, slots), host.BindGlobalOp(record, BOUNDS_RECORD)]
    main.body.block.insert_ops_before(ops, main.body.block.first_op)  # type: ignore[arg-type]
    return record.result


def _buffer_positions(types: tuple[Attribute, ...]) -> list[int]:
    return [position for position, type_ in enumerate(types) if gir_gpu.is_device_buffer(type_)]


def _extend_launch(launch: host.LaunchOp, sizes: _HostSizes, record: SSAValue) -> None:
    """Passes the element count of each buffer argument and the record."""
    kernel = launch.kernel.root_reference.data
    arguments = list(launch.args)
    positions = _buffer_positions(tuple(argument.type for argument in arguments))
    counts = [sizes.count(arguments[position], launch, kernel, position) for position in positions]
    new_launch = host.LaunchOp(kernel, launch.grid, launch.block, [*arguments, *counts, record])
    new_launch.attributes |= launch.attributes
    Rewriter.replace_op(launch, new_launch)


@dataclass
class _HostSizes:
    """Element counts of the host's device buffers, as i32 values of `@main`."""

    _graph_arrays: dict[host.GraphArrayOp, SSAValue] = field(default_factory=dict)

    def count(self, buffer: SSAValue, launch: host.LaunchOp, kernel: str, position: int) -> SSAValue:
        if isinstance(buffer.owner, host.ListExportOp):
            return buffer.owner.count_of(buffer)
        counts = {self._origin_count(origin) for origin in _origins(buffer)}
        count = counts.pop() if len(counts) == 1 else None
        if count is None or not _dominates(count, launch):
            raise UserError(
                f"error: gpu-check-bounds: cannot tell how many elements argument {position} "
                f"of a launch of @{kernel} has (it is not one host.alloc or graph array, "
                "or buffers of different sizes flow into it)"
            )
        cast = _convert(count, i32)
        if cast is None:
            return count
        Rewriter.insert_op(cast, InsertPoint.before(launch))
        return cast.results[0]

    def _origin_count(self, origin: Operation) -> SSAValue | None:
        if isinstance(origin, host.AllocOp):
            return origin.count
        if isinstance(origin, host.GraphArrayOp):
            if origin not in self._graph_arrays:
                self._graph_arrays[origin] = _graph_array_count(origin)
            return self._graph_arrays[origin]
        return None


def _graph_array_count(array: host.GraphArrayOp) -> SSAValue:
    """Builds the length of a graph array right after it."""
    kind = array.array.data
    what = host.GraphSize.VERTICES if kind in (*_POINTER_ARRAYS, *_VERTEX_ARRAYS) else host.GraphSize.EDGES
    size = host.GraphSizeOp(array.graph, what)
    ops: list[Operation] = [size]
    if kind in _POINTER_ARRAYS:
        one = arith.ConstantOp(IntegerAttr(1, i32))
        ops += [one, arith.AddiOp(size, one)]
    elif kind in host.BLOCK_OFFSET_ARRAYS:
        # max(1, ceil(V / size)) blocks, plus one: (V - 1) / size + 2
        assert array.blocking_size is not None
        one, two = arith.ConstantOp(IntegerAttr(1, i32)), arith.ConstantOp(IntegerAttr(2, i32))
        blocking = arith.ConstantOp(IntegerAttr(array.blocking_size.value.data, i32))
        last = arith.SubiOp(size, one)
        blocks = arith.DivSIOp(last, blocking)
        ops += [one, two, blocking, last, blocks, arith.AddiOp(blocks, two)]
    ops[-1].results[0].name_hint = f"{kind.value}_size"
    Rewriter.insert_op(ops, InsertPoint.after(array))
    return ops[-1].results[0]


def _origins(buffer: SSAValue) -> set[Operation]:
    """The ops that make the host buffers `buffer` may be, following values through
    `scf` loops and branches (double-buffered frontiers swap two allocations) and
    selects."""
    seen: set[SSAValue] = set()
    origins: set[Operation] = set()
    pending = [buffer]
    while pending:
        value = pending.pop()
        if value in seen:
            continue
        seen.add(value)
        if isinstance(value, BlockArgument):
            pending.extend(_block_argument_sources(value))
        elif isinstance(value.owner, scf.WhileOp | scf.ForOp | scf.IfOp):
            pending.extend(_result_sources(value.owner, value.index))
        elif isinstance(value.owner, arith.SelectOp):
            # a fused loop's buffer result, chosen among its buffers by slot
            pending.extend((value.owner.lhs, value.owner.rhs))
        else:
            origins.add(value.owner)  # type: ignore[arg-type]
    return origins


def _block_argument_sources(argument: BlockArgument) -> Iterator[SSAValue]:
    owner = argument.block.parent_op()
    index = argument.index
    if isinstance(owner, scf.ForOp) and index > 0:
        yield owner.iter_args[index - 1]
        yield _terminator(owner.body.block).operands[index - 1]
    elif isinstance(owner, scf.WhileOp) and argument.block is owner.before_region.block:
        yield owner.arguments[index]
        yield _terminator(owner.after_region.block).operands[index]
    elif isinstance(owner, scf.WhileOp):
        condition = _terminator(owner.before_region.block)
        assert isinstance(condition, scf.ConditionOp)
        yield condition.args[index]
    else:
        yield argument  # an induction variable or an argument of main: no buffer origin


def _result_sources(op: Operation, index: int) -> Iterator[SSAValue]:
    if isinstance(op, scf.WhileOp):
        condition = _terminator(op.before_region.block)
        assert isinstance(condition, scf.ConditionOp)
        yield condition.args[index]
    else:
        for region in op.regions:
            for block in region.blocks:
                yield _terminator(block).operands[index]


def _terminator(block: Block) -> Operation:
    last = block.last_op
    assert last is not None
    return last


def _dominates(value: SSAValue, op: Operation) -> bool:
    """Whether `value` is defined before `op` in `op`'s block or an enclosing one."""
    block = value.owner if isinstance(value.owner, Block) else value.owner.parent_block()
    current: Operation | None = op
    while current is not None:
        if current.parent_block() is block:
            return isinstance(value, BlockArgument) or block.get_operation_index(value.owner) < block.get_operation_index(current)  # type: ignore[arg-type]
        current = current.parent_op()
    return False


# ---------------------------------------------------------------------------
# The device side
# ---------------------------------------------------------------------------


def _guard_kernel(kernel: gir_gpu.KernelOp, launches: list[host.LaunchOp], first_site: int) -> list[BoundsSite]:
    """Adds the count and record arguments to `kernel` and guards its accesses."""
    block = kernel.body.block
    inputs = tuple(kernel.function_type.inputs.data)
    counts: dict[SSAValue, SSAValue] = {}
    for position in _buffer_positions(inputs):
        argument = block.args[position]
        count = block.insert_arg(i32, len(block.args))
        count.name_hint = f"{argument.name_hint or 'buffer'}_size"
        counts[argument] = count
    record = block.insert_arg(gir_gpu.buffer_type(i32), len(block.args))
    record.name_hint = "bounds"
    kernel.properties["function_type"] = type(kernel.function_type).from_lists(
        [argument.type for argument in block.args], []
    )
    guard = _Guard(kernel, record, counts)
    label = _launch_labels(launches)
    sites = []
    for access in [op for op in walk(block) if isinstance(op, _ACCESS_OPS)]:
        buffer = access.operands[0] if not isinstance(access, memref.StoreOp) else access.memref
        description = _device_buffer(buffer, launches)
        if description is None:
            continue
        guard.wrap(access, first_site + len(sites))
        location = ":".join(map(str, source_position(access) or ()))
        sites.append(BoundsSite(kernel.sym_name.data, _access_verb(access), description, label, location))
    return sites


def _access_verb(access: Operation) -> str:
    if isinstance(access, memref.LoadOp):
        return "loads"
    if isinstance(access, memref.StoreOp):
        return "stores"
    return "atomically updates"


def _device_buffer(buffer: SSAValue, launches: list[host.LaunchOp]) -> str | None:
    """How the report names `buffer` (a kernel argument or work-group array), or
    None when it is neither."""
    if isinstance(buffer.owner, gir_gpu.SharedAllocOp):
        return "a work-group array"
    if not isinstance(buffer, BlockArgument) or not isinstance(buffer.block.parent_op(), gir_gpu.KernelOp):
        return None
    names = sorted({_host_buffer_name(origin) for launch in launches for origin in _origins(launch.args[buffer.index])})
    return " or ".join(names) if names else "an unlaunched buffer"


def _host_buffer_name(origin: Operation) -> str:
    if isinstance(origin, host.GraphArrayOp):
        return f"graph array '{origin.array.data.value}'"
    if isinstance(origin, host.AllocOp):
        for use in origin.result.uses:
            if isinstance(use.operation, host.BindGlobalOp):
                return f"vector '{use.operation.global_name.data}'"
    return "frontier storage"


def _launch_labels(launches: list[host.LaunchOp]) -> str:
    """The label paths (`search:expand`) of the labelled statements around the launches."""
    paths = []
    for launch in launches:
        labels = []
        parent = launch.parent_op()
        while parent is not None:
            label = parent.attributes.get("graph.label")
            if isinstance(label, StringAttr):
                labels.append(label.data)
            parent = parent.parent_op()
        if labels:
            paths.append(":".join(reversed(labels)))
    return " or ".join(sorted(set(paths)))


@dataclass
class _Guard:
    """Wraps accesses of one kernel in index checks."""

    kernel: gir_gpu.KernelOp
    record: SSAValue
    counts: dict[SSAValue, SSAValue]
    _entry_values: dict[tuple[object, Attribute], SSAValue] = field(default_factory=dict)

    def _at_entry(self, key: object, type_: Attribute, build: Callable[[], Operation]) -> SSAValue:
        """One op per (key, type) at the kernel's start, made by `build` the first
        time (only then: a kernel has thousands of accesses, and building an op
        to throw away was a third of this pass's time)."""
        value = self._entry_values.get((key, type_))
        if value is None:
            block = self.kernel.body.block
            anchor = block.first_op
            while isinstance(anchor, arith.ConstantOp):
                anchor = anchor.next_op
            assert anchor is not None
            op = build()
            Rewriter.insert_op(op, InsertPoint.before(anchor))
            value = self._entry_values[(key, type_)] = op.results[0]
        return value

    def _constant(self, number: int, type_: Attribute) -> SSAValue:
        return self._at_entry(number, type_, lambda: arith.ConstantOp(IntegerAttr(number, type_)))

    def _count(self, buffer: SSAValue) -> SSAValue:
        """The buffer's element count, an i32."""
        if isinstance(buffer.owner, gir_gpu.SharedAllocOp):
            buffer_type = buffer.type
            assert isinstance(buffer_type, MemRefType)
            return self._constant(buffer_type.get_shape()[0], i32)
        return self.counts[buffer]

    def _count_as(self, count: SSAValue, type_: Attribute) -> SSAValue:
        """`count` as a value of an index's type."""
        if count.type == type_:
            return count

        def cast() -> Operation:
            op = _convert(count, type_)
            assert op is not None, "the types differ"
            return op

        return self._at_entry(count, type_, cast)

    def wrap(self, access: Operation, site: int) -> None:
        """Puts `access` under `scf.if index in [0, count)`; the else branch records
        the miss and yields zeros for the access's used results."""
        buffer = access.memref if isinstance(access, memref.StoreOp) else access.operands[0]
        index = _index(access)
        count = self._count(buffer)
        inside = arith.CmpiOp(index, self._count_as(count, index.type), "ult")  # a negative index is a huge unsigned one
        inside.result.name_hint = "in_bounds"
        used = [result for result in access.results if result.uses]  # an atomic's old value often is not
        result_types = [result.type for result in used]
        guarded = scf.IfOp(inside, result_types, Region(Block()), Region(Block()))
        Rewriter.insert_op([inside, guarded], InsertPoint.before(access))
        for old, new in zip(used, guarded.results, strict=True):
            old.replace_all_uses_with(new)
        access.detach()
        guarded.true_region.block.add_ops([access, scf.YieldOp(*used)])
        else_block = guarded.false_region.block
        self._record(else_block, site, index, count)
        zeros = [_zero(type_) for type_ in result_types]
        else_block.add_ops([*zeros, scf.YieldOp(*zeros)])

    def _record(self, block: Block, site: int, index: SSAValue, count: SSAValue) -> None:
        """The first miss of the run claims the record's slot 0 and fills slots 1
        (the index, wrapped to i32) and 2 (the i32 `count`)."""
        zero = self._constant(0, i32)
        slots = [self._constant(slot, IndexType()) for slot in range(_RECORD_SLOTS)]
        mark = arith.ConstantOp(IntegerAttr(site + 1, i32))
        claim = gir_gpu.AtomicCASOp(self.record, slots[0], zero, mark)
        won = arith.CmpiOp(claim.old, zero, "eq")
        details: list[Operation] = []
        for value, slot in ((index, slots[1]), (count, slots[2])):
            cast = _convert(value, i32)
            if cast is not None:
                details.append(cast)
                value = cast.results[0]
            details.append(memref.StoreOp.get(value, self.record, [slot]))
        details.append(scf.YieldOp())
        block.add_ops([mark, claim, won, scf.IfOp(won, [], Region(Block(details)))])


def _index(access: Operation) -> SSAValue:
    if isinstance(access, memref.LoadOp | memref.StoreOp):
        if len(access.indices) != 1:
            raise UserError.at(access, "error: gpu-check-bounds: kernels index one-dimensional buffers only")
        return access.indices[0]
    assert isinstance(access, gir_gpu.AtomicRMWOp | gir_gpu.AtomicCASOp)
    return access.index


def _zero(type_: Attribute) -> arith.ConstantOp:
    if isinstance(type_, IntegerType | IndexType):
        return arith.ConstantOp(IntegerAttr(0, type_))
    return arith.ConstantOp(FloatAttr(0.0, type_))  # type: ignore[arg-type]


def _convert(value: SSAValue, type_: Attribute) -> Operation | None:
    """The op turning an integer or index `value` into `type_` (signed), or None
    when it has that type already."""
    if value.type == type_:
        return None
    if IndexType() in (value.type, type_):
        return arith.IndexCastOp(value, type_)
    assert isinstance(value.type, IntegerType) and isinstance(type_, IntegerType)
    widen = value.type.width.data < type_.width.data
    return (arith.ExtSIOp if widen else arith.TruncIOp)(value, type_)
