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
| `atomic_rmw add`, or a store of `load + x`          | `host.allreduce sum` against a clone |
| `atomic_cas`, `exch` or a plain store               | `host.allreduce claim` against a clone |
| an `atomic_rmw add` whose old value places a store  | `host.allgather` of the queue       |

Launches that read no edges (vertex maps, conversions, compactions) run
replicated on every device, with equal inputs and so equal results, and need no
exchange; so do loop conditions, which the host reads from exchanged buffers.

Before:
```mlir
%g = host.load_graph {argv = 1 : i64}
%col_idx = host.graph_array %g col_idx : memref<?xi32>
host.launch @relax grid %n block %b (%row_ptr, %col_idx, %dist) : ...
```
After:
```mlir
%g = host.load_graph {argv = 1 : i64, partitioned}
%col_idx = host.graph_array %g col_idx : memref<?xi32>
host.launch @relax grid %n block %b (%row_ptr, %col_idx, %dist) : ...
host.allreduce %dist min : memref<?xi32>
```

What is not partitioned is refused with one located error: kernel-fused loops
(a persistent kernel keeps its frontier loop on one device), host reads or
copies of edge arrays, and kernels whose writes to one buffer combine in
different ways.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import gir_gpu, host
from gir.dialects.gir_gpu import BOUNDS_RECORD, AtomicKind, KernelOp, is_persistent
from gir.dialects.host import Combine, GraphArray

REPLICATED_ARRAYS = (GraphArray.OUT_DEGREES,)
"""Graph arrays every device holds whole (vertex data, not edges)."""

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

    combines: dict[int, set[Combine]] = field(default_factory=dict)
    queues: dict[int, int] = field(default_factory=dict)
    """Counter argument -> items argument of each queue the kernel appends to."""


def kernel_writes(kernel: KernelOp) -> KernelWrites:
    """The combine of every buffer argument `kernel` writes, and its queues."""
    arguments = {argument: position for position, argument in enumerate(kernel.body.block.args)}
    writes = KernelWrites()
    stores: list[memref.StoreOp] = []
    appends: list[gir_gpu.AtomicRMWOp] = []
    for op in kernel.walk():
        if isinstance(op, memref.StoreOp) and op.memref in arguments:
            stores.append(op)
        elif isinstance(op, gir_gpu.AtomicRMWOp) and op.buffer in arguments:
            if op.kind.data == AtomicKind.ADD and op.old.uses:
                appends.append(op)
            else:
                writes.combines.setdefault(arguments[op.buffer], set()).add(_ATOMIC_COMBINES[op.kind.data])
        elif isinstance(op, gir_gpu.AtomicCASOp) and op.buffer in arguments:
            writes.combines.setdefault(arguments[op.buffer], set()).add(Combine.CLAIM)
    placed: set[memref.StoreOp] = set()
    for append in appends:
        slice_ = _forward_slice(append.old)
        targets = [store for store in stores if any(index in slice_ for index in store.indices)]
        if targets:
            placed.update(targets)
            writes.queues[arguments[append.buffer]] = arguments[targets[0].memref]
        else:  # a count whose old value is read otherwise: still a sum
            writes.combines.setdefault(arguments[append.buffer], set()).add(Combine.SUM)
    for store in stores:
        if store not in placed:
            writes.combines.setdefault(arguments[store.memref], set()).add(_store_combine(store))
    return writes


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


def _store_combine(store: memref.StoreOp) -> Combine:
    """SUM, MIN, ... for a store of `op(load buffer[i], x)` to `buffer[i]`; else CLAIM."""
    update = store.value.owner
    combine = _UPDATE_COMBINES.get(type(update)) if isinstance(update, Operation) else None
    if combine is None:
        return Combine.CLAIM
    for operand in update.operands:
        load = operand.owner
        if (
            isinstance(load, memref.LoadOp)
            and load.memref == store.memref
            and tuple(load.indices) == tuple(store.indices)
        ):
            return combine
    return Combine.CLAIM


@dataclass(frozen=True)
class HostPartition(ModulePass):
    """Partitions the edges over the devices of a run and inserts the exchanges
    after every launch that reads them (module docstring)."""

    name = "host-partition"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        main = next(
            (f for f in op.ops if isinstance(f, func.FuncOp) and f.sym_name.data == "main"), None
        )
        if main is None:
            return
        kernels = {k.sym_name.data: k for k in op.ops if isinstance(k, KernelOp)}
        edge_arrays = _partition_loads(main)
        _refuse_host_edge_access(main, edge_arrays)
        unshared = _bounds_records(main)
        summaries: dict[str, KernelWrites] = {}
        for launch in [o for o in main.walk() if isinstance(o, host.LaunchOp)]:
            if not any(argument in edge_arrays for argument in launch.args):
                continue
            kernel = kernels[launch.kernel.root_reference.data]
            if is_persistent(kernel):
                raise UserError.at(
                    launch,
                    "error: a kernel-fused loop cannot run on several devices yet "
                    "(remove the loop's fusion from the schedule, or use --devices 1)",
                )
            if kernel.sym_name.data not in summaries:
                summaries[kernel.sym_name.data] = kernel_writes(kernel)
            _exchange_after(launch, kernel, summaries[kernel.sym_name.data], unshared)


def _partition_loads(main: func.FuncOp) -> set[SSAValue]:
    """Marks every graph load partitioned; the edge arrays of those graphs."""
    edge_arrays: set[SSAValue] = set()
    for op in main.walk():
        if isinstance(op, host.LoadGraphOp):
            op.partitioned = UnitAttr()
        elif isinstance(op, host.GraphArrayOp) and op.array.data not in REPLICATED_ARRAYS:
            edge_arrays.add(op.result)
    return edge_arrays


def _refuse_host_edge_access(main: func.FuncOp, edge_arrays: set[SSAValue]) -> None:
    """Host reads and copies of an edge array would see one device's part."""
    for op in main.walk():
        if isinstance(op, host.ReadOp | host.CopyOp | host.ListPushOp) and any(
            operand in edge_arrays for operand in op.operands
        ):
            raise UserError.at(
                op, f"error: '{op.name}' of a graph's edge array cannot run on several devices yet"
            )


def _bounds_records(main: func.FuncOp) -> set[SSAValue]:
    """The buffers `gpu-check-bounds` records misses in: each device checks its own."""
    return {
        op.buffer
        for op in main.walk()
        if isinstance(op, host.BindGlobalOp) and op.global_name.data == BOUNDS_RECORD
    }


def _exchange_after(
    launch: host.LaunchOp, kernel: KernelOp, writes: KernelWrites, unshared: set[SSAValue]
) -> None:
    """Inserts the clones before `launch` and the exchanges after it."""
    name = kernel.sym_name.data
    before: list[Operation] = []
    after: list[Operation] = []
    for counter, items in sorted(writes.queues.items()):
        after.append(host.AllGatherOp(launch.args[items], launch.args[counter]))
    clones: list[host.CloneOp] = []
    for position, combines in sorted(writes.combines.items()):
        if position in writes.queues or position in writes.queues.values():
            raise UserError.at(
                launch,
                f"error: kernel '{name}' both appends to a queue and updates its "
                f"argument {position}: it cannot run on several devices yet",
            )
        if len(combines) != 1:
            kinds = ", ".join(sorted(combines))
            raise UserError.at(
                launch,
                f"error: kernel '{name}' writes its argument {position} in ways that "
                f"combine differently across devices ({kinds}): it cannot run on several devices yet",
            )
        (combine,) = combines
        buffer = launch.args[position]
        if buffer in unshared:
            continue
        if combine in host.COMBINES_WITH_BASE:
            clone = host.CloneOp(buffer)
            before.append(clone)
            clones.append(clone)
            after.append(host.AllReduceOp(buffer, combine, clone.result))
        else:
            after.append(host.AllReduceOp(buffer, combine))
    after.extend(host.FreeOp(clone.result) for clone in clones)
    if before:
        Rewriter.insert_op(before, InsertPoint.before(launch))
    if after:
        Rewriter.insert_op(after, InsertPoint.after(launch))
