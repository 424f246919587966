"""Makes every edgeset apply's schedule explicit (G2's defaults) and rejects the
options that no pass lowers yet."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass

from gir.axes import DIRECTIONS, LOAD_BALANCES
from gir.diagnostics import UserError
from gir.dialects import graph
from gir.dialects.schedule import (
    DedupStrategy,
    EdgeBlocking,
    HybridScheduleAttr,
    SimpleScheduleAttr,
    Toggle,
)
from gir.ir_walk import walk
from gir.passes.frontier_edge_blocking import blocking_unsupported
from gir.passes.ir_utils import statement


SUPPORTED: dict[str, set[str]] = {
    "edge_blocking": set(EdgeBlocking),
    "deduplication": {Toggle.DISABLED, Toggle.ENABLED},
    "dedup_strategy": {DedupStrategy.FUSED, DedupStrategy.UNFUSED},
    "kernel_fusion": {Toggle.DISABLED},
}
"""Values of the enum-valued schedule options that the GPU lowering realizes.
`direction`, `load_balance`, `frontier_creation` and `pull_frontier` name
registered strategies (their attributes verify it, `gir.axes`), and the load
balance says which schedules it lowers (`LoadBalanceStrategy.unsupported`); `delta`
only matters to priority queues (any positive width; the graph verifier keeps it
to applyUpdatePriority); `pull_frontier` only to PULL;
`dedup_strategy` only when deduplication is ENABLED."""


def _option_value(value: Attribute) -> str:
    data = getattr(value, "data", value)
    return str(getattr(data, "value", data))


def check_schedule(schedule: SimpleScheduleAttr, where: str, at: Operation | None = None) -> None:
    """Raises a user error naming the first option of `schedule` (of `where`, a
    statement) that the lowering does not realize."""
    from gir.passes.load_balance import load_balance

    def reject(option: str, value: Attribute) -> None:
        raise UserError.at(at,
            f"error: schedule option {option} = {_option_value(value)} of {where} "
            "is not supported yet"
        )

    for option, allowed in SUPPORTED.items():
        value = getattr(schedule, option)
        if option == "dedup_strategy" and schedule.deduplication.data == Toggle.DISABLED:
            continue
        if value.data not in allowed:
            reject(option, value)
    reason = load_balance(schedule.load_balance.data).unsupported(schedule)
    if reason is not None:
        raise UserError.at(at,
            f"error: load balance {schedule.load_balance.data} of {where} "
            f"cannot lower {reason} yet"
        )
    if schedule.edge_sample.value.data:
        reason = _edge_sample_unsupported(schedule)
        if reason is not None:
            raise UserError.at(at, f"error: configEdgeSample of {where} {reason}")


def _edge_sample_unsupported(schedule: SimpleScheduleAttr) -> str | None:
    """Why a traversal with `schedule` cannot walk only the first edges of each
    vertex (`configEdgeSample`), None if it can: the cap goes on the edge loop of
    a thread that walks a whole vertex (the direction's `vertex_map`), so the load
    balance must give each vertex one thread and the direction must cap it."""
    from gir.passes.directions import direction
    from gir.passes.load_balance import load_balance

    if not load_balance(schedule.load_balance.data).owns_iterated_vertex():
        owning = [name for name in LOAD_BALANCES if LOAD_BALANCES.get(name).owns_iterated_vertex()]
        return (
            f"needs load balance {' or '.join(owning)} (one thread walking each vertex's "
            f"edges), got {schedule.load_balance.data}"
        )
    if not direction(schedule.direction.data).samples_edges:
        sampling = [name for name in DIRECTIONS if DIRECTIONS.get(name).samples_edges]
        return f"needs direction {' or '.join(sampling)}, got {schedule.direction.data}"
    if schedule.edge_blocking.data.blocked:
        return (
            f"cannot take edge blocking ({schedule.edge_blocking.data}), which spreads a "
            "vertex's edges over blocks"
        )
    return None


@dataclass(frozen=True)
class GraphDefaultSchedule(ModulePass):
    """Makes every edgeset apply's schedule explicit (G2 defaults) and rejects options not lowered yet.

    Every `graph.edgeset_apply` gets a `schedule` property (G2's defaults where the
    program gave none); a schedule option (of a simple schedule or of either part
    of a hybrid one) or kernel fusion that no pass realizes yet is a user error
    naming the option and the statement.

    Before:
    ```mlir
    %o = graph.edgeset_apply %e from %f apply_modified @updateEdge
        {tracked = @parent, label = "s1"} : !graph.edgeset -> !graph.vertexset
    ```
    After:
    ```mlir
    %o = graph.edgeset_apply %e from %f apply_modified @updateEdge
        {tracked = @parent, label = "s1", schedule = #graph.simple_schedule<
        direction = PUSH, pull_frontier = BOOLMAP, load_balance = VERTEX_BASED,
        edge_blocking = UNBLOCKED, blocking_size = 0, frontier_creation = FUSED,
        deduplication = DISABLED, dedup_strategy = FUSED, delta = 1,
        kernel_fusion = DISABLED>} : !graph.edgeset -> !graph.vertexset
    ```
    """

    name = "graph-default-schedule"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        blocked: dict[int, str] = {}
        for child in walk(op):
            if isinstance(child, graph.EdgeSetApplyOp):
                _complete(child)
                _check_blocking(child, blocked)
            else:
                _check_other(child)


def _complete(apply: graph.EdgeSetApplyOp) -> None:
    where = statement(apply)
    schedule = apply.schedule
    if schedule is None:
        schedule = SimpleScheduleAttr.default()
        apply.properties["schedule"] = schedule
    if isinstance(schedule, HybridScheduleAttr):
        check_schedule(schedule.first, f"{where} (first schedule of its hybrid)", apply)
        check_schedule(schedule.second, f"{where} (second schedule of its hybrid)", apply)
        return
    check_schedule(schedule, where, apply)


def _check_blocking(apply: graph.EdgeSetApplyOp, blocked: dict[int, str]) -> None:
    """Edge blocking where it can be lowered (`frontier-edge-blocking`), and by one
    size per program (the edges are reordered once, at load); `blocked` maps the
    sizes seen so far to their statements."""
    schedule = apply.schedule
    where = statement(apply)
    parts = (
        [schedule.first, schedule.second]
        if isinstance(schedule, HybridScheduleAttr)
        else [schedule]
    )
    for part in parts:
        assert isinstance(part, SimpleScheduleAttr)
        reason = blocking_unsupported(part, over_all_vertices=apply.frontier is None)
        if reason is not None:
            raise UserError.at(
                apply, f"error: edge blocking ({part.edge_blocking.data}) of {where} {reason}"
            )
        if not part.edge_blocking.data.blocked:
            continue
        size = part.blocking_size.value.data
        for other_size, other in blocked.items():
            if other_size != size:
                raise UserError.at(apply,
                    f"error: edge blocking of {where} by {size} vertices, but {other} "
                    f"blocks by {other_size}: a program's edges are blocked once, by one size"
                )
        blocked[size] = where


def _check_other(op: Operation) -> None:
    """Schedules on other statements (kernel fusion of a while loop)."""
    for value in [*op.properties.values(), *op.attributes.values()]:
        if isinstance(value, HybridScheduleAttr):
            raise UserError.at(op,
                f"error: hybrid schedule of {statement(op)} is not supported yet"
            )
        if isinstance(value, SimpleScheduleAttr):
            if isinstance(op, scf.WhileOp) and value.kernel_fusion.data == Toggle.ENABLED:
                continue  # realized by gpu-fuse-loops
            if value.kernel_fusion.data != Toggle.DISABLED:
                raise UserError.at(op,
                    f"error: schedule option kernel_fusion = "
                    f"{value.kernel_fusion.data.value} of {statement(op)} "
                    "is not supported yet"
                )
