"""`gir.schedule_space(program)`: every legal schedule of a program, for an autotuner.

(The module is `gir.space`, not `gir.schedule_space`: a submodule of that name
would replace the function `gir.schedule_space` once imported.)

A program's *schedulable statements* are its labelled edgeset applies (`#s1#` in
GraphIt) and its labelled `while` loops that kernel fusion can take. A *point* of
the space gives each labelled apply a schedule and each fused loop its fusion
schedule; every point compiles for CUDA and OpenCL. The space is the autotuner's
input (`gir-tune`) and a test of the lowering (`test/unit/test_schedule_space.py`).

```python
import gir
space = gir.schedule_space("test/programs/bfs.gt")
len(space)                      # how many points
point = space[123]              # a `SchedulePoint`: label -> schedule attribute
print(point.schedule_section()) # as GraphIt's `schedule:` section text
prog = gir.compile("test/programs/bfs.gt", schedule=point.schedule_section())
module = space.module(point)    # or: the program's graph-level IR with the point applied
```

What varies, per labelled apply (docs/schedule-space.md has the candidate values):
the direction (`gir.axes.DIRECTIONS`), the pull frontier (`gir.axes.pull_frontiers`,
only where the direction's `input_type` tells them apart and the apply reads a
frontier), the load balance (`gir.axes.LOAD_BALANCES`), the frontier creation
(`gir.axes.frontier_creations`, only where the apply makes a frontier),
deduplication and its strategy (only where the output representation can hold a
vertex twice, `FrontierRepresentation.dedup_for_capacity`), edge blocking (either
walk of the blocked layout, BLOCKED or BLOCKED_SWEEP) and its size (where the
load balance `composes_with_blocking` and `blocking_unsupported` allows it; one
size per program, as `graph-default-schedule` requires), the block size, delta
and bucket fusion (only on `applyUpdatePriority`), and hybrid
schedules (a part of one direction below the threshold, of a later-registered one
above it, sharing a block size; only on applies from a frontier outside fused
loops, and only where a hybrid lowers). Per fusable loop (CUDA only: OpenCL runs
a fused loop's unfused fallback): kernel fusion, its block size (which the
labelled applies inside it then share) and its blocks per SM.

Legality is asked of the code that owns each rule: the schedule attribute's
verifier (registered names, `LoadBalanceStrategy.composes_with_blocking`),
`graph-default-schedule`'s `check_schedule` (`LoadBalanceStrategy.unsupported`),
`frontier-edge-blocking`'s `blocking_unsupported`, and
`LoadBalanceStrategy.fusable` (no `host_steps()`) for kernel fusion. What only a
pass decides today is found by lowering a few probe programs once per space:
whether a hybrid lowers on an apply (priority queues do not lower under an
`scf.if`) and what else `gpu-fuse-loops` can fuse (a loop with its applies at the
defaults, then each other value of each axis on its own; a point's apply fuses
when each of its values does).
"""

from __future__ import annotations

import itertools
import os
import random
import re
from abc import ABC, abstractmethod
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from math import prod
from typing import TypeVar, cast, overload

from xdsl.dialects import scf
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp, f64, i64
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from gir import axes
from gir.diagnostics import UserError
from gir.dialects import graph
from gir.dialects.schedule import (
    DEFAULT_BLOCK_SIZE,
    DEFAULT_BUCKET_FUSION_THRESHOLD,
    MAX_BLOCK_SIZE,
    MIN_BLOCK_SIZE,
    DedupStrategy,
    DedupStrategyAttr,
    DirectionAttr,
    EdgeBlocking,
    EdgeBlockingAttr,
    FrontierCreationAttr,
    HybridCriterion,
    HybridCriterionAttr,
    HybridScheduleAttr,
    LoadBalanceAttr,
    PullFrontierAttr,
    ScheduleAttr,
    SimpleScheduleAttr,
    Toggle,
    ToggleAttr,
)
from gir.ir_walk import walk

__all__ = [
    "BLOCK_SIZES",
    "BLOCKING_SIZES",
    "BLOCKS_PER_SM",
    "BUCKET_FUSION_THRESHOLDS",
    "GRAPH_CLASSES",
    "FusableLoop",
    "LabelledApply",
    "LazyConcat",
    "LazyProduct",
    "SchedulePoint",
    "ScheduleSpace",
    "fused_loop_schedule",
    "legal_schedule",
    "read_program",
    "schedule_space",
    "without_schedules",
]

LOOP_LABEL = "graph.label"
"""The attribute naming a labelled loop (`IRGen`)."""
LOOP_SCHEDULE = "graph.schedule"
"""The attribute carrying a labelled loop's schedule (`gpu-fuse-loops` reads it)."""

# ---------------------------------------------------------------------------
# Candidate values of the numeric axes
# ---------------------------------------------------------------------------

BLOCK_SIZES: tuple[int, ...] = tuple(
    1 << bits
    for bits in range(MIN_BLOCK_SIZE.bit_length() - 1, MAX_BLOCK_SIZE.bit_length())
)
"""Threads per block: every power of two a schedule may ask for (32 to 1024)."""

BLOCKS_PER_SM: tuple[int, ...] = (0, 1, 2, 4)
"""A fused loop's blocks per multiprocessor: gir's default (0: as many as make
1024 threads), and 1, 2, 4 (the best road schedules use 1), leaving out the one
that is the default for the loop's block size (4 blocks of 256 threads)."""

BLOCKING_SIZES: tuple[int, ...] = (0x4000, 0x10000, 0x42000, 0x100000)
"""Edge blocking's vertices per block: G2's PageRank size (0x42000), a quarter of
it and about four times it, and 0x4000, the sweep's best on social graphs after a
degree ordering (`pr_best_social.gt`, docs/performance.md)."""

BUCKET_FUSION_THRESHOLDS: tuple[int, ...] = (64, DEFAULT_BUCKET_FUSION_THRESHOLD)
"""Bucket fusion reruns a bucket while it holds fewer vertices than this."""


@dataclass(frozen=True)
class GraphClass:
    """The candidates of the graph-dependent axes for one class of graphs."""

    deltas: tuple[int, ...]
    """Delta-stepping bucket widths (`configDelta`)."""
    hybrid_thresholds: tuple[float, ...]
    """Frontier sizes, as fractions of the vertex count, above which a hybrid
    schedule switches to its second part."""


GRAPH_CLASSES: dict[str | None, GraphClass] = {
    None: GraphClass(deltas=(1, 250, 80000), hybrid_thresholds=(0.001, 0.01, 0.1)),
    "social": GraphClass(deltas=(64, 250, 1000), hybrid_thresholds=(0.001, 0.01, 0.05)),
    "road": GraphClass(deltas=(20000, 80000, 320000), hybrid_thresholds=(0.01, 0.1, 0.3)),
}
"""Candidates per graph class. The centres are G2's (BENCHMARKS.md: delta 250 on
social graphs, 80000 on road graphs; pull above 0.01 of the vertices), a factor of
about four either side; without a class, both classes' centres and delta 1."""

TARGETS = ("cuda", "opencl")


# ---------------------------------------------------------------------------
# Lazy sequences: a product of choices and a concatenation of sequences
# ---------------------------------------------------------------------------

T = TypeVar("T")


class _Lazy(Sequence[T], ABC):
    """A sequence whose items are made when indexed."""

    @abstractmethod
    def item(self, index: int) -> T:
        """The item at `index`, in [0, len(self))."""

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...
    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        size = len(self)
        if isinstance(index, slice):
            return [self.item(i) for i in range(*index.indices(size))]
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(f"index {index} out of range for {size} items")
        return self.item(index)


class LazyProduct(_Lazy[T]):
    """The product of `factors` in order (the last varying fastest), each tuple of
    choices made into an item by `make` when indexed."""

    def __init__(self, factors: Sequence[Sequence[object]], make: Callable[..., T]):
        self.factors = tuple(factors)
        self.make = make
        self.size = prod(len(factor) for factor in self.factors)

    def __len__(self) -> int:
        return self.size

    def item(self, index: int) -> T:
        picked: list[object] = []
        for factor in reversed(self.factors):
            index, digit = divmod(index, len(factor))
            picked.append(factor[digit])
        return self.make(*reversed(picked))

    def __iter__(self) -> Iterator[T]:
        for picked in itertools.product(*self.factors):
            yield self.make(*picked)


class LazyConcat(_Lazy[T]):
    """The items of `parts`, one part after the other."""

    def __init__(self, parts: Sequence[Sequence[T]]):
        self.parts = [part for part in parts if len(part)]
        self.starts = list(itertools.accumulate((len(part) for part in self.parts), initial=0))

    def __len__(self) -> int:
        return self.starts[-1]

    def item(self, index: int) -> T:
        part = bisect_right(self.starts, index) - 1
        return self.parts[part][index - self.starts[part]]

    def __iter__(self) -> Iterator[T]:
        for part in self.parts:
            yield from part


# ---------------------------------------------------------------------------
# The data model
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LabelledApply:
    """A labelled `edgeset.apply`: what about it decides which schedules it takes."""

    label: str
    """Its label path (`applyGPUSchedule`'s first argument), e.g. "search:expand"."""
    kind: graph.ApplyKind
    from_frontier: bool
    """Whether it traverses from a frontier (`edges.from(f)`); else every vertex."""
    has_output: bool
    """Whether it makes a vertexset."""
    always_dedup: bool
    """Whether its output is deduplicated whatever the schedule says (a bool edge
    function's `apply`, or `applyModified(..., true)`)."""
    loop: str | None
    """The fusable loop it is in, if any."""
    edge_sample: int = 0
    """The program's own `configEdgeSample(N)` of it (0: none), which every point
    keeps: a sample changes what the apply computes, so the space never varies
    it, and it leaves only the schedules that sample (PUSH, VERTEX_BASED)."""

    @property
    def priority(self) -> bool:
        """An `applyUpdatePriority`: delta and bucket fusion apply to it."""
        return self.kind == graph.ApplyKind.APPLY_UPDATE_PRIORITY

    @property
    def creates_frontier(self) -> bool:
        """Whether its frontier creation matters: it makes a vertexset, or fills a
        priority queue's buckets (`graph-to-frontier`)."""
        return self.has_output or self.priority


@dataclass(frozen=True)
class FusableLoop:
    """A labelled `while` loop that `gpu-fuse-loops` fuses with its labelled
    applies at their defaults."""

    label: str
    applies: tuple[str, ...]
    """The labels of the labelled applies inside it."""


class SchedulePoint(Mapping[str, ScheduleAttr]):
    """One point of a schedule space: the schedule of each labelled apply and of
    each fused loop, by label (a loop left out is not fused)."""

    def __init__(self, schedules: Mapping[str, ScheduleAttr]):
        self._schedules = dict(schedules)

    def __getitem__(self, label: str) -> ScheduleAttr:
        return self._schedules[label]

    def __iter__(self) -> Iterator[str]:
        return iter(self._schedules)

    def __len__(self) -> int:
        return len(self._schedules)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SchedulePoint) and self._schedules == other._schedules

    def __hash__(self) -> int:
        return hash(tuple(self._schedules.items()))

    def __repr__(self) -> str:
        entries = ", ".join(f"{label!r}: {schedule}" for label, schedule in self._schedules.items())
        return f"SchedulePoint({{{entries}}})"

    def schedule_section(self) -> str:
        """The point as a GraphIt `schedule:` section (for `gir.compile(...,
        schedule=...)` or the end of a `.gt` file)."""
        lines = ["schedule:"]
        for number, (label, schedule) in enumerate(self._schedules.items()):
            name = f"s{number}"
            if isinstance(schedule, HybridScheduleAttr):
                lines += _simple_lines(f"{name}_first", schedule.first)
                lines += _simple_lines(f"{name}_second", schedule.second)
                threshold = schedule.threshold
                assert isinstance(threshold, FloatAttr)
                lines.append(
                    f"    HybridGPUSchedule {name} ({schedule.criterion.data.value}, "
                    f"{threshold.value.data!r}, {name}_first, {name}_second);"
                )
            else:
                lines += _simple_lines(name, schedule)
            lines.append(f'    program->applyGPUSchedule("{label}", {name});')
        return "\n".join(lines) + "\n"

    def apply(self, module: ModuleOp) -> None:
        """Sets the point's schedules on `module`, a graph-level module of its
        program: each labelled apply's `schedule`, each labelled loop's
        `graph.schedule` (removed from loops the point does not fuse)."""
        for op in walk(module):
            if isinstance(op, graph.EdgeSetApplyOp) and op.label is not None:
                schedule = self._schedules.get(op.label.data)
                if schedule is not None:
                    op.properties["schedule"] = schedule
            elif isinstance(op, scf.WhileOp) and LOOP_LABEL in op.attributes:
                label = op.attributes[LOOP_LABEL]
                schedule = self._schedules.get(getattr(label, "data", ""))
                if schedule is None:
                    op.attributes.pop(LOOP_SCHEDULE, None)
                else:
                    op.attributes[LOOP_SCHEDULE] = schedule


def _method_fields() -> dict[str, tuple[str, ...]]:
    """The schedule fields each `configX` method sets, in argument order, as the
    frontend reads them (`ScheduleEvaluator.methods`)."""
    from gir.frontend.notes import Warnings
    from gir.frontend.schedule import ScheduleEvaluator
    from gir.frontend.sema import SemaInfo

    # the method table is built without looking at the program (sema is unused)
    evaluator = ScheduleEvaluator(cast(SemaInfo, None), "<schedule>", Warnings("<schedule>"))
    return {
        method: tuple(option.field for option in options)
        for method, options in evaluator.methods.items()
    }


_DEFAULT = SimpleScheduleAttr.default()


def _simple_lines(name: str, schedule: SimpleScheduleAttr) -> list[str]:
    """`SimpleGPUSchedule name;` and the `configX` calls that make `schedule`:
    one per method setting a non-default field, its arguments up to the last
    non-default one."""
    lines = [f"    SimpleGPUSchedule {name};"]
    for method, fields in _METHOD_FIELDS.items():
        changed = [getattr(schedule, f) != getattr(_DEFAULT, f) for f in fields]
        if not any(changed):
            continue
        last = max(position for position, differs in enumerate(changed) if differs)
        args = ", ".join(_argument(getattr(schedule, f)) for f in fields[: last + 1])
        lines.append(f"    {name}.{method}({args});")
    return lines


def _argument(value: Attribute) -> str:
    if isinstance(value, IntegerAttr):
        return str(value.value.data)
    return str(getattr(value, "data"))


_METHOD_FIELDS = _method_fields()


# ---------------------------------------------------------------------------
# The space
# ---------------------------------------------------------------------------


@dataclass
class ScheduleSpace(Sequence[SchedulePoint]):
    """Every legal schedule of one program, in a fixed order, indexable and sized
    (see the module docstring). Points are made on demand: a space of billions
    costs its structure only."""

    program: str
    """The program's path (or `<string>`)."""
    source: str = field(repr=False)
    """Its GraphIt source."""
    applies: tuple[LabelledApply, ...]
    loops: tuple[FusableLoop, ...]
    target: str
    graph_class: str | None
    base: ModuleOp = field(repr=False)
    """The program's graph-level module with an empty schedule section."""
    points: Sequence[SchedulePoint] = field(repr=False)

    def __len__(self) -> int:
        return len(self.points)

    @overload
    def __getitem__(self, index: int) -> SchedulePoint: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[SchedulePoint]: ...
    def __getitem__(self, index: int | slice) -> SchedulePoint | Sequence[SchedulePoint]:
        return self.points[index]

    def __iter__(self) -> Iterator[SchedulePoint]:
        return iter(self.points)

    def sample(self, count: int, seed: int = 0) -> list[SchedulePoint]:
        """`count` distinct points (all if there are fewer) drawn with `seed`, in
        the order drawn."""
        chosen = random.Random(seed).sample(range(len(self)), min(count, len(self)))
        return [self[index] for index in chosen]

    def program_text(self, point: SchedulePoint) -> str:
        """The program's source with its schedule section replaced by `point`'s:
        a `.gt` file that runs under `point`."""
        found = SCHEDULE_SECTION.search(self.source)
        algorithm = self.source if found is None else self.source[: found.start()]
        return algorithm.rstrip("\n") + "\n\n" + point.schedule_section()

    def module(self, point: SchedulePoint) -> ModuleOp:
        """A copy of the program's graph-level module under `point`'s schedules,
        ready for `gir.api.lower_for_run` or `gir-translate`'s `translate`."""
        module = self.base.clone()
        point.apply(module)
        return module


def schedule_space(
    program: str | os.PathLike[str],
    graph_class: str | None = None,
    *,
    target: str = "cuda",
) -> ScheduleSpace:
    """The legal schedules of `program` (a `.gt` path or GraphIt source text).

    `graph_class` ("social", "road" or None) picks the candidate deltas and hybrid
    thresholds (`GRAPH_CLASSES`). `target` ("cuda" or "opencl"): OpenCL has no
    grid synchronization, so its space has no kernel fusion."""
    if graph_class not in GRAPH_CLASSES:
        known = ", ".join(str(name) for name in GRAPH_CLASSES if name is not None)
        raise UserError(f"error: unknown graph class '{graph_class}' (expected {known} or None)")
    if target not in TARGETS:
        raise UserError(f"error: unknown target '{target}' (expected {' or '.join(TARGETS)})")
    source, filename = read_program(program)
    return _Builder(filename, source, GRAPH_CLASSES[graph_class], target).build(graph_class)


def read_program(program: str | os.PathLike[str]) -> tuple[str, str]:
    """The GraphIt source of `program` (a path, or the source itself) and its file
    name (`<string>` for source)."""
    from gir.frontend.source import decode_source

    text = os.fspath(program)
    if "\n" in text or not (text.endswith(".gt") or os.path.isfile(text)):
        return text, "<string>"
    try:
        with open(text, "rb") as stream:
            return decode_source(stream.read(), text), text
    except OSError as error:
        raise UserError(f"error: cannot read program '{text}': {error.strerror}") from None


def without_schedules(source: str, filename: str) -> ModuleOp:
    """The graph-level module of GraphIt `source` with its schedule section left out."""
    from gir.frontend import ast
    from gir.frontend.irgen import build_module
    from gir.frontend.parser import parse_program
    from gir.frontend.source import ensure_recursion_headroom

    ensure_recursion_headroom()
    parsed = parse_program(source, filename)
    return build_module(ast.Program(parsed.decls, []), filename)


def edge_samples(source: str, filename: str) -> dict[str, int]:
    """The `configEdgeSample(N)` of each labelled apply of GraphIt `source` whose
    schedule section samples it (of a hybrid schedule, its first part's)."""
    from gir.frontend.irgen import build_module
    from gir.frontend.parser import parse_program

    if "configEdgeSample" not in source:
        return {}
    module = build_module(parse_program(source, filename), filename)
    samples: dict[str, int] = {}
    for op in walk(module):
        if isinstance(op, graph.EdgeSetApplyOp) and op.label is not None:
            schedule = op.schedule
            if isinstance(schedule, HybridScheduleAttr):
                schedule = schedule.first
            if isinstance(schedule, SimpleScheduleAttr) and schedule.edge_sample.value.data:
                samples[op.label.data] = schedule.edge_sample.value.data
    return samples


SCHEDULE_SECTION = re.compile(r"^schedule:", re.MULTILINE)
"""Where a GraphIt program's schedule section starts (the rest of the file)."""


# ---------------------------------------------------------------------------
# Building a space
# ---------------------------------------------------------------------------

_CATEGORICAL_FIELDS = (
    "direction",
    "pull_frontier",
    "load_balance",
    "edge_blocking",
    "frontier_creation",
    "deduplication",
    "dedup_strategy",
    "bucket_fusion",
)
"""The fields whose values `gpu-fuse-loops` may refuse (probed one by one)."""


def legal_schedule(options: Mapping[str, Attribute], apply: LabelledApply) -> SimpleScheduleAttr | None:
    """The default schedule with `options`, if the code that owns each rule
    accepts it on `apply` (else None): the attribute's verifier,
    `graph-default-schedule`'s `check_schedule` (registered values,
    `LoadBalanceStrategy.unsupported`) and `blocking_unsupported`."""
    from gir.passes.frontier_edge_blocking import blocking_unsupported
    from gir.passes.graph_default_schedule import check_schedule

    if apply.edge_sample:
        options = {**options, "edge_sample": IntegerAttr(apply.edge_sample, i64)}
    try:
        schedule = _DEFAULT.with_options(**options)  # verifies it
        check_schedule(schedule, apply.label)
    except (VerifyException, UserError):
        return None
    if blocking_unsupported(schedule, over_all_vertices=not apply.from_frontier) is not None:
        return None
    return schedule


_PROBES: dict[tuple[str, tuple[tuple[str, str], ...]], bool] = {}
"""Whether a program (its graph-level text) lowers under some schedules: kept
for the process, so that the spaces of one program for several graph classes
probe once."""


class _Builder:
    """Builds one program's `ScheduleSpace`."""

    def __init__(self, program: str, source: str, candidates: GraphClass, target: str):
        import gir.passes  # noqa: F401  (fills the registries)

        self.program = program
        self.source = source
        self.base = without_schedules(source, program)
        self.candidates = candidates
        self.target = target
        self.text = str(self.base)
        self.loops = self.fusable_loops() if target == "cuda" else ()
        self.applies = self.labelled_applies()
        self.shapes: dict[tuple[str, int], tuple[SimpleScheduleAttr, ...]] = {}
        self.fusable_values: dict[tuple[str, str, str], bool] = {}

    def build(self, graph_class: str | None) -> ScheduleSpace:
        groups = [
            self.group(blocking, fusion)
            for blocking in self.blocking_options()
            for fusion in itertools.product(*(self.fusion_options() for _ in self.loops))
        ]
        return ScheduleSpace(
            self.program,
            self.source,
            self.applies,
            self.loops,
            self.target,
            graph_class,
            self.base,
            LazyConcat(groups),
        )

    # -- the program's schedulable statements ------------------------------------

    def labelled_applies(self) -> tuple[LabelledApply, ...]:
        in_loop = {label: loop.label for loop in self.loops for label in loop.applies}
        samples = edge_samples(self.source, self.program)
        found: dict[str, LabelledApply] = {}
        for op in walk(self.base):
            if isinstance(op, graph.EdgeSetApplyOp) and op.label is not None:
                label = op.label.data
                filtered = op.kind.data == graph.ApplyKind.APPLY and op.result is not None
                found.setdefault(
                    label,
                    LabelledApply(
                        label,
                        op.kind.data,
                        from_frontier=op.frontier is not None,
                        has_output=op.result is not None,
                        always_dedup=filtered or op.dedup is not None,
                        loop=in_loop.get(label),
                        edge_sample=samples.get(label, 0),
                    ),
                )
        return tuple(found.values())

    def fusable_loops(self) -> tuple[FusableLoop, ...]:
        """The labelled loops that fuse with their applies at the defaults; of two
        nested ones, the inner (a fused kernel cannot hold another loop)."""
        loops: list[tuple[scf.WhileOp, FusableLoop]] = []
        for op in walk(self.base):
            if isinstance(op, scf.WhileOp) and LOOP_LABEL in op.attributes:
                label = getattr(op.attributes[LOOP_LABEL], "data")
                applies = tuple(
                    inner.label.data
                    for inner in walk(op)
                    if isinstance(inner, graph.EdgeSetApplyOp) and inner.label is not None
                )
                loop = FusableLoop(label, applies)
                if self.lowers({label: fused_loop_schedule()}):
                    loops.append((op, loop))
        return tuple(
            loop
            for op, loop in loops
            if not any(other is not op and op.is_ancestor(other) for other, _ in loops)
        )

    # -- probes ---------------------------------------------------------------------

    def lowers(self, schedules: Mapping[str, ScheduleAttr]) -> bool:
        """Whether the program lowers to the GPU level under `schedules` (the
        others at their defaults); asked once per distinct set."""
        key = (self.text, tuple(sorted((label, str(attr)) for label, attr in schedules.items())))
        if key not in _PROBES:
            from gir.api import lower_for_run

            module = self.base.clone()
            SchedulePoint(schedules).apply(module)
            try:
                lower_for_run(module)
                _PROBES[key] = True
            except UserError:
                _PROBES[key] = False
        return _PROBES[key]

    def hybrids_lower(self, apply: LabelledApply) -> bool:
        """Whether a hybrid schedule lowers on `apply` (one probe with its first
        hybrid)."""
        first = next(iter(self.hybrids(apply, DEFAULT_BLOCK_SIZE)), None)
        return first is not None and self.lowers({apply.label: first})

    def fusable(self, apply: LabelledApply, shape: SimpleScheduleAttr) -> bool:
        """Whether `apply` with `shape` fuses into its loop: its load balance says
        so (`LoadBalanceStrategy.fusable`: no host steps), and each of its other
        values that differs from the default fuses alone (one probe per value)."""
        assert apply.loop is not None
        loop = next(loop for loop in self.loops if loop.label == apply.loop)
        for name in _CATEGORICAL_FIELDS:
            value = getattr(shape, name)
            if value == getattr(_DEFAULT, name):
                continue
            if name == "load_balance":
                if not axes.LOAD_BALANCES.get(value.data).fusable:
                    return False
                continue
            key = (apply.label, name, str(value))
            if key not in self.fusable_values:
                probe = self.representative(apply, name, value)
                self.fusable_values[key] = self.lowers(
                    {loop.label: fused_loop_schedule(), apply.label: probe}
                )
            if not self.fusable_values[key]:
                return False
        return True

    def representative(
        self, apply: LabelledApply, name: str, value: Attribute
    ) -> SimpleScheduleAttr:
        """The schedule that probes `name = value` on `apply`: the default with it,
        if legal, else the first legal shape with it."""
        alone = _DEFAULT.with_options(**{name: value})
        shapes = self.simple_shapes(apply, 0)
        if alone in shapes:
            return alone
        return next(shape for shape in shapes if getattr(shape, name) == value)

    # -- candidates of one apply -------------------------------------------------------

    def simple_shapes(self, apply: LabelledApply, blocking_size: int) -> tuple[SimpleScheduleAttr, ...]:
        """The legal simple schedules of `apply` at the default block size,
        unblocked (`blocking_size` 0) or blocked by `blocking_size`."""
        key = (apply.label, blocking_size)
        if key not in self.shapes:
            self.shapes[key] = tuple(
                shape
                for options in self.all_shapes(apply, blocking_size)
                if (shape := legal_schedule(options, apply)) is not None
            )
        return self.shapes[key]

    def all_shapes(self, apply: LabelledApply, blocking_size: int) -> Iterator[dict[str, Attribute]]:
        """The fields of every combination of `apply`'s candidate values; blocked
        (a positive `blocking_size`), every walk of the blocked layout."""
        blockings = [value for value in EdgeBlocking if value.blocked == bool(blocking_size)]
        for direction in axes.DIRECTIONS:
            for pull_frontier in self.pull_frontiers(apply, direction):
                for load_balance, blocking in itertools.product(axes.LOAD_BALANCES, blockings):
                    for creation in self.creations(apply):
                        for dedup, strategy in self.dedups(apply, creation):
                            for delta in self.deltas(apply):
                                for fusion, threshold in self.bucket_fusions(apply):
                                    yield dict(
                                        direction=DirectionAttr(direction),
                                        pull_frontier=PullFrontierAttr(pull_frontier),
                                        load_balance=LoadBalanceAttr(load_balance),
                                        edge_blocking=EdgeBlockingAttr(blocking),
                                        blocking_size=IntegerAttr(blocking_size, i64),
                                        frontier_creation=FrontierCreationAttr(creation),
                                        deduplication=ToggleAttr(dedup),
                                        dedup_strategy=DedupStrategyAttr(strategy),
                                        delta=IntegerAttr(delta, i64),
                                        bucket_fusion=ToggleAttr(fusion),
                                        bucket_fusion_threshold=IntegerAttr(threshold, i64),
                                    )

    def pull_frontiers(self, apply: LabelledApply, direction: str) -> list[str]:
        """The pull frontiers (`gir.axes.pull_frontiers`) that make `direction`
        read different inputs (its `input_type` of a queue): only the default where
        none differ or where `apply` reads no frontier."""
        from gir.passes.directions import direction as direction_strategy
        from gir.passes.representations import queue_type

        default = _DEFAULT.pull_frontier.data
        if not apply.from_frontier:
            return [default]
        strategy = direction_strategy(direction)
        by_input: dict[object, str] = {}
        for value in [default, *(name for name in axes.pull_frontiers() if name != default)]:
            needed = strategy.input_type(
                queue_type(), _DEFAULT.with_options(pull_frontier=PullFrontierAttr(value))
            )
            by_input.setdefault(None if needed is None else type(needed), value)
        return list(by_input.values())

    def creations(self, apply: LabelledApply) -> list[str]:
        """The frontier creations the registered representations realize
        (`gir.axes.frontier_creations`), the default first; only the default where
        `apply` creates no frontier."""
        default = _DEFAULT.frontier_creation.data
        if not apply.creates_frontier:
            return [default]
        return [default, *(c for c in axes.frontier_creations() if c != default)]

    def dedups(self, apply: LabelledApply, creation: str) -> list[tuple[Toggle, DedupStrategy]]:
        """(deduplication, strategy) pairs that differ for `apply`'s output of
        `creation`: none where the output cannot hold a vertex twice
        (`dedup_for_capacity`); only the strategy where it is always deduplicated."""
        from gir.passes.representations import output_type, representation

        off = (Toggle.DISABLED, _DEFAULT.dedup_strategy.data)
        if not apply.has_output:
            return [off]
        output = output_type(creation)
        if output is None or not representation(output).dedup_for_capacity:
            return [off]
        on = [(Toggle.ENABLED, strategy) for strategy in DedupStrategy]
        return on if apply.always_dedup else [off, *on]

    def deltas(self, apply: LabelledApply) -> tuple[int, ...]:
        return self.candidates.deltas if apply.priority else (1,)

    def bucket_fusions(self, apply: LabelledApply) -> list[tuple[Toggle, int]]:
        off = (Toggle.DISABLED, DEFAULT_BUCKET_FUSION_THRESHOLD)
        if not apply.priority:
            return [off]
        return [off, *((Toggle.ENABLED, t) for t in BUCKET_FUSION_THRESHOLDS)]

    def hybrids(self, apply: LabelledApply, block_size: int) -> Sequence[HybridScheduleAttr]:
        """Hybrid schedules of `apply`: a part of one direction below the threshold,
        of a later-registered direction above it, both of `block_size`."""
        if not apply.from_frontier:
            return []
        shapes = self.simple_shapes(apply, 0)
        by_direction = {
            direction: [s for s in shapes if s.direction.data == direction and s.bucket_fusion.data == Toggle.DISABLED]
            for direction in axes.DIRECTIONS
        }
        pairs = [
            LazyProduct(
                [by_direction[first], by_direction[second], self.candidates.hybrid_thresholds],
                lambda a, b, threshold: HybridScheduleAttr(
                    HybridCriterionAttr(HybridCriterion.INPUT_VERTEXSET_SIZE),
                    FloatAttr(threshold, f64),
                    _with_block(a, block_size),
                    _with_block(b, block_size),
                ),
            )
            for first, second in itertools.combinations(axes.DIRECTIONS, 2)
        ]
        return LazyConcat(pairs)

    def choices(
        self, apply: LabelledApply, blocking: tuple[int, bool], fused_block: int | None
    ) -> Sequence[ScheduleAttr]:
        """The schedules of `apply` in one group: `blocking` is (size, whether
        unblocked ones are allowed too); `fused_block` the block size of its fused
        loop (None: not fused)."""
        size, also_unblocked = blocking
        shapes: list[SimpleScheduleAttr] = []
        if also_unblocked:
            shapes += self.simple_shapes(apply, 0)
        if size:
            shapes += self.simple_shapes(apply, size)
        if fused_block is not None:
            fusable = [shape for shape in shapes if self.fusable(apply, shape)]
            return LazyProduct([fusable, (fused_block,)], _with_block)
        simple = LazyProduct([shapes, BLOCK_SIZES], _with_block)
        if not also_unblocked or not self.hybrids_lower(apply):
            return simple
        return LazyConcat(
            [simple, LazyConcat([self.hybrids(apply, block) for block in BLOCK_SIZES])]
        )

    # -- groups ------------------------------------------------------------------------

    def blocking_options(self) -> list[tuple[int, int]]:
        """(blocking size, index of the first blocked apply), (0, -1) for none:
        one size per program, and each point in exactly one option."""
        options = [(0, -1)]
        for size in BLOCKING_SIZES:
            for index, apply in enumerate(self.applies):
                if self.simple_shapes(apply, size):
                    options.append((size, index))
        return options

    def fusion_options(self) -> list[tuple[int, int] | None]:
        """Per fusable loop: not fused, or fused with (block size, blocks per SM),
        but for a count that equals the default's for that block size
        (`PERSISTENT_THREADS_PER_SM` threads' worth, at least one)."""
        from gir.dialects.host import PERSISTENT_THREADS_PER_SM

        return [
            None,
            *(
                (block, per_sm)
                for block, per_sm in itertools.product(BLOCK_SIZES, BLOCKS_PER_SM)
                if per_sm != max(1, PERSISTENT_THREADS_PER_SM // block)
            ),
        ]

    def group(
        self, blocking: tuple[int, int], fusion: tuple[tuple[int, int] | None, ...]
    ) -> Sequence[SchedulePoint]:
        """The points with one blocking option and one fusion option per loop."""
        size, first_blocked = blocking
        fused_blocks = {
            loop.label: option[0]
            for loop, option in zip(self.loops, fusion, strict=True)
            if option is not None
        }
        loop_schedules = {
            loop.label: fused_loop_schedule(*option)
            for loop, option in zip(self.loops, fusion, strict=True)
            if option is not None
        }
        factors: list[Sequence[ScheduleAttr]] = []
        for index, apply in enumerate(self.applies):
            if index < first_blocked or not size:
                rule = (0, True)
            elif index == first_blocked:
                rule = (size, False)
            else:
                rule = (size, True)
            fused_block = None if apply.loop is None else fused_blocks.get(apply.loop)
            factors.append(self.choices(apply, rule, fused_block))
        labels = [apply.label for apply in self.applies]

        def make(*schedules: ScheduleAttr) -> SchedulePoint:
            return SchedulePoint({**dict(zip(labels, schedules, strict=True)), **loop_schedules})

        return LazyProduct(factors, make)


def fused_loop_schedule(block_size: int = DEFAULT_BLOCK_SIZE, blocks_per_sm: int = 0) -> SimpleScheduleAttr:
    """A loop's kernel-fusion schedule."""
    return _DEFAULT.with_options(
        kernel_fusion=ToggleAttr(Toggle.ENABLED),
        block_size=IntegerAttr(block_size, i64),
        blocks_per_sm=IntegerAttr(blocks_per_sm, i64),
    )


def _block(schedule: SimpleScheduleAttr) -> int:
    return schedule.block_size.value.data


def _with_block(shape: SimpleScheduleAttr, block_size: int) -> SimpleScheduleAttr:
    if _block(shape) == block_size:
        return shape
    return shape.with_options(block_size=IntegerAttr(block_size, i64))
