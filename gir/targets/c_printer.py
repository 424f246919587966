"""The C-family kernel printer: `gir_gpu.kernel` bodies printed in a `CFlavour`
(CUDA or OpenCL C).

`KernelPrinter` is the C syntax of the shared walker (`walker.StructuredPrinter`:
value names, literals, `scf.if` / `scf.for` / `scf.while` as `if` / `for` /
`while (true)` with their results as variables assigned in the branches) plus what
every C dialect prints alike: typed locals, `memref.load` / `memref.store` as
array accesses, casts. The flavour supplies what differs: qualifiers, type names,
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

import sys
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import singledispatchmethod
from math import isfinite

from xdsl.dialects import arith, func, math, memref, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from gir.diagnostics import UserError
from gir.dialects.gir_gpu import (
    AtomicCASOp,
    AGGREGATED,
    COMBINE_RUNS,
    AtomicRMWOp,
    BarrierOp,
    GridBarrierOp,
    ExclusiveScanOp,
    IdOp,
    KernelOp,
    is_persistent,
    is_streaming,
    resident_blocks,
    PrintOp,
    ReturnOp,
    SharedAllocOp,
    SubgroupBallotOp,
    SubgroupBroadcastOp,
    SubgroupExclusiveSumOp,
    C_KEYWORDS,
    VECTOR_TYPES,
    check_kernel_name,
)
from gir.dialects.host import edge_index_width
from gir.ir_walk import walk
from gir.targets.externs import called_externs, extern_section
from gir.targets.walker import (
    float32_text,
    BINARY_OPERATORS,
    AssignPair,
    Scalar,
    StructuredPrinter,
    ValueNames,
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


def c_string_literal(text: str) -> str:
    """`text` (UTF-8) as a C string literal: printable ASCII stays, except `"`, `\\`
    and `?` (no trigraphs), which are escaped; every other byte is a three-digit
    octal escape, so no input can end the literal or the line."""
    pieces = []
    for byte in text.encode("utf-8"):
        character = chr(byte)
        if character in '"\\?':
            pieces.append("\\" + character)
        elif 0x20 <= byte < 0x7F:
            pieces.append(character)
        else:
            pieces.append(f"\\{byte:03o}")
    return '"' + "".join(pieces) + '"'


# ---------------------------------------------------------------------------
# Flavours
# ---------------------------------------------------------------------------


@dataclass
class Needs:
    """What the printed kernels require beyond themselves: extensions (OpenCL
    pragmas) and device helper functions, in order of first use."""

    extensions: set[str] = field(default_factory=set)
    extension_sites: dict[str, Operation] = field(default_factory=dict)
    """For each extension, the first op printed that needs it (where a device
    without it is reported)."""
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
    grid_sync: bool = False
    """Whether the target can synchronize a whole grid (`gir_gpu.grid_barrier`);
    without it, persistent kernels are left out and their loops run on the host."""

    def grid_barrier(self, sync: str, needs: Needs) -> str:
        """The statement that waits for every thread of the grid, counting in the
        two words at `sync` (only called where `grid_sync` holds)."""
        raise UserError(f"error: {self.name} has no grid-wide synchronization")

    @abstractmethod
    def header(self) -> list[str]:
        """The comment lines that open the file."""

    @abstractmethod
    def preamble(self, needs: Needs) -> list[str]:
        """Lines after the header: includes, pragmas for `needs.extensions`."""

    @abstractmethod
    def kernel_head(self, name: str, resident_block: int | None = None) -> str:
        """`extern "C" __global__ void name` and the like; `resident_block`: the
        kernel asks for full occupancy in blocks of that many threads
        (`gir_gpu.RESIDENT_BLOCKS`), where the language can say so."""

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

    def streaming_load(self, element: str, scalar: Scalar) -> str:
        """`element` (`buffer[index]`, holding `scalar`) read once in a launch
        (`gir_gpu.STREAMING`): by default a plain load."""
        return element

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

    def unsigned_int_literal(self, value: int, width: int) -> str:
        """An unsigned literal above the signed range (`value` in [2^(w-1),
        2^w)), cast to the signless (signed) C type of its width:
        `((long long)18446744073709551615ULL)`, `((int)4294967295u)`."""
        suffix = f"U{self.long_suffix}" if width == 64 else "u"
        return f"(({self.int_type(width)}){value}{suffix})"

    def printf_argument(
        self, value: str, scalar: Scalar, needs: Needs, *, unsigned: bool = False
    ) -> tuple[str, str]:
        """The `printf` conversion and the argument that print a `scalar` value
        as the host prints it (`%g` for floats, bools as 0 or 1; `unsigned`: an
        integer read as unsigned)."""
        if scalar.kind == "float":
            return "%g", value if scalar.width == 64 else f"(double){value}"
        if unsigned:
            return ("%llu", f"(unsigned long long){value}") if scalar.width == 64 else ("%u", f"(unsigned int){value}")
        if scalar.width == 64:
            return "%lld", f"(long long){value}"
        return "%d", f"(int){value}"

    def float_literal(self, value: float, width: int, needs: Needs) -> str:
        """A floating-point literal; infinities and NaN through `float_special`."""
        if not isfinite(value):
            return self.float_special(value, width, needs)
        if width == 32:
            text = float32_text(value)
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

    def aggregated_add(self, element: Scalar, address: str, value: str, needs: Needs) -> str:
        """An expression that adds `value` at `address` for a `gir_gpu.aggregated`
        atomic (address and value alike in every thread), yielding this thread's
        old value; by default one atomic per thread."""
        return self.atomic_rmw("add", element, address, value, needs)

    def run_combined_add(
        self, element: Scalar, buffer: str, index: str, index_type: Scalar, value: str, needs: Needs
    ) -> str:
        """A statement that adds `value` at `buffer[index]` (`index` of
        `index_type`) for a `gir_gpu.combine_runs` atomic (old value unused;
        neighbouring threads usually share the index); by default one atomic
        per thread."""
        return self.atomic_rmw("add", element, f"&{buffer}[{index}]", value, needs)

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


def byte_cas_helper(name: str, qualifier: str, byte_pointer: str, word_pointer: str, cas: str) -> str:
    """A device function `name(address, expected, desired)`: a compare-and-swap
    of one byte (a bool vector's element), which neither CUDA nor OpenCL has,
    done by a 32-bit compare-and-swap of the aligned word holding it (little
    endian) that retries while only the word's other bytes changed. Returns the
    byte's old value. The word may reach past the vector's last byte: the
    runtime rounds every buffer up to whole words (`Run.alloc`; cudaMalloc's
    granularity in the C++ host)."""
    return "\n".join([
        f"{qualifier} unsigned char {name}({byte_pointer} address, unsigned char expected, unsigned char desired) {{",
        f"  {word_pointer} word = ({word_pointer})((size_t)address & ~(size_t)3);",
        "  unsigned int shift = (unsigned int)((size_t)address & 3) * 8u;",
        "  unsigned int old = *word;",
        "  while (1) {",
        "    unsigned char current = (unsigned char)((old >> shift) & 0xffu);",
        "    if (current != expected) {",
        "      return current;",
        "    }",
        "    unsigned int replaced = (old & ~(0xffu << shift)) | ((unsigned int)desired << shift);",
        f"    unsigned int seen = {cas}(word, old, replaced);",
        "    if (seen == old) {",
        "      return expected;",
        "    }",
        "    old = seen;",
        "  }",
        "}",
    ])  # fmt: skip


# ---------------------------------------------------------------------------
# The kernel printer
# ---------------------------------------------------------------------------

_BINARY = {**BINARY_OPERATORS, arith.DivSIOp: "/", arith.RemSIOp: "%"}
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

HOST_FALLBACK_NOTED: set[str] = set()
"""The targets whose fused-loop host fallback this process has already noted on stderr."""


class KernelPrinter(StructuredPrinter):
    """Prints the `gir_gpu.kernel`s of a module as one C-family source file in the
    given flavour (the host function `@main` is left to `host_python`)."""

    indent = "  "
    statement_end = ";"
    block_open = " {"
    block_else = "} else {"
    block_close = "}"
    loop_forever = "while (true)"
    logical_not = "!"
    logical_and = "&&"
    logical_or = "||"
    pure_ops = (memref.LoadOp, IdOp)
    scope = "a kernel"
    holder = "kernels"

    def __init__(self, flavour: CFlavour, extern: str | None = None):
        super().__init__()
        self.flavour = flavour
        self.needs = Needs()
        self.extern = extern
        """The user's `--extern` device code, printed before the kernels."""
        self.extern_names: frozenset[str] = frozenset()

    @property
    def printer_name(self) -> str:
        return self.flavour.name

    def _after_op(self, op: Operation) -> None:
        """Records `op` as the site of the extensions its printing enabled first
        (ops nested in it were printed, and recorded, before it)."""
        for extension in self.needs.extensions:
            self.needs.extension_sites.setdefault(extension, op)

    # -- output -------------------------------------------------------------

    def print_module(self, module: ModuleOp) -> str:
        """The whole source file: header, preamble, helpers, then every kernel."""
        for op in walk(module):
            if isinstance(op, ExclusiveScanOp):
                raise UserError(
                    f"error: {op.name} has no kernels yet; expand it first with "
                    "gir-opt -p gpu-expand-scan (the end of lower-to-gpu)"
                )
        self.index_width = edge_index_width(module)
        extern = extern_section(module, self.extern)
        self.extern_names = frozenset(op.sym_name.data for op in called_externs(module))
        kernels = [
            self.print_kernel(op)
            for op in module.ops
            if isinstance(op, KernelOp) and (self.flavour.grid_sync or not is_persistent(op))
        ]
        self._note_host_fallback(module)
        sections = ["\n".join(self.flavour.header())]
        preamble = self.flavour.preamble(self.needs)
        if preamble:
            sections.append("\n".join(preamble))
        sections.extend(self.needs.helpers.values())
        if extern is not None:
            sections.append(f"// extern functions (--extern)\n{extern}")
        sections.extend(kernels)
        return "\n\n".join(sections) + "\n"

    def _note_host_fallback(self, module: ModuleOp) -> None:
        """Says on stderr that the fused loops run on the host, where the target
        cannot synchronize a grid and persistent kernels are left out: the host
        program then takes their loops' fallback branch. Once per process and
        target: the NetworkX backend and `gir.compile` users compile many programs
        whose schedules fuse, and the note says nothing new the second time."""
        persistent = [
            op.sym_name.data for op in module.ops if isinstance(op, KernelOp) and is_persistent(op)
        ]
        if persistent and not self.flavour.grid_sync and self.flavour.name not in HOST_FALLBACK_NOTED:
            HOST_FALLBACK_NOTED.add(self.flavour.name)
            print(
                f"note: {self.flavour.name} has no grid-wide synchronization: kernel fusion "
                f"falls back to a host loop ({', '.join('@' + name for name in persistent)} "
                "left out)",
                file=sys.stderr,
            )

    def print_kernel(self, kernel: KernelOp) -> str:
        """One kernel as a C function definition."""
        name = check_kernel_name(kernel.sym_name.data)
        if name is not None:
            raise UserError(f"error: {name}")
        self.needs.kernel_arrays = {}
        reserved = C_RESERVED | self.flavour.reserved | self.extern_names
        self.reset(kernel, ValueNames(reserved), depth=1)
        parameters = [self._parameter(arg) for arg in kernel.body.block.args]
        head = f"{self.flavour.kernel_head(kernel.sym_name.data, resident_blocks(kernel))}("
        if len(head) + sum(len(p) + 2 for p in parameters) > 90:
            signature = head + "\n" + ",\n".join(f"    {p}" for p in parameters) + ") {"
        else:
            signature = f"{head}{', '.join(parameters)}) {{"
        self._print_block_ops(kernel.body.block)
        scratch = [self.indent + line for line in self.needs.kernel_arrays.values()]
        return "\n".join([signature, *scratch, *self._lines, "}"])

    def _parameter(self, arg: BlockArgument) -> str:
        name = self._names[arg]
        if isinstance(arg.type, MemRefType):
            element = self.flavour.memory_type(self.scalar(arg.type.element_type), self.needs)
            read_only = all(isinstance(use.operation, memref.LoadOp) for use in arg.uses)
            return f"{self.flavour.pointer_type(element, read_only=read_only)} {name}"
        return f"{self.flavour.parameter_type(self.scalar(arg.type), self.needs)} {name}"

    # -- values -------------------------------------------------------------

    def c_type(self, type_: Attribute) -> str:
        """The C type of a local of `type_` (a scalar or a buffer pointer)."""
        if isinstance(type_, MemRefType):
            element = self.flavour.memory_type(self.scalar(type_.element_type), self.needs)
            return self.flavour.pointer_type(element)
        return self.flavour.value_type(self.scalar(type_), self.needs)

    def _unsigned(self, value: SSAValue) -> str:
        """`value` cast to the unsigned integer type of its width."""
        scalar = self.scalar(value.type)
        return f"({self.flavour.int_type(max(scalar.width, 8), unsigned=True)}){self._operand(value)}"

    def _int_literal(self, value: int, width: int) -> str:
        return self.flavour.int_literal(value, width)

    def _unsigned_int_literal(self, value: int, width: int) -> str:
        return self.flavour.unsigned_int_literal(value, width)

    def _float_literal(self, value: float, width: int) -> str:
        return self.flavour.float_literal(value, width, self.needs)

    def _define(self, result: SSAValue, expression: str) -> None:
        self._statement(f"{self.c_type(result.type)} {self._names[result]} = {expression}")

    def _declare_variable(self, result: SSAValue, name: str) -> None:
        self._statement(f"{self.c_type(result.type)} {name}")

    def _initialize(self, names: Sequence[str], values: Sequence[SSAValue]) -> None:
        for name, value in zip(names, values, strict=True):
            self._statement(f"{self.c_type(value.type)} {name} = {self.expr(value)}")

    def _assign_pairs(self, pairs: Sequence[AssignPair]) -> None:
        """C assigns one at a time: a source that is also an earlier-assigned
        target is saved in a temporary first (a swap)."""
        overwritten = {target for target, _, _ in pairs}
        staged = []
        for target, text, source in pairs:
            if text in overwritten:
                temporary = self._names.fresh(f"next_{target}")
                self._statement(f"{self.c_type(source.type)} {temporary} = {text}")
                text = temporary
            staged.append((target, text))
        for target, text in staged:
            self._statement(f"{target} = {text}")

    def _if_header(self, condition: str) -> str:
        return f"if ({condition})"

    def _for_header(self, op: scf.ForOp, index: str) -> str:
        index_type = self.c_type(op.body.block.args[0].type)
        return (
            f"for ({index_type} {index} = {self.expr(op.lb)}; {index} < {self.expr(op.ub)}; "
            f"{index} += {self.expr(op.step)})"
        )

    def _select(self, condition: SSAValue, true_value: SSAValue, false_value: SSAValue) -> str:
        return f"{self._operand(condition)} ? {self._operand(true_value)} : {self._operand(false_value)}"

    # -- ops ----------------------------------------------------------------

    @singledispatchmethod
    def emit(self, op: Operation) -> None:
        """Prints one op of a kernel body; the walker prints the ops C shares with
        the host's Python."""
        if type(op) in _UNSIGNED_BINARY:
            self._unsigned_binary(op)
        elif type(op) in _BINARY:
            bool_operator = type(op) in _BOOL_BINARY and self.scalar(op.results[0].type).is_bool
            self._binary(op, _BOOL_BINARY if bool_operator else _BINARY)
        elif type(op) in _MIN_MAX:
            self._min_max(op)
        elif type(op) in _MATH_CALLS:
            arguments = ", ".join(self.expr(operand) for operand in op.operands)
            self._define(op.results[0], f"{_MATH_CALLS[type(op)]}({arguments})")
        elif isinstance(op, _CASTS + _UNSIGNED_CASTS):
            self._cast(op)
        else:
            super().emit(op)

    @emit.register
    def _(self, op: ReturnOp) -> None:
        pass

    def _unsigned_binary(self, op: Operation) -> None:
        lhs, rhs = op.operands
        result = op.results[0]
        operator = _UNSIGNED_BINARY[type(op)]
        expression = f"{self._unsigned(lhs)} {operator} {self._unsigned(rhs)}"
        self._define(result, f"({self.c_type(result.type)})({expression})")

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
    def _(self, op: arith.IndexCastOp) -> None:
        if self.c_type(op.input.type) == self.c_type(op.result.type):
            # i32 <-> index is the same C int: no new variable, just another name.
            self._alias(op.result, op.input)
            return
        self._define(op.result, f"({self.c_type(op.result.type)}){self._operand(op.input)}")

    def _cast(self, op: Operation) -> None:
        (source,) = op.operands
        result = op.results[0]
        target_type = self.c_type(result.type)
        source_scalar, target_scalar = self.scalar(source.type), self.scalar(result.type)
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
        source, target = self.scalar(op.input.type), self.scalar(op.result.type)
        if source == target:
            self._alias(op.result, op.input)
            return
        self._define(op.result, self.flavour.bitcast(self.expr(op.input), source, target))

    def _element(self, buffer: SSAValue, indices: Sequence[SSAValue]) -> str:
        """`buffer[index]`: an element of a one-dimensional buffer."""
        if len(indices) != 1:
            raise UserError("error: GPU kernels index one-dimensional buffers only")
        return f"{self.expr(buffer)}[{self.expr(indices[0])}]"

    @emit.register
    def _(self, op: memref.LoadOp) -> None:
        element = self._element(op.memref, op.indices)
        if is_streaming(op):
            element = self.flavour.streaming_load(element, self.scalar(op.res.type))
        self._define(op.res, element)

    @emit.register
    def _(self, op: memref.StoreOp) -> None:
        self._statement(f"{self._element(op.memref, op.indices)} = {self.expr(op.value)}")

    @emit.register
    def _(self, op: IdOp) -> None:
        self._define(op.result, self.flavour.thread_coordinate(op.dimension.data.value, self.needs))

    @emit.register
    def _(self, op: PrintOp) -> None:
        if op.value is None:
            assert op.text is not None
            self._statement(f'printf("%s\\n", {c_string_literal(op.text.data)})')
            return
        conversion, argument = self.flavour.printf_argument(
            self.expr(op.value), self.scalar(op.value.type), self.needs, unsigned=op.unsigned is not None
        )
        self._statement(f'printf("{conversion}\\n", {argument})')

    @emit.register
    def _(self, op: func.CallOp) -> None:
        arguments = ", ".join(self.expr(operand) for operand in op.arguments)
        call = f"{op.callee.root_reference.data}({arguments})"
        if op.results:
            self._define(op.results[0], call)
        else:
            self._statement(call)

    @emit.register
    def _(self, op: BarrierOp) -> None:
        self._line(self.flavour.barrier())

    @emit.register
    def _(self, op: GridBarrierOp) -> None:
        self._line(self.flavour.grid_barrier(self.expr(op.sync), self.needs))

    @emit.register
    def _(self, op: SharedAllocOp) -> None:
        type_ = op.result.type
        assert isinstance(type_, MemRefType)
        element = self.flavour.memory_type(self.scalar(type_.element_type), self.needs)
        size = type_.get_shape()[0]
        self._line(self.flavour.shared_array(element, self._names[op.result], size))

    @emit.register
    def _(self, op: SubgroupBallotOp) -> None:
        self._define(op.result, self.flavour.subgroup_ballot(self.expr(op.predicate), self.needs))

    @emit.register
    def _(self, op: SubgroupExclusiveSumOp) -> None:
        element = self.scalar(op.value.type)
        self._define(op.result, self.flavour.subgroup_exclusive_sum(element, self.expr(op.value), self.needs))

    @emit.register
    def _(self, op: SubgroupBroadcastOp) -> None:
        element = self.scalar(op.value.type)
        call = self.flavour.subgroup_broadcast(element, self.expr(op.value), self.expr(op.lane), self.needs)
        self._define(op.result, call)

    @emit.register
    def _(self, op: AtomicRMWOp) -> None:
        address = f"&{self._element(op.buffer, [op.index])}"
        element, value = self.scalar(op.value.type), self.expr(op.value)
        if AGGREGATED in op.attributes:
            call = self.flavour.aggregated_add(element, address, value, self.needs)
        elif COMBINE_RUNS in op.attributes and not op.old.uses:
            buffer, index = self.expr(op.buffer), self.expr(op.index)
            call = self.flavour.run_combined_add(
                element, buffer, index, self.scalar(op.index.type), value, self.needs
            )
        else:
            call = self.flavour.atomic_rmw(op.kind.data.value, element, address, value, self.needs)
        self._define_or_discard(op.old, call)

    @emit.register
    def _(self, op: AtomicCASOp) -> None:
        address = f"&{self._element(op.buffer, [op.index])}"
        call = self.flavour.atomic_cas(
            self.scalar(op.desired.type),
            address,
            self.expr(op.expected),
            self.expr(op.desired),
            self.needs,
        )
        self._define_or_discard(op.old, call)
