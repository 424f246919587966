"""Splits each apply with a hybrid schedule into a run-time choice between two applies."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import FloatAttr, ModuleOp, StringAttr, f64
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import graph
from gir.dialects.schedule import (
    ArgvAttr,
    HybridCriterion,
    HybridScheduleAttr,
    SimpleScheduleAttr,
)
from gir.ir_walk import walk
from gir.passes.ir_utils import statement

BRANCH_LABELS = ("first", "second")
"""The label suffixes of the two applies a hybrid statement becomes."""


@dataclass(frozen=True)
class GraphSplitHybrid(ModulePass):
    """Splits each apply with a hybrid schedule into a run-time choice between two applies.

    G2's `HybridGPUSchedule(INPUT_VERTEXSET_SIZE, threshold, s1, s2)`: an
    `graph.edgeset_apply` whose schedule is hybrid becomes an `scf.if` on
    `|input| < threshold * |V|` (the threshold a number, or the program's
    `argv[N]` read as a float) whose branches are copies of the apply with the
    simple schedules `s1` (then) and `s2` (else), labelled `<label>:first` and
    `<label>:second`. Each copy is then an ordinary statement: it gets its own
    copy of the user functions (`graph-specialize-udfs`), so its atomics are
    decided for its own direction and load balance, and its own frontier
    creation and traversal.

    Before:
    ```mlir
    %o = graph.edgeset_apply %e from %f apply_modified @claim {label = "s1",
        schedule = #graph.hybrid_schedule<INPUT_VERTEXSET_SIZE, threshold = 0.01,
        #graph.simple_schedule<...>, #graph.simple_schedule<direction = PULL, ...>>}
        : !graph.edgeset -> !graph.vertexset
    ```
    After:
    ```mlir
    %size = graph.vertexset_size %f : i32
    %all = graph.get_vertices %e : !graph.edgeset
    %count = graph.vertexset_size %all : i32
    ...                                  // %small = size < 0.01 * count, in f64
    %o = scf.if %small -> (!graph.vertexset) {
      %o1 = graph.edgeset_apply %e from %f apply_modified @claim {label = "s1:first",
          schedule = #graph.simple_schedule<...>} : !graph.edgeset -> !graph.vertexset
      scf.yield %o1 : !graph.vertexset
    } else {
      %o2 = graph.edgeset_apply %e from %f apply_modified @claim {label = "s1:second",
          schedule = #graph.simple_schedule<direction = PULL, ...>} : ...
      scf.yield %o2 : !graph.vertexset
    }
    ```
    """

    name = "graph-split-hybrid"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for child in list(walk(op)):
            if isinstance(child, graph.EdgeSetApplyOp) and isinstance(
                child.schedule, HybridScheduleAttr
            ):
                _split(child, child.schedule)


def _split(apply: graph.EdgeSetApplyOp, hybrid: HybridScheduleAttr) -> None:
    if hybrid.criterion.data != HybridCriterion.INPUT_VERTEXSET_SIZE:
        raise UserError.at(apply,
            f"error: hybrid criterion {hybrid.criterion.data.value} of {statement(apply)} "
            "is not supported yet"
        )
    point = InsertPoint.before(apply)
    small = _below_threshold(apply, hybrid, point)
    label = apply.label.data if apply.label is not None else apply.udf.root_reference.data
    branches: list[Region] = []
    for suffix, schedule in zip(BRANCH_LABELS, (hybrid.first, hybrid.second), strict=True):
        branches.append(_branch(apply, schedule, f"{label}:{suffix}"))
    choice = scf.IfOp(small, list(apply.result_types), branches[0], branches[1])
    Rewriter.replace_op(apply, choice)


def _branch(apply: graph.EdgeSetApplyOp, schedule: SimpleScheduleAttr, label: str) -> Region:
    """A region running a copy of `apply` with `schedule` and `label`, yielding
    its result (if any)."""
    copy = apply.clone()
    copy.properties["schedule"] = schedule
    copy.properties["label"] = StringAttr(label)
    return Region(Block([copy, scf.YieldOp(*copy.results)]))


def _below_threshold(
    apply: graph.EdgeSetApplyOp, hybrid: HybridScheduleAttr, point: InsertPoint
) -> SSAValue:
    """Inserts at `point` the test `|input| < threshold * |V|` (an i1)."""
    every = graph.GetVerticesOp(apply.edges)
    count = graph.VertexSetSizeOp(every)
    count.result.name_hint = "vertex_count"
    ops = [every, count]
    if apply.frontier is None:
        size = count
    else:
        size = graph.VertexSetSizeOp(apply.frontier)
        size.result.name_hint = "input_size"
        ops.append(size)
    if isinstance(hybrid.threshold, ArgvAttr):
        threshold = graph.ArgvIntOp(hybrid.threshold.index.value.data, f64)
    else:
        threshold = arith.ConstantOp(FloatAttr(hybrid.threshold.value.data, f64))
    threshold.results[0].name_hint = "threshold"
    size_f = arith.SIToFPOp(size.result, f64)
    count_f = arith.SIToFPOp(count.result, f64)
    limit = arith.MulfOp(threshold.results[0], count_f.result)
    small = arith.CmpfOp(size_f.result, limit.result, "olt")
    small.result.name_hint = "small_input"
    ops += [threshold, size_f, count_f, limit, small]
    Rewriter.insert_op(ops, point)
    return small.result
