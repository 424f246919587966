"""The walker the kernel and host printers share: a function body of structured IR
printed as structured source, op by op.

`StructuredPrinter` owns what every language gir prints has in common: SSA values
become locals named after their name hints (`ValueNames`), constants are inlined as
literals, ops nobody needs are not printed, and `scf.if` / `scf.for` / `scf.while`
become `if` / `for` / loop-forever statements whose results are variables assigned
where the regions yield (a `scf.condition` is an `if` that breaks). The arith ops
that print alike (compare, negate, select, plain binary operators) are here too.
A subclass supplies the syntax through small hooks: how a local is defined,
declared and assigned, block headers and ends, literals and logical operators.

```mlir
%r = scf.if %c -> (i32) {
  scf.yield %a : i32
} else {
  scf.yield %b : i32
}
```
prints in C (`c_printer`) and in Python (`host_python`) as
```c
int r;
if (c) {
  r = a;
} else {
  r = b;
}
```
```python
if c:
    r = a
else:
    r = b
```

Each printer has one `singledispatchmethod emit` for the ops it spells itself; its
fallback is `super().emit(op)`, which dispatches the shared ops here.
"""

from __future__ import annotations

import re
import struct
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import singledispatchmethod
from typing import ClassVar

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from gir.diagnostics import UserError
from gir.dialects.graph import UNSIGNED_LITERAL
from gir.ir_walk import walk

# ---------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------


class ValueNames:
    """Source identifiers of SSA values, unique within one printed function.

    A value is named after its name hint (sanitized into an identifier), else `vN`;
    a clash gets `_1`, `_2`, ... Values can share a name (`bind`), which is how the
    results of structured control flow map to the variables assigned inside it.
    """

    def __init__(self, reserved: Iterable[str]):
        self._names: dict[SSAValue, str] = {}
        self._reserved = frozenset(reserved)
        self._taken: set[str] = set(self._reserved)
        self._unnamed = 0

    def __getitem__(self, value: SSAValue) -> str:
        name = self._names.get(value)
        if name is None:
            name = self.fresh(value.name_hint) if value.name_hint else self._fresh_unnamed()
            self._names[value] = name
        return name

    def __contains__(self, value: SSAValue) -> bool:
        return value in self._names

    def bind(self, value: SSAValue, name: str) -> None:
        """Makes `value` print as the existing identifier `name`."""
        self._names[value] = name

    def fresh(self, base: str) -> str:
        """A new identifier: `base` when free, `base_` when `base` is a reserved word,
        else `base_N`."""
        base = self.sanitize(base)
        if base in self._reserved and f"{base}_" not in self._taken:
            base = f"{base}_"
        candidate, suffix = base, 0
        while candidate in self._taken:
            suffix += 1
            candidate = f"{base}_{suffix}"
        self._taken.add(candidate)
        return candidate

    def _fresh_unnamed(self) -> str:
        while True:
            self._unnamed += 1
            candidate = f"v{self._unnamed}"
            if candidate not in self._taken:
                self._taken.add(candidate)
                return candidate

    @staticmethod
    def sanitize(hint: str) -> str:
        """`hint` as an identifier that is neither reserved by C/C++ (`__x`) nor gir's
        helper namespace (`gir_`)."""
        name = re.sub(r"\W", "_", hint)
        if not name or name[0].isdigit() or name.startswith("gir_"):
            name = f"v{name}" if name and name[0].isdigit() else f"v_{name}"
        while name.startswith("__"):
            name = name[1:]
        return name


def dead_ops(root: Operation, removable: Callable[[Operation], bool]) -> set[Operation]:
    """The ops under `root` that need not be printed: `removable` ones (no side
    effects) whose results only feed other dead ops, transitively."""
    dead: set[Operation] = set()
    # Users come after their operands' definitions, so a reverse walk sees every
    # user of a result before the op that defines it.
    for op in walk(root, reverse=True):
        if op is root or not op.results or not removable(op):
            continue
        if all(use.operation in dead for result in op.results for use in result.uses):
            dead.add(op)
    return dead


# ---------------------------------------------------------------------------
# Scalar types
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Scalar:
    """A GPU-level scalar type reduced to what printing needs: `kind` is "int"
    (`index` is a 32-bit int, `i1` a 1-bit int) or "float"; `width` in bits."""

    kind: str
    width: int

    @property
    def is_bool(self) -> bool:
        """Whether this is `i1`."""
        return self.kind == "int" and self.width == 1

    @property
    def suffix(self) -> str:
        """A short name for helper functions: i32, f32, ..."""
        return f"{self.kind[0]}{self.width}"


def scalar_of(type_: Attribute, index_width: int = 32) -> Scalar:
    """The `Scalar` of an integer, index or float type; a UserError otherwise.
    `index` is `index_width` bits wide: the module's edge index width
    (`gir.dialects.host.edge_index_width`), so that edge positions of a graph
    with more than 2^31 edges are 64-bit."""
    if isinstance(type_, IndexType):
        return Scalar("int", index_width)
    if isinstance(type_, IntegerType):
        if type_.width.data not in (1, 8, 16, 32, 64):
            raise UserError(f"error: GPU targets have no {type_} type")
        return Scalar("int", type_.width.data)
    if isinstance(type_, Float32Type):
        return Scalar("float", 32)
    if isinstance(type_, Float64Type):
        return Scalar("float", 64)
    raise UserError(f"error: GPU kernels cannot hold values of type {type_}")


def signed_value(value: int, width: int) -> int:
    """`value` read as a two's-complement `width`-bit integer."""
    if width == 1:
        return 1 if value & 1 else 0
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


# ---------------------------------------------------------------------------
# Operators every printed language spells alike (up to its logical words)
# ---------------------------------------------------------------------------

BINARY_OPERATORS: dict[type[Operation], str] = {
    arith.AddiOp: "+",
    arith.SubiOp: "-",
    arith.MuliOp: "*",
    arith.AndIOp: "&",
    arith.OrIOp: "|",
    arith.XOrIOp: "^",
    arith.ShLIOp: "<<",
    arith.ShRSIOp: ">>",
    arith.AddfOp: "+",
    arith.SubfOp: "-",
    arith.MulfOp: "*",
    arith.DivfOp: "/",
}
"""Binary ops whose operator is the same in C and Python (the division and
remainder of signed integers are not: they round differently)."""

INTEGER_COMPARISONS = {  # arith.cmpi predicate -> operator
    "eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">=",
    "ult": "<", "ule": "<=", "ugt": ">", "uge": ">=",
}  # fmt: skip

_CMPF = {  # arith.cmpf predicate -> expression; NaN compares false to everything
    "oeq": "{a} == {b}", "ogt": "{a} > {b}", "oge": "{a} >= {b}", "olt": "{a} < {b}",
    "ole": "{a} <= {b}", "one": "({a} < {b} {or_} {a} > {b})",
    "ord": "({a} == {a} {and_} {b} == {b})", "ueq": "{not_}({a} < {b} {or_} {a} > {b})",
    "ugt": "{not_}({a} <= {b})", "uge": "{not_}({a} < {b})", "ult": "{not_}({a} >= {b})",
    "ule": "{not_}({a} > {b})", "une": "{a} != {b}", "uno": "({a} != {a} {or_} {b} != {b})",
    "false": "{false}", "true": "{true}",
}  # fmt: skip

AssignPair = tuple[str, str, SSAValue]
"""One assignment of a parallel assignment: target name, source text, source value."""


# ---------------------------------------------------------------------------
# The walker
# ---------------------------------------------------------------------------


def float32_text(value: float) -> str:
    """`value` rounded to 32 bits, as numpy's `str(np.float32(value))` writes it:
    the fewest digits that read back as the same float32, positional from 1e-4
    up to 1e6 (`0.85`, `100000.0`), else scientific (`1e+06`, `1.6777216e+07`).
    The printers write float32 literals so without importing numpy (a sixth of
    a translation's start-up)."""
    (rounded,) = struct.unpack("f", struct.pack("f", value))
    for decimals in range(9):  # 9 significant digits identify any float32
        scientific = f"{rounded:.{decimals}e}"
        if struct.unpack("f", struct.pack("f", float(scientific)))[0] == rounded:
            break
    if rounded == 0 or 1e-4 <= abs(rounded) < 1e6:
        return repr(float(scientific))
    mantissa, exponent = scientific.split("e")
    return f"{mantissa}e{exponent[0]}{int(exponent[1:]):02d}"


class StructuredPrinter(ABC):
    """Prints one function body at a time as lines of structured source; see the
    module docstring. Subclasses set the class attributes below and implement the
    abstract hooks, and `reset` before each function they print."""

    indent: ClassVar[str]
    """One level of indentation."""
    statement_end: ClassVar[str]
    """What ends a simple statement: `;` or nothing."""
    block_open: ClassVar[str]
    """What follows a block's header: ` {` or `:`."""
    block_else: ClassVar[str]
    """The line between the branches of an `if`."""
    block_close: ClassVar[str | None]
    """The line that ends a block, if the language has one."""
    loop_forever: ClassVar[str]
    """The header of a loop left only by `break`."""
    logical_not: ClassVar[str]
    """Prefix negating a boolean operand: `!` or `not `."""
    logical_and: ClassVar[str]
    logical_or: ClassVar[str]
    pure_ops: ClassVar[tuple[type[Operation], ...]]
    """Ops, besides arith and math ones, that have no effect but their results."""
    printer_name: str
    """The printer's name in messages: "CUDA", "host", ..."""
    scope: ClassVar[str]
    """Where the printed ops live, in messages: "a kernel", "@main"."""
    holder: ClassVar[str]
    """What holds constants, in messages: "kernels", "the host program"."""

    def __init__(self) -> None:
        self._lines: list[str] = []
        self._depth = 0
        self._names = ValueNames(())
        self._literals: dict[SSAValue, str] = {}
        self._frames: list[list[str] | None] = []
        """For each region being printed, the variables its terminator assigns
        (None: a `scf.condition` forwarding the loop's own variables)."""
        self._dead: set[Operation] = set()

    def reset(self, root: Operation, names: ValueNames, depth: int) -> None:
        """Starts printing the function `root` at indentation `depth`."""
        self._lines = []
        self._depth = depth
        self._names = names
        self._literals = {}
        self._frames = []
        self._dead = dead_ops(root, self._is_removable)

    def _is_removable(self, op: Operation) -> bool:
        return op.dialect_name() in ("arith", "math") or isinstance(op, self.pure_ops)

    # -- output -------------------------------------------------------------

    def _line(self, text: str) -> None:
        self._lines.append(self.indent * self._depth + text)

    def _statement(self, text: str) -> None:
        self._line(text + self.statement_end)

    def _open(self, header: str) -> None:
        self._line(header + self.block_open)

    def _close(self) -> None:
        if self.block_close is not None:
            self._line(self.block_close)

    def _print_block_ops(self, block: Block) -> None:
        start = len(self._lines)
        for op in block.ops:
            self._before_op(op)
            if not self._skips(op):
                self._print_op(op)
        if len(self._lines) == start:
            self._empty_block()

    def _print_op(self, op: Operation) -> None:
        """Prints `op` where it stands (a subclass may print it elsewhere)."""
        self.emit(op)
        self._after_op(op)

    def _before_op(self, op: Operation) -> None:
        """Prints what must come before `op` (nothing unless a subclass says)."""

    def _after_op(self, op: Operation) -> None:
        """Notes what printing `op` needed (nothing unless a subclass says)."""

    def _skips(self, op: Operation) -> bool:
        """Whether `op` prints nothing: dead, or a `scf.yield` of no values."""
        return op in self._dead or isinstance(op, scf.YieldOp) and not op.operands

    def _empty_block(self) -> None:
        """Prints the body of a block that printed nothing (nothing unless a
        subclass's language needs a statement there)."""

    def _region(self, block: Block, targets: list[str] | None) -> None:
        """Prints `block` one level deeper; its terminator assigns `targets`."""
        self._frames.append(targets)
        self._depth += 1
        self._print_block_ops(block)
        self._depth -= 1
        self._frames.pop()

    # -- values -------------------------------------------------------------

    def expr(self, value: SSAValue) -> str:
        """The expression for `value`: its literal or its variable."""
        literal = self._literals.get(value)
        if literal is None and isinstance(value.owner, arith.ConstantOp):
            self.emit(value.owner)  # a constant used before its op was reached
            literal = self._literals[value]
        return literal if literal is not None else self._names[value]

    def _operand(self, value: SSAValue) -> str:
        """`expr`, parenthesized when it is a negative literal (`a - (-1)`)."""
        text = self.expr(value)
        return f"({text})" if text.startswith("-") else text

    index_width: int = 32
    """How wide `index` is printed: the module's edge index width."""

    def scalar(self, type_: Attribute) -> Scalar:
        """`scalar_of(type_)`, `index` as wide as this module's edge indices."""
        return scalar_of(type_, self.index_width)

    def _width(self, value: SSAValue) -> int:
        return self.scalar(value.type).width

    def _true(self) -> str:
        return self._int_literal(1, 1)

    def _alias(self, result: SSAValue, source: SSAValue) -> None:
        """Makes `result` print exactly as `source` does."""
        text = self.expr(source)
        if source in self._literals:
            self._literals[result] = text
        else:
            self._names.bind(result, text)

    def _define_or_discard(self, result: SSAValue, expression: str) -> None:
        if result.uses:
            self._define(result, expression)
        else:
            self._statement(expression)

    def _declare(self, result: SSAValue, *also: SSAValue) -> str:
        """The variable of `result`, declared without a value; `also` print as it
        too."""
        name = self._names[result]
        for value in also:
            self._names.bind(value, name)
        self._declare_variable(result, name)
        return name

    def _assign(self, targets: Sequence[str], sources: Sequence[SSAValue]) -> None:
        """`targets = sources` as one parallel assignment (skipping `x = x`)."""
        pairs = [
            (target, self.expr(source), source)
            for target, source in zip(targets, sources, strict=True)
            if self.expr(source) != target
        ]
        if pairs:
            self._assign_pairs(pairs)

    # -- language hooks -----------------------------------------------------

    @abstractmethod
    def _define(self, result: SSAValue, expression: str) -> None:
        """Prints a new local for `result` holding `expression`."""

    @abstractmethod
    def _declare_variable(self, result: SSAValue, name: str) -> None:
        """Prints the declaration of `name`, a variable for `result` that is
        assigned later (inside a region)."""

    @abstractmethod
    def _initialize(self, names: Sequence[str], values: Sequence[SSAValue]) -> None:
        """Prints new loop variables `names` holding `values` at loop entry."""

    @abstractmethod
    def _assign_pairs(self, pairs: Sequence[AssignPair]) -> None:
        """Prints the parallel assignment `pairs` (no target is its own source)."""

    @abstractmethod
    def _unsigned(self, value: SSAValue) -> str:
        """`value` read as an unsigned integer of its width."""

    def _unsigned_int_literal(self, value: int, width: int) -> str:
        """An `UNSIGNED_LITERAL` constant's literal, `value` its bits read as
        unsigned (at least 2^(width-1)); by default the signed literal of the
        same bits (the Python host holds integers so)."""
        return self._int_literal(signed_value(value, width), width)

    @abstractmethod
    def _int_literal(self, value: int, width: int) -> str:
        """The literal of the signed `width`-bit integer `value` (`width` 1: a bool)."""

    @abstractmethod
    def _float_literal(self, value: float, width: int) -> str:
        """The literal of a `width`-bit float, infinities and NaN included."""

    @abstractmethod
    def _if_header(self, condition: str) -> str:
        """The header of an `if` on the boolean expression `condition`."""

    @abstractmethod
    def _for_header(self, op: scf.ForOp, index: str) -> str:
        """The header of the counting loop `op` whose induction variable is `index`."""

    @abstractmethod
    def _select(self, condition: SSAValue, true_value: SSAValue, false_value: SSAValue) -> str:
        """The conditional expression of `arith.select`."""

    # -- ops ----------------------------------------------------------------

    @singledispatchmethod
    def emit(self, op: Operation) -> None:
        """Prints one op that every language spells alike; others are an error."""
        raise UserError(f"error: the {self.printer_name} printer cannot print '{op.name}' in {self.scope}")

    def _binary(self, op: Operation, operators: dict[type[Operation], str]) -> None:
        """`lhs operator rhs`; a boolean `xor` with true is a negation."""
        lhs, rhs = op.operands
        result = op.results[0]
        if isinstance(op, arith.XOrIOp) and self._width(result) == 1 and self.expr(rhs) == self._true():
            self._define(result, f"{self.logical_not}{self._operand(lhs)}")
        else:
            self._define(result, f"{self._operand(lhs)} {operators[type(op)]} {self._operand(rhs)}")

    @emit.register
    def _(self, op: arith.ConstantOp) -> None:
        value = op.value
        if isinstance(value, IntegerAttr):
            width = self._width(op.result)
            bits = value.value.data & ((1 << width) - 1)
            if UNSIGNED_LITERAL in op.attributes and width > 1 and bits >> (width - 1):
                literal = self._unsigned_int_literal(bits, width)
            else:
                literal = self._int_literal(signed_value(value.value.data, width), width)
        elif isinstance(value, FloatAttr):
            literal = self._float_literal(value.value.data, self._width(op.result))
        else:
            raise UserError(f"error: {self.holder} cannot hold the constant {value}")
        self._literals[op.result] = literal

    @emit.register
    def _(self, op: arith.NegfOp) -> None:
        self._define(op.result, f"-{self._operand(op.operand)}")

    @emit.register
    def _(self, op: arith.CmpiOp) -> None:
        predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
        if predicate.startswith("u"):
            lhs, rhs = self._unsigned(op.lhs), self._unsigned(op.rhs)
        else:
            lhs, rhs = self.expr(op.lhs), self.expr(op.rhs)
        self._define(op.result, f"{lhs} {INTEGER_COMPARISONS[predicate]} {rhs}")

    @emit.register
    def _(self, op: arith.CmpfOp) -> None:
        predicate = arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
        expression = _CMPF[predicate].format(
            a=self.expr(op.lhs),
            b=self.expr(op.rhs),
            not_=self.logical_not,
            and_=self.logical_and,
            or_=self.logical_or,
            false=self._int_literal(0, 1),
            true=self._true(),
        )
        self._define(op.result, expression)

    @emit.register
    def _(self, op: arith.SelectOp) -> None:
        self._define(op.result, self._select(op.cond, op.lhs, op.rhs))

    # -- structured control flow --------------------------------------------

    @emit.register
    def _(self, op: scf.YieldOp) -> None:
        targets = self._frames[-1]
        assert targets is not None
        self._assign(targets, op.operands)

    @emit.register
    def _(self, op: scf.IfOp) -> None:
        targets = [self._declare(result) for result in op.output]
        self._open(self._if_header(self.expr(op.cond)))
        self._region(op.true_region.block, targets)
        else_block = op.false_region.blocks.first
        if else_block is not None and _has_work(else_block):
            self._line(self.block_else)
            self._region(else_block, targets)
        self._close()

    @emit.register
    def _(self, op: scf.ForOp) -> None:
        body = op.body.block
        induction, *carried = body.args
        targets = []
        for result, argument in zip(op.res, carried, strict=True):
            name = self._names.fresh(result.name_hint or argument.name_hint or "acc")
            self._names.bind(result, name)
            self._names.bind(argument, name)
            targets.append(name)
        self._initialize(targets, op.iter_args)
        self._open(self._for_header(op, self._names[induction]))
        self._region(body, targets)
        self._close()

    @emit.register
    def _(self, op: scf.WhileOp) -> None:
        before, after = op.before_region.block, op.after_region.block
        condition = before.last_op
        assert isinstance(condition, scf.ConditionOp)
        loop_vars = [self._names[argument] for argument in before.args]
        self._initialize(loop_vars, op.arguments)
        exits: list[str] | None = None
        if list(condition.args) == list(before.args):
            for result, argument, name in zip(op.res, after.args, loop_vars, strict=True):
                self._names.bind(result, name)
                self._names.bind(argument, name)
        else:
            exits = [
                self._declare(result, argument)
                for result, argument in zip(op.res, after.args, strict=True)
            ]
        self._open(self.loop_forever)
        self._region(before, exits)
        self._region(after, loop_vars)
        self._close()

    @emit.register
    def _(self, op: scf.ConditionOp) -> None:
        targets = self._frames[-1]
        if targets is not None:
            self._assign(targets, op.args)
        self._open(self._if_header(f"{self.logical_not}{self._operand(op.condition)}"))
        self._depth += 1
        self._statement("break")
        self._depth -= 1
        self._close()


def _has_work(block: Block) -> bool:
    """Whether a region's block does more than an empty `scf.yield`."""
    ops = list(block.ops)
    return len(ops) > 1 or bool(ops and ops[-1].operands)
