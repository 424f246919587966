"""A block-wide exclusive sum in device code, shared by the cooperative load
balances (`gir/passes/load_balance/cooperative.py`) and the frontier
representations' compaction kernels; it sits below both axis packages."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import i32
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from gir.dialects import gir_gpu
from gir.dialects.gir_gpu import SUBGROUP_SIZE, Dimension
from gir.passes.gpu_kernels import as_index, constant


def block_exclusive_sum(
    b: Builder, value: SSAValue, warp_totals: SSAValue, block_size: int
) -> tuple[SSAValue, SSAValue]:
    """Device code at a kernel's top level: the sum of `value` (i32, or i64 edge
    counts of 64-bit edge indices; `warp_totals` of the same type) over the
    block's threads below this one, and over the whole block. A sub-group exclusive
    sum, each warp's total in `warp_totals` (B/32 slots), a barrier, then a second
    sub-group sum of those totals gives each warp its base."""
    rank = b.insert(gir_gpu.SubgroupExclusiveSumOp(value)).result
    rank.name_hint = "rank"
    lane = b.insert(gir_gpu.IdOp(Dimension.LANE)).result
    warp = b.insert(gir_gpu.IdOp(Dimension.SUBGROUP)).result
    last = b.insert(arith.CmpiOp(lane, constant(b, SUBGROUP_SIZE - 1), "eq")).result
    then = Builder(InsertPoint.at_end(block := Block()))
    warp_total = then.insert(arith.AddiOp(rank, value)).result
    then.insert(memref.StoreOp.get(warp_total, warp_totals, [as_index(then, warp)]))
    then.insert(scf.YieldOp())
    b.insert(scf.IfOp(last, [], Region(block)))
    b.insert(gir_gpu.BarrierOp())
    warps = max(1, block_size // SUBGROUP_SIZE)
    has_total = b.insert(arith.CmpiOp(lane, constant(b, warps), "slt")).result
    load = Builder(InsertPoint.at_end(loaded := Block()))
    load.insert(scf.YieldOp(load.insert(memref.LoadOp.get(warp_totals, [as_index(load, lane)])).res))
    none = Builder(InsertPoint.at_end(zero := Block()))
    none.insert(scf.YieldOp(constant(none, 0, value.type)))
    total_of_lane = b.insert(scf.IfOp(has_total, [value.type], Region(loaded), Region(zero))).results[0]
    base_of_lane = b.insert(gir_gpu.SubgroupExclusiveSumOp(total_of_lane)).result
    base = b.insert(gir_gpu.SubgroupBroadcastOp(base_of_lane, warp)).result
    through_lane = b.insert(arith.AddiOp(base_of_lane, total_of_lane)).result
    total = b.insert(gir_gpu.SubgroupBroadcastOp(through_lane, constant(b, warps - 1))).result
    total.name_hint = "total"
    first = b.insert(arith.AddiOp(base, rank)).result
    first.name_hint = "first"
    return first, total
