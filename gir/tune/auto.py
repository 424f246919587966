"""`schedule="auto"`: a schedule chosen from the graph's statistics, without a search.

Two things decide a labelled apply's schedule:

- the graph's class (`classify`): **road** when its estimated diameter is long
  (above `ROAD_DIAMETER` levels: frontiers stay small for thousands of levels,
  so launch overhead dominates), else **social** (a few levels, frontiers that
  grow to most of the graph);
- the apply's traversal shape (`traversal_shape`): a priority-queue update
  (`applyUpdatePriority`), a frontier traversal with a destination filter
  (`from(f).to(g)`: each destination is claimed once, so pulling can stop
  early: BFS, BC), a frontier traversal without one (label propagation: CC's
  hooking), a traversal of every vertex that sums into the destinations (`+=`:
  PageRank's gather), or one that does not (CC's check).

On a road graph a frontier traversal inside a fusable loop takes the road
rule of a filtered one, loop fusion included, whether or not it has a filter:
what makes fusion pay there is the thousands of levels with small frontiers,
a property of the graph and the loop, not of the filter (BC's level-guarded
steps, `bc_best_road.gt`, have none: under CC's rule they ran unfused at 10x
their time).

`RULES` maps (class, shape) to schedule fields; each rule names the hand-swept
schedule file it comes from (`gir/benchmarks/programs/*_best_*.gt`, measured on
an H200 on rmat:22 and road:2048:2048) or G2's paper where gir has no better
file. A fusable loop around applies of a road rule is fused into one kernel
(CUDA only: OpenCL's space has no fusion), with the rule's block size and blocks
per SM. Edge blocking is dropped when the graph has fewer vertices than a block
(one block is no blocking) or when a blocked second copy of its edges would not
fit in the device's memory. Each apply's schedule is checked with the space's
own legality rules; a field a rule sets that the apply cannot take is left at
the default, and a point that does not lower falls back apply by apply to the
default schedule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, f64, i64
from xdsl.ir import Attribute

from gir.diagnostics import UserError
from gir.dialects import graph as graph_dialect
from gir.dialects.schedule import (
    DedupStrategyAttr,
    DirectionAttr,
    EdgeBlockingAttr,
    FrontierCreationAttr,
    HybridCriterion,
    HybridCriterionAttr,
    HybridScheduleAttr,
    LoadBalanceAttr,
    PullFrontierAttr,
    ScheduleAttr,
    SimpleScheduleAttr,
    ToggleAttr,
)
from gir.ir_walk import walk
from gir.space import LabelledApply, SchedulePoint, ScheduleSpace, fused_loop_schedule, legal_schedule
from gir.tune.stats import GraphStats

__all__ = ["RULES", "ROAD_DIAMETER", "Rule", "Shape", "auto_point", "classify", "model_inputs", "traversal_shape"]

ROAD_DIAMETER = 64
"""Above this estimated diameter a graph is road-like. G2's road graphs have
diameters in the thousands (road:2048:2048: about 4,000), its social graphs
below 30 (rmat:22: about 10); uniform random graphs are near log(V)."""


class Shape(StrEnum):
    """A labelled apply's traversal shape, as the rules tell them apart."""

    PRIORITY = "priority queue update"
    FILTERED = "frontier, destination filter"
    FRONTIER = "frontier, no filter"
    GATHER = "all vertices, summing"
    ALL = "all vertices"


@dataclass(frozen=True)
class Rule:
    """The schedule of one (graph class, traversal shape)."""

    fields: Mapping[str, str]
    """Schedule fields (SimpleScheduleAttr's keys) and their values as text."""
    source: str
    """Where the rule comes from."""
    pull: Mapping[str, str] | None = None
    """A hybrid's second part (above `threshold`): `fields` is then its first."""
    threshold: float = 0.01
    loop: tuple[int, int] | None = None
    """(block size, blocks per SM) of a fusable loop around the apply, if it is fused."""
    pull_claiming: Mapping[str, str] = field(default_factory=dict)
    """Fields of `pull` that replace its own when the edge function accumulates
    nothing (`+=`): a destination then stops at its first active neighbour
    (BFS's claim), so its work is short and one thread per vertex suffices."""


RULES: dict[tuple[str, Shape], Rule] = {
    ("road", Shape.PRIORITY): Rule(
        {"load_balance": "CM", "frontier_creation": "FUSED", "block_size": "512", "delta": "80000"},
        "sssp_best_road.gt (delta: G2's 80000 for road graphs)",
        loop=(512, 0),
    ),
    ("social", Shape.PRIORITY): Rule(
        {"load_balance": "TWCE", "frontier_creation": "UNFUSED_BITMAP", "delta": "1000"},
        "tuning runs on rmat:22, rmat:21:32 and uniform:4194304:33554432 (H200, 2026-11-28): "
        "G2's TWCE with a bitmap and delta 1000 (G2's boolmap and delta 250 took 1.2-1.4x as long)",
    ),
    ("road", Shape.FILTERED): Rule(
        {"load_balance": "CM", "frontier_creation": "FUSED", "deduplication": "ENABLED", "block_size": "128"},
        "bfs_best_road.gt, bc_best_road.gt: one fused kernel, 128 threads, 1 block per SM",
        loop=(128, 1),
    ),
    ("social", Shape.FILTERED): Rule(
        {"direction": "PUSH", "load_balance": "EDGE_ONLY", "frontier_creation": "FUSED"},
        "bfs_best_social.gt, bc_best_social.gt: push with EDGE_ONLY below 1% of the "
        "vertices (G2's threshold), pull over a bitmap above",
        pull={
            "direction": "PULL",
            "pull_frontier": "BITMAP",
            "load_balance": "TWCE",
            "frontier_creation": "UNFUSED_BITMAP",
        },
        pull_claiming={"load_balance": "VERTEX_BASED"},
    ),
    ("road", Shape.FRONTIER): Rule(
        {"frontier_creation": "UNFUSED_BITMAP", "deduplication": "ENABLED", "load_balance": "VERTEX_BASED"},
        "cc_best_road.gt",
    ),
    ("social", Shape.FRONTIER): Rule(
        {
            "frontier_creation": "UNFUSED_BITMAP",
            "deduplication": "ENABLED",
            "load_balance": "CM",
            "block_size": "1024",
        },
        "cc_best_social.gt",
    ),
    ("road", Shape.GATHER): Rule(
        {"block_size": "512"},
        "pr_best.gt: a push, VERTEX_BASED, 512 threads (gir-tune on road:2048:2048; H200: "
        "0.86x the time of G2's pull over 0x42000-vertex blocks)",
    ),
    ("social", Shape.GATHER): Rule(
        {"direction": "PULL", "load_balance": "EDGE_ONLY", "edge_blocking": "BLOCKED", "blocking_size": "0x10000"},
        "G2's PageRank schedule with blocks of 0x10000 vertices (H200, 2026-11-29: 0.93x of "
        "0x42000's time on rmat:22, 0.82x on rmat:21:32,seed=7); pr_best_social.gt's sweep of "
        "0x8000-vertex blocks is faster only on a degree-ordered graph, an ordering this model "
        "does not choose",
    ),
    ("road", Shape.ALL): Rule({}, "cc_best_road.gt: its check over every edge at the default schedule"),
    ("social", Shape.ALL): Rule(
        {"load_balance": "CM", "block_size": "1024"}, "cc_best_social.gt: its check over every edge"
    ),
}
"""The auto model: a schedule per (graph class, traversal shape) and its source."""


def classify(stats: GraphStats) -> str:
    """"road" for a long-diameter graph, else "social" (see `ROAD_DIAMETER`)."""
    return "road" if stats.diameter > ROAD_DIAMETER else "social"


def model_inputs(stats: GraphStats, device_memory: int | None = None) -> tuple[str, bool]:
    """All that `auto_point` reads of a graph: its class and whether its edges
    may be blocked (more vertices than G2's block of 0x42000, and a blocked copy that fits
    `device_memory`). Two graphs with equal inputs get the same schedule, so a
    caller may keep one point per program and inputs (the NetworkX backend does)."""
    blocking_fits = stats.degrees.vertices > 0x42000 and (device_memory is None or 2 * stats.bytes < device_memory)
    return classify(stats), blocking_fits


def traversal_shape(apply: LabelledApply, op: graph_dialect.EdgeSetApplyOp | None, sums: bool) -> Shape:
    """The shape of `apply` (`op` is its op in the program, for its filter;
    `sums` whether its edge function sums into a vector, `+=`)."""
    if apply.priority:
        return Shape.PRIORITY
    if not apply.from_frontier:
        return Shape.GATHER if sums else Shape.ALL
    if op is not None and op.to_filter is not None:
        return Shape.FILTERED
    return Shape.FRONTIER


_FIELD_TYPES: dict[str, type[Attribute]] = {
    "direction": DirectionAttr,
    "pull_frontier": PullFrontierAttr,
    "load_balance": LoadBalanceAttr,
    "frontier_creation": FrontierCreationAttr,
    "edge_blocking": EdgeBlockingAttr,
    "deduplication": ToggleAttr,
    "dedup_strategy": DedupStrategyAttr,
}


def _attribute(name: str, text: str) -> Attribute:
    if name in _FIELD_TYPES:
        kind = _FIELD_TYPES[name]
        if kind in (EdgeBlockingAttr, ToggleAttr, DedupStrategyAttr):
            enum = {EdgeBlockingAttr: "EdgeBlocking", ToggleAttr: "Toggle", DedupStrategyAttr: "DedupStrategy"}[kind]
            from gir.dialects import schedule

            return kind(getattr(schedule, enum)(text))
        return kind(text)
    return IntegerAttr(int(text, 0), i64)


def _shape_schedule(apply: LabelledApply, fields: Mapping[str, str]) -> SimpleScheduleAttr:
    """The default schedule with `fields`, keeping only those `apply` can take
    (the space's `legal_schedule`): the fields are tried all together, then each one
    added alone to what was kept."""
    options = {name: _attribute(name, text) for name, text in fields.items()}
    whole = legal_schedule(options, apply)
    if whole is not None:
        return whole
    kept: dict[str, Attribute] = {}
    for name, value in options.items():
        trial = {**kept, name: value}
        if name == "edge_blocking" and "blocking_size" in options:
            trial["blocking_size"] = options["blocking_size"]
        if legal_schedule(trial, apply) is not None:
            kept = trial
    schedule = legal_schedule(kept, apply)
    return schedule if schedule is not None else SimpleScheduleAttr.default()


def _apply_ops(space: ScheduleSpace) -> dict[str, graph_dialect.EdgeSetApplyOp]:
    ops: dict[str, graph_dialect.EdgeSetApplyOp] = {}
    for op in walk(space.base):
        if isinstance(op, graph_dialect.EdgeSetApplyOp) and op.label is not None:
            ops.setdefault(op.label.data, op)
    return ops


def _accumulates(space: ScheduleSpace, op: graph_dialect.EdgeSetApplyOp | None) -> bool:
    """Whether `op`'s edge function sums into a vector (`+=`)."""
    if op is None:
        return False
    from xdsl.traits import SymbolTable

    function = SymbolTable.lookup_symbol(space.base, op.udf)
    return function is not None and any(
        isinstance(inner, graph_dialect.ReduceOp) and inner.kind.data == graph_dialect.ReduceKind.ADD
        for inner in walk(function)
    )


def _rule(klass: str, shape: Shape, in_fusable_loop: bool) -> Rule:
    """The rule of an apply of `shape` on a graph of `klass`: on a road graph, an
    unfiltered frontier traversal in a fusable loop is fused as a filtered one
    is (see the module docstring)."""
    if klass == "road" and shape is Shape.FRONTIER and in_fusable_loop:
        return RULES[(klass, Shape.FILTERED)]
    return RULES[(klass, shape)]


@dataclass(frozen=True)
class Choice:
    """What the auto model chose for one labelled apply or loop, and why."""

    label: str
    shape: str
    source: str


def auto_point(
    space: ScheduleSpace, stats: GraphStats, device_memory: int | None = None
) -> tuple[SchedulePoint, list[Choice]]:
    """The auto schedule of `space`'s program on a graph with `stats`, and the
    rule behind each labelled statement; `device_memory` (bytes, None: unknown)
    turns edge blocking off for a graph whose blocked copy would not fit."""
    klass, blocking_fits = model_inputs(stats, device_memory)
    ops = _apply_ops(space)
    schedules: dict[str, ScheduleAttr] = {}
    choices: list[Choice] = []
    fused_loops: dict[str, tuple[int, int]] = {}
    blocked_already = False
    for apply in space.applies:
        sums = _accumulates(space, ops.get(apply.label))
        shape = traversal_shape(apply, ops.get(apply.label), sums)
        loop = next((loop for loop in space.loops if loop.label == apply.loop), None)
        rule = _rule(klass, shape, in_fusable_loop=loop is not None)
        fields = dict(rule.fields)
        if "edge_blocking" in fields and (blocked_already or not blocking_fits):
            fields.pop("edge_blocking")
            fields.pop("blocking_size", None)
        if rule.loop is not None and loop is not None:
            fused_loops.setdefault(loop.label, rule.loop)
            fields["block_size"] = str(fused_loops[loop.label][0])
        schedule: ScheduleAttr = _shape_schedule(apply, fields)
        if rule.pull is not None and apply.from_frontier and apply.loop not in fused_loops:
            pull = {**rule.pull, **(rule.pull_claiming if not sums else {})}
            schedule = HybridScheduleAttr(
                HybridCriterionAttr(HybridCriterion.INPUT_VERTEXSET_SIZE),
                FloatAttr(rule.threshold, f64),
                schedule,
                _shape_schedule(apply, pull),
            )
        if isinstance(schedule, SimpleScheduleAttr) and schedule.edge_blocking.data.blocked:
            blocked_already = True
        schedules[apply.label] = schedule
        choices.append(Choice(apply.label, f"{klass} graph, {shape.value}", rule.source))
    for label, (block, per_sm) in fused_loops.items():
        schedules[label] = fused_loop_schedule(block, per_sm)
        choices.append(Choice(label, f"{klass} graph, fusable loop", "kernel fusion of the road rules' sources"))
    return _lowering(space, SchedulePoint(schedules)), choices


def _lowering(space: ScheduleSpace, point: SchedulePoint) -> SchedulePoint:
    """`point`, or, if it does not lower, `point` with one statement after
    another set back to the default until it does."""
    from gir.api import lower_for_run

    schedules = dict(point)
    for label in [None, *reversed(list(schedules))]:
        if label is not None:
            schedules.pop(label)
        candidate = SchedulePoint(schedules)
        try:
            lower_for_run(space.module(candidate))
        except UserError:
            continue
        return candidate
    return SchedulePoint({})
