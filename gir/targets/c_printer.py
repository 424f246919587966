"""The C-family kernel printer: one walker over `gir_gpu.kernel` bodies, printed in
a `CFlavour` (CUDA or OpenCL C).

The walker knows the structure every C dialect shares: SSA values become locals
named after their name hints (`%dst` -> `dst`), constants are inlined as literals,
`scf.if` / `scf.for` / `scf.while` become `if` / `for` / `while (true)` with their
results as variables assigned in the branches, `memref.load` / `memref.store` are
array accesses. The flavour supplies what differs: qualifiers, type names,
thread coordinates, barriers, atomics (with device helpers for the ones a target
lacks), bit casts and the file's preamble.

```mlir
%old = gir_gpu.atomic_cas %parent[%dsti], %m1, %src : memref<?xi32>, index, i32
%won = arith.cmpi eq, %old, %m1 : i32
```
prints, in CUDA, as
```c
int old = atomicCAS(&parent[dsti], -1, src);
bool won = old == -1;
```

Adding an op costs one `emit` method; adding a target costs one `CFlavour`.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import singledispatchmethod

import numpy as np
from xdsl.dialects import arith, math, memref, scf
from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from gir.diagnostics import UserError
from gir.dialects.gir_gpu import (
    AtomicCASOp,
    AtomicRMWOp,
    BarrierOp,
    ExclusiveScanOp,
    IdOp,
    KernelOp,
    ReturnOp,
    SharedAllocOp,
    SubgroupBallotOp,
    SubgroupBroadcastOp,
    SubgroupExclusiveSumOp,
    C_KEYWORDS,
    VECTOR_TYPES,
    check_kernel_name,
)

# ---------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------

C_RESERVED = C_KEYWORDS | VECTOR_TYPES | frozenset(
    """
    NAN INFINITY min max abs fabs fmin fmax sqrt exp exp2 log log2 log10 sin cos tan
    tanh floor ceil trunc round erf cbrt pow atan2 copysign fma log1p expm1 select clamp
    """.split()
)
"""Words no C, C++, CUDA or OpenCL local may be called, and the math builtins the
printer calls (each flavour adds its own builtins)."""


class ValueNames:
    """Source identifiers of SSA values, unique within one printed function.

    A value is named after its name hint (sanitized into an identifier), else `vN`;
    a clash gets `_1`, `_2`, ... Values can share a name (`bind`), which is how the
    results of structured control flow map to the variables assigned inside it.
    Used by the kernel printer and by the host-Python printer.
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
    for op in root.walk(reverse=True):
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


def scalar_of(type_: Attribute) -> Scalar:
    """The `Scalar` of an integer, index or float type; a UserError otherwise."""
    if isinstance(type_, IndexType):
        return Scalar("int", 32)
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
# Flavours
# ---------------------------------------------------------------------------


@dataclass
class Needs:
    """What the printed kernels require beyond themselves: extensions (OpenCL
    pragmas) and device helper functions, in order of first use."""

    extensions: set[str] = field(default_factory=set)
    helpers: dict[str, str] = field(default_factory=dict)
    kernel_arrays: dict[str, str] = field(default_factory=dict)
    """Declarations at the top of the kernel being printed (its scratch arrays),
    by name; emptied for each kernel."""

    def helper(self, name: str, source: str) -> str:
        """Records the helper `name` (once) and returns its name, for calls."""
        self.helpers.setdefault(name, source)
        return name

    def kernel_array(self, name: str, declaration: str) -> str:
        """Records a scratch array of the current kernel (once) and returns its name."""
        self.kernel_arrays.setdefault(name, declaration)
        return name


class CFlavour(ABC):
    """What one C-family target spells differently; see `CudaFlavour` and
    `OpenCLFlavour`. Everything else is the walker's."""

    name: str
    """The target's name in messages: "CUDA", "OpenCL"."""
    reserved: frozenset[str]
    """Builtin identifiers that locals must not shadow."""
    helper_qualifier: str
    """How a device helper function is declared: `__device__ __forceinline__`."""

    @abstractmethod
    def header(self) -> list[str]:
        """The comment lines that open the file."""

    @abstractmethod
    def preamble(self, needs: Needs) -> list[str]:
        """Lines after the header: includes, pragmas for `needs.extensions`."""

    @abstractmethod
    def kernel_head(self, name: str) -> str:
        """`extern "C" __global__ void name` and the like."""

    @abstractmethod
    def int_type(self, width: int, *, unsigned: bool = False) -> str:
        """The C name of a `width`-bit integer (width 8..64)."""

    def value_type(self, scalar: Scalar, needs: Needs) -> str:
        """The C type of a local holding `scalar`."""
        if scalar.is_bool:
            return "bool"
        if scalar.kind == "int":
            return self.int_type(scalar.width)
        if scalar.width == 64:
            self.note_double(needs)
            return "double"
        return "float"

    def memory_type(self, scalar: Scalar, needs: Needs) -> str:
        """The C type of a buffer element holding `scalar`."""
        return self.value_type(scalar, needs)

    def parameter_type(self, scalar: Scalar, needs: Needs) -> str:
        """The C type of a scalar kernel parameter: an `i1` is passed as an int."""
        return "int" if scalar.is_bool else self.value_type(scalar, needs)

    def note_double(self, needs: Needs) -> None:
        """Called whenever a double is printed (OpenCL needs cl_khr_fp64)."""

    @abstractmethod
    def pointer_type(self, element: str, *, read_only: bool = False) -> str:
        """The type of a pointer to device-global `element`s."""

    def int_literal(self, value: int, width: int) -> str:
        """An integer literal of a `width`-bit type."""
        if width == 1:
            return "true" if value else "false"
        if width == 64:
            suffix = self.long_suffix
            if value == -(1 << 63):
                return f"(-9223372036854775807{suffix} - 1)"
            return f"{value}{suffix}"
        if value == -(1 << 31):
            return "(-2147483647 - 1)"
        return str(value)

    long_suffix: str = "LL"
    """The suffix of a 64-bit integer literal."""

    def float_literal(self, value: float, width: int, needs: Needs) -> str:
        """A floating-point literal; infinities and NaN through `float_special`."""
        if np.isnan(value) or np.isinf(value):
            return self.float_special(value, width, needs)
        if width == 32:
            text = str(np.float32(value))
            return f"{text}f" if any(c in text for c in ".e") else f"{text}.0f"
        self.note_double(needs)
        text = repr(float(value))
        return text if any(c in text for c in ".e") else f"{text}.0"

    @abstractmethod
    def float_special(self, value: float, width: int, needs: Needs) -> str:
        """An expression for +-infinity or NaN."""

    @abstractmethod
    def thread_coordinate(self, dimension: str, needs: Needs) -> str:
        """An int expression for a `gir_gpu.id` dimension (thread, block, lane, ...)."""

    @abstractmethod
    def barrier(self) -> str:
        """The statement that waits for every thread of the block."""

    @abstractmethod
    def shared_array(self, element: str, name: str, size: int) -> str:
        """The kernel-scope declaration of a work-group array."""

    @abstractmethod
    def subgroup_ballot(self, predicate: str, needs: Needs) -> str:
        """An int expression: the mask of the sub-group's lanes whose `predicate`
        (a bool expression) is true."""

    @abstractmethod
    def subgroup_exclusive_sum(self, element: Scalar, value: str, needs: Needs) -> str:
        """An expression: the sum of `value` over the sub-group's lower lanes."""

    @abstractmethod
    def subgroup_broadcast(self, element: Scalar, value: str, lane: str, needs: Needs) -> str:
        """An expression: `value` as the sub-group's lane `lane` holds it."""

    @abstractmethod
    def atomic_rmw(
        self, kind: str, element: Scalar, address: str, value: str, needs: Needs
    ) -> str:
        """An expression that applies `kind` atomically at `address` and yields the old
        value."""

    @abstractmethod
    def atomic_cas(
        self, element: Scalar, address: str, expected: str, desired: str, needs: Needs
    ) -> str:
        """An expression for compare-and-swap at `address`, yielding the old value."""

    @abstractmethod
    def bitcast(self, value: str, source: Scalar, target: Scalar) -> str:
        """Reinterprets the bits of `value` (i32<->f32, i64<->f64)."""


def unsupported_atomic(flavour: CFlavour, what: str, element: Scalar) -> UserError:
    """The error for an atomic a target cannot do on `element`."""
    return UserError(
        f"error: {flavour.name} has no atomic {what} on {element.suffix} "
        "(atomics need 32- or 64-bit elements)"
    )


@dataclass(frozen=True)
class CasSpelling:
    """How a target writes the pieces of a compare-and-swap loop over the bits of a
    float (or of a wide integer)."""

    qualifier: str
    value_type: str
    pointer_type: str
    bits_type: str
    bits_pointer_type: str
    cas: str
    to_bits: str
    from_bits: str


def cas_loop_helper(name: str, kind: str, spelling: CasSpelling) -> str:
    """A device function `name(address, value)` that does `kind` (add, min or max)
    atomically with a compare-and-swap loop and returns the old value."""
    s = spelling
    head = [
        f"{s.qualifier} {s.value_type} {name}({s.pointer_type} address, {s.value_type} value) {{",
        f"  {s.bits_pointer_type} bits = ({s.bits_pointer_type})address;",
        f"  {s.bits_type} old = *bits;",
    ]
    if kind == "add":
        body = [
            f"  {s.bits_type} assumed;",
            "  do {",
            "    assumed = old;",
            f"    old = {s.cas}(bits, assumed, {s.to_bits}({s.from_bits}(assumed) + value));",
            "  } while (old != assumed);",
        ]
    else:
        better = "<" if kind == "min" else ">"
        body = [
            f"  while (value {better} {s.from_bits}(old)) {{",
            f"    {s.bits_type} assumed = old;",
            f"    old = {s.cas}(bits, assumed, {s.to_bits}(value));",
            "    if (old == assumed) {",
            "      break;",
            "    }",
            "  }",
        ]
    return "\n".join([*head, *body, f"  return {s.from_bits}(old);", "}"])


# ---------------------------------------------------------------------------
# The walker
# ---------------------------------------------------------------------------

_BINARY = {
    arith.AddiOp: "+",
    arith.SubiOp: "-",
    arith.MuliOp: "*",
    arith.DivSIOp: "/",
    arith.RemSIOp: "%",
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
_UNSIGNED_BINARY = {arith.DivUIOp: "/", arith.RemUIOp: "%", arith.ShRUIOp: ">>"}
_BOOL_BINARY = {arith.AndIOp: "&&", arith.OrIOp: "||", arith.XOrIOp: "!="}
_MIN_MAX = {
    arith.MinSIOp: ("min", False),
    arith.MaxSIOp: ("max", False),
    arith.MinUIOp: ("min", True),
    arith.MaxUIOp: ("max", True),
    arith.MinimumfOp: ("fmin", False),
    arith.MinnumfOp: ("fmin", False),
    arith.MaximumfOp: ("fmax", False),
    arith.MaxnumfOp: ("fmax", False),
}
INTEGER_COMPARISONS = {  # arith.cmpi predicate -> operator, the same in C and Python
    "eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">=",
    "ult": "<", "ule": "<=", "ugt": ">", "uge": ">=",
}  # fmt: skip
_CMPF = {
    "oeq": "{a} == {b}", "ogt": "{a} > {b}", "oge": "{a} >= {b}", "olt": "{a} < {b}",
    "ole": "{a} <= {b}", "one": "({a} < {b} || {a} > {b})",
    "ord": "({a} == {a} && {b} == {b})", "ueq": "!({a} < {b} || {a} > {b})",
    "ugt": "!({a} <= {b})", "uge": "!({a} < {b})", "ult": "!({a} >= {b})",
    "ule": "!({a} > {b})", "une": "{a} != {b}", "uno": "({a} != {a} || {b} != {b})",
    "false": "false", "true": "true",
}  # fmt: skip
_MATH_CALLS = {
    math.AbsFOp: "fabs",
    math.AbsIOp: "abs",
    math.SqrtOp: "sqrt",
    math.ExpOp: "exp",
    math.Exp2Op: "exp2",
    math.ExpM1Op: "expm1",
    math.LogOp: "log",
    math.Log2Op: "log2",
    math.Log10Op: "log10",
    math.Log1pOp: "log1p",
    math.SinOp: "sin",
    math.CosOp: "cos",
    math.TanOp: "tan",
    math.TanhOp: "tanh",
    math.FloorOp: "floor",
    math.CeilOp: "ceil",
    math.TruncOp: "trunc",
    math.RoundOp: "round",
    math.ErfOp: "erf",
    math.CbrtOp: "cbrt",
    math.PowFOp: "pow",
    math.Atan2Op: "atan2",
    math.CopySignOp: "copysign",
    math.FmaOp: "fma",
}
_CASTS = (
    arith.ExtSIOp,
    arith.TruncIOp,
    arith.SIToFPOp,
    arith.FPToSIOp,
    arith.ExtFOp,
    arith.TruncFOp,
)
_UNSIGNED_CASTS = (arith.ExtUIOp, arith.UIToFPOp, arith.FPToUIOp)

_C_INDENT = "  "


@dataclass
class _Branch:
    """Where the `scf.yield` of the region being printed assigns its operands."""

    targets: list[str]
    types: list[str]


@dataclass
class _Condition:
    """Where the `scf.condition` of a `scf.while` assigns its forwarded values (None
    when they are the loop's own variables)."""

    targets: list[str] | None


class KernelPrinter:
    """Prints the `gir_gpu.kernel`s of a module as one C-family source file in the
    given flavour (the host function `@main` is left to `host_python`)."""

    def __init__(self, flavour: CFlavour):
        self.flavour = flavour
        self.needs = Needs()
        self._lines: list[str] = []
        self._depth = 0
        self._names = ValueNames(C_RESERVED | flavour.reserved)
        self._literals: dict[SSAValue, str] = {}
        self._frames: list[_Branch | _Condition] = []
        self._dead: set[Operation] = set()

    # -- output -------------------------------------------------------------

    def print_module(self, module: ModuleOp) -> str:
        """The whole source file: header, preamble, helpers, then every kernel."""
        for op in module.walk():
            if isinstance(op, ExclusiveScanOp):
                raise UserError(
                    f"error: {op.name} has no kernels yet; expand it first with "
                    "gir-opt -p gpu-expand-scan (the end of lower-to-gpu)"
                )
        kernels = [self.print_kernel(op) for op in module.ops if isinstance(op, KernelOp)]
        sections = ["\n".join(self.flavour.header())]
        preamble = self.flavour.preamble(self.needs)
        if preamble:
            sections.append("\n".join(preamble))
        sections.extend(self.needs.helpers.values())
        sections.extend(kernels)
        return "\n\n".join(sections) + "\n"

    def print_kernel(self, kernel: KernelOp) -> str:
        """One kernel as a C function definition."""
        name = check_kernel_name(kernel.sym_name.data)
        if name is not None:
            raise UserError(f"error: {name}")
        self.needs.kernel_arrays = {}
        self._lines = []
        self._depth = 1
        self._names = ValueNames(C_RESERVED | self.flavour.reserved)
        self._literals = {}
        self._frames = []
        self._dead = dead_ops(kernel, _is_removable)
        parameters = [self._parameter(arg) for arg in kernel.body.block.args]
        head = f"{self.flavour.kernel_head(kernel.sym_name.data)}("
        if len(head) + sum(len(p) + 2 for p in parameters) > 90:
            signature = head + "\n" + ",\n".join(f"    {p}" for p in parameters) + ") {"
        else:
            signature = f"{head}{', '.join(parameters)}) {{"
        self._print_block_ops(kernel.body.block)
        scratch = [_C_INDENT + line for line in self.needs.kernel_arrays.values()]
        return "\n".join([signature, *scratch, *self._lines, "}"])

    def _parameter(self, arg: BlockArgument) -> str:
        name = self._names[arg]
        if isinstance(arg.type, MemRefType):
            element = self.flavour.memory_type(scalar_of(arg.type.element_type), self.needs)
            read_only = all(isinstance(use.operation, memref.LoadOp) for use in arg.uses)
            return f"{self.flavour.pointer_type(element, read_only=read_only)} {name}"
        return f"{self.flavour.parameter_type(scalar_of(arg.type), self.needs)} {name}"

    def _line(self, text: str) -> None:
        self._lines.append(_C_INDENT * self._depth + text)

    def _print_block_ops(self, block: Block) -> None:
        for op in block.ops:
            if op not in self._dead:
                self.emit(op)

    # -- values -------------------------------------------------------------

    def expr(self, value: SSAValue) -> str:
        """The C expression for `value`: its literal or its variable."""
        literal = self._literals.get(value)
        if literal is None and isinstance(value.owner, arith.ConstantOp):
            self.emit(value.owner)  # a constant used before its op was reached
            literal = self._literals[value]
        return literal if literal is not None else self._names[value]

    def _operand(self, value: SSAValue) -> str:
        """`expr`, parenthesized when it is a negative literal (`a - (-1)`)."""
        text = self.expr(value)
        return f"({text})" if text.startswith("-") else text

    def c_type(self, type_: Attribute) -> str:
        """The C type of a local of `type_` (a scalar or a buffer pointer)."""
        if isinstance(type_, MemRefType):
            element = self.flavour.memory_type(scalar_of(type_.element_type), self.needs)
            return self.flavour.pointer_type(element)
        return self.flavour.value_type(scalar_of(type_), self.needs)

    def _unsigned(self, value: SSAValue) -> str:
        """`value` cast to the unsigned integer type of its width."""
        scalar = scalar_of(value.type)
        return f"({self.flavour.int_type(max(scalar.width, 8), unsigned=True)}){self._operand(value)}"

    def _define(self, result: SSAValue, expression: str) -> None:
        self._line(f"{self.c_type(result.type)} {self._names[result]} = {expression};")

    def _define_or_discard(self, result: SSAValue, expression: str) -> None:
        if result.uses:
            self._define(result, expression)
        else:
            self._line(f"{expression};")

    def _declare(self, result: SSAValue, *also: SSAValue) -> str:
        """Declares an uninitialized variable for `result`; `also` print as it too."""
        name = self._names[result]
        for value in also:
            self._names.bind(value, name)
        self._line(f"{self.c_type(result.type)} {name};")
        return name

    def _assign_all(self, targets: Sequence[str], types: Sequence[str], sources: Sequence[SSAValue]) -> None:
        """`targets = sources` as one parallel assignment: a source that is also an
        earlier-assigned target is saved in a temporary first (a swap)."""
        pending = [
            (target, type_, self.expr(source))
            for target, type_, source in zip(targets, types, sources, strict=True)
            if self.expr(source) != target
        ]
        overwritten = {target for target, _, _ in pending}
        staged = []
        for target, type_, source in pending:
            if source in overwritten:
                temporary = self._names.fresh(f"next_{target}")
                self._line(f"{type_} {temporary} = {source};")
                source = temporary
            staged.append((target, source))
        for target, source in staged:
            self._line(f"{target} = {source};")

    # -- ops ----------------------------------------------------------------

    @singledispatchmethod
    def emit(self, op: Operation) -> None:
        """Prints one op of a kernel body."""
        if type(op) in _BINARY or type(op) in _UNSIGNED_BINARY:
            self._binary(op)
        elif type(op) in _MIN_MAX:
            self._min_max(op)
        elif type(op) in _MATH_CALLS:
            arguments = ", ".join(self.expr(operand) for operand in op.operands)
            self._define(op.results[0], f"{_MATH_CALLS[type(op)]}({arguments})")
        elif isinstance(op, _CASTS + _UNSIGNED_CASTS):
            self._cast(op)
        else:
            raise UserError(
                f"error: the {self.flavour.name} printer cannot print '{op.name}' in a kernel"
            )

    @emit.register
    def _(self, op: ReturnOp) -> None:
        pass

    @emit.register
    def _(self, op: arith.ConstantOp) -> None:
        value = op.value
        if isinstance(value, IntegerAttr):
            width = scalar_of(op.result.type).width
            literal = self.flavour.int_literal(signed_value(value.value.data, width), width)
        elif isinstance(value, FloatAttr):
            literal = self.flavour.float_literal(
                value.value.data, scalar_of(op.result.type).width, self.needs
            )
        else:
            raise UserError(f"error: kernels cannot hold the constant {value}")
        self._literals[op.result] = literal

    def _binary(self, op: Operation) -> None:
        lhs, rhs = op.operands
        result = op.results[0]
        if scalar_of(result.type).is_bool and type(op) in _BOOL_BINARY:
            if isinstance(op, arith.XOrIOp) and self.expr(rhs) == "true":
                self._define(result, f"!{self._operand(lhs)}")
                return
            self._define(result, f"{self._operand(lhs)} {_BOOL_BINARY[type(op)]} {self._operand(rhs)}")
            return
        if type(op) in _UNSIGNED_BINARY:
            operator = _UNSIGNED_BINARY[type(op)]
            expression = f"({self.c_type(result.type)})({self._unsigned(lhs)} {operator} {self._unsigned(rhs)})"
            self._define(result, expression)
            return
        self._define(result, f"{self._operand(lhs)} {_BINARY[type(op)]} {self._operand(rhs)}")

    def _min_max(self, op: Operation) -> None:
        function, unsigned = _MIN_MAX[type(op)]
        lhs, rhs = op.operands
        result = op.results[0]
        if unsigned:
            call = f"{function}({self._unsigned(lhs)}, {self._unsigned(rhs)})"
            self._define(result, f"({self.c_type(result.type)}){call}")
        else:
            self._define(result, f"{function}({self.expr(lhs)}, {self.expr(rhs)})")

    @emit.register
    def _(self, op: arith.FloorDivSIOp) -> None:
        a, b = self._operand(op.lhs), self._operand(op.rhs)
        self._define(op.result, f"{a} / {b} - ({a} % {b} != 0 && (({a} < 0) != ({b} < 0)))")

    @emit.register
    def _(self, op: arith.CeilDivSIOp) -> None:
        a, b = self._operand(op.lhs), self._operand(op.rhs)
        self._define(op.result, f"{a} / {b} + ({a} % {b} != 0 && (({a} < 0) == ({b} < 0)))")

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
        template = _CMPF[predicate]
        self._define(
            op.result, template.format(a=self.expr(op.lhs), b=self.expr(op.rhs))
        )

    @emit.register
    def _(self, op: arith.SelectOp) -> None:
        condition, true_value, false_value = (self._operand(v) for v in op.operands)
        self._define(op.result, f"{condition} ? {true_value} : {false_value}")

    @emit.register
    def _(self, op: arith.IndexCastOp) -> None:
        if self.c_type(op.input.type) == self.c_type(op.result.type):
            # i32 <-> index is the same C int: no new variable, just another name.
            self._alias(op.result, op.input)
            return
        self._define(op.result, f"({self.c_type(op.result.type)}){self._operand(op.input)}")

    def _alias(self, result: SSAValue, source: SSAValue) -> None:
        """Makes `result` print exactly as `source` does."""
        text = self.expr(source)
        if source in self._literals:
            self._literals[result] = text
        else:
            self._names.bind(result, text)

    def _cast(self, op: Operation) -> None:
        (source,) = op.operands
        result = op.results[0]
        target_type = self.c_type(result.type)
        source_scalar, target_scalar = scalar_of(source.type), scalar_of(result.type)
        if target_scalar.is_bool:  # trunci to i1 keeps the lowest bit
            self._define(result, f"({self._operand(source)} & 1) != 0")
        elif source_scalar.is_bool:
            negate = "-" if isinstance(op, arith.ExtSIOp) else ""  # sign-extended true is -1
            self._define(result, f"{negate}({target_type}){self._operand(source)}")
        elif isinstance(op, arith.ExtUIOp | arith.UIToFPOp):
            self._define(result, f"({target_type}){self._unsigned(source)}")
        elif isinstance(op, arith.FPToUIOp):
            unsigned = self.flavour.int_type(target_scalar.width, unsigned=True)
            self._define(result, f"({target_type})({unsigned}){self._operand(source)}")
        else:
            self._define(result, f"({target_type}){self._operand(source)}")

    @emit.register
    def _(self, op: arith.BitcastOp) -> None:
        source, target = scalar_of(op.input.type), scalar_of(op.result.type)
        if source == target:
            self._alias(op.result, op.input)
            return
        self._define(op.result, self.flavour.bitcast(self.expr(op.input), source, target))

    @emit.register
    def _(self, op: memref.LoadOp) -> None:
        self._define(op.res, f"{self.expr(op.memref)}[{self._index(op.indices)}]")

    @emit.register
    def _(self, op: memref.StoreOp) -> None:
        self._line(f"{self.expr(op.memref)}[{self._index(op.indices)}] = {self.expr(op.value)};")

    def _index(self, indices: Sequence[SSAValue]) -> str:
        if len(indices) != 1:
            raise UserError("error: GPU kernels index one-dimensional buffers only")
        return self.expr(indices[0])

    @emit.register
    def _(self, op: IdOp) -> None:
        self._define(op.result, self.flavour.thread_coordinate(op.dimension.data.value, self.needs))

    @emit.register
    def _(self, op: BarrierOp) -> None:
        self._line(self.flavour.barrier())

    @emit.register
    def _(self, op: SharedAllocOp) -> None:
        type_ = op.result.type
        assert isinstance(type_, MemRefType)
        element = self.flavour.memory_type(scalar_of(type_.element_type), self.needs)
        size = type_.get_shape()[0]
        self._line(self.flavour.shared_array(element, self._names[op.result], size))

    @emit.register
    def _(self, op: SubgroupBallotOp) -> None:
        self._define(op.result, self.flavour.subgroup_ballot(self.expr(op.predicate), self.needs))

    @emit.register
    def _(self, op: SubgroupExclusiveSumOp) -> None:
        element = scalar_of(op.value.type)
        self._define(op.result, self.flavour.subgroup_exclusive_sum(element, self.expr(op.value), self.needs))

    @emit.register
    def _(self, op: SubgroupBroadcastOp) -> None:
        element = scalar_of(op.value.type)
        call = self.flavour.subgroup_broadcast(element, self.expr(op.value), self.expr(op.lane), self.needs)
        self._define(op.result, call)

    @emit.register
    def _(self, op: AtomicRMWOp) -> None:
        address = f"&{self.expr(op.buffer)}[{self.expr(op.index)}]"
        call = self.flavour.atomic_rmw(
            op.kind.data.value, scalar_of(op.value.type), address, self.expr(op.value), self.needs
        )
        self._define_or_discard(op.old, call)

    @emit.register
    def _(self, op: AtomicCASOp) -> None:
        address = f"&{self.expr(op.buffer)}[{self.expr(op.index)}]"
        call = self.flavour.atomic_cas(
            scalar_of(op.desired.type),
            address,
            self.expr(op.expected),
            self.expr(op.desired),
            self.needs,
        )
        self._define_or_discard(op.old, call)

    # -- structured control flow --------------------------------------------

    def _region(self, block: Block, frame: _Branch | _Condition) -> None:
        self._frames.append(frame)
        self._depth += 1
        self._print_block_ops(block)
        self._depth -= 1
        self._frames.pop()

    @emit.register
    def _(self, op: scf.YieldOp) -> None:
        frame = self._frames[-1]
        assert isinstance(frame, _Branch)
        self._assign_all(frame.targets, frame.types, op.operands)

    @emit.register
    def _(self, op: scf.IfOp) -> None:
        targets = [self._declare(result) for result in op.output]
        types = [self.c_type(result.type) for result in op.output]
        self._line(f"if ({self.expr(op.cond)}) {{")
        self._region(op.true_region.block, _Branch(targets, types))
        else_block = op.false_region.blocks.first
        if else_block is not None and _has_work(else_block):
            self._line("} else {")
            self._region(else_block, _Branch(targets, types))
        self._line("}")

    @emit.register
    def _(self, op: scf.ForOp) -> None:
        body = op.body.block
        induction, *carried = body.args
        targets = []
        for init, argument, result in zip(op.iter_args, carried, op.res, strict=True):
            name = self._names.fresh(result.name_hint or argument.name_hint or "acc")
            self._names.bind(result, name)
            self._names.bind(argument, name)
            self._line(f"{self.c_type(result.type)} {name} = {self.expr(init)};")
            targets.append(name)
        types = [self.c_type(result.type) for result in op.res]
        index = self._names[induction]
        index_type = self.c_type(induction.type)
        self._line(
            f"for ({index_type} {index} = {self.expr(op.lb)}; {index} < {self.expr(op.ub)}; "
            f"{index} += {self.expr(op.step)}) {{"
        )
        self._region(body, _Branch(targets, types))
        self._line("}")

    @emit.register
    def _(self, op: scf.WhileOp) -> None:
        before, after = op.before_region.block, op.after_region.block
        condition = before.last_op
        assert isinstance(condition, scf.ConditionOp)
        loop_vars = []
        for init, argument in zip(op.arguments, before.args, strict=True):
            name = self._names[argument]
            self._line(f"{self.c_type(argument.type)} {name} = {self.expr(init)};")
            loop_vars.append(name)
        forwards_own_vars = list(condition.args) == list(before.args)
        if forwards_own_vars:
            for result, argument, name in zip(op.res, after.args, loop_vars, strict=True):
                self._names.bind(result, name)
                self._names.bind(argument, name)
            condition_frame = _Condition(None)
        else:
            exits = [self._declare(result, argument) for result, argument in zip(op.res, after.args, strict=True)]
            condition_frame = _Condition(exits)
        self._line("while (true) {")
        self._region(before, condition_frame)
        types = [self.c_type(argument.type) for argument in before.args]
        self._region(after, _Branch(loop_vars, types))
        self._line("}")

    @emit.register
    def _(self, op: scf.ConditionOp) -> None:
        frame = self._frames[-1]
        assert isinstance(frame, _Condition)
        if frame.targets is not None:
            types = [self.c_type(value.type) for value in op.args]
            self._assign_all(frame.targets, types, op.args)
        self._line(f"if (!{self._operand(op.condition)}) {{")
        self._line(f"{_C_INDENT}break;")
        self._line("}")


def _is_removable(op: Operation) -> bool:
    """Whether a kernel op has no effect but its results."""
    return op.dialect_name() in ("arith", "math") or isinstance(op, memref.LoadOp | IdOp)


def _has_work(block: Block) -> bool:
    """Whether a region's block does more than an empty `scf.yield`."""
    ops = list(block.ops)
    return len(ops) > 1 or bool(ops and ops[-1].operands)
