"""The boolmap (`!frontier.boolmap`) on the GPU: one byte per vertex, G2's
UNFUSED_BOOLMAP output and a PULL input.

Host value: `flags` (a `memref<?xi8>` of V elements, nonzero for members).
Enqueueing stores 1 into the vertex's byte: concurrent stores of the same value
need no atomic, and a vertex enqueued twice is held once.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import i8
from xdsl.ir import SSAValue

from gir.dialects.frontier import BoolmapType
from gir.passes.gpu_kernels import GpuContext, as_index, constant
from gir.passes.representations.dense import DenseFrontier


class Boolmap(DenseFrontier):
    """`!frontier.boolmap` as one i8 flag per vertex."""

    type = BoolmapType
    creation = "UNFUSED_BOOLMAP"
    pull_frontier = "BOOLMAP"
    element = i8
    host_names = ("flags",)

    def slots(self, ctx: GpuContext, b: Builder) -> SSAValue:
        return ctx.vertices

    def test(self, b: Builder, storage: SSAValue, vertex: SSAValue) -> SSAValue:
        flag = b.insert(memref.LoadOp.get(storage, [as_index(b, vertex)])).res
        return b.insert(arith.CmpiOp(flag, constant(b, 0, i8), "ne")).result

    def mark(self, b: Builder, storage: SSAValue, vertex: SSAValue) -> None:
        b.insert(memref.StoreOp.get(constant(b, 1, i8), storage, [as_index(b, vertex)]))
