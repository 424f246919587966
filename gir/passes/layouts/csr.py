"""The CSR layout on the GPU: out-edges of vertex v are positions
row_ptr[v] .. row_ptr[v+1]-1 of col_idx (destinations) and weights."""

from __future__ import annotations

from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Attribute, SSAValue

from gir.dialects.host import GraphArray
from gir.passes.gpu_kernels import GpuContext, as_index
from gir.passes.layouts import LayoutStrategy


class Csr(LayoutStrategy):
    """Compressed sparse rows, by source."""

    value = "CSR"
    direction = "PUSH"
    transposed = "CSC"

    offsets: ClassVar[GraphArray] = GraphArray.ROW_PTR
    """The V+1 offsets of each vertex's edges."""
    others: ClassVar[GraphArray] = GraphArray.COL_IDX
    """The other endpoint of each edge."""
    weights: ClassVar[GraphArray] = GraphArray.WEIGHTS
    """The weight of each edge, in the same order."""
    owners: ClassVar[GraphArray] = GraphArray.COO_SRC
    """The vertex whose edge range holds each edge position (COO of the layout)."""

    def edge_range(
        self, ctx: GpuContext, b: Builder, vertex: SSAValue
    ) -> tuple[SSAValue, SSAValue]:
        offsets = ctx.graph_array(self.offsets)
        row = as_index(b, vertex)
        one = b.insert(arith.ConstantOp(IntegerAttr(1, IndexType()))).result
        next_row = b.insert(arith.AddiOp(row, one)).result
        begin = b.insert(memref.LoadOp.get(offsets, [row])).res
        end = b.insert(memref.LoadOp.get(offsets, [next_row])).res
        return as_index(b, begin), as_index(b, end)

    def neighbor(self, ctx: GpuContext, b: Builder, position: SSAValue) -> SSAValue:
        others = ctx.graph_array(self.others)
        return b.insert(memref.LoadOp.get(others, [position])).res

    def weight(
        self, ctx: GpuContext, b: Builder, position: SSAValue, weight_type: Attribute
    ) -> SSAValue:
        weights = ctx.graph_array(self.weights, weight_type)
        return b.insert(memref.LoadOp.get(weights, [position])).res

    def owner(self, ctx: GpuContext, b: Builder, position: SSAValue) -> SSAValue:
        owners = ctx.graph_array(self.owners)
        return b.insert(memref.LoadOp.get(owners, [position])).res
