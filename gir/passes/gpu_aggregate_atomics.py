"""`gpu-aggregate-atomics`: marks atomic adds that every thread makes alike, for the printers to aggregate."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, ModuleOp, UnitAttr
from xdsl.passes import ModulePass

from gir.dialects import gir_gpu
from gir.dialects.gir_gpu import AGGREGATED, AtomicKind
from gir.ir_walk import walk


@dataclass(frozen=True)
class GpuAggregateAtomics(ModulePass):
    """Marks `gir_gpu.atomic_rmw add` ops on an address and of a value that no
    thread of a block sees differently (`thread_varying_values`) as `gir_gpu.aggregated`.

    The typical one is an enqueue: every thread that appends to a queue adds 1
    to the queue's size counter, all at one address, and on a wide frontier
    thousands of them line up at that address each step. Marked, the CUDA printer
    lets the threads of a warp that arrive together make one atomic add for all
    of them (their old values follow as if they had added in lane order), and
    the queue's order within a step changes, which no reader of a sparse queue
    may rely on. The OpenCL printer keeps one atomic per thread: OpenCL 1.2 has
    no sub-group operations for threads that diverged.

    Before:
    ```mlir
    gir_gpu.kernel @map_expand(%queue_size: memref<?xi32>, ...) {
      ...
      %position = gir_gpu.atomic_rmw add %one, %queue_size[%zero] : i32, memref<?xi32>, index
      %old = gir_gpu.atomic_rmw add %one, %counts[%vertex] : i32, memref<?xi32>, index
    }
    ```
    After:
    ```mlir
    gir_gpu.kernel @map_expand(%queue_size: memref<?xi32>, ...) {
      ...
      %position = gir_gpu.atomic_rmw add %one, %queue_size[%zero] {gir_gpu.aggregated} : i32, memref<?xi32>, index
      %old = gir_gpu.atomic_rmw add %one, %counts[%vertex] : i32, memref<?xi32>, index
    }
    ```
    """

    name = "gpu-aggregate-atomics"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for kernel in op.ops:
            if isinstance(kernel, gir_gpu.KernelOp):
                _mark(kernel)


def _mark(kernel: gir_gpu.KernelOp) -> None:
    varying = gir_gpu.thread_varying_values(kernel)
    for op in walk(kernel):
        if (
            isinstance(op, gir_gpu.AtomicRMWOp)
            and op.kind.data == AtomicKind.ADD
            and isinstance(op.value.type, IntegerType)
            and not any(v in varying for v in (op.buffer, op.index, op.value))
        ):
            op.attributes[AGGREGATED] = UnitAttr()
