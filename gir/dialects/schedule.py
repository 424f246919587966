"""GPU schedules as attributes of the `graph` dialect.

G2's scheduling language (CGO'21) configures each labelled `edgeset.apply`
independently. Each option is a separate enum-valued parameter so that the tuning
space is the product of independent axes (GRAssembler's lesson), and each option is
realized by exactly one lowering pass or strategy.

```
#graph.simple_schedule<direction = PUSH, pull_frontier = BOOLMAP,
    load_balance = TWCE, edge_blocking = UNBLOCKED, blocking_size = 0,
    frontier_creation = FUSED, deduplication = DISABLED, dedup_strategy = FUSED,
    delta = 1, kernel_fusion = DISABLED, block_size = 256>
#graph.hybrid_schedule<INPUT_VERTEXSET_SIZE, threshold = #graph.argv<3>,
    #graph.simple_schedule<...>, #graph.simple_schedule<...>>
```

Defaults are G2's: PUSH, VERTEX_BASED, FUSED frontier creation, deduplication
off, no kernel fusion, delta 1; and blocks of 256 threads (`block_size`, a gir
extension set by `configBlockSize(N)`). Bucket fusion (`bucket_fusion`,
`bucket_fusion_threshold`: `configBucketFusion(ENABLED[, N])`, a gir extension
for `applyUpdatePriority`) is off by default and printed only when on; so is
`blocks_per_sm` (`configBlocksPerSM(N)`, a gir extension for a fused loop: the
persistent grid's blocks per multiprocessor, 0 for gir's default), and
`edge_sample` (`configEdgeSample(N)`, a gir extension for an edgeset apply:
each iterated vertex walks only its first N edges, 0 for all of them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, f64, i64
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Data, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from gir import axes
from gir.dialects.gir_gpu import RESIDENT_BLOCKS_PER_SM


class EdgeBlocking(StrEnum):
    """Whether edges are tiled by the endpoint read at random so that its accesses
    fit in L2, and how the tiles are walked: BLOCKED one after the other, a block
    barrier after each (G2's EdgeBlocking); BLOCKED_SWEEP the same tiles in one
    sweep over all the edges, no barriers (a gir extension)."""

    BLOCKED = "BLOCKED"
    BLOCKED_SWEEP = "BLOCKED_SWEEP"
    UNBLOCKED = "UNBLOCKED"

    @property
    def blocked(self) -> bool:
        """Whether the edges are read in the blocked layout (either walk)."""
        return self is not EdgeBlocking.UNBLOCKED


class Toggle(StrEnum):
    """An option that is on or off (deduplication, kernel fusion)."""

    ENABLED = "ENABLED"
    DISABLED = "DISABLED"


class DedupStrategy(StrEnum):
    """Whether deduplication happens while enqueuing (FUSED) or in a separate pass."""

    FUSED = "FUSED"
    UNFUSED = "UNFUSED"


class HybridCriterion(StrEnum):
    """What a hybrid schedule compares against its threshold at run time."""

    INPUT_VERTEXSET_SIZE = "INPUT_VERTEXSET_SIZE"


class AxisValueAttr(Data[str], SpacedOpaqueSyntaxAttribute):
    """A schedule value that a registered strategy owns (`TWCE`, `PULL`, ...): a
    name, printed bare, verified against its axis's registry (`gir.axes`), so a
    new strategy's name is valid once its registration line exists."""

    axis: ClassVar[str]
    """The axis (a key of `gir.axes.AXES`) whose names it takes."""

    @classmethod
    def names(cls) -> list[str]:
        """The names this attribute takes, in registration order."""
        return axes.AXES[cls.axis]()

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> str:
        start = parser.pos
        name = parser.parse_identifier_or_str_literal(f"a {cls.axis}")
        reason = axes.unknown(cls.axis, name)
        if reason is not None:
            parser.raise_error(reason, start, parser.pos)
        return name

    def print_parameter(self, printer: Printer) -> None:
        printer.print_identifier_or_string_literal(self.data)

    def verify(self) -> None:
        reason = axes.unknown(self.axis, self.data)
        if reason is not None:
            raise VerifyException(reason)


@irdl_attr_definition
class DirectionAttr(AxisValueAttr):
    """Which endpoint's thread visits an edge: the source (PUSH) or the destination
    (PULL); the directions are `gir.axes.DIRECTIONS`."""

    name = "graph.direction"
    axis = "direction"


@irdl_attr_definition
class PullFrontierAttr(AxisValueAttr):
    """The representation a PULL traversal's input is converted to, to test its
    membership (BITMAP, BOOLMAP: `gir.axes.pull_frontiers`)."""

    name = "graph.pull_frontier"
    axis = "pull frontier"


@irdl_attr_definition
class LoadBalanceAttr(AxisValueAttr):
    """How the edges of the active vertices are divided among GPU threads (the
    load balances are `gir.axes.LOAD_BALANCES`)."""

    name = "graph.load_balance"
    axis = "load balance"


@irdl_attr_definition
class FrontierCreationAttr(AxisValueAttr):
    """How the output frontier is built: a sparse queue during the traversal
    (FUSED), or a bitmap/boolmap a separate step turns into the next frontier
    (`gir.axes.frontier_creations`)."""

    name = "graph.frontier_creation"
    axis = "frontier creation"


@irdl_attr_definition
class EdgeBlockingAttr(EnumAttribute[EdgeBlocking], SpacedOpaqueSyntaxAttribute):
    """Edge blocking off (UNBLOCKED) or on, and how the blocks are walked
    (BLOCKED, BLOCKED_SWEEP: `EdgeBlocking`)."""

    name = "graph.edge_blocking"


@irdl_attr_definition
class ToggleAttr(EnumAttribute[Toggle], SpacedOpaqueSyntaxAttribute):
    """ENABLED or DISABLED."""

    name = "graph.toggle"


@irdl_attr_definition
class DedupStrategyAttr(EnumAttribute[DedupStrategy], SpacedOpaqueSyntaxAttribute):
    """Fused or unfused deduplication."""

    name = "graph.dedup_strategy"


@irdl_attr_definition
class HybridCriterionAttr(
    EnumAttribute[HybridCriterion], SpacedOpaqueSyntaxAttribute
):
    """Run-time criterion of a hybrid schedule."""

    name = "graph.hybrid_criterion"


@irdl_attr_definition
class ArgvAttr(ParametrizedAttribute):
    """A schedule parameter taken from the program's command line, `"argv[N]"` in
    GraphIt: `#graph.argv<3>` is the program's argv[3], read when it starts."""

    name = "graph.argv"

    index: IntegerAttr

    def __init__(self, index: int):
        super().__init__(IntegerAttr(index, i64))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            return [IntegerAttr(parser.parse_integer(allow_boolean=False), i64)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.index.value.data}>")

    def verify(self) -> None:
        if self.index.value.data < 0:
            raise VerifyException("argv index must be non-negative")


DEFAULT_BLOCK_SIZE = 256
"""Threads per block (CTA, work-group) of a traversal's kernels unless the schedule
says otherwise with `configBlockSize(N)` (a gir extension, GRAssembler's CTA size)."""

MAX_BLOCKING_SIZE = 2**31 - 1
"""The largest edge-blocking size (vertices per block): vertex ids are int32."""

MIN_BLOCK_SIZE, MAX_BLOCK_SIZE = 32, 1024
"""The block sizes a schedule may ask for: powers of two in this range (a whole
number of 32-wide sub-groups, and no more than CUDA and most OpenCL devices run)."""


DEFAULT_BUCKET_FUSION_THRESHOLD = 1024
"""Bucket fusion reruns a bucket inside the traversal while it holds fewer vertices."""

MAX_BLOCKS_PER_SM = RESIDENT_BLOCKS_PER_SM
"""The most blocks per multiprocessor a fused loop's schedule may ask for (CUDA's
limit on resident blocks; occupancy caps it further when the program runs)."""


def blocks_per_sm_error(blocks: int) -> str | None:
    """Why `blocks` is not a valid `configBlocksPerSM` count (None: it is)."""
    if 1 <= blocks <= MAX_BLOCKS_PER_SM:
        return None
    return f"blocks per multiprocessor must be in [1, {MAX_BLOCKS_PER_SM}], got {blocks}"


def edge_sample_error(edges: int) -> str | None:
    """Why `edges` is not a valid `configEdgeSample` count (None: it is)."""
    if edges >= 1:
        return None
    return f"an edge sample must take at least one edge of each vertex, got {edges}"


def block_size_error(size: int) -> str | None:
    """Why `size` is not a valid block size (None: it is)."""
    if MIN_BLOCK_SIZE <= size <= MAX_BLOCK_SIZE and size & (size - 1) == 0:
        return None
    return (
        f"block size must be a power of two in [{MIN_BLOCK_SIZE}, {MAX_BLOCK_SIZE}], "
        f"got {size}"
    )


def _parse_int_or_argv(parser: AttrParser) -> Attribute:
    if parser.parse_optional_characters("#graph.argv") is not None:
        return ArgvAttr(ArgvAttr.parse_parameters(parser)[0].value.data)
    return IntegerAttr(parser.parse_integer(allow_boolean=False), i64)


def _parse_float_or_argv(parser: AttrParser) -> Attribute:
    if parser.parse_optional_characters("#graph.argv") is not None:
        return ArgvAttr(ArgvAttr.parse_parameters(parser)[0].value.data)
    return FloatAttr(parser.parse_float(), f64)


def _print_param(printer: Printer, value: Attribute) -> None:
    if isinstance(value, IntegerAttr):
        printer.print_string(str(value.value.data))
    elif isinstance(value, FloatAttr):
        printer.print_string(repr(value.value.data))
    elif isinstance(value, EnumAttribute):
        printer.print_string(str(value.data.value))
    elif isinstance(value, AxisValueAttr):
        printer.print_string(value.data)
    else:
        printer.print_attribute(value)


@dataclass(frozen=True)
class _Field:
    """One `key = value` entry of the simple schedule's syntax."""

    key: str
    default: Callable[[], Attribute]
    parse: Callable[[AttrParser], Attribute]


def _enum_field(key: str, attr: type[EnumAttribute], default: StrEnum) -> _Field:
    return _Field(
        key,
        lambda: attr(default),
        lambda parser: attr(parser.parse_str_enum(attr.enum_type)),
    )


def _axis_field(key: str, attr: type[AxisValueAttr], default: str) -> _Field:
    return _Field(key, lambda: attr(default), lambda parser: attr(attr.parse_parameter(parser)))


G2_DEFAULTS = {
    "direction": "PUSH",
    "pull_frontier": "BOOLMAP",
    "load_balance": "VERTEX_BASED",
    "frontier_creation": "FUSED",
}
"""G2's defaults of the registry-owned fields (each the name of a strategy that
`gir/passes/__init__.py` registers)."""


SIMPLE_SCHEDULE_FIELDS: tuple[_Field, ...] = (
    _axis_field("direction", DirectionAttr, G2_DEFAULTS["direction"]),
    _axis_field("pull_frontier", PullFrontierAttr, G2_DEFAULTS["pull_frontier"]),
    _axis_field("load_balance", LoadBalanceAttr, G2_DEFAULTS["load_balance"]),
    _enum_field("edge_blocking", EdgeBlockingAttr, EdgeBlocking.UNBLOCKED),
    _Field(
        "blocking_size",
        lambda: IntegerAttr(0, i64),
        lambda parser: IntegerAttr(parser.parse_integer(allow_boolean=False), i64),
    ),
    _axis_field("frontier_creation", FrontierCreationAttr, G2_DEFAULTS["frontier_creation"]),
    _enum_field("deduplication", ToggleAttr, Toggle.DISABLED),
    _enum_field("dedup_strategy", DedupStrategyAttr, DedupStrategy.FUSED),
    _Field("delta", lambda: IntegerAttr(1, i64), _parse_int_or_argv),
    _enum_field("kernel_fusion", ToggleAttr, Toggle.DISABLED),
    _Field(
        "block_size",
        lambda: IntegerAttr(DEFAULT_BLOCK_SIZE, i64),
        lambda parser: IntegerAttr(parser.parse_integer(allow_boolean=False), i64),
    ),
    _enum_field("bucket_fusion", ToggleAttr, Toggle.DISABLED),
    _Field(
        "bucket_fusion_threshold",
        lambda: IntegerAttr(DEFAULT_BUCKET_FUSION_THRESHOLD, i64),
        lambda parser: IntegerAttr(parser.parse_integer(allow_boolean=False), i64),
    ),
    _Field(
        "blocks_per_sm",
        lambda: IntegerAttr(0, i64),
        lambda parser: IntegerAttr(parser.parse_integer(allow_boolean=False), i64),
    ),
    _Field(
        "edge_sample",
        lambda: IntegerAttr(0, i64),
        lambda parser: IntegerAttr(parser.parse_integer(allow_boolean=False), i64),
    ),
)
"""The fields of `#graph.simple_schedule`, in printing order, with G2's defaults."""

BUCKET_FUSION_FIELDS = ("bucket_fusion", "bucket_fusion_threshold")
"""gir's bucket-fusion extension (`configBucketFusion(ENABLED[, threshold])`):
printed only when enabled, so schedules without it read as G2's."""


@irdl_attr_definition
class SimpleScheduleAttr(ParametrizedAttribute):
    """G2's `SimpleGPUSchedule`: one value for every scheduling axis of an
    `edgeset.apply` (or, for kernel fusion, of a `while` loop)."""

    name = "graph.simple_schedule"

    direction: DirectionAttr
    pull_frontier: PullFrontierAttr
    load_balance: LoadBalanceAttr
    edge_blocking: EdgeBlockingAttr
    blocking_size: IntegerAttr
    frontier_creation: FrontierCreationAttr
    deduplication: ToggleAttr
    dedup_strategy: DedupStrategyAttr
    delta: IntegerAttr | ArgvAttr
    kernel_fusion: ToggleAttr
    block_size: IntegerAttr
    bucket_fusion: ToggleAttr
    bucket_fusion_threshold: IntegerAttr
    blocks_per_sm: IntegerAttr
    edge_sample: IntegerAttr

    @staticmethod
    def default() -> SimpleScheduleAttr:
        """G2's default schedule."""
        return SimpleScheduleAttr(*(field.default() for field in SIMPLE_SCHEDULE_FIELDS))

    def with_options(self, **options: Attribute) -> SimpleScheduleAttr:
        """A copy with the given fields replaced (keys are the syntax's names)."""
        values = {
            field.key: getattr(self, field.key) for field in SIMPLE_SCHEDULE_FIELDS
        }
        unknown = set(options) - set(values)
        if unknown:
            raise ValueError(f"unknown schedule fields: {sorted(unknown)}")
        values.update(options)
        return SimpleScheduleAttr(*(values[f.key] for f in SIMPLE_SCHEDULE_FIELDS))

    @property
    def has_default_delta(self) -> bool:
        """Whether `delta` is G2's default of 1."""
        return isinstance(self.delta, IntegerAttr) and self.delta.value.data == 1

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        values: dict[str, Attribute] = {}
        by_key = {field.key: field for field in SIMPLE_SCHEDULE_FIELDS}

        def parse_entry() -> None:
            key_pos = parser.pos
            key = parser.parse_identifier()
            if key not in by_key:
                parser.raise_error(
                    f"unknown schedule field '{key}', expected one of "
                    + ", ".join(by_key),
                    key_pos,
                    parser.pos,
                )
            if key in values:
                parser.raise_error(f"schedule field '{key}' given twice", key_pos)
            parser.parse_punctuation("=")
            values[key] = by_key[key].parse(parser)

        if parser.parse_optional_punctuation("<") is not None:
            parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_entry)
            parser.parse_punctuation(">")
        return [
            values[f.key] if f.key in values else f.default()
            for f in SIMPLE_SCHEDULE_FIELDS
        ]

    def print_parameters(self, printer: Printer) -> None:
        fields = [
            field
            for field in SIMPLE_SCHEDULE_FIELDS
            if (field.key not in BUCKET_FUSION_FIELDS or self.bucket_fusion.data == Toggle.ENABLED)
            and (field.key != "blocks_per_sm" or self.blocks_per_sm.value.data)
            and (field.key != "edge_sample" or self.edge_sample.value.data)
        ]
        entries = [f"{field.key} = " for field in fields]
        printer.print_string("<")
        for index, (field, prefix) in enumerate(zip(fields, entries, strict=True)):
            if index:
                printer.print_string(", ")
            printer.print_string(prefix)
            _print_param(printer, getattr(self, field.key))
        printer.print_string(">")

    def verify(self) -> None:
        blocking = self.edge_blocking.data
        if blocking.blocked:
            # Blocking spreads a vertex's edges over the blocks: only strategies
            # that walk edges one by one compose with it (they say so).
            composing = [
                name
                for name in axes.LOAD_BALANCES
                if axes.LOAD_BALANCES.get(name).composes_with_blocking
            ]
            if self.load_balance.data not in composing:
                raise VerifyException(
                    f"edge blocking ({blocking}) requires load balance {' or '.join(composing)}, "
                    f"got {self.load_balance.data} (blocking spreads a vertex's edges "
                    "over blocks; only one thread per edge walks them)"
                )
            if self.blocking_size.value.data <= 0:
                raise VerifyException(f"edge blocking ({blocking}) needs a positive size")
        if not 0 <= self.blocking_size.value.data <= MAX_BLOCKING_SIZE:
            raise VerifyException(
                f"blocking size must be in [0, {MAX_BLOCKING_SIZE}], "
                f"got {self.blocking_size.value.data}"
            )
        reason = block_size_error(self.block_size.value.data)
        if reason is not None:
            raise VerifyException(reason)
        if isinstance(self.delta, IntegerAttr) and self.delta.value.data < 1:
            raise VerifyException(
                f"delta must be a positive integer, got {self.delta.value.data}"
            )
        if self.bucket_fusion_threshold.value.data < 1:
            raise VerifyException(
                "bucket fusion threshold must be a positive integer, got "
                f"{self.bucket_fusion_threshold.value.data}"
            )
        blocks = self.blocks_per_sm.value.data
        reason = blocks_per_sm_error(blocks) if blocks else None
        if reason is not None:
            raise VerifyException(reason)
        sampled = self.edge_sample.value.data
        reason = edge_sample_error(sampled) if sampled else None
        if reason is not None:
            raise VerifyException(reason)


@irdl_attr_definition
class HybridScheduleAttr(ParametrizedAttribute):
    """G2's `HybridGPUSchedule`: at run time, use `first` when the criterion is below
    `threshold` (a fraction of the number of vertices), else `second`."""

    name = "graph.hybrid_schedule"

    criterion: HybridCriterionAttr
    threshold: FloatAttr | ArgvAttr
    first: SimpleScheduleAttr
    second: SimpleScheduleAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            criterion = HybridCriterionAttr(parser.parse_str_enum(HybridCriterion))
            parser.parse_punctuation(",")
            parser.parse_keyword("threshold")
            parser.parse_punctuation("=")
            threshold = _parse_float_or_argv(parser)
            parser.parse_punctuation(",")
            first = parser.parse_attribute()
            parser.parse_punctuation(",")
            second = parser.parse_attribute()
        return [criterion, threshold, first, second]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.criterion.data.value}, threshold = ")
        _print_param(printer, self.threshold)
        printer.print_string(", ")
        printer.print_attribute(self.first)
        printer.print_string(", ")
        printer.print_attribute(self.second)
        printer.print_string(">")

    def verify(self) -> None:
        if isinstance(self.threshold, FloatAttr) and not (
            0.0 <= self.threshold.value.data
        ):
            raise VerifyException("hybrid threshold must be non-negative")
        for part in (self.first, self.second):
            if part.kernel_fusion.data == Toggle.ENABLED:
                raise VerifyException(
                    "kernel fusion cannot be part of a hybrid schedule"
                )


ScheduleAttr = SimpleScheduleAttr | HybridScheduleAttr

SCHEDULE_ATTRIBUTES = [
    DirectionAttr,
    PullFrontierAttr,
    LoadBalanceAttr,
    EdgeBlockingAttr,
    FrontierCreationAttr,
    ToggleAttr,
    DedupStrategyAttr,
    HybridCriterionAttr,
    ArgvAttr,
    SimpleScheduleAttr,
    HybridScheduleAttr,
]
