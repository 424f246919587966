"""The `schedule:` section: G2 GPU schedules, evaluated into schedule attributes.

The section is run like a small program: `SimpleGPUSchedule s1;` makes a schedule
with G2's defaults, `s1.configX(...)` changes it, `SimpleGPUSchedule s2 = s1;`
copies it, `HybridGPUSchedule h (INPUT_VERTEXSET_SIZE, "argv[3]", s1, s2);` combines
two (as they are at that point), and `program->applyGPUSchedule("s0:s1", h);`
attaches the schedule's current value to the statement with that label path.
`program->configReorder(DEGREE);` (a gir extension) asks for the program's graph
relabelled by an ordering of `gir.reorder.ORDERINGS` when it is loaded, and
`program->configExchange(AUTO);` (a gir extension) for the format of the
exchanges between devices when the program runs partitioned (DENSE, PAIRS,
BITMAP or AUTO: `gir.dialects.host.ExchangeFormat`); `resolve_schedule_section`
returns both beside the bindings.

`resolve_schedules` returns one `ScheduleBinding` per scheduled statement. Every
problem is a `SourceError` at the schedule line's offending token: unknown types,
schedule names, methods or option values, wrong argument counts, combinations the
attribute verifiers reject, label paths that match no statement, a statement
scheduled twice, and schedules that cannot apply to the labelled statement
(kernel fusion is for `while` loops, delta for `applyUpdatePriority`).

Like G2, which ignores a schedule where it does not apply, a schedule on a
statement that takes none (an `if`, a `for`, a plain assignment, a `while` given a
schedule without kernel fusion) is a located warning, and so is each of GraphIt's
CPU scheduling calls (`program->configApplyDirection(...)`, `fuseFields({...})`,
...): the program then gets G2's default GPU schedule there. `--strict-schedule`
(`Warnings.strict_schedule`) makes these warnings errors.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, f64, i64
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from gir import axes
from gir.diagnostics import SourceError
from gir.dialects.host import ExchangeFormat
from gir.dialects.graph import ApplyKind
from gir.dialects.schedule import (
    DEFAULT_BUCKET_FUSION_THRESHOLD,
    G2_DEFAULTS,
    ArgvAttr,
    AxisValueAttr,
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
    block_size_error,
    blocks_per_sm_error,
    edge_sample_error,
    PullFrontierAttr,
    SimpleScheduleAttr,
    Toggle,
    ToggleAttr,
)
from gir.frontend import ast
from gir.frontend.ast import Pos
from gir.frontend.limits import argv_index_refused, int_literal_value
from gir.frontend.notes import Warnings
from gir.frontend.sema import SemaInfo, edge_applies

ScheduleAttr = SimpleScheduleAttr | HybridScheduleAttr
ARGV_PATTERN = re.compile(r"argv\[([0-9]+)\]")
CPU_SCHEDULE_CALLS = frozenset(
    {
        "configApplyDirection", "configApplyParallelization", "configApplyParallel",
        "configApplyDenseVertexSet", "configApplyNumSSG", "configApplyNUMA",
        "configApplyPriorityUpdate", "configApplyPriorityUpdateDelta",
        "configBucketFusionThreshold", "configBucketMergeThreshold", "configNumBuckets",
        "configNumOpenBuckets", "fuseFields", "fuseVectors",
        "fuseForLoop", "fuseApplyFunctions", "splitForLoop", "setApply",
        "configParForGrainSize", "configParForScheduleType", "configParForNumThreads",
        "configApplyNumSegments", "configApplyNumaAware", "configApplyDeduplication",
    }
)  # fmt: skip
"""GraphIt's CPU scheduling language (`program->...`): warned about and ignored."""


@dataclass(frozen=True)
class ScheduleBinding:
    """A schedule attached to the statement labelled `path`, by the
    `applyGPUSchedule` call at `pos`."""

    stmt: ast.Stmt
    path: str
    attr: ScheduleAttr
    pos: Pos


@dataclass(frozen=True)
class ProgramReorder:
    """`program->configReorder(NAME)` at `pos`: the graph is relabelled by `name`."""

    name: str
    pos: Pos


@dataclass(frozen=True)
class ScheduleSection:
    """What a schedule section says: each scheduled statement's schedule, and
    the program-level options."""

    bindings: dict[ast.Stmt, ScheduleBinding]
    reorder: ProgramReorder | None
    exchange: ExchangeFormat | None = None
    """`program->configExchange(NAME)`'s format, if the section sets one."""


@dataclass(frozen=True)
class OptionArg:
    """One positional argument of a `configX` method: the schedule field it sets,
    how to read it, and its value when left out (None: required)."""

    field: str
    read: Callable[[ast.SchedArg], Attribute]
    default: Callable[[], Attribute] | None = None


class ScheduleEvaluator:
    """Runs the schedule section of one program; see `resolve_schedules`."""

    def __init__(self, sema: SemaInfo, filename: str, warnings: Warnings):
        self.sema = sema
        self.filename = filename
        self.warnings = warnings
        self.schedules: dict[str, ScheduleAttr] = {}
        self.bindings: dict[ast.Stmt, ScheduleBinding] = {}
        self.reorder: ProgramReorder | None = None
        self.exchange: ExchangeFormat | None = None
        self.methods: dict[str, list[OptionArg]] = {
            "configDirection": [
                OptionArg("direction", self.axis_reader(DirectionAttr)),
                OptionArg(
                    "pull_frontier",
                    self.axis_reader(PullFrontierAttr),
                    lambda: PullFrontierAttr(G2_DEFAULTS["pull_frontier"]),
                ),
            ],
            "configLoadBalance": [
                OptionArg("load_balance", self.axis_reader(LoadBalanceAttr)),
                OptionArg(
                    "edge_blocking",
                    self.enum_reader(EdgeBlocking, EdgeBlockingAttr, "edge blocking"),
                    lambda: EdgeBlockingAttr(EdgeBlocking.UNBLOCKED),
                ),
                OptionArg("blocking_size", self.read_int, lambda: IntegerAttr(0, i64)),
            ],
            "configFrontierCreation": [
                OptionArg(
                    "frontier_creation",
                    self.axis_reader(FrontierCreationAttr),
                )
            ],
            "configDeduplication": [
                OptionArg("deduplication", self.enum_reader(Toggle, ToggleAttr, "deduplication")),
                OptionArg(
                    "dedup_strategy",
                    self.enum_reader(DedupStrategy, DedupStrategyAttr, "deduplication strategy"),
                    lambda: DedupStrategyAttr(DedupStrategy.FUSED),
                ),
            ],
            "configDelta": [OptionArg("delta", self.read_int_or_argv)],
            "configKernelFusion": [
                OptionArg("kernel_fusion", self.enum_reader(Toggle, ToggleAttr, "kernel fusion"))
            ],
            "configBlockSize": [OptionArg("block_size", self.checked_int_reader(block_size_error))],
            "configBucketFusion": self.bucket_fusion_options(),
            "configBlocksPerSM": [
                OptionArg("blocks_per_sm", self.checked_int_reader(blocks_per_sm_error))
            ],
            "configEdgeSample": [
                OptionArg("edge_sample", self.checked_int_reader(edge_sample_error))
            ],
        }

    def error(self, pos: Pos, message: str) -> SourceError:
        """A `SourceError` at `pos`."""
        return SourceError(self.filename, pos.line, pos.col, message)

    def run(self, stmts: list[ast.SchedStmt]) -> dict[ast.Stmt, ScheduleBinding]:
        """Evaluates the section in order."""
        for stmt in stmts:
            if isinstance(stmt, ast.SchedDecl):
                self.declare(stmt)
            elif isinstance(stmt, ast.SchedConfig):
                self.configure(stmt)
            else:
                self.program_call(stmt)
        return self.bindings

    # -- argument readers ---------------------------------------------------------

    def enum_reader(
        self, enum: type[StrEnum], attr: Callable[[Any], Attribute], what: str
    ) -> Callable[[ast.SchedArg], Attribute]:
        """Reads an option name of `enum` (e.g. `TWCE`) into its attribute."""
        values = [member.value for member in enum]

        def read(arg: ast.SchedArg) -> Attribute:
            if arg.kind != "ident" or arg.value not in values:
                shown = f'"{arg.value}"' if arg.kind == "string" else arg.value
                raise self.error(
                    arg.pos, f"unknown {what} '{shown}', expected one of {', '.join(values)}"
                )
            return attr(enum(arg.value))

        return read

    def axis_reader(self, attr: type[AxisValueAttr]) -> Callable[[ast.SchedArg], Attribute]:
        """Reads a strategy's name (e.g. `TWCE`) of `attr`'s axis into `attr`."""

        def read(arg: ast.SchedArg) -> Attribute:
            reason = axes.unknown(attr.axis, arg.value) if arg.kind == "ident" else None
            if arg.kind != "ident" or reason is not None:
                shown = f'"{arg.value}"' if arg.kind == "string" else arg.value
                raise self.error(
                    arg.pos,
                    f"unknown {attr.axis} '{shown}', expected one of {', '.join(attr.names())}",
                )
            return attr(arg.value)

        return read

    def read_int(self, arg: ast.SchedArg) -> Attribute:
        """An integer literal (decimal or hex)."""
        if not isinstance(arg.value, int) or arg.kind != "int":
            raise self.error(arg.pos, "expected an integer")
        return IntegerAttr(arg.value, i64)

    def bucket_fusion_options(self) -> list[OptionArg]:
        """`configBucketFusion(ENABLED[, threshold])` (a gir extension)."""

        def read_threshold(arg: ast.SchedArg) -> Attribute:
            threshold = self.read_int(arg)
            assert isinstance(threshold, IntegerAttr)
            if threshold.value.data < 1:
                raise self.error(arg.pos, "the bucket fusion threshold must be positive")
            return threshold

        return [
            OptionArg("bucket_fusion", self.enum_reader(Toggle, ToggleAttr, "bucket fusion")),
            OptionArg(
                "bucket_fusion_threshold",
                read_threshold,
                lambda: IntegerAttr(DEFAULT_BUCKET_FUSION_THRESHOLD, i64),
            ),
        ]

    def checked_int_reader(
        self, reason: Callable[[int], str | None]
    ) -> Callable[[ast.SchedArg], Attribute]:
        """Reads an integer that `reason` accepts (it says why not, else None)."""

        def read(arg: ast.SchedArg) -> Attribute:
            value = self.read_int(arg)
            assert isinstance(value, IntegerAttr)
            refused = reason(value.value.data)
            if refused is not None:
                raise self.error(arg.pos, refused)
            return value

        return read

    def read_argv(self, arg: ast.SchedArg) -> ArgvAttr | None:
        """`"argv[N]"` as an `ArgvAttr`; None if `arg` is not a string."""
        if arg.kind != "string":
            return None
        assert isinstance(arg.value, str)
        match = ARGV_PATTERN.fullmatch(arg.value)
        if match is None:
            raise self.error(arg.pos, f'expected "argv[N]", found "{arg.value}"')
        refused = argv_index_refused(match.group(1))
        if refused is not None:
            raise self.error(arg.pos, refused)
        index = int_literal_value(match.group(1))
        assert index is not None
        return ArgvAttr(index)

    def read_int_or_argv(self, arg: ast.SchedArg) -> Attribute:
        """An integer, or `"argv[N]"`."""
        argv = self.read_argv(arg)
        if argv is not None:
            return argv
        if not isinstance(arg.value, int) or arg.kind != "int":
            raise self.error(arg.pos, 'expected an integer or "argv[N]"')
        return IntegerAttr(arg.value, i64)

    def read_threshold(self, arg: ast.SchedArg) -> FloatAttr | ArgvAttr:
        """A hybrid threshold: a number or `"argv[N]"`."""
        argv = self.read_argv(arg)
        if argv is not None:
            return argv
        if isinstance(arg.value, str) or arg.kind not in ("int", "float"):
            raise self.error(arg.pos, 'expected a threshold (a number or "argv[N]")')
        return FloatAttr(float(arg.value), f64)

    def schedule_arg(self, arg: ast.SchedArg) -> ScheduleAttr:
        """A schedule named by `arg`."""
        if arg.kind != "ident" or arg.value not in self.schedules:
            raise self.error(arg.pos, f"unknown schedule '{arg.value}'")
        return self.schedules[str(arg.value)]

    def simple_schedule_arg(self, arg: ast.SchedArg) -> SimpleScheduleAttr:
        """A `SimpleGPUSchedule` named by `arg`."""
        schedule = self.schedule_arg(arg)
        if not isinstance(schedule, SimpleScheduleAttr):
            raise self.error(
                arg.pos, f"'{arg.value}' is a HybridGPUSchedule, expected a SimpleGPUSchedule"
            )
        return schedule

    # -- statements -----------------------------------------------------------------

    def declare(self, stmt: ast.SchedDecl) -> None:
        """`SimpleGPUSchedule s;`, `... s2 = s1;`, `HybridGPUSchedule h (...);`."""
        if stmt.name in self.schedules:
            raise self.error(stmt.name_pos, f"schedule '{stmt.name}' is already defined")
        if stmt.type_name == "SimpleGPUSchedule":
            if stmt.args is not None:
                raise self.error(stmt.name_pos, "SimpleGPUSchedule takes no constructor arguments")
            value: ScheduleAttr = SimpleScheduleAttr.default()
            if stmt.copy_from is not None:
                value = self.simple_schedule_arg(stmt.copy_from)
        elif stmt.type_name == "HybridGPUSchedule":
            value = self.hybrid(stmt)
        else:
            raise self.error(
                stmt.pos,
                f"unknown schedule type '{stmt.type_name}', expected SimpleGPUSchedule or HybridGPUSchedule",
            )
        self.schedules[stmt.name] = value

    def hybrid(self, stmt: ast.SchedDecl) -> ScheduleAttr:
        """`HybridGPUSchedule h (CRITERION, threshold, first, second)` or a copy."""
        if stmt.copy_from is not None:
            schedule = self.schedule_arg(stmt.copy_from)
            if not isinstance(schedule, HybridScheduleAttr):
                raise self.error(
                    stmt.copy_from.pos, f"'{stmt.copy_from.value}' is not a HybridGPUSchedule"
                )
            return schedule
        args = stmt.args or []
        if len(args) != 4:
            raise self.error(
                stmt.name_pos,
                "HybridGPUSchedule takes 4 arguments (criterion, threshold, schedule, schedule), "
                f"got {len(args)}",
            )
        criterion = self.enum_reader(HybridCriterion, HybridCriterionAttr, "hybrid criterion")(
            args[0]
        )
        assert isinstance(criterion, HybridCriterionAttr)
        threshold = self.read_threshold(args[1])
        first = self.simple_schedule_arg(args[2])
        second = self.simple_schedule_arg(args[3])
        return self.verified(
            stmt.name_pos, lambda: HybridScheduleAttr(criterion, threshold, first, second)
        )

    def verified(self, pos: Pos, make: Callable[[], ScheduleAttr]) -> ScheduleAttr:
        """Builds a schedule attribute; a verifier's complaint becomes an error at `pos`."""
        try:
            attr = make()
            attr.verify()
        except VerifyException as error:
            raise self.error(pos, f"invalid schedule: {error}") from None
        return attr

    def configure(self, stmt: ast.SchedConfig) -> None:
        """`s.configX(args);`."""
        if stmt.target not in self.schedules:
            raise self.error(stmt.pos, f"unknown schedule '{stmt.target}'")
        current = self.schedules[stmt.target]
        if isinstance(current, HybridScheduleAttr):
            raise self.error(
                stmt.method_pos,
                f"'{stmt.target}' is a HybridGPUSchedule, which has no method '{stmt.method}'",
            )
        options = self.methods.get(stmt.method)
        if options is None:
            raise self.error(
                stmt.method_pos,
                f"unknown schedule method '{stmt.method}', expected one of {', '.join(self.methods)}",
            )
        required = sum(1 for option in options if option.default is None)
        if not required <= len(stmt.args) <= len(options):
            counts = f"{required}" if required == len(options) else f"{required} to {len(options)}"
            raise self.error(
                stmt.method_pos, f"'{stmt.method}' takes {counts} argument(s), got {len(stmt.args)}"
            )
        values: dict[str, Attribute] = {}
        for index, option in enumerate(options):
            if index < len(stmt.args):
                values[option.field] = option.read(stmt.args[index])
            else:
                assert option.default is not None
                values[option.field] = option.default()
        self.schedules[stmt.target] = self.verified(
            stmt.method_pos, lambda: current.with_options(**values)
        )

    def program_call(self, stmt: ast.SchedProgramCall) -> None:
        """`program->applyGPUSchedule("path", s);`, `program->configReorder(NAME);`
        (GraphIt's CPU calls are ignored)."""
        if stmt.method in CPU_SCHEDULE_CALLS:
            self.ignore_cpu_call(stmt)
            return
        if stmt.method == "configIntersection":
            self.intersection(stmt)
            return
        if stmt.method == "configReorder":
            self.configure_reorder(stmt)
            return
        if stmt.method == "configExchange":
            self.configure_exchange(stmt)
            return
        if stmt.method != "applyGPUSchedule":
            raise self.error(
                stmt.method_pos,
                f"'program->{stmt.method}' is not supported; gir takes GPU schedules through "
                'program->applyGPUSchedule("label", schedule)',
            )
        if len(stmt.args) != 2:
            raise self.error(
                stmt.method_pos, f"'applyGPUSchedule' takes 2 arguments, got {len(stmt.args)}"
            )
        path_arg, schedule_arg = stmt.args
        if path_arg.kind != "string":
            raise self.error(path_arg.pos, 'expected a label path string such as "s0:s1"')
        path = str(path_arg.value)
        schedule = self.schedule_arg(schedule_arg)
        target = self.sema.label_stmts.get(path)
        if target is None:
            raise self.error(path_arg.pos, f"no statement is labelled '{path}'")
        if target in self.bindings:
            previous = self.bindings[target].pos
            raise self.error(
                path_arg.pos, f"statement '{path}' already has a schedule (applied at {previous})"
            )
        if not self.takes_schedule(target, path, schedule, path_arg.pos):
            return
        self.check_applicable(target, path, schedule, path_arg.pos)
        self.bindings[target] = ScheduleBinding(target, path, schedule, path_arg.pos)

    def intersection(self, stmt: ast.SchedProgramCall) -> None:
        """`program->configIntersection("label", "Method")`: the intersection
        method of the `intersectNeighbor` in the labelled statement (a registered
        name, or GraphIt's: `NaiveIntersection`, `BinarySearchIntersection`, ...)."""
        if len(stmt.args) != 2 or any(arg.kind != "string" for arg in stmt.args):
            raise self.error(
                stmt.method_pos,
                'configIntersection takes a label and a method: ("s1", "BinarySearchIntersection")',
            )
        label, method = (str(arg.value) for arg in stmt.args)
        target = self.sema.label_stmts.get(label)
        if target is None:
            raise self.error(stmt.args[0].pos, f"no statement is labelled '{label}'")
        chosen = axes.intersection_named(method)
        if chosen is None:
            raise self.error(stmt.args[1].pos, f"unknown intersection method '{method}'")
        calls = [
            expr
            for top in ast.own_exprs(target)
            for expr in ast.walk_expr(top)
            if isinstance(expr, ast.Call) and expr.name == "intersectNeighbor"
        ]
        if not calls:
            raise self.error(
                stmt.args[0].pos, f"statement '{label}' has no intersectNeighbor to configure"
            )
        for call in calls:
            call.intersection = chosen

    def configure_reorder(self, stmt: ast.SchedProgramCall) -> None:
        """`program->configReorder(NAME);` (a gir extension): the program's graph is
        relabelled by the ordering NAME (`gir.reorder.ORDERINGS`) when it is loaded."""
        if len(stmt.args) != 1:
            raise self.error(
                stmt.method_pos, f"'configReorder' takes 1 argument, got {len(stmt.args)}"
            )
        # imported here: gir.reorder imports numpy, a sixth of every tool's start-up
        from gir.reorder import ORDERINGS, unknown_ordering

        (arg,) = stmt.args
        name = str(arg.value)
        refused = unknown_ordering(name) if arg.kind in ("ident", "string") else None
        if arg.kind not in ("ident", "string") or refused is not None:
            raise self.error(
                arg.pos, refused or f"unknown reordering '{arg.value}', expected one of "
                + ", ".join(ORDERINGS)
            )
        if self.reorder is not None:
            raise self.error(
                stmt.method_pos, f"the graph is already reordered (configReorder at {self.reorder.pos})"
            )
        self.reorder = ProgramReorder(name, stmt.method_pos)

    def configure_exchange(self, stmt: ast.SchedProgramCall) -> None:
        """`program->configExchange(NAME);` (a gir extension): what the devices of
        a partitioned run send at each exchange (`host-partition`'s format)."""
        names = ", ".join(format.value.upper() for format in ExchangeFormat)
        if len(stmt.args) != 1:
            raise self.error(stmt.method_pos, f"'configExchange' takes 1 argument ({names}), got {len(stmt.args)}")
        (arg,) = stmt.args
        chosen = str(arg.value).lower() if arg.kind == "ident" else None
        if chosen not in tuple(ExchangeFormat):
            raise self.error(arg.pos, f"unknown exchange format '{arg.value}', expected one of {names}")
        if self.exchange is not None:
            raise self.error(stmt.method_pos, "the exchange format is already set (one configExchange a program)")
        self.exchange = ExchangeFormat(chosen)

    def ignore_cpu_call(self, stmt: ast.SchedProgramCall) -> None:
        """A GraphIt CPU scheduling call: one warning naming it."""
        self.warnings.schedule_warning(
            stmt.method_pos,
            f"'program->{stmt.method}' is a GraphIt CPU scheduling call; ignored, gir "
            "schedules GPUs through program->applyGPUSchedule (G2's default GPU schedule "
            "applies)",
        )

    def takes_schedule(
        self, stmt: ast.Stmt, path: str, schedule: ScheduleAttr, pos: Pos
    ) -> bool:
        """Whether the statement labelled `path` can take a schedule at all: an
        edgeset apply, or a `while` loop given kernel fusion. G2 ignores a schedule
        elsewhere; gir warns and ignores it too."""
        if isinstance(stmt, ast.While):
            if isinstance(schedule, SimpleScheduleAttr) and (
                schedule.kernel_fusion.data == Toggle.ENABLED
            ):
                return True
            self.warnings.schedule_warning(
                pos,
                f"'{path}' is a while loop, which takes only a SimpleGPUSchedule with "
                "configKernelFusion(ENABLED); the schedule is ignored",
            )
            return False
        if edge_applies(stmt) and not isinstance(stmt, ast.If | ast.For):
            return True
        self.warnings.schedule_warning(
            pos,
            f"'{path}' labels neither an edgeset apply nor a while loop, so its schedule "
            "is ignored",
        )
        return False

    # -- where schedules may go ---------------------------------------------------------

    def check_applicable(self, stmt: ast.Stmt, path: str, schedule: ScheduleAttr, pos: Pos) -> None:
        """Whether `schedule`'s options fit the statement labelled `path` (which
        `takes_schedule`)."""
        if isinstance(stmt, ast.While):
            if isinstance(schedule, SimpleScheduleAttr) and schedule.edge_sample.value.data:
                raise self.error(
                    pos,
                    f"configEdgeSample samples an edgeset apply's edges, but '{path}' is a while loop",
                )
            return
        applies = edge_applies(stmt)
        parts = (
            [schedule.first, schedule.second]
            if isinstance(schedule, HybridScheduleAttr)
            else [schedule]
        )
        for part in parts:
            if part.kernel_fusion.data == Toggle.ENABLED:
                raise self.error(
                    pos, f"kernel fusion applies to while loops, but '{path}' is an edgeset apply"
                )
            if part.blocks_per_sm.value.data:
                raise self.error(
                    pos,
                    "configBlocksPerSM sizes a fused while loop's grid, but "
                    f"'{path}' is an edgeset apply",
                )
            fuses_buckets = part.bucket_fusion.data == Toggle.ENABLED
            if (not part.has_default_delta or fuses_buckets) and any(
                a.kind != ApplyKind.APPLY_UPDATE_PRIORITY for a in applies
            ):
                what = "bucket fusion" if fuses_buckets else "delta"
                raise self.error(
                    pos, f"{what} applies only to applyUpdatePriority, which '{path}' is not"
                )


def resolve_schedules(
    program: ast.Program, sema: SemaInfo, filename: str, warnings: Warnings | None = None
) -> dict[ast.Stmt, ScheduleBinding]:
    """Evaluates `program`'s schedule section: the schedule of each statement.
    Warnings go to `warnings` (by default printed, not strict)."""
    return resolve_schedule_section(program, sema, filename, warnings).bindings


def resolve_schedule_section(
    program: ast.Program, sema: SemaInfo, filename: str, warnings: Warnings | None = None
) -> ScheduleSection:
    """Evaluates `program`'s schedule section: each statement's schedule and the
    program-level options (`configReorder`, `configExchange`)."""
    report = warnings if warnings is not None else Warnings(filename)
    evaluator = ScheduleEvaluator(sema, filename, report)
    bindings = evaluator.run(program.schedule)
    return ScheduleSection(bindings, evaluator.reorder, evaluator.exchange)
