"""The host printer: the GPU level's `func.func @main` as Python source, printed
once per program.

The output is a module with one function `run(rt, argv)`: straight-line Python over
the runtime interface `rt` (a `gir.runtime.device.Device`), never an interpreter of
IR. SSA values become Python locals named after their hints, constants are
literals, `scf.while` / `scf.for` / `scf.if` become `while True` / `for ... in range`
/ `if`, and every host op is one call:

| IR                                   | Python                                          |
|--------------------------------------|-------------------------------------------------|
| `host.load_graph {argv = 1}`      | `g = rt.load_graph(rt.argv_str(argv, 1), False)` |
| `host.graph_size %g vertices`     | `n = g.num_vertices`                            |
| `host.graph_array %g row_ptr`     | `row_ptr = g.array("row_ptr")`                  |
| `host.alloc %n : i32 -> memref<?xi32>` | `parent = rt.alloc(n, "int32")`            |
| `host.fill` / `copy` / `free`     | `rt.fill(b, v, n, "int32")` / `rt.copy(a, b, n, "int32")` / `rt.free(b)` |
| `host.read` / `write`             | `x = rt.read(b, i, "int32")` / `rt.write(b, i, x, "int32")` |
| `host.bind_global %b as "parent"` | `rt.bind_global("parent", b, "int32", n)`       |
| `host.launch @k grid %g block %b (...)` | `launch_k(g, b, <args that change>)`      |
| `host.argv_int argv[2]`             | `start = rt.argv_int(argv, 2)`                  |
| `host.print` / `start_timer` / `stop_timer` | `rt.print(x)` / `rt.start_timer()` / `t = rt.stop_timer()` |

Launches are the hot path, so each launch site gets a launcher made once, as early
as its loop-invariant arguments exist (before the outermost loop around it, and
before the timer when it can): `launch_k = rt.launcher("k", site, {0: row_ptr, ...})`
binds the arguments that cannot change between launches (values defined outside
every enclosing loop, and constants); the call passes only the others.
"""

from __future__ import annotations

import builtins
import keyword
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import singledispatchmethod

import numpy as np
from xdsl.dialects import arith, func, math, scf
from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from gir.diagnostics import UserError
from gir.dialects import host
from gir.targets.c_printer import (
    INTEGER_COMPARISONS,
    ValueNames,
    dead_ops,
    scalar_of,
    signed_value,
)

PYTHON_RESERVED = frozenset(keyword.kwlist) | frozenset(dir(builtins)) | frozenset(
    {"rt", "argv", "math", "_divsi", "_remsi", "_wrap", "_bitcast", "np"}
)
"""Names a host local must not take: Python keywords and builtins, the function's
parameters and the helpers the printed module defines."""


def dtype_name(type_: Attribute) -> str:
    """The runtime's name for buffers of `type_` elements (numpy's names; `i1` is
    "bool", stored one byte per element)."""
    if isinstance(type_, IndexType):
        return "int32"
    if isinstance(type_, IntegerType):
        width = type_.width.data
        if width == 1:
            return "bool"
        if width in (8, 16, 32, 64):
            return f"int{width}"
    if isinstance(type_, Float32Type):
        return "float32"
    if isinstance(type_, Float64Type):
        return "float64"
    raise UserError(f"error: GPU buffers cannot hold {type_} elements")


def _element_dtype(buffer: SSAValue) -> str:
    return dtype_name(buffer.type.element_type)  # type: ignore[attr-defined]


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
    "_bitcast": '''def _bitcast(value, source, target):
    """Reinterprets the bits of a scalar (numpy dtype names)."""
    return np.array([value], dtype=source).view(target).item()''',
}

_BINARY = {
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
    arith.FloorDivSIOp: "//",
}
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
_CMPF = {
    "oeq": "{a} == {b}", "ogt": "{a} > {b}", "oge": "{a} >= {b}", "olt": "{a} < {b}",
    "ole": "{a} <= {b}", "one": "({a} < {b} or {a} > {b})",
    "ord": "({a} == {a} and {b} == {b})", "ueq": "not ({a} < {b} or {a} > {b})",
    "ugt": "not ({a} <= {b})", "uge": "not ({a} < {b})", "ult": "not ({a} >= {b})",
    "ule": "not ({a} > {b})", "une": "{a} != {b}", "uno": "({a} != {a} or {b} != {b})",
    "false": "False", "true": "True",
}  # fmt: skip
_MATH = {
    math.AbsFOp: "abs({0})",
    math.AbsIOp: "abs({0})",
    math.SqrtOp: "math.sqrt({0})",
    math.ExpOp: "math.exp({0})",
    math.Exp2Op: "2.0 ** {0}",
    math.LogOp: "math.log({0})",
    math.Log2Op: "math.log2({0})",
    math.Log10Op: "math.log10({0})",
    math.FloorOp: "float(math.floor({0}))",
    math.CeilOp: "float(math.ceil({0}))",
    math.TruncOp: "float(math.trunc({0}))",
    math.PowFOp: "{0} ** {1}",
}

_INDENT = "    "


@dataclass
class _LaunchSite:
    """A `host.launch` and the launcher the host program makes for it."""

    launch: host.LaunchOp
    site: int
    fixed: list[int]
    variable: str = ""


@dataclass
class _Frame:
    """Where the terminator of the region being printed sends its operands: the
    targets of a `scf.yield`, or of a `scf.condition` (None: the loop's own
    variables)."""

    targets: list[str] | None


@dataclass
class HostPrinter:
    """Prints a GPU-level module's `func.func @main` as the Python function
    `run(rt, argv)`."""

    source_name: str = "<module>"
    _lines: list[str] = field(default_factory=list)
    _depth: int = 1
    _names: ValueNames = field(default_factory=lambda: ValueNames(PYTHON_RESERVED))
    _literals: dict[SSAValue, str] = field(default_factory=dict)
    _frames: list[_Frame] = field(default_factory=list)
    _helpers: set[str] = field(default_factory=set)
    _uses_math: bool = False
    _sites: dict[host.LaunchOp, _LaunchSite] = field(default_factory=dict)
    _launchers_before: dict[Operation, list[_LaunchSite]] = field(default_factory=dict)
    _dead: set[Operation] = field(default_factory=set)

    def print_module(self, module: ModuleOp) -> str:
        """The Python module: imports, helpers used, and `run(rt, argv)`."""
        main = find_main(module)
        self._dead = dead_ops(main, _is_removable)
        self._plan_launchers(main)
        self._print_block_ops(main.body.block)
        imports = []
        if self._uses_math:
            imports.append("import math")
        if "_bitcast" in self._helpers:
            imports.append("import numpy as np")
        header = [
            f'"""Host program of {self.source_name}, printed by gir.',
            "",
            "run(rt, argv) drives the kernels printed from the same module through the",
            "runtime interface of gir.runtime.device (rt); argv[0] is the program's name.",
            '"""',
        ]
        sections = ["\n".join(header)]
        if imports:
            sections.append("\n".join(imports))
        sections.extend(_HELPERS[name] for name in sorted(self._helpers))
        body = self._lines or [f"{_INDENT}pass"]
        sections.append("\n".join(["def run(rt, argv):", *body]))
        return "\n\n\n".join(sections) + "\n"

    # -- launchers ----------------------------------------------------------

    def _plan_launchers(self, main: func.FuncOp) -> None:
        """Decides, for every launch, which arguments its launcher binds and before
        which op of main the launcher is made."""
        for site, launch in enumerate(op for op in main.walk() if isinstance(op, host.LaunchOp)):
            outermost: Operation = launch
            parent = launch.parent_op()
            while parent is not None and parent is not main:
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
        self._line(f'{plan.variable} = rt.launcher("{kernel}", {plan.site}, {{{bound}}})')

    # -- output -------------------------------------------------------------

    def _line(self, text: str) -> None:
        self._lines.append(_INDENT * self._depth + text)

    def _print_block_ops(self, block: Block) -> None:
        printed = False
        for op in block.ops:
            for plan in self._launchers_before.get(op, ()):
                self._make_launcher(plan)
                printed = True
            if op in self._dead or isinstance(op, scf.YieldOp) and not op.operands:
                continue
            if isinstance(op, func.ReturnOp) and op is block.last_op and self._depth == 1:
                continue
            before = len(self._lines)
            self.emit(op)
            printed = printed or len(self._lines) > before
        if not printed:
            self._line("pass")

    def _region(self, block: Block, frame: _Frame) -> None:
        self._frames.append(frame)
        self._depth += 1
        self._print_block_ops(block)
        self._depth -= 1
        self._frames.pop()

    # -- values -------------------------------------------------------------

    def expr(self, value: SSAValue) -> str:
        """The Python expression of `value`: its literal or its variable."""
        literal = self._literals.get(value)
        if literal is None and isinstance(value.owner, arith.ConstantOp):
            self.emit(value.owner)  # a constant used before its op was reached
            literal = self._literals[value]
        return literal if literal is not None else self._names[value]

    def _operand(self, value: SSAValue) -> str:
        text = self.expr(value)
        return f"({text})" if text.startswith("-") else text

    def _define(self, result: SSAValue, expression: str) -> None:
        self._line(f"{self._names[result]} = {expression}")

    def _alias(self, result: SSAValue, source: SSAValue) -> None:
        literal = self._literals.get(source)
        if literal is not None:
            self._literals[result] = literal
        else:
            self._names.bind(result, self._names[source])

    def _assign(self, targets: Sequence[str], sources: Sequence[SSAValue]) -> None:
        pairs = [(t, self.expr(s)) for t, s in zip(targets, sources, strict=True) if self.expr(s) != t]
        if pairs:
            left = ", ".join(t for t, _ in pairs)
            right = ", ".join(s for _, s in pairs)
            self._line(f"{left} = {right}")

    def _width(self, value: SSAValue) -> int:
        return scalar_of(value.type).width

    def _helper(self, name: str) -> str:
        self._helpers.add(name)
        return name

    # -- ops ----------------------------------------------------------------

    @singledispatchmethod
    def emit(self, op: Operation) -> None:
        """Prints one op of the host function."""
        kind = type(op)
        if kind in _BINARY:
            lhs, rhs = op.operands
            result = op.results[0]
            if isinstance(op, arith.XOrIOp) and self._width(result) == 1 and self.expr(rhs) == "True":
                self._define(result, f"not {self._operand(lhs)}")
            else:
                self._define(result, f"{self._operand(lhs)} {_BINARY[kind]} {self._operand(rhs)}")
        elif kind in _MIN_MAX:
            lhs, rhs = (self._unsigned(v) if kind in _UNSIGNED else self.expr(v) for v in op.operands)
            self._define(op.results[0], f"{lhs} if {lhs} {_MIN_MAX[kind]} {rhs} else {rhs}")
        elif kind in _MATH:
            self._uses_math = self._uses_math or "math." in _MATH[kind]
            self._define(op.results[0], _MATH[kind].format(*(self._operand(v) for v in op.operands)))
        else:
            raise UserError(f"error: the host printer cannot print '{op.name}' in @main")

    @emit.register
    def _(self, op: arith.ConstantOp) -> None:
        value = op.value
        if isinstance(value, IntegerAttr):
            width = self._width(op.result)
            number = signed_value(value.value.data, width)
            self._literals[op.result] = ("True" if number else "False") if width == 1 else str(number)
        elif isinstance(value, FloatAttr):
            self._literals[op.result] = self._float_literal(value.value.data, self._width(op.result))
        else:
            raise UserError(f"error: the host program cannot hold the constant {value}")

    def _float_literal(self, number: float, width: int) -> str:
        if np.isnan(number) or np.isinf(number):
            self._uses_math = True
            return "math.nan" if np.isnan(number) else ("math.inf" if number > 0 else "-math.inf")
        text = str(np.float32(number)) if width == 32 else repr(float(number))
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
        self._define(op.result, _CMPF[predicate].format(a=self.expr(op.lhs), b=self.expr(op.rhs)))

    @emit.register
    def _(self, op: arith.SelectOp) -> None:
        condition, true_value, false_value = (self.expr(v) for v in op.operands)
        self._define(op.result, f"{true_value} if {condition} else {false_value}")

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
        source, target = dtype_name(op.input.type), dtype_name(op.result.type)
        self._define(op.result, f'{self._helper("_bitcast")}({self.expr(op.input)}, "{source}", "{target}")')

    # host ops

    @emit.register
    def _(self, op: host.ArgvIntOp) -> None:
        self._define(op.result, f"rt.argv_int(argv, {op.index.value.data})")

    @emit.register
    def _(self, op: host.PrintOp) -> None:
        if op.value is None:
            assert op.text is not None
            self._line(f"rt.print_text({op.text.data!r})")
        elif self._width(op.value) == 1:
            self._line(f"rt.print(int({self.expr(op.value)}))")
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
            spec = f"rt.argv_str(argv, {op.argv.value.data})"
        else:
            assert op.path is not None
            spec = repr(op.path.data)
        self._define(op.result, f"rt.load_graph({spec}, {op.weighted is not None})")

    @emit.register
    def _(self, op: host.GraphSizeOp) -> None:
        attribute = "num_vertices" if op.what.data == host.GraphSize.VERTICES else "num_edges"
        self._define(op.result, f"{self.expr(op.graph)}.{attribute}")

    @emit.register
    def _(self, op: host.GraphArrayOp) -> None:
        self._define(op.result, f'{self.expr(op.graph)}.array("{op.array.data.value}")')

    @emit.register
    def _(self, op: host.AllocOp) -> None:
        self._define(op.result, f'rt.alloc({self.expr(op.count)}, "{_element_dtype(op.result)}")')

    @emit.register
    def _(self, op: host.FreeOp) -> None:
        self._line(f"rt.free({self.expr(op.buffer)})")

    @emit.register
    def _(self, op: host.FillOp) -> None:
        arguments = f"{self.expr(op.buffer)}, {self.expr(op.value)}, {self.expr(op.count)}"
        self._line(f'rt.fill({arguments}, "{_element_dtype(op.buffer)}")')

    @emit.register
    def _(self, op: host.CopyOp) -> None:
        arguments = f"{self.expr(op.source)}, {self.expr(op.target)}, {self.expr(op.count)}"
        self._line(f'rt.copy({arguments}, "{_element_dtype(op.source)}")')

    @emit.register
    def _(self, op: host.ReadOp) -> None:
        arguments = f"{self.expr(op.buffer)}, {self.expr(op.index)}"
        self._define(op.result, f'rt.read({arguments}, "{_element_dtype(op.buffer)}")')

    @emit.register
    def _(self, op: host.WriteOp) -> None:
        arguments = f"{self.expr(op.buffer)}, {self.expr(op.index)}, {self.expr(op.value)}"
        self._line(f'rt.write({arguments}, "{_element_dtype(op.buffer)}")')

    @emit.register
    def _(self, op: host.BindGlobalOp) -> None:
        owner = op.buffer.owner
        count = self.expr(owner.count) if isinstance(owner, host.AllocOp) else "None"
        name = op.global_name.data
        self._line(f'rt.bind_global("{name}", {self.expr(op.buffer)}, "{_element_dtype(op.buffer)}", {count})')

    @emit.register
    def _(self, op: host.LaunchOp) -> None:
        plan = self._sites[op]
        varying = [self.expr(a) for i, a in enumerate(op.args) if i not in plan.fixed]
        arguments = ", ".join([self.expr(op.grid), self.expr(op.block), *varying])
        self._line(f"{plan.variable}({arguments})")

    @emit.register
    def _(self, op: func.ReturnOp) -> None:
        self._line("return")

    # structured control flow

    @emit.register
    def _(self, op: scf.YieldOp) -> None:
        targets = self._frames[-1].targets
        assert targets is not None
        self._assign(targets, op.operands)

    @emit.register
    def _(self, op: scf.IfOp) -> None:
        targets = [self._names[result] for result in op.output]
        self._line(f"if {self.expr(op.cond)}:")
        self._region(op.true_region.block, _Frame(targets))
        else_block = op.false_region.blocks.first
        if else_block is not None and (len(else_block.ops) > 1 or targets):
            self._line("else:")
            self._region(else_block, _Frame(targets))

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
        self._assign(targets, op.iter_args)
        bounds = [self.expr(op.lb), self.expr(op.ub)]
        if self.expr(op.step) != "1":
            bounds.append(self.expr(op.step))
        self._line(f"for {self._names[induction]} in range({', '.join(bounds)}):")
        self._region(body, _Frame(targets))

    @emit.register
    def _(self, op: scf.WhileOp) -> None:
        before, after = op.before_region.block, op.after_region.block
        condition = before.last_op
        assert isinstance(condition, scf.ConditionOp)
        loop_vars = [self._names[argument] for argument in before.args]
        self._assign(loop_vars, op.arguments)
        if list(condition.args) == list(before.args):
            for result, argument, name in zip(op.res, after.args, loop_vars, strict=True):
                self._names.bind(result, name)
                self._names.bind(argument, name)
            frame = _Frame(None)
        else:
            exits = []
            for result, argument in zip(op.res, after.args, strict=True):
                exits.append(self._names[result])
                self._names.bind(argument, exits[-1])
            frame = _Frame(exits)
        self._line("while True:")
        self._region(before, frame)
        self._region(after, _Frame(loop_vars))

    @emit.register
    def _(self, op: scf.ConditionOp) -> None:
        targets = self._frames[-1].targets
        if targets is not None:
            self._assign(targets, op.args)
        self._line(f"if not {self._operand(op.condition)}:")
        self._line(f"{_INDENT}break")


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


def _is_removable(op: Operation) -> bool:
    """Whether a host op has no effect but its results (an unused graph array is
    not even copied to the device)."""
    return op.dialect_name() in ("arith", "math") or isinstance(
        op, host.GraphSizeOp | host.GraphArrayOp | host.ArgvIntOp | host.ReadOp
    )


def print_host_python(module: ModuleOp, source_name: str = "<module>") -> str:
    """The host program of a GPU-level `module` as Python source defining
    `run(rt, argv)`."""
    return HostPrinter(source_name).print_module(module)
