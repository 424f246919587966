"""The host printer: the GPU level's `func.func @main` as Python source, printed
once per program.

The output is a module with one function `run(rt, K)`: straight-line Python over
the runtime protocol `rt` (`gir.protocol.HostRuntime`), never an
interpreter of IR. SSA values become Python locals, constants are literals,
`scf.while` / `scf.for` / `scf.if` become `while True` / `for ... in range` / `if`,
and every host op is one call of the protocol (its table lists them), keyed by the
host dialect's enums and `DType`. Integers are Python ints holding the signed
value of their bits: unsigned ops mask their operands, and `+`, `-`, `*` wrap to
the width as C's do (`_wrap`), so that a `uint` sum past 2^31 is the i32 the
device reads:

```python
def run(rt, K):
    graph = rt.load_graph(rt.argv_str(1), False)
    num_vertices = rt.graph_size(graph, GraphSize.VERTICES)
    parent = rt.alloc(num_vertices, DType.INT32)
    rt.bind_global(K[0], parent, DType.INT32, num_vertices)
    launch_apply_s1 = rt.launcher(K[1], 0, {0: row_ptr, 1: col_idx})
```

Generated code is data, never code: no string of the IR is ever spliced into the
source. Global and kernel names, print text and graph paths go into the constants
table `K` handed to `run` (`HostProgram.constants`); locals are name hints only
when they are plain ASCII identifiers (`[A-Za-z_][A-Za-z0-9_]*`), else `vN`, so
two hints Python would fold into one identifier (NFKC: `afi`, `aﬁ`) stay two.

Launches are the hot path, so each launch site gets a launcher made once, as early
as its loop-invariant arguments exist (before the outermost loop around it, and
before the timer when it can): `launch_k = rt.launcher(K[j], site, {0: row_ptr, ...})`
binds the arguments that cannot change between launches (values defined outside
every enclosing loop, and constants); the call passes only the others.
"""

from __future__ import annotations

import builtins
import keyword
import operator
import re
from math import isfinite, isnan
from collections.abc import Sequence
from dataclasses import dataclass
from functools import singledispatchmethod

from xdsl.dialects import arith, func, math, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType, MemRefType, ModuleOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.traits import SymbolTable

from gir.diagnostics import UserError
from gir.dialects import host
from gir.dialects.gir_gpu import KernelOp, is_persistent
from gir.dialects.printing import StringType
from gir.ir_walk import walk
from gir.protocol import DType
from gir.targets.externs import kernel_prints
from gir.targets.host_externs import call_site, result_kind
from gir.targets.walker import (
    float32_text,
    BINARY_OPERATORS,
    AssignPair,
    StructuredPrinter,
    ValueNames,
    signed_value,
)

PYTHON_RESERVED = frozenset(keyword.kwlist) | frozenset(dir(builtins)) | frozenset(
    {"rt", "K", "math", "_divsi", "_remsi", "_wrap", "_bitcast", "np", "DType", "GraphArray", "GraphSize"}
)
"""Names a host local must not take: Python keywords and builtins, the function's
parameters, the names the printed module imports and the helpers it defines."""

OUTLINE_DEPTH = 16
"""The deepest indentation (in levels, `run`'s body is 1) at which control flow is
printed in place; deeper, it moves into a function of its own (`gir_nested_N`),
so that no function nests more than Python's 20 loops and no line is indented
past Python's 100 levels, however deep the program nests."""

_ASCII_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class HostNames(ValueNames):
    """Python locals of the host function: a name hint is used only when it is a
    plain ASCII identifier (Python folds other identifiers by NFKC, so two distinct
    hints could become one variable); anything else gets `vN`."""

    @staticmethod
    def sanitize(hint: str) -> str:
        name = hint if _ASCII_IDENTIFIER.fullmatch(hint) else "v"
        return ValueNames.sanitize(name)


@dataclass(frozen=True)
class HostProgram:
    """The printed host program: `source` defines `run(rt, K)`; `constants` is the
    `K` it must be called with (the strings of the IR, as data)."""

    source: str
    constants: tuple[str, ...]

    def standalone(self) -> str:
        """The source followed by its constants table as one tuple literal (`repr`
        of Python strings), for reading or running outside gir."""
        return f"{self.source}\n\nCONSTANTS = {self.constants!r}\n"


def _dtype(type_: Attribute) -> str:
    """The printed `DType` member of elements of `type_`."""
    return f"DType.{DType.of(type_).name}"


def _element_dtype(buffer: SSAValue) -> str:
    return _dtype(buffer.type.element_type)  # type: ignore[attr-defined]


_HELPERS = {
    "_divsi": '''def _divsi(a, b):
    """C's signed division (truncating toward zero)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q''',
    "_remsi": '''def _remsi(a, b):
    """C's signed remainder (the sign of the dividend)."""
    r = abs(a) % abs(b)
    return -r if a < 0 else r''',
    "_wrap": '''def _wrap(value, width):
    """`value` truncated to a two's-complement integer of `width` bits."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value''',
    "_libm": '''def _libm(name, *values):
    """C's `name` of doubles (numpy's function): inf, -inf or NaN where Python raises."""
    with np.errstate(all="ignore"):
        return float(getattr(np, name)(*(np.float64(value) for value in values)))''',
    "_bitcast": '''def _bitcast(value, source, target):
    """Reinterprets the bits of a scalar (numpy dtype names)."""
    return np.array([value], dtype=source).view(target).item()''',
}

_BINARY = {
    **{kind: text for kind, text in BINARY_OPERATORS.items() if kind is not arith.DivfOp},
    arith.FloorDivSIOp: "//",
}
_WRAPPING = {arith.AddiOp: operator.add, arith.SubiOp: operator.sub, arith.MuliOp: operator.mul}
"""Integer ops whose Python result can leave its width's range (wrapped to it,
folded where both operands are literals)."""


def _int_constant(value: SSAValue) -> int | None:
    """The (signed) value of an integer `arith.constant` operand, else None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None

_MIN_MAX = {
    arith.MinSIOp: "<",
    arith.MinUIOp: "<",
    arith.MinimumfOp: "<",
    arith.MinnumfOp: "<",
    arith.MaxSIOp: ">",
    arith.MaxUIOp: ">",
    arith.MaximumfOp: ">",
    arith.MaxnumfOp: ">",
}
_UNSIGNED = (arith.MinUIOp, arith.MaxUIOp)
_MATH = {
    math.AbsFOp: "abs({0})",
    math.AbsIOp: "abs({0})",
    math.Exp2Op: "2.0 ** {0}",
    math.FloorOp: "float(math.floor({0}))",
    math.CeilOp: "float(math.ceil({0}))",
    math.TruncOp: "float(math.trunc({0}))",
    math.PowFOp: "{0} ** {1}",
}

_LIBM = {
    math.SqrtOp: "sqrt",
    math.ExpOp: "exp",
    math.LogOp: "log",
    math.Log2Op: "log2",
    math.Log10Op: "log10",
    math.Log1pOp: "log1p",
    arith.DivfOp: "divide",
}
"""Float ops printed as `_libm(name, x...)`: numpy's function of that name, which
gives C's inf, -inf or NaN where Python's `math` or `/` would raise."""


@dataclass
class _LaunchSite:
    """A `host.launch` and the launcher the host program makes for it."""

    launch: host.LaunchOp
    site: int
    fixed: list[int]
    variable: str = ""


class HostPrinter(StructuredPrinter):
    """Prints a GPU-level module's `func.func @main` as the Python function
    `run(rt, K)`: the Python syntax of the shared walker, and one protocol call
    per host op."""

    indent = "    "
    statement_end = ""
    block_open = ":"
    block_else = "else:"
    block_close = None
    loop_forever = "while True"
    logical_not = "not "
    logical_and = "and"
    logical_or = "or"
    pure_ops = (
        host.GraphSizeOp,
        host.GraphArrayOp,
        host.ArgvIntOp,
        host.ArgvStringOp,
        host.StringConstantOp,
        host.ReadOp,
    )
    """An unused graph array is not even copied to the device."""
    printer_name = "host"
    scope = "@main"
    holder = "the host program"

    def __init__(self) -> None:
        super().__init__()
        self._outlined: list[str] = []
        """The functions deep control flow was moved into, printed before `run`."""
        self._outlined_count = 0
        self._constants: dict[str, int] = {}
        self._helpers: set[str] = set()
        self._uses_math = False
        self._sites: dict[host.LaunchOp, _LaunchSite] = {}
        self._launchers_before: dict[Operation, list[_LaunchSite]] = {}

    def print_module(self, module: ModuleOp) -> HostProgram:
        """The Python module (imports, helpers used, and `run(rt, K)`) and the
        constants table `K`."""
        main = find_main(module)
        self.reset(main, HostNames(PYTHON_RESERVED), depth=1)
        self._plan_launchers(main)
        self._print_block_ops(main.body.block)
        imports = ["from gir.protocol import DType, GraphArray, GraphSize"]
        if self._uses_math:
            imports.append("import math")
        if self._helpers & {"_bitcast", "_libm"}:
            imports.append("import numpy as np")
        header = [
            '"""Host program printed by gir.',
            "",
            "run(rt, K) drives the kernels printed from the same module through the",
            "runtime protocol of gir.protocol (rt); K holds the program's strings.",
            '"""',
        ]
        sections = ["\n".join(header), "\n".join(imports)]
        sections.extend(_HELPERS[name] for name in sorted(self._helpers))
        sections.extend(self._outlined)
        body = self._lines or [f"{self.indent}pass"]
        sections.append("\n".join(["def run(rt, K):", *body]))
        constants = tuple(sorted(self._constants, key=self._constants.__getitem__))
        return HostProgram("\n\n\n".join(sections) + "\n", constants)

    def _constant(self, text: str) -> str:
        """`K[i]`: the entry of the constants table holding `text`."""
        index = self._constants.setdefault(text, len(self._constants))
        return f"K[{index}]"

    # -- launchers ----------------------------------------------------------

    def _plan_launchers(self, main: func.FuncOp) -> None:
        """Decides, for every launch, which arguments its launcher binds and before
        which op of main the launcher is made."""
        module = main.parent_op()
        persistent = {
            op.sym_name.data for op in (module.ops if isinstance(module, ModuleOp) else ()) if isinstance(op, KernelOp) and is_persistent(op)
        }
        for site, launch in enumerate(op for op in walk(main) if isinstance(op, host.LaunchOp)):
            outermost: Operation = launch
            parent = launch.parent_op()
            # A persistent kernel's launcher is made in its branch (once per
            # fused loop): a target without grid sync leaves the kernel out.
            fused = launch.kernel.root_reference.data in persistent
            while parent is not None and parent is not main and not (fused and isinstance(parent, scf.IfOp)):
                if isinstance(parent, scf.ForOp | scf.WhileOp):
                    outermost = parent
                parent = parent.parent_op()
            fixed = [
                position
                for position, argument in enumerate(launch.args)
                if _is_constant(argument) or not _defined_inside(argument, outermost)
            ]
            plan = _LaunchSite(launch, site, fixed)
            self._sites[launch] = plan
            block = outermost.parent_block()
            assert block is not None
            anchor = _earliest_point(block, [launch.args[i] for i in fixed], outermost)
            self._launchers_before.setdefault(anchor, []).append(plan)

    def _make_launcher(self, plan: _LaunchSite) -> None:
        kernel = plan.launch.kernel.root_reference.data
        plan.variable = self._names.fresh(f"launch_{kernel}")
        bound = ", ".join(f"{i}: {self.expr(plan.launch.args[i])}" for i in plan.fixed)
        self._line(f"{plan.variable} = rt.launcher({self._constant(kernel)}, {plan.site}, {{{bound}}})")

    # -- outlining -----------------------------------------------------------

    def _print_op(self, op: Operation) -> None:
        if self._depth >= OUTLINE_DEPTH and any(op.regions):
            self._outline(op)
        else:
            super()._print_op(op)

    def _outline(self, op: Operation) -> None:
        """Prints `op` (control flow nested `OUTLINE_DEPTH` deep) as the body of a
        new module-level function and calls it here: its parameters are the
        values, launchers and loop variables it reads from outside, its results
        the variables it assigns that code after it reads."""
        inside = set(walk(op))
        self._outlined_count += 1
        name = f"gir_nested_{self._outlined_count}"
        outer_lines, outer_depth = self._lines, self._depth
        self._lines, self._depth = [], 1
        free = self._free_names(op, inside)
        super()._print_op(op)
        results = [self.expr(result) for result in op.results if result not in self._literals]
        if results:
            self._line(f"return {', '.join(results)}")
        body = self._lines
        self._lines, self._depth = outer_lines, outer_depth
        self._outlined.append("\n".join([f"def {name}({', '.join(['rt', 'K', *free])}):", *body]))
        call = f"{name}({', '.join(['rt', 'K', *free])})"
        self._line(f"{', '.join(results)} = {call}" if results else call)

    def _free_names(self, op: Operation, inside: set[Operation]) -> list[str]:
        """The variables the ops of `op` read that are assigned outside it: operands
        defined outside, and the launchers made before it."""
        free: dict[str, None] = {}
        for nested in walk(op):
            for operand in nested.operands:
                defined = operand.owner if isinstance(operand.owner, Operation) else operand.owner.parent_op()
                if defined not in inside:
                    text = self.expr(operand)
                    if operand not in self._literals:
                        free[text] = None
            plan = self._sites.get(nested) if isinstance(nested, host.LaunchOp) else None
            if plan is not None and plan.variable:
                free[plan.variable] = None
        return list(free)

    # -- output -------------------------------------------------------------

    def _before_op(self, op: Operation) -> None:
        for plan in self._launchers_before.get(op, ()):
            self._make_launcher(plan)

    def _skips(self, op: Operation) -> bool:
        # The function's final `return` is implied.
        final_return = isinstance(op, func.ReturnOp) and op is op.parent_block().last_op and self._depth == 1
        return super()._skips(op) or final_return

    def _empty_block(self) -> None:
        self._line("pass")

    # -- values -------------------------------------------------------------

    def _define(self, result: SSAValue, expression: str) -> None:
        self._line(f"{self._names[result]} = {expression}")

    def _declare_variable(self, result: SSAValue, name: str) -> None:
        pass  # Python variables need no declaration

    def _initialize(self, names: Sequence[str], values: Sequence[SSAValue]) -> None:
        self._assign(names, values)

    def _assign_pairs(self, pairs: Sequence[AssignPair]) -> None:
        left = ", ".join(target for target, _, _ in pairs)
        right = ", ".join(text for _, text, _ in pairs)
        self._line(f"{left} = {right}")

    def _if_header(self, condition: str) -> str:
        return f"if {condition}"

    def _for_header(self, op: scf.ForOp, index: str) -> str:
        bounds = [self.expr(op.lb), self.expr(op.ub)]
        if self.expr(op.step) != "1":
            bounds.append(self.expr(op.step))
        return f"for {index} in range({', '.join(bounds)})"

    def _select(self, condition: SSAValue, true_value: SSAValue, false_value: SSAValue) -> str:
        return f"{self.expr(true_value)} if {self.expr(condition)} else {self.expr(false_value)}"

    def _helper(self, name: str) -> str:
        self._helpers.add(name)
        return name

    # -- ops ----------------------------------------------------------------

    @singledispatchmethod
    def emit(self, op: Operation) -> None:
        """Prints one op of the host function; the walker prints the ops Python
        shares with C."""
        kind = type(op)
        if kind in _WRAPPING and self._width(op.results[0]) > 1:
            # Python ints do not overflow: the result wraps to its width as C's
            # does (a uint sum past 2^31 becomes the i32 of the same bits)
            lhs, rhs = (self._operand(v) for v in op.operands)
            width = self._width(op.results[0])
            constants = [_int_constant(v) for v in op.operands]
            if None not in constants:
                folded = _WRAPPING[kind](*constants)
                self._define(op.results[0], str(signed_value(folded, width)))
            else:
                self._define(op.results[0], f"{self._helper('_wrap')}({lhs} {_BINARY[kind]} {rhs}, {width})")
        elif kind in _BINARY:
            self._binary(op, _BINARY)
        elif kind in _MIN_MAX:
            lhs, rhs = (self._unsigned(v) if kind in _UNSIGNED else self.expr(v) for v in op.operands)
            self._define(op.results[0], f"{lhs} if {lhs} {_MIN_MAX[kind]} {rhs} else {rhs}")
        elif kind in _LIBM:
            operands = ", ".join(self._operand(v) for v in op.operands)
            self._define(op.results[0], f'{self._helper("_libm")}("{_LIBM[kind]}", {operands})')
        elif kind in _MATH:
            self._uses_math = self._uses_math or "math." in _MATH[kind]
            self._define(op.results[0], _MATH[kind].format(*(self._operand(v) for v in op.operands)))
        else:
            super().emit(op)

    def _int_literal(self, number: int, width: int) -> str:
        return ("True" if number else "False") if width == 1 else str(number)

    def _float_literal(self, number: float, width: int) -> str:
        if not isfinite(number):
            self._uses_math = True
            return "math.nan" if isnan(number) else ("math.inf" if number > 0 else "-math.inf")
        text = float32_text(number) if width == 32 else repr(float(number))
        return text if any(c in text for c in ".e") else f"{text}.0"

    def _unsigned(self, value: SSAValue) -> str:
        return f"({self._operand(value)} & {hex((1 << self._width(value)) - 1)})"

    @emit.register
    def _(self, op: arith.DivSIOp) -> None:
        if self._width(op.result) <= 32:
            # A 32-bit quotient is exact in a double, so int() truncates it as C does.
            self._define(op.result, f"int({self._operand(op.lhs)} / {self._operand(op.rhs)})")
        else:
            self._define(op.result, f"{self._helper('_divsi')}({self.expr(op.lhs)}, {self.expr(op.rhs)})")

    @emit.register
    def _(self, op: arith.RemSIOp) -> None:
        self._define(op.result, f"{self._helper('_remsi')}({self.expr(op.lhs)}, {self.expr(op.rhs)})")

    @emit.register
    def _(self, op: arith.CeilDivSIOp) -> None:
        self._define(op.result, f"-(-{self._operand(op.lhs)} // {self._operand(op.rhs)})")

    @emit.register
    def _(self, op: arith.DivUIOp) -> None:
        self._define(op.result, f"{self._unsigned(op.lhs)} // {self._unsigned(op.rhs)}")

    @emit.register
    def _(self, op: arith.RemUIOp) -> None:
        self._define(op.result, f"{self._unsigned(op.lhs)} % {self._unsigned(op.rhs)}")

    @emit.register
    def _(self, op: arith.ShRUIOp) -> None:
        self._define(op.result, f"{self._unsigned(op.lhs)} >> {self._operand(op.rhs)}")

    @emit.register(arith.IndexCastOp)
    @emit.register(arith.ExtFOp)
    @emit.register(arith.TruncFOp)
    def _(self, op: Operation) -> None:
        # Host integers are Python ints and floats are doubles: nothing to convert.
        self._alias(op.results[0], op.operands[0])

    @emit.register
    def _(self, op: arith.ExtSIOp) -> None:
        if self._width(op.input) == 1:
            self._define(op.result, f"-int({self.expr(op.input)})")
        else:
            self._alias(op.result, op.input)

    @emit.register
    def _(self, op: arith.ExtUIOp) -> None:
        if self._width(op.input) == 1:
            self._define(op.result, f"int({self.expr(op.input)})")
        else:
            self._define(op.result, self._unsigned(op.input))

    @emit.register
    def _(self, op: arith.TruncIOp) -> None:
        width = self._width(op.result)
        if width == 1:
            self._define(op.result, f"({self._operand(op.input)} & 1) != 0")
        else:
            self._define(op.result, f"{self._helper('_wrap')}({self.expr(op.input)}, {width})")

    @emit.register(arith.SIToFPOp)
    def _(self, op: Operation) -> None:
        self._define(op.results[0], f"float({self.expr(op.operands[0])})")

    @emit.register
    def _(self, op: arith.UIToFPOp) -> None:
        self._define(op.result, f"float({self._unsigned(op.input)})")

    @emit.register(arith.FPToSIOp)
    @emit.register(arith.FPToUIOp)
    def _(self, op: Operation) -> None:
        self._define(op.results[0], f"int({self.expr(op.operands[0])})")

    @emit.register
    def _(self, op: arith.BitcastOp) -> None:
        source, target = _dtype(op.input.type), _dtype(op.result.type)
        self._define(op.result, f"{self._helper('_bitcast')}({self.expr(op.input)}, {source}.numpy, {target}.numpy)")

    # host ops

    @emit.register
    def _(self, op: host.ArgvIntOp) -> None:
        read = "argv_int" if isinstance(op.result.type, IntegerType) else "argv_float"
        if op.vertex is not None:
            read = "argv_vertex"
        self._define(op.result, f"rt.{read}({op.index.value.data})")

    @emit.register
    def _(self, op: host.ArgvStringOp) -> None:
        self._define(op.result, f"rt.argv_str({op.index.value.data})")

    @emit.register
    def _(self, op: host.StringConstantOp) -> None:
        self._define(op.result, self._constant(op.text.data))

    @emit.register
    def _(self, op: host.StringToIntOp) -> None:
        self._define(op.result, f"rt.text_int({self.expr(op.text)})")

    @emit.register
    def _(self, op: host.CallExternOp) -> None:
        name = self._constant(op.callee.root_reference.data)
        where = self._constant(call_site(op))
        args = "".join(f"{self.expr(arg)}, " for arg in op.args)
        buffers = tuple(i for i, arg in enumerate(op.args) if isinstance(arg.type, MemRefType))
        kind = self._constant(result_kind(op.res[0].type)) if op.res else "None"
        call = f"rt.call_extern({name}, {where}, ({args.rstrip(' ')}), {buffers!r}, {kind})"
        if op.res:
            self._define(op.res[0], call)
        else:
            self._line(call)

    @emit.register
    def _(self, op: host.ApplyExternOp) -> None:
        name = self._constant(op.callee.root_reference.data)
        where = self._constant(call_site(op))
        graph = "".join(f"{self.expr(arg)}, " for arg in op.graph_args())
        if op.over.data == "edges":  # and whether the function takes each edge's weight
            graph += str(len(op.declaration().function_type.inputs.data) == 3) + ","
        buffers = "".join(f"{self.expr(arg)}, " for arg in op.buffers()).rstrip(" ")
        names = "".join(f"{self._constant(n.data)}, " for n in op.vectors.data).rstrip(" ")
        over = self._constant(op.over.data)
        self._line(f"rt.apply_extern({name}, {where}, {over}, ({graph}), ({buffers}), ({names}))")

    @emit.register
    def _(self, op: host.NumberListNewOp) -> None:
        self._define(op.result, "[]")

    @emit.register
    def _(self, op: host.NumberListAppendOp) -> None:
        self._line(f"{self.expr(op.list)}.append({self.expr(op.value)})")

    @emit.register
    def _(self, op: host.NumberListPopOp) -> None:
        where = self._constant(call_site(op))
        self._define(op.result, f"rt.number_list_pop({self.expr(op.list)}, {where})")

    @emit.register
    def _(self, op: host.NumberListSizeOp) -> None:
        self._define(op.result, f"len({self.expr(op.list)})")

    @emit.register
    def _(self, op: host.StringEqOp) -> None:
        self._define(op.result, f"({self.expr(op.lhs)} == {self.expr(op.rhs)})")

    @emit.register
    def _(self, op: host.PrintOp) -> None:
        if op.value is None:
            assert op.text is not None
            self._line(f"rt.print_text({self._constant(op.text.data)})")
        elif isinstance(op.value.type, StringType):
            self._line(f"rt.print_text({self.expr(op.value)})")
        elif self._width(op.value) == 1:
            self._line(f"rt.print(int({self.expr(op.value)}))")
        elif op.unsigned is not None:
            self._line(f"rt.print({self._unsigned(op.value)})")
        else:
            self._line(f"rt.print({self.expr(op.value)})")

    @emit.register
    def _(self, op: host.StartTimerOp) -> None:
        self._line("rt.start_timer()")

    @emit.register
    def _(self, op: host.StopTimerOp) -> None:
        if op.result.uses:
            self._define(op.result, "rt.stop_timer()")
        else:
            self._line("rt.stop_timer()")

    @emit.register
    def _(self, op: host.LoadGraphOp) -> None:
        if op.argv is not None:
            spec = f"rt.argv_str({op.argv.value.data})"
        else:
            assert op.path is not None
            spec = self._constant(op.path.data)
        partitioned = ", partitioned=True" if op.partitioned is not None else ""
        reorder = "" if op.reorder is None else f", reorder={self._constant(op.reorder.data)}"
        self._define(op.result, f"rt.load_graph({spec}, {op.weighted is not None}{partitioned}{reorder})")

    @emit.register
    def _(self, op: host.GraphSizeOp) -> None:
        self._define(op.result, f"rt.graph_size({self.expr(op.graph)}, GraphSize.{op.what.data.name})")

    @emit.register
    def _(self, op: host.GraphArrayOp) -> None:
        array = f"GraphArray.{op.array.data.name}"
        blocking = "" if op.blocking_size is None else f", {op.blocking_size.value.data}"
        self._define(
            op.result,
            f"rt.graph_array({self.expr(op.graph)}, {array}, {_element_dtype(op.result)}{blocking})",
        )

    @emit.register
    def _(self, op: host.AllocOp) -> None:
        self._define(op.result, f"rt.alloc({self.expr(op.count)}, {_element_dtype(op.result)})")

    @emit.register
    def _(self, op: host.FreeOp) -> None:
        self._line(f"rt.free({self.expr(op.buffer)})")

    @emit.register
    def _(self, op: host.FillOp) -> None:
        arguments = f"{self.expr(op.buffer)}, {self.expr(op.value)}, {self.expr(op.count)}"
        self._line(f"rt.fill({arguments}, {_element_dtype(op.buffer)})")

    @emit.register
    def _(self, op: host.CopyOp) -> None:
        arguments = f"{self.expr(op.source)}, {self.expr(op.target)}, {self.expr(op.count)}"
        self._line(f"rt.copy({arguments}, {_element_dtype(op.source)})")

    @emit.register
    def _(self, op: host.ReadOp) -> None:
        arguments = f"{self.expr(op.buffer)}, {self.expr(op.index)}"
        self._define(op.result, f"rt.read({arguments}, {_element_dtype(op.buffer)})")

    @emit.register
    def _(self, op: host.WriteOp) -> None:
        arguments = f"{self.expr(op.buffer)}, {self.expr(op.index)}, {self.expr(op.value)}"
        self._line(f"rt.write({arguments}, {_element_dtype(op.buffer)})")

    @emit.register
    def _(self, op: host.BindGlobalOp) -> None:
        owner = op.buffer.owner
        count = self.expr(owner.count) if isinstance(owner, host.AllocOp) else "None"
        name = self._constant(op.global_name.data)
        unsigned = ", unsigned=True" if op.unsigned is not None else ""
        unsigned += ", vertex_indexed=True" if op.vertex_indexed is not None else ""
        unsigned += ", vertex_values=True" if op.vertex_values is not None else ""
        self._line(f"rt.bind_global({name}, {self.expr(op.buffer)}, {_element_dtype(op.buffer)}, {count}{unsigned})")

    @emit.register
    def _(self, op: host.LaunchOp) -> None:
        plan = self._sites[op]
        varying = [self.expr(a) for i, a in enumerate(op.args) if i not in plan.fixed]
        arguments = ", ".join([self.expr(op.grid), self.expr(op.block), *varying])
        prints = self._prints(op)
        if prints:
            self._line("rt.device_print_fence()")
        self._line(f"{plan.variable}({arguments})")
        if prints:
            self._line("rt.device_print_fence()")

    def _prints(self, launch: host.LaunchOp) -> bool:
        """Whether the launched kernel may print (`externs.kernel_prints`)."""
        kernel = SymbolTable.lookup_symbol(launch, launch.kernel)
        return kernel is not None and kernel_prints(kernel)

    @emit.register
    def _(self, op: host.ResidentBlocksOp) -> None:
        kernel = self._constant(op.kernel.root_reference.data)
        per_sm = f", {op.blocks_per_sm}" if op.blocks_per_sm else ""
        self._define(op.result, f"rt.resident_blocks({kernel}, {self.expr(op.block)}{per_sm})")

    @emit.register
    def _(self, op: host.ListNewOp) -> None:
        self._define(op.result, "rt.list_new()")

    @emit.register
    def _(self, op: host.ListPushOp) -> None:
        arguments = f"{self.expr(op.list)}, {self.expr(op.buffer)}, {self.expr(op.count)}"
        self._line(f"rt.list_push({arguments})")

    @emit.register
    def _(self, op: host.ListPopOp) -> None:
        self._define(op.result, f"rt.list_pop({self.expr(op.list)}, {self.expr(op.buffer)})")

    @emit.register
    def _(self, op: host.ListExportOp) -> None:
        results = ", ".join(self._names[result] for result in op.results)
        self._line(f"{results} = rt.list_export({self.expr(op.list)}, {self.expr(op.room)})")

    @emit.register
    def _(self, op: host.ListImportOp) -> None:
        self._line(f"rt.list_import({self.expr(op.list)}, {self.expr(op.ends)})")

    @emit.register
    def _(self, op: host.CloneOp) -> None:
        self._define(op.result, f"rt.clone({self.expr(op.buffer)})")

    @emit.register
    def _(self, op: host.AllReduceOp) -> None:
        base = "" if op.base_values is None else f", {self.expr(op.base_values)}"
        exchange = "" if op.exchange is None else f', "{op.format.value}"'
        self._line(f'rt.allreduce({self.expr(op.buffer)}, "{op.combine.data.value}"{base}{exchange})')

    @emit.register
    def _(self, op: host.AllGatherOp) -> None:
        claims = "".join(f"{self.expr(claimed)}, " for claimed in op.claims)
        claimed = f", claims=[{claims.removesuffix(', ')}]" if claims else ""
        self._line(f"rt.allgather({self.expr(op.items)}, {self.expr(op.count)}{claimed})")

    @emit.register
    def _(self, op: func.ReturnOp) -> None:
        self._line("return")


def find_main(module: ModuleOp) -> func.FuncOp:
    """The host function `@main` of a GPU-level module."""
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == "main":
            if op.function_type.inputs.data or op.function_type.outputs.data:
                raise UserError("error: the host function @main takes and returns nothing")
            return op
    raise UserError("error: the module has no host function 'func.func @main'")


def _is_constant(value: SSAValue) -> bool:
    return isinstance(value.owner, arith.ConstantOp)


def _defined_inside(value: SSAValue, op: Operation) -> bool:
    """Whether `value` is defined by `op` or inside its regions."""
    if isinstance(value, BlockArgument):
        owner = value.block.parent_op()
        return owner is not None and op.is_ancestor(owner)
    return op.is_ancestor(value.owner)  # type: ignore[arg-type]


def _earliest_point(block: Block, values: Sequence[SSAValue], limit: Operation) -> Operation:
    """The first op of `block` before which all of `values` are defined (at the
    latest `limit`, an op of `block`); constants count as always defined."""
    ops = list(block.ops)
    position = 0
    for value in values:
        owner = value.owner
        if isinstance(owner, Operation) and not _is_constant(value) and owner.parent_block() is block:
            position = max(position, ops.index(owner) + 1)
    return ops[min(position, ops.index(limit))]


def host_program(module: ModuleOp) -> HostProgram:
    """The host program of a GPU-level `module`: Python source defining
    `run(rt, K)` and its constants table."""
    return HostPrinter().print_module(module)


def print_host_python(module: ModuleOp) -> str:
    """The host program of a GPU-level `module` as one Python text (`standalone`)."""
    return host_program(module).standalone()
