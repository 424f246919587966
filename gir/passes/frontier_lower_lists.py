"""`frontier-lower-lists`: lists of frontiers as host lists of device arrays."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.dialects import frontier, host
from gir.dialects.frontier import SparseQueueType
from gir.ir_walk import walk
from gir.passes.gpu_kernels import GpuContext, constant, replace
from gir.passes.kernel_builder import fold_casts, frontier_value, host_values
from gir.passes.ir_utils import main_function
from gir.passes.representations import representation


@dataclass(frozen=True)
class FrontierLowerLists(ModulePass):
    """Lowers `!frontier.list` and its ops to a `!host.list` (runs after
    `frontier-to-host-values`, on the queues' host values).

    A list keeps every inserted queue back to back in one device array of its
    own, with the host stack of where each entry ends (G2's BC keeps its levels
    so): `insert` is one device-to-device copy of the queue's `size` items onto
    the end (the array doubles when full), `retrieve` one copy of the last entry
    into the target queue's items, and the entry's size comes from the host
    stack, so neither reads anything back from the device. Because the list owns
    copies, a queue inserted into it stays the caller's: freeing it
    (`delete`) or reusing its storage (`frontier-double-buffer`) cannot change
    an entry. A retrieve without a target (`list.pop()`) pops into a fresh queue.

    Before:
    ```mlir
    %l = frontier.list_new : !frontier.list
    frontier.list_insert %l, %f : !frontier.queue   // %f: (%items, %size)
    %g = frontier.list_retrieve %l into %f : !frontier.queue
    ```
    After:
    ```mlir
    %l = host.list_new : !host.list
    host.list_push %l, %items, %size : memref<?xi32>, i32
    %n = host.list_pop %l, %items : memref<?xi32>   // %g: (%items, %n)
    ```
    """

    name = "frontier-lower-lists"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        main = main_function(op)
        ops = [child for child in walk(main) if isinstance(child, frontier.ListOps)]
        if not ops:
            return
        gpu = GpuContext.of(op)
        for child in list(walk(main)):
            if isinstance(child, scf.WhileOp | scf.ForOp | scf.IfOp):
                _retype_carried_lists(child)
        for child in ops:
            _lower(gpu, child)
        fold_casts(main)


def _retype_carried_lists(op: Operation) -> None:
    """A loop or branch carries the host list where it carried the frontier list."""
    values = [
        *op.results,
        *(arg for region in op.regions for block in region.blocks for arg in block.args),
    ]
    for value in values:
        if isinstance(value.type, frontier.ListType):
            Rewriter.replace_value_with_new_type(value, host.ListType())


def _lower(gpu: GpuContext, op: Operation) -> None:
    b = Builder(InsertPoint.before(op))
    if isinstance(op, frontier.ListNewOp):
        new = b.insert(host.ListNewOp())
        new.result.name_hint = op.result.name_hint
        replace(op, [new.result])
    elif isinstance(op, frontier.ListInsertOp):
        items, size = host_values(op.frontier)
        b.insert(host.ListPushOp(op.list, items, size))
        Rewriter.erase_op(op)
    elif isinstance(op, frontier.ListRetrieveOp):
        queue = representation(SparseQueueType)
        if op.into is not None:
            items = host_values(op.into)[0]
        else:
            items = queue.new(gpu, b, constant(b, 0))[0]
        size = b.insert(host.ListPopOp(op.list, items)).result
        size.name_hint = "size"
        replace(op, [frontier_value(b, [items, size], op.result.type)])
