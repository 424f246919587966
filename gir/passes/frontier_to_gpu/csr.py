"""The CSR layout on the GPU: out-edges of vertex v are positions
row_ptr[v] .. row_ptr[v+1]-1 of col_idx (destinations) and weights."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Attribute, SSAValue

from gir.dialects.host import GraphArray
from gir.passes.frontier_to_gpu.context import GpuContext, LayoutLowering, as_index


class Csr(LayoutLowering):
    """Compressed sparse rows, by source."""

    def edge_range(
        self, ctx: GpuContext, b: Builder, vertex: SSAValue
    ) -> tuple[SSAValue, SSAValue]:
        row_ptr = ctx.graph_array(GraphArray.ROW_PTR)
        row = as_index(b, vertex)
        one = b.insert(arith.ConstantOp(IntegerAttr(1, IndexType()))).result
        next_row = b.insert(arith.AddiOp(row, one)).result
        begin = b.insert(memref.LoadOp.get(row_ptr, [row])).res
        end = b.insert(memref.LoadOp.get(row_ptr, [next_row])).res
        return as_index(b, begin), as_index(b, end)

    def neighbor(self, ctx: GpuContext, b: Builder, position: SSAValue) -> SSAValue:
        col_idx = ctx.graph_array(GraphArray.COL_IDX)
        return b.insert(memref.LoadOp.get(col_idx, [position])).res

    def weight(
        self, ctx: GpuContext, b: Builder, position: SSAValue, weight_type: Attribute
    ) -> SSAValue:
        weights = ctx.graph_array(GraphArray.WEIGHTS, weight_type)
        return b.insert(memref.LoadOp.get(weights, [position])).res
