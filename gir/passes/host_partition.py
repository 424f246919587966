"""`host-partition`: the GPU level's host function made to run on several devices
at once, each on its part of the edges, with the exchanges that keep the
replicated vertex buffers equal.

Every device runs the same host function (one rank per device). The graph load
becomes `partitioned`: each device gets the edges of a range of sources
(`gir.runtime.graph.partition`), with global vertex ids, so kernels run
unchanged. Vertex buffers are replicated. A launch that reads a partitioned
edge array (a traversal) writes partial results on each device: after it, each
buffer argument the kernel writes is combined across the devices with the
combine its writes imply:

| the kernel writes the argument with                 | exchange                            |
|-----------------------------------------------------|-------------------------------------|
| `atomic_rmw min` / `max` / `umin` / `umax` / `or`   | `host.allreduce` min / max / ... / or |
| `atomic_rmw add`, or a store of `load + x`          | `host.allreduce sum`                |
| a store of `x` under `if x < old` (`>`)             | `host.allreduce min` (max)          |
| `atomic_cas`, `exch` or a plain store               | `host.allreduce claim`              |
| an `atomic_rmw add` whose old value places a store  | `host.allgather` of the queue       |
| `atomic_cas` only, each appending its index to a queue where it changed the element | the queue's `host.allgather ... claims(buffer)` |

All-reduces send the whole vector (`exchange dense`: one NCCL all-reduce) unless
the pass is given another format (`host-partition{exchange=pairs|bitmap|auto}`),
the program's schedule asks for one (`program->configExchange(AUTO)`: the module
attribute `gir.exchange_format`; the pass option wins), or `$GIR_EXCHANGE_FORMAT`
overrides it at run time: `auto` sends only the elements a device
changed, as (index, value) pairs or a bitmap, whichever is fewer bytes. It sends
13x fewer bytes for BFS on rmat:22, but on two NVLink-connected H200s the run
took 116 ms against dense's 95 ms (the count exchange and the host's reads of
the changes cost more than the bytes saved), so dense is the default. Sum and
claim, and every all-reduce in a changed-elements format, combine against a
`host.clone` of the buffer taken before the launch (the base), which tells the
changed elements too (docs/multi-gpu.md, "Exchange formats").

The last row is BFS's expand: `pred[dst]` claimed by a compare-and-swap that
appends `dst` to the next frontier where it succeeded. There the queue lists
exactly the elements each device changed (`_queued_claims`; the queue emptied
just before the launch), so the claims travel with it, each device's queued
vertices with their `pred` values, the lowest device's value kept: bytes in
proportion to the frontier, with no clone and no all-reduce of the whole
vector, in every exchange format. Where that is not proven the buffer keeps
its clone and claim all-reduce.

Launches that read no edges (vertex maps, conversions, compactions) run
replicated on every device, with equal inputs and so equal results, and need no
exchange; so do loop conditions, which the host reads from exchanged buffers.
A buffer whose written values come from the edge offsets (the degrees of a
frontier's vertices that EDGE_ONLY scans) is the device's own work list: it is
not exchanged. Neither is the bounds record of `gpu-check-bounds`.

Before:
```mlir
%g = host.load_graph {argv = 1 : i64}
%col_idx = host.graph_array %g col_idx : memref<?xi32>
host.launch @relax grid %blocks block %b (%size, %items, %row_ptr, %col_idx, %dist) : ...
```
After (a launch over a frontier; `min` needs no base in the dense format):
```mlir
%g = host.load_graph {argv = 1 : i64, partitioned}
%col_idx = host.graph_array %g col_idx : memref<?xi32>
host.launch @relax grid %blocks block %b (%size, %items, %row_ptr, %col_idx, %dist) : ...
host.allreduce %dist min : memref<?xi32>
```

What is not partitioned is refused with one located error: kernel-fused loops
(a persistent kernel keeps its frontier loop on one device), host reads or
copies of edge arrays, kernels whose writes to one buffer combine in different
ways, and updates of an element by another function of its old value (a
log-sum-exp, a clamped sum), which no combine of the devices' results undoes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp, UnitAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import gir_gpu, host
from gir.dialects.gir_gpu import BOUNDS_RECORD, AtomicKind, KernelOp, is_persistent
from gir.dialects.host import Combine, ExchangeFormat, GraphArray
from gir.ir_walk import walk

REPLICATED_ARRAYS = (GraphArray.OUT_DEGREES,)
"""Graph arrays every device holds whole (vertex data, not edges)."""

OFFSET_ARRAYS = (
    GraphArray.ROW_PTR,
    GraphArray.CSC_PTR,
    GraphArray.BLOCK_OFFSETS,
    GraphArray.CSC_BLOCK_OFFSETS,
)
"""Edge arrays whose values are positions in the device's part of the edges."""

_ATOMIC_COMBINES = {
    AtomicKind.MIN: Combine.MIN,
    AtomicKind.MAX: Combine.MAX,
    AtomicKind.UMIN: Combine.UMIN,
    AtomicKind.UMAX: Combine.UMAX,
    AtomicKind.OR: Combine.OR,
    AtomicKind.ADD: Combine.SUM,
    AtomicKind.EXCH: Combine.CLAIM,
}

_UPDATE_COMBINES: dict[type[Operation], Combine] = {
    arith.AddiOp: Combine.SUM,
    arith.AddfOp: Combine.SUM,
    arith.MinSIOp: Combine.MIN,
    arith.MinimumfOp: Combine.MIN,
    arith.MinnumfOp: Combine.MIN,
    arith.MaxSIOp: Combine.MAX,
    arith.MaximumfOp: Combine.MAX,
    arith.MaxnumfOp: Combine.MAX,
    arith.MinUIOp: Combine.UMIN,
    arith.MaxUIOp: Combine.UMAX,
    arith.OrIOp: Combine.OR,
}
"""A plain store of `op(load buffer[i], x)` into `buffer[i]` (one thread owns the
element on its device, as in a pull): the devices' partial updates combine by
the op."""


@dataclass
class KernelWrites:
    """What a kernel writes to its buffer arguments, by argument position."""

    combines: dict[int, set[Combine | None]] = field(default_factory=dict)
    """None: an update of the old value that no combine undoes."""
    queues: dict[int, int] = field(default_factory=dict)
    """Counter argument -> items argument of each queue the kernel appends to."""
    queued_claims: dict[int, int] = field(default_factory=dict)
    """Claimed argument -> counter argument of the queue that lists exactly the
    elements the kernel changed in it (`_queued_claims`): the claims can go
    with the queue instead of in an all-reduce."""


def kernel_writes(kernel: KernelOp, offset_positions: frozenset[int] = frozenset()) -> KernelWrites:
    """The combine of every buffer argument `kernel` writes, and its queues.
    An argument whose written values come from the edge offsets (the arguments
    at `offset_positions`: positions in this device's part of the edges, such
    as the degrees of a frontier's vertices before a scan) is this device's
    own work list, not vertex data: it is left out."""
    arguments = {argument: position for position, argument in enumerate(kernel.body.block.args)}
    offsets = {kernel.body.block.args[position] for position in offset_positions}
    local: set[int] = set()
    writes = KernelWrites()
    stores: list[memref.StoreOp] = []
    appends: list[gir_gpu.AtomicRMWOp] = []
    for op in walk(kernel):
        written = _written_values(op)
        if written and offsets and op.operands and _buffer_of(op) in arguments:
            if any(_derives_from_loads(value, offsets) for value in written):
                local.add(arguments[_buffer_of(op)])
        if isinstance(op, memref.StoreOp) and op.memref in arguments:
            stores.append(op)
        elif isinstance(op, gir_gpu.AtomicRMWOp) and op.buffer in arguments:
            if op.kind.data == AtomicKind.ADD and op.old.uses:
                appends.append(op)
            else:
                writes.combines.setdefault(arguments[op.buffer], set()).add(_ATOMIC_COMBINES[op.kind.data])
        elif isinstance(op, gir_gpu.AtomicCASOp) and op.buffer in arguments:
            reads_old = _reads_old_value(op.desired, op.buffer, [op.index])
            writes.combines.setdefault(arguments[op.buffer], set()).add(None if reads_old else Combine.CLAIM)
    placed: set[memref.StoreOp] = set()
    placing: dict[gir_gpu.AtomicRMWOp, list[memref.StoreOp]] = {}
    for append in appends:
        slice_ = _forward_slice(append.old)
        targets = [store for store in stores if any(index in slice_ for index in store.indices)]
        if targets:
            placed.update(targets)
            placing[append] = targets
            writes.queues[arguments[append.buffer]] = arguments[targets[0].memref]
        else:  # a count whose old value is read otherwise: still a sum
            writes.combines.setdefault(arguments[append.buffer], set()).add(Combine.SUM)
    writes.queued_claims = _queued_claims(kernel, arguments, placing)
    for store in stores:
        if store not in placed:
            writes.combines.setdefault(arguments[store.memref], set()).add(_store_combine(store))
    for position in local:
        writes.combines.pop(position, None)
    return writes


def _queued_claims(
    kernel: KernelOp,
    arguments: dict[SSAValue, int],
    placing: dict[gir_gpu.AtomicRMWOp, list[memref.StoreOp]],
) -> dict[int, int]:
    """Claimed argument -> counter argument, for each buffer argument whose
    changes a queue lists exactly, as BFS's next frontier lists the vertices
    whose `pred` it claimed: the buffer is written only by `atomic_cas`es, each
    of which appends its index to the queue where it changed the element
    (`_claiming_cas`), bounded by nothing but the queue's capacity, and the
    queue gets no other entries (`placing`: the entries each append places).
    A device's queue then holds an element exactly where its copy of the
    buffer changed; an element changes at most once (it no longer holds the
    expected value, and nothing else writes the buffer), so the queue holds at
    most one entry an element and cannot outgrow a capacity of one an element."""
    swaps: dict[int, list[gir_gpu.AtomicCASOp]] = {}
    written: set[int] = set()
    entries: dict[int, list[memref.StoreOp]] = {}
    for op in walk(kernel):
        if isinstance(op, gir_gpu.AtomicCASOp) and op.buffer in arguments:
            swaps.setdefault(arguments[op.buffer], []).append(op)
        elif isinstance(op, memref.StoreOp) and op.memref in arguments:
            written.add(arguments[op.memref])
            entries.setdefault(arguments[op.memref], []).append(op)
        elif isinstance(op, gir_gpu.AtomicRMWOp) and op.buffer in arguments:
            written.add(arguments[op.buffer])
    by_counter: dict[int, list[gir_gpu.AtomicRMWOp]] = {}
    for append in placing:
        by_counter.setdefault(arguments[append.buffer], []).append(append)
    claims: dict[int, int] = {}
    for counter, appends in by_counter.items():
        placed = {store: append for append in appends for store in placing[append]}
        items = {arguments[store.memref] for store in placed}
        if len(items) != 1:
            continue
        (queue,) = items
        if any(store not in placed for store in entries.get(queue, [])):
            continue  # an entry some other write puts in the queue
        claimed = {store: _claiming_cas(store, append) for store, append in placed.items()}
        buffers = {arguments[cas.buffer] if cas is not None else None for cas in claimed.values()}
        if len(buffers) != 1 or None in buffers:
            continue
        (buffer,) = buffers
        if buffer in written or buffer in (counter, queue) or buffer in claims:
            continue
        if set(swaps[buffer]) != set(claimed.values()):
            continue  # a CAS whose success appends nothing
        claims[buffer] = counter
    return claims


def _claiming_cas(store: memref.StoreOp, append: gir_gpu.AtomicRMWOp) -> gir_gpu.AtomicCASOp | None:
    """The `atomic_cas` that runs `store` (an entry `append` placed) and
    `append` where it changed its element, but for the queue's capacity check,
    when the entry is the CAS's index; else None."""
    inner: Operation = store
    guard = store.parent_op()
    while isinstance(guard, scf.IfOp) and inner.parent_region() is guard.true_region:
        cas = _changed(guard.cond)
        if cas is not None:
            if (
                guard.parent_block() is cas.parent_block()
                and guard.true_region.is_ancestor(append)
                and _same_value_or_cast(store.value, cas.index)
            ):
                return cas
            return None
        if not _is_capacity_check(guard.cond, append):
            return None
        inner, guard = guard, guard.parent_op()
    return None


def _changed(condition: SSAValue) -> gir_gpu.AtomicCASOp | None:
    """The `atomic_cas` that changed its element where `condition` holds:
    `old == expected and desired != expected`, or `old == expected` alone where
    the CAS cannot write the value it expects. gir's frontier tracking guards
    the append with the second test wherever `desired` may equal `expected`,
    and leaves it out only for a vertex id swapped for a negative constant
    (`frontier_track_changes._swap_changed`), which the kernel no longer tells
    from other values: so a CAS that is not written with the second test
    counts as changing its element unless it writes its expected value itself
    or an equal constant."""
    compare = condition.owner
    if isinstance(compare, arith.AndIOp):
        for success, differs in ((compare.lhs, compare.rhs), (compare.rhs, compare.lhs)):
            cas = _succeeded(success)
            if cas is not None and _compares(differs, "ne", cas.desired, cas.expected):
                return cas
        return None
    cas = _succeeded(condition)
    return cas if cas is not None and not _may_write_expected(cas) else None


def _succeeded(condition: SSAValue) -> gir_gpu.AtomicCASOp | None:
    """The `atomic_cas` whose success `condition` is (`old == expected`), if any."""
    compare = condition.owner
    if isinstance(compare, arith.CmpiOp):
        for old in compare.operands:
            cas = old.owner
            if isinstance(cas, gir_gpu.AtomicCASOp) and _compares(condition, "eq", cas.old, cas.expected):
                return cas
    return None


def _compares(condition: SSAValue, predicate: str, first: SSAValue, second: SSAValue) -> bool:
    """Whether `condition` is the symmetric comparison `first <predicate> second`
    (`eq` or `ne`), in either order."""
    compare = condition.owner
    return (
        isinstance(compare, arith.CmpiOp)
        and arith.CMPI_COMPARISON_OPERATIONS[compare.predicate.value.data] == predicate
        and {compare.lhs, compare.rhs} == {first, second}
        and first != second
    )


def _is_capacity_check(condition: SSAValue, append: gir_gpu.AtomicRMWOp) -> bool:
    """Whether `condition` is `position < capacity` of the slot `append` took."""
    compare = condition.owner
    return (
        isinstance(compare, arith.CmpiOp)
        and arith.CMPI_COMPARISON_OPERATIONS[compare.predicate.value.data] in ("slt", "ult")
        and compare.lhs == append.old
    )


def _same_value_or_cast(value: SSAValue, index: SSAValue) -> bool:
    """Whether `index` is `value`, or a cast of it (or both casts of one value)."""
    cast = index.owner
    return _same_index(value, index) or (isinstance(cast, arith.IndexCastOp) and cast.input == value)


def _may_write_expected(cas: gir_gpu.AtomicCASOp) -> bool:
    """Whether `cas` may write the value it expects: the same value, or equal constants."""
    if cas.desired == cas.expected:
        return True
    desired, expected = cas.desired.owner, cas.expected.owner
    return (
        isinstance(desired, arith.ConstantOp)
        and isinstance(expected, arith.ConstantOp)
        and desired.value == expected.value
    )


def _written_values(op: Operation) -> tuple[SSAValue, ...]:
    """The values `op` writes to memory, if it is a store or an atomic."""
    if isinstance(op, memref.StoreOp):
        return (op.value,)
    if isinstance(op, gir_gpu.AtomicRMWOp):
        return (op.value,)
    if isinstance(op, gir_gpu.AtomicCASOp):
        return (op.desired,)
    return ()


def _buffer_of(op: Operation) -> SSAValue:
    return op.memref if isinstance(op, memref.StoreOp) else op.buffer  # type: ignore[attr-defined]


def _derives_from_loads(value: SSAValue, buffers: set[SSAValue]) -> bool:
    """Whether `value` is computed from an element loaded from one of `buffers`
    (following operands, and the yields of `scf` results, but not load indices)."""
    return _derives_from(
        value, lambda v: isinstance(v.owner, memref.LoadOp) and v.owner.memref in buffers
    )


def _derives_from(value: SSAValue, source: Callable[[SSAValue], bool]) -> bool:
    """Whether `value` is computed from a value for which `source` holds
    (following operands, and the yields of `scf` results, but not load indices)."""
    seen: set[SSAValue] = set()
    work = [value]
    while work:
        current = work.pop()
        if current in seen:
            continue
        seen.add(current)
        if source(current):
            return True
        owner = current.owner
        if not isinstance(owner, Operation) or isinstance(owner, memref.LoadOp):
            continue
        if owner.regions:
            position = list(owner.results).index(current)
            for region in owner.regions:
                for block in region.blocks:
                    terminator = block.last_op
                    if isinstance(terminator, scf.YieldOp) and position < len(terminator.operands):
                        work.append(terminator.operands[position])
            continue
        work.extend(owner.operands)
    return False


def _forward_slice(value: SSAValue) -> set[SSAValue]:
    """`value` and every value computed from it inside its kernel (through the
    results of the `scf.if`s and loops that yield it)."""
    seen = {value}
    work = [value]
    while work:
        for use in work.pop().uses:
            user = use.operation
            if isinstance(user, scf.YieldOp) and user.parent_op() is not None:
                results = list(user.parent_op().results)
            else:
                results = list(user.results)
            for result in results:
                if result not in seen:
                    seen.add(result)
                    work.append(result)
    return seen


def _store_combine(store: memref.StoreOp) -> Combine | None:
    """How the devices' stores to one element combine: SUM, MIN, ... for a
    store of `op(load buffer[i], x)` to `buffer[i]`, or of `x` under a guard
    `x < buffer[i]` (`>`: MAX); None for another function of the element's
    old value (log-sum-exp, say), which no combine of the results undoes;
    else CLAIM."""
    update = store.value.owner
    combine = _UPDATE_COMBINES.get(type(update)) if isinstance(update, Operation) else None
    if combine is not None and any(
        _is_load_of(operand, store.memref, store.indices) for operand in update.operands
    ):
        return combine
    if _reads_old_value(store.value, store.memref, store.indices):
        return None
    return _guard_combine(store) or Combine.CLAIM


def _is_load_of(value: SSAValue, buffer: SSAValue, indices: Sequence[SSAValue]) -> bool:
    """Whether `value` is a load of `buffer` at `indices`."""
    load = value.owner
    return (
        isinstance(load, memref.LoadOp)
        and load.memref == buffer
        and len(load.indices) == len(indices)
        and all(_same_index(a, b) for a, b in zip(load.indices, indices))
    )


def _same_index(first: SSAValue, second: SSAValue) -> bool:
    """The same index value, or two casts of the same value."""
    if first == second:
        return True
    a, b = first.owner, second.owner
    return isinstance(a, arith.IndexCastOp) and isinstance(b, arith.IndexCastOp) and a.input == b.input


def _reads_old_value(value: SSAValue, buffer: SSAValue, indices: Sequence[SSAValue]) -> bool:
    """Whether `value` is computed from the element of `buffer` at `indices`."""
    return _derives_from(value, lambda v: _is_load_of(v, buffer, indices))


_ORDERED = {
    "slt": Combine.MIN, "sle": Combine.MIN, "ult": Combine.UMIN, "ule": Combine.UMIN,
    "sgt": Combine.MAX, "sge": Combine.MAX, "ugt": Combine.UMAX, "uge": Combine.UMAX,
}  # fmt: skip
"""The integer comparisons `x < old` (`>`) that guard a min (max) update."""
_ORDERED_FLOAT = {"lt": Combine.MIN, "le": Combine.MIN, "gt": Combine.MAX, "ge": Combine.MAX}
"""The same of floats, ordered (`o`) or not (`u`)."""
_SWAPPED = {
    Combine.MIN: Combine.MAX, Combine.MAX: Combine.MIN,
    Combine.UMIN: Combine.UMAX, Combine.UMAX: Combine.UMIN,
}  # fmt: skip


def _guard_combine(store: memref.StoreOp) -> Combine | None:
    """MIN (MAX) for a store of `x` inside `if x < buffer[i]` (`>`)."""
    parent = store.parent_op()
    while parent is not None and not isinstance(parent, KernelOp):
        if isinstance(parent, scf.IfOp):
            compare = parent.cond.owner
            if isinstance(compare, arith.CmpiOp | arith.CmpfOp) and len(compare.operands) == 2:
                lhs, rhs = compare.operands
                combine = _ordering(compare)
                if combine is not None:
                    if lhs == store.value and _is_load_of(rhs, store.memref, store.indices):
                        return combine
                    if rhs == store.value and _is_load_of(lhs, store.memref, store.indices):
                        return _SWAPPED[combine]
        parent = parent.parent_op()
    return None


def _ordering(compare: arith.CmpiOp | arith.CmpfOp) -> Combine | None:
    """MIN for a comparison `lhs < rhs` (or <=), MAX for `>`, else None."""
    if isinstance(compare, arith.CmpiOp):
        return _ORDERED.get(arith.CMPI_COMPARISON_OPERATIONS[compare.predicate.value.data])
    name = arith.CMPF_COMPARISON_OPERATIONS[compare.predicate.value.data]
    return _ORDERED_FLOAT.get(name[1:]) if name[:1] in ("o", "u") else None


@dataclass(frozen=True)
class HostPartition(ModulePass):
    """Partitions the edges over the devices of a run and inserts the exchanges
    after every launch that reads them (module docstring). `exchange=FORMAT`
    (dense, pairs, bitmap, auto) gives every all-reduce that format instead of
    the program's (`gir.exchange_format`, `program->configExchange`) or dense."""

    name = "host-partition"

    exchange: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.exchange is not None and self.exchange not in tuple(ExchangeFormat):
            formats = ", ".join(ExchangeFormat)
            raise UserError(f"error: host-partition{{exchange={self.exchange}}}: expected one of {formats}")
        forced = host.program_exchange_format(op) if self.exchange is None else ExchangeFormat(self.exchange)
        main = next(
            (f for f in op.ops if isinstance(f, func.FuncOp) and f.sym_name.data == "main"), None
        )
        if main is None:
            return
        for call in walk(main):
            if isinstance(call, host.CallExternOp | host.ApplyExternOp):
                raise UserError.at(call,
                    f"error: extern function '{call.callee.root_reference.data}' is called from "
                    "the host: a program partitioned over several devices cannot call host "
                    "extern functions yet (run it on one device)"
                )
        kernels = {k.sym_name.data: k for k in op.ops if isinstance(k, KernelOp)}
        edge_arrays, offset_arrays = _partition_loads(main)
        _refuse_host_edge_access(main, edge_arrays)
        unshared = _bounds_records(main)
        summaries: dict[tuple[str, frozenset[int]], KernelWrites] = {}
        for launch in [o for o in walk(main) if isinstance(o, host.LaunchOp)]:
            if not any(argument in edge_arrays for argument in launch.args):
                continue
            kernel = kernels[launch.kernel.root_reference.data]
            if is_persistent(kernel):
                raise UserError.at(
                    launch,
                    "error: a kernel-fused loop cannot run on several devices yet "
                    "(remove the loop's fusion from the schedule, or use --devices 1)",
                )
            offsets = frozenset(i for i, argument in enumerate(launch.args) if argument in offset_arrays)
            key = (kernel.sym_name.data, offsets)
            if key not in summaries:
                summaries[key] = kernel_writes(kernel, offsets)
            _exchange_after(launch, kernel, summaries[key], unshared, forced)


def _partition_loads(main: func.FuncOp) -> tuple[set[SSAValue], set[SSAValue]]:
    """Marks every graph load partitioned; the edge arrays of those graphs, and
    those of them that hold edge offsets."""
    edge_arrays: set[SSAValue] = set()
    offset_arrays: set[SSAValue] = set()
    for op in walk(main):
        if isinstance(op, host.LoadGraphOp):
            if op.reorder is not None:
                raise UserError.at(
                    op,
                    "error: a reordered graph (configReorder or relabel) cannot run on several "
                    "devices yet: drop the reordering or run on one device",
                )
            op.partitioned = UnitAttr()
        elif isinstance(op, host.GraphArrayOp) and op.array.data not in REPLICATED_ARRAYS:
            edge_arrays.add(op.result)
            if op.array.data in OFFSET_ARRAYS:
                offset_arrays.add(op.result)
    return edge_arrays, offset_arrays


def _refuse_host_edge_access(main: func.FuncOp, edge_arrays: set[SSAValue]) -> None:
    """Host reads and copies of an edge array would see one device's part."""
    for op in walk(main):
        if isinstance(op, host.ReadOp | host.CopyOp | host.ListPushOp) and any(
            operand in edge_arrays for operand in op.operands
        ):
            raise UserError.at(
                op, f"error: '{op.name}' of a graph's edge array cannot run on several devices yet"
            )


def _argument_name(kernel: KernelOp, position: int) -> str:
    """`'name'` of a kernel argument with a name, else `its argument N`."""
    hint = kernel.body.block.args[position].name_hint
    return f"'{hint}'" if hint else f"its argument {position}"


def _bounds_records(main: func.FuncOp) -> set[SSAValue]:
    """The buffers `gpu-check-bounds` records misses in: each device checks its own."""
    return {
        op.buffer
        for op in walk(main)
        if isinstance(op, host.BindGlobalOp) and op.global_name.data == BOUNDS_RECORD
    }


def _exchange_after(
    launch: host.LaunchOp,
    kernel: KernelOp,
    writes: KernelWrites,
    unshared: set[SSAValue],
    forced: ExchangeFormat | None = None,
) -> None:
    """Inserts the clones before `launch` and the exchanges after it, in the
    `forced` format, else `dense` (module docstring)."""
    name = kernel.sym_name.data
    exchange = forced or ExchangeFormat.DENSE
    before: list[Operation] = []
    after: list[Operation] = []
    with_queue = _claims_with_queue(launch, writes, unshared)
    for counter, items in sorted(writes.queues.items()):
        claims = [launch.args[position] for position in sorted(with_queue) if writes.queued_claims[position] == counter]
        after.append(host.AllGatherOp(launch.args[items], launch.args[counter], claims))
    clones: list[host.CloneOp] = []
    for position, combines in sorted(writes.combines.items()):
        what = _argument_name(kernel, position)
        if position in writes.queues or position in writes.queues.values():
            raise UserError.at(
                launch,
                f"error: kernel '{name}' both appends to a queue and updates {what}: "
                "it cannot run on several devices yet",
            )
        if None in combines:
            raise UserError.at(
                launch,
                f"error: kernel '{name}' updates {what} with a function of its "
                "old value that no combine of the devices' results undoes: it cannot run on "
                "several devices yet",
            )
        if len(combines) != 1:
            kinds = ", ".join(sorted(str(c) for c in combines))
            raise UserError.at(
                launch,
                f"error: kernel '{name}' writes {what} in ways that "
                f"combine differently across devices ({kinds}): it cannot run on several devices yet",
            )
        (combine,) = combines
        buffer = launch.args[position]
        if buffer in unshared or position in with_queue:
            continue
        if combine not in host.COMBINES_WITH_BASE and exchange == ExchangeFormat.DENSE:
            after.append(host.AllReduceOp(buffer, combine))
            continue
        clone = host.CloneOp(buffer)
        before.append(clone)
        clones.append(clone)
        after.append(host.AllReduceOp(buffer, combine, clone.result, exchange))
    after.extend(host.FreeOp(clone.result) for clone in clones)
    if before:
        Rewriter.insert_op(before, InsertPoint.before(launch))
    if after:
        Rewriter.insert_op(after, InsertPoint.after(launch))


def _claims_with_queue(launch: host.LaunchOp, writes: KernelWrites, unshared: set[SSAValue]) -> set[int]:
    """The claimed arguments (`KernelWrites.queued_claims`) whose claims go with
    their queue at `launch`: the buffer is passed once, and the queue is empty
    when the kernel starts (its count set to 0 just before), so that it holds
    the kernel's claims and nothing else."""
    with_queue: set[int] = set()
    for position, counter in writes.queued_claims.items():
        buffer = launch.args[position]
        if buffer in unshared or list(launch.args).count(buffer) != 1:
            continue
        if _emptied_before(launch, launch.args[counter]):
            with_queue.add(position)
    return with_queue


def _emptied_before(launch: host.LaunchOp, counter: SSAValue) -> bool:
    """Whether a `host.write` of 0 to `counter[0]` comes before `launch` in its
    block with nothing but scalar arithmetic in between (no buffer that could
    alias the counter)."""
    op = launch.prev_op
    while op is not None:
        if isinstance(op, host.WriteOp) and op.buffer == counter:
            return _is_zero(op.value) and _is_zero(op.index)
        if any(
            isinstance(value.type, MemRefType)
            for inner in walk(op)
            for value in (*inner.operands, *inner.results)
        ):
            return False
        op = op.prev_op
    return False


def _is_zero(value: SSAValue) -> bool:
    """Whether `value` is the integer constant 0."""
    constant = value.owner
    return (
        isinstance(constant, arith.ConstantOp)
        and isinstance(constant.value, IntegerAttr)
        and constant.value.value.data == 0
    )
