"""GraphIt syntax tree to graph-dialect IR.

`build_module(program, filename)` checks the program (`sema`), evaluates its
schedule section (`schedule`), and builds one `builtin.module`:

* every program-level `const` becomes a `graph.global`, in source order; its
  initializer runs at the start of `@main` (`graph.load_edges`,
  `graph.get_vertices`, `graph.vector_fill`, `graph.out_degrees`,
  `graph.global_store`); vectors without one are filled with zero. A local
  vector (`var v : vector{Vertex}(int) = -1;` in a host function) is a
  `graph.global` too, initialized where its declaration runs;
* every function becomes a `func.func` (a named output is a local returned at the
  end);
* locals are SSA values: `while`, `for` and `if` become `scf.while`, `scf.for` and
  `scf.if` that carry (yield) every outer local their body reassigns. Vertexsets,
  lists and queues are references, so `frontier.addVertex(v)` needs no SSA update;
* `break` becomes a flag: a loop with a `break` carries an `i1` "broken" local,
  false on entry, that the `break` sets; the statements after an `if` that may
  break run under `scf.if` on the flag being false, and the loop condition is
  false once it is set (the user's condition is not evaluated then). A `for` with
  a `break` becomes an `scf.while` carrying its counter, since `scf.for` cannot
  stop early. Everything stays structured control flow, so the host printers and
  the graph-level passes see ordinary loops and ifs;
* labelled statements get their label path (`label` of edgeset/vertexset applies,
  `graph.label` on loops and ifs) and their schedule (`schedule` of an edgeset
  apply, `graph.schedule` on a kernel-fused `scf.while`);
* every op is located at the statement (or declaration) it was built for,
  `loc("prog.gt":LINE:COL)`, by `emit` (see `IRGen.located`).
"""

from __future__ import annotations

import math as math_lib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from xdsl.dialects import arith, func, math, scf
from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    FileLineColLoc,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    ModuleOp,
    StringAttr,
    UnitAttr,
    UnknownLoc,
    f32,
    f64,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

from gir.diagnostics import UserError
from gir.dialects import graph
from gir.dialects.graph import UNSIGNED_LITERAL
from gir.frontend import ast
from gir.frontend.breaks import check_fused_breaks
from gir.frontend.deletes import check_deletes
from gir.frontend.exports import main_program
from gir.frontend.notes import Warnings
from gir.frontend.schedule import ScheduleBinding, resolve_schedules
from gir.frontend.sema import (
    BOOL,
    DOUBLE,
    FLOAT,
    INT,
    INT64,
    UINT,
    UINT64,
    VERTEX,
    VERTEXSET,
    EdgeApplyInfo,
    EdgeSetTy,
    FuncInfo,
    ListTy,
    MethodInfo,
    PriorityQueueTy,
    ScalarTy,
    SemaInfo,
    Symbol,
    Ty,
    VectorTy,
    VertexSetTy,
    VertexTy,
    capture_vector,
    check_program,
    functor_parts,
)
from gir.verifier import verify_module

SCALAR_IR: dict[ScalarTy, Attribute] = {
    INT: i32, UINT: i32, INT64: i64, UINT64: i64, FLOAT: f32, DOUBLE: f64, BOOL: i1,
}  # fmt: skip
"""IR types are signless, as in MLIR: `uint` is an i32 whose comparisons,
divisions, widenings and conversions to float are the unsigned ops."""
F32_MAX = 3.4028234663852886e38
"""The largest finite f32; float literals beyond it become infinities (as in C++)."""
BinaryBuilder = Callable[[SSAValue, SSAValue], Operation]
INT_PREDICATES = {"==": "eq", "!=": "ne", "<": "slt", "<=": "sle", ">": "sgt", ">=": "sge"}
UINT_PREDICATES = {"==": "eq", "!=": "ne", "<": "ult", "<=": "ule", ">": "ugt", ">=": "uge"}
FLOAT_PREDICATES = {"==": "oeq", "!=": "une", "<": "olt", "<=": "ole", ">": "ogt", ">=": "oge"}
INT_ARITH: dict[str, BinaryBuilder] = {
    "+": arith.AddiOp, "-": arith.SubiOp, "*": arith.MuliOp, "/": arith.DivSIOp,
}  # fmt: skip
UINT_ARITH: dict[str, BinaryBuilder] = {**INT_ARITH, "/": arith.DivUIOp}
FLOAT_ARITH: dict[str, BinaryBuilder] = {
    "+": arith.AddfOp, "-": arith.SubfOp, "*": arith.MulfOp, "/": arith.DivfOp,
}  # fmt: skip
LOGIC: dict[str, BinaryBuilder] = {"and": arith.AndIOp, "or": arith.OrIOp, "xor": arith.XOrIOp}
REDUCE_KINDS = {
    "min=": graph.ReduceKind.MIN,
    "max=": graph.ReduceKind.MAX,
    "+=": graph.ReduceKind.ADD,
}
VECTOR_REDUCE_KINDS = {
    "vector_sum": graph.ReduceKind.ADD,
    "vector_max": graph.ReduceKind.MAX,
    "vector_min": graph.ReduceKind.MIN,
}


def unsigned_kind(kind: graph.ReduceKind, ty: Ty) -> graph.ReduceKind:
    """`kind` for elements of type `ty`: `min`/`max` of `uint` and `uint_64`
    compare as unsigned (`umin`/`umax`); integers are signless in the IR."""
    if isinstance(ty, ScalarTy) and ty.is_unsigned:
        unsigned = {graph.ReduceKind.MIN: graph.ReduceKind.UMIN, graph.ReduceKind.MAX: graph.ReduceKind.UMAX}
        return unsigned.get(kind, kind)
    return kind


APPLY_KINDS = {
    "apply": graph.ApplyKind.APPLY,
    "apply_modified": graph.ApplyKind.APPLY_MODIFIED,
    "apply_update_priority": graph.ApplyKind.APPLY_UPDATE_PRIORITY,
}


MATH_OPS: dict[str, Callable[..., Operation]] = {
    "fabs": math.AbsFOp,
    "exp": math.ExpOp,
    "log": math.LogOp,
    "log1p": math.Log1pOp,
    "sqrt": math.SqrtOp,
    "fmax": arith.MaxnumfOp,
    "fmin": arith.MinnumfOp,
}
"""The op each math builtin becomes (`fmax`/`fmin` as C's: a NaN argument loses)."""


def float_type(ty: ScalarTy) -> Float32Type | Float64Type:
    """The IR type of `float` (f32) or `double` (f64)."""
    return f64 if ty == DOUBLE else f32


def int_type(ty: ScalarTy) -> IntegerType:
    """The IR type of an integer type or `bool` (i1)."""
    return IntegerType(ty.width)


def arith_table(ty: ScalarTy) -> dict[str, BinaryBuilder]:
    """The builders of + - * / on `ty`."""
    if ty.is_float:
        return FLOAT_ARITH
    return UINT_ARITH if ty.is_unsigned else INT_ARITH


def wrapped(value: int, width: int) -> int:
    """`value` modulo 2**width, as the signed number a signless constant holds."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >= 1 << (width - 1) else value


def ir_type(ty: Ty) -> Attribute:
    """The IR type of a GraphIt type."""
    if isinstance(ty, ScalarTy):
        return SCALAR_IR[ty]
    if isinstance(ty, VertexTy):
        return graph.VertexType()
    if isinstance(ty, EdgeSetTy):
        return graph.EdgeSetType(None if ty.weight is None else SCALAR_IR[ty.weight])
    if isinstance(ty, VertexSetTy):
        return graph.VertexSetType()
    if isinstance(ty, VectorTy):
        size = -1 if ty.size is None else ty.size
        return graph.VectorType(SCALAR_IR[ty.elem], size, ty.lanes or 0)
    if isinstance(ty, PriorityQueueTy):
        return graph.PriorityQueueType(SCALAR_IR[ty.priority])
    if isinstance(ty, ListTy):
        return graph.ListType()
    raise AssertionError(f"no IR type for {ty}")


def assigned_symbols(body: list[ast.Stmt]) -> list[Symbol]:
    """Locals declared outside `body` that `body` reassigns, in first-assignment
    order: what a loop or `if` around `body` must carry."""
    declared = {stmt.symbol for stmt in ast.walk_stmts(body) if isinstance(stmt, ast.VarDecl)}
    result: list[Symbol] = []
    for stmt in ast.walk_stmts(body):
        target = stmt.target if isinstance(stmt, ast.Assign) else retrieve_target(stmt)
        if isinstance(target, ast.Name):
            symbol = target.symbol
            if (
                symbol is not None
                and not symbol.is_global
                and symbol not in declared
                and symbol not in result
            ):
                result.append(symbol)
    return result


def retrieve_target(stmt: ast.Stmt) -> ast.Expr | None:
    """The vertexset `list.retrieve(set)` assigns (a list pops into it), else None."""
    if not isinstance(stmt, ast.ExprStmt) or not isinstance(stmt.expr, ast.MethodCall):
        return None
    info = stmt.expr.info
    if isinstance(info, MethodInfo) and info.op == "list_retrieve" and stmt.expr.args:
        return stmt.expr.args[0]
    return None


def mentions(stmt: ast.Stmt, symbol: Symbol) -> bool:
    """Whether `stmt` (nested statements included) refers to `symbol`."""
    for inner in ast.walk_stmts([stmt]):
        for expr in ast.own_exprs(inner):
            if any(isinstance(e, ast.Name) and e.symbol is symbol for e in ast.walk_expr(expr)):
                return True
    return False


def needs_default(body: list[ast.Stmt], output: Symbol) -> bool:
    """Whether a function's named output needs a zero value before `body`: not
    when the first statement that mentions it is a plain top-level `output = e`
    with `e` not reading it."""
    for stmt in body:
        if not mentions(stmt, output):
            continue
        return not (
            isinstance(stmt, ast.Assign)
            and stmt.op == "="
            and isinstance(stmt.target, ast.Name)
            and stmt.target.symbol is output
            and not any(
                isinstance(e, ast.Name) and e.symbol is output for e in ast.walk_expr(stmt.value)
            )
        )
    return True


def vector_name(expr: ast.Name) -> str:
    """The `graph.global` a vector's name refers to (a local vector's is its
    `Symbol.storage`)."""
    assert expr.symbol is not None, "sema resolves every vector name"
    return expr.symbol.global_name


def set_name(value: SSAValue, name: str) -> None:
    """Names an SSA value after a GraphIt variable, unless it already has a name."""
    if value.name_hint is None:
        value.name_hint = name


class IRGen:
    """Builds the module of one checked program."""

    def __init__(
        self,
        program: ast.Program,
        sema: SemaInfo,
        bindings: dict[ast.Stmt, ScheduleBinding],
        filename: str = "",
    ):
        self.program = program
        self.filename = filename
        self.location: LocationAttr = UnknownLoc()
        """Where the ops being built come from: the statement (or declaration)
        being generated; `emit` gives it to every op it appends."""
        self.sema = sema
        self.bindings = bindings
        self.block = Block()
        self.env: dict[Symbol, SSAValue] = {}
        self.stmt_label: str | None = None
        self.stmt_schedule: Attribute | None = None
        self.break_flag: Symbol | None = None
        self.every_edge: func.FuncOp | None = None
        """The edge function `edges.getNgh(v)` applies (true on every edge),
        built at the first use; see `neighbours`."""

    # -- helpers -----------------------------------------------------------------

    def emit(self, op: Operation) -> Operation:
        """Appends `op` at the insertion point, located at the current statement."""
        self.block.add_op(self.stamp(op))
        return op

    def stamp(self, op: Operation) -> Operation:
        """`op`, located at the current statement unless it has a location."""
        if isinstance(op.location, UnknownLoc):
            op.location = self.location
        return op

    def source_location(self, pos: ast.Pos) -> LocationAttr:
        """The IR location of a source position (unknown without a file name)."""
        if not self.filename:
            return UnknownLoc()
        return FileLineColLoc(StringAttr(self.filename), IntAttr(pos.line), IntAttr(pos.col))

    @contextmanager
    def located(self, pos: ast.Pos) -> Iterator[None]:
        """Locates the ops built inside the `with` at `pos`."""
        saved = self.location
        self.location = self.source_location(pos)
        try:
            yield
        finally:
            self.location = saved

    def value(self, op: Operation) -> SSAValue:
        """Appends `op` and returns its single result."""
        self.emit(op)
        return op.results[0]

    def in_block(self, block: Block, body: Callable[[], None]) -> None:
        """Runs `body` with `block` as the insertion point and a private copy of
        the local environment."""
        saved_block, saved_env = self.block, self.env
        self.block, self.env = block, dict(saved_env)
        try:
            body()
        finally:
            self.block, self.env = saved_block, saved_env

    def constant(self, value: int | float | bool, ty: ScalarTy) -> SSAValue:
        """An `arith.constant` of the given GraphIt scalar type."""
        if ty.is_float:
            number = float(value)
            if ty == FLOAT and abs(number) > F32_MAX:
                number = math_lib.copysign(math_lib.inf, number)
            return self.value(arith.ConstantOp(FloatAttr(number, float_type(ty))))
        if ty == BOOL:
            return self.value(arith.ConstantOp(IntegerAttr(int(value), i1)))
        constant = arith.ConstantOp(IntegerAttr(wrapped(int(value), ty.width), int_type(ty)))
        if ty.is_unsigned and int(value) >= 1 << (ty.width - 1):
            constant.attributes[UNSIGNED_LITERAL] = UnitAttr()  # printed as 4294967295u
        return self.value(constant)

    def zero(self, ty: Ty) -> SSAValue:
        """The zero (false) value of a scalar type."""
        assert isinstance(ty, ScalarTy)
        return self.constant(0, ty)

    def initial_value(self, ty: Ty) -> SSAValue:
        """A local declared without a value: zero, or an empty vertexset."""
        if ty == VERTEXSET:
            return self.value(graph.VertexSetNewOp(self.constant(0, INT)))
        return self.zero(ty)

    # -- module ------------------------------------------------------------------

    def build(self) -> ModuleOp:
        """The whole module."""
        ops: list[Operation] = []
        for symbol in self.sema.globals:
            with self.located(symbol.pos):
                unsigned = isinstance(symbol.ty, VectorTy) and symbol.ty.elem.is_unsigned
                ops.append(self.stamp(graph.GlobalOp(symbol.global_name, ir_type(symbol.ty), unsigned)))
        for function, capture in self.captures():
            with self.located(capture.pos):
                vector = graph.VectorType(ir_type(capture.ty), 1)
                ops.append(self.stamp(graph.GlobalOp(capture_vector(function, capture.name), vector)))
        for function in self.sema.functions.values():
            with self.located(function.decl.pos):
                ops.append(self.stamp(self.function(function)))
        if self.every_edge is not None:
            ops.append(self.every_edge)
        return ModuleOp(ops)

    def function(self, function: FuncInfo) -> func.FuncOp:
        """One `func.func`; `main` first runs the constants' initializers; an
        `extern func` is a declaration (`func.func private`, no body)."""
        inputs = [ir_type(p.ty) for p in function.params]
        outputs = [ir_type(function.output.ty)] if function.output is not None else []
        if function.decl.extern:
            return func.FuncOp.external(function.name, inputs, outputs)
        block = Block(arg_types=inputs)
        self.env = {}
        for param, arg in zip(function.params, block.args, strict=True):
            arg.name_hint = param.name
            self.env[param] = arg
        self.block = block
        if function.output is not None and needs_default(function.decl.body, function.output):
            output = self.zero(function.output.ty)
            set_name(output, function.output.name)
            self.env[function.output] = output
        for capture in function.captures:
            index = self.constant(0, INT)
            vector = capture_vector(function.name, capture.name)
            value = self.value(graph.LoadOp(vector, index, ir_type(capture.ty)))
            set_name(value, capture.name)
            self.env[capture] = value
        if function.name == "main":
            for decl in self.program.consts:
                with self.located(decl.pos):
                    self.global_init(decl)
            for owner, capture in self.captures():
                with self.located(capture.pos):
                    self.emit(graph.VectorFillOp(capture_vector(owner, capture.name), self.zero(capture.ty)))
        self.body(function.decl.body)
        results = [self.env[function.output]] if function.output is not None else []

        self.emit(func.ReturnOp(*results))
        return func.FuncOp(function.name, (inputs, outputs), Region(block))

    def captures(self) -> Iterator[tuple[str, Symbol]]:
        """Every functor's captures, with the functor's name."""
        for function in self.sema.functions.values():
            for capture in function.captures:
                yield function.name, capture

    def store_captures(self, expr: ast.MethodCall) -> None:
        """Before an apply: each functor it takes, `f[values]`, gets its values
        stored into the vectors that carry them to the device."""
        for sub in ast.walk_expr(expr):
            function = self.sema.functor_uses.get(sub)
            if function is None:
                continue
            _, values = functor_parts(sub)
            for value, capture in zip(values, function.captures, strict=True):
                vector = capture_vector(function.name, capture.name)
                stored = self.expr_as(value, capture.ty)
                self.emit(graph.StoreOp(stored, vector, self.constant(0, INT)))

    def global_init(self, decl: ast.ConstDecl) -> None:
        """The initialization of one program-level constant, in `main`."""
        assert decl.symbol is not None
        ty = decl.symbol.ty
        if isinstance(ty, VectorTy):
            self.vector_assign(decl.name, ty, decl.init)
        elif decl.init is not None:
            value = self.expr_as(decl.init, ty)
            set_name(value, decl.name)
            self.emit(graph.GlobalStoreOp(value, decl.name))
        elif isinstance(ty, ScalarTy):
            self.emit(graph.GlobalStoreOp(self.zero(ty), decl.name))

    def vector_assign(self, name: str, ty: VectorTy, init: ast.Expr | None) -> None:
        """A whole-vector initialization: fill with a value (zero by default),
        `edges.getOutDegrees()`, a copy, or a literal `{a, b, ...}` (one
        `graph.store` per element)."""
        if isinstance(init, ast.VectorLit):
            for position, item in enumerate(init.items):
                index = self.constant(position, INT)
                self.emit(graph.StoreOp(self.expr_as(item, ty.elem), name, index))
            return
        if (
            isinstance(init, ast.MethodCall)
            and isinstance(init.info, MethodInfo)
            and init.info.op == "out_degrees"
        ):
            self.emit(graph.OutDegreesOp(self.expr(init.receiver), name))
            return
        if isinstance(init, ast.Name) and isinstance(init.ty, VectorTy):
            self.emit(graph.VectorCopyOp(name, vector_name(init)))
            return
        fill = self.zero(ty.elem) if init is None else self.expr_as(init, ty.elem)
        self.emit(graph.VectorFillOp(name, fill))

    # -- statements ----------------------------------------------------------------

    def body(self, stmts: list[ast.Stmt]) -> None:
        """A statement list at the insertion point. A `break` sets the loop's
        flag and ends the list (what follows it never runs); the statements after
        an `if` that may break run only while the flag is false."""
        for position, stmt in enumerate(stmts):
            if isinstance(stmt, ast.Break):
                assert self.break_flag is not None, "sema rejects a break outside loops"
                self.env[self.break_flag] = self.constant(True, BOOL)
                return
            with self.located(stmt.pos):
                self.stmt(stmt)
            rest = stmts[position + 1 :]
            if rest and ast.loop_breaks([stmt]):
                self.unless_broken(rest)
                return

    def unless_broken(self, stmts: list[ast.Stmt]) -> None:
        """`stmts` under `scf.if` on the loop's break flag being false."""
        assert self.break_flag is not None
        true = self.constant(True, BOOL)
        running = self.value(arith.XOrIOp(self.env[self.break_flag], true))
        op, carried = self.if_op(running, stmts, None)
        self.emit(op)
        self.carried_results(op, carried)

    def reassigned(self, stmts: list[ast.Stmt]) -> list[Symbol]:
        """The outer locals that `stmts` reassign: what a loop around them carries
        (besides its own break flag)."""
        return [s for s in assigned_symbols(stmts) if s in self.env]

    def carried_by(self, stmts: list[ast.Stmt]) -> list[Symbol]:
        """The outer locals that an `if` around `stmts` yields: those `stmts`
        reassign, and the enclosing loop's break flag where `stmts` may break."""
        carried = self.reassigned(stmts)
        if self.break_flag is not None and ast.loop_breaks(stmts):
            carried.append(self.break_flag)
        return carried

    def loop_flag(self, stmt: ast.While | ast.For) -> Symbol | None:
        """A fresh break flag (false) for a loop whose body breaks, else None."""
        if not ast.loop_breaks(stmt.body):
            return None
        flag = Symbol("broken", BOOL, "local", stmt.pos)
        self.env[flag] = self.constant(False, BOOL)
        set_name(self.env[flag], flag.name)
        return flag

    def loop_body(self, flag: Symbol | None, stmts: list[ast.Stmt]) -> None:
        """A loop's body statements, with `flag` as the target of its `break`s."""
        saved = self.break_flag
        self.break_flag = flag
        try:
            self.body(stmts)
        finally:
            self.break_flag = saved

    def unless_flag(self, flag: Symbol | None, cond: Callable[[], SSAValue]) -> SSAValue:
        """A loop condition: `cond()`, or false without evaluating it once the
        loop's break `flag` is set."""
        if flag is None:
            return cond()
        broken = Block()
        self.in_block(broken, lambda: self.emit(scf.YieldOp(self.constant(False, BOOL))))
        running = Block()
        self.in_block(running, lambda: self.emit(scf.YieldOp(cond())))
        return self.value(scf.IfOp(self.env[flag], [i1], Region(broken), Region(running)))

    def stmt(self, stmt: ast.Stmt) -> None:
        """One statement; simple statements see their label and schedule."""
        if isinstance(stmt, ast.If):
            self.if_stmt(stmt)
            return
        if isinstance(stmt, ast.While):
            self.while_stmt(stmt)
            return
        if isinstance(stmt, ast.For):
            self.for_stmt(stmt)
            return
        binding = self.bindings.get(stmt)
        self.stmt_label = self.sema.labels.get(stmt)
        self.stmt_schedule = binding.attr if binding is not None else None
        try:
            self.simple_stmt(stmt)
        finally:
            self.stmt_label = None
            self.stmt_schedule = None

    def simple_stmt(self, stmt: ast.Stmt) -> None:
        """A statement without nested statements."""
        if isinstance(stmt, ast.VarDecl):
            assert stmt.symbol is not None
            ty = stmt.symbol.ty
            if isinstance(ty, VectorTy):  # a local vector: its global, (re)initialized here
                self.vector_assign(stmt.symbol.global_name, ty, stmt.init)
                return
            value = self.initial_value(ty) if stmt.init is None else self.expr_as(stmt.init, ty)
            set_name(value, stmt.name)
            self.env[stmt.symbol] = value
        elif isinstance(stmt, ast.Assign):
            self.assign(stmt)
        elif isinstance(stmt, ast.Print):
            self.print_stmt(stmt)
        elif isinstance(stmt, ast.Delete):
            self.emit(graph.DeleteOp(self.expr(stmt.value)))
        elif isinstance(stmt, ast.ExprStmt):
            self.expr_or_none(stmt.expr)

    def print_stmt(self, stmt: ast.Print) -> None:
        """`print e;`: a string's text, or a scalar (vertices print their id)."""
        if isinstance(stmt.value, ast.StringLit):
            self.emit(graph.PrintOp(text=stmt.value.value))
            return
        ty = INT if stmt.value.ty == VERTEX else stmt.value.ty
        assert ty is not None
        if ty == UINT:  # printed as the int64 of the same value
            ty = INT64
        unsigned = isinstance(ty, ScalarTy) and ty.is_unsigned  # uint_64
        self.emit(graph.PrintOp(self.expr_as(stmt.value, ty), unsigned=unsigned))

    def assign(self, stmt: ast.Assign) -> None:
        """Assignments and reductions to locals, globals and vector elements."""
        if isinstance(stmt.target, ast.Index):
            self.element_assign(stmt, stmt.target)
            return
        assert isinstance(stmt.target, ast.Name) and stmt.target.symbol is not None
        symbol = stmt.target.symbol
        if isinstance(symbol.ty, VectorTy):
            self.vector_assign(symbol.global_name, symbol.ty, stmt.value)
            return
        value = self.expr_as(stmt.value, symbol.ty)
        if stmt.op != "=":
            value = self.combine(stmt.op, self.expr(stmt.target), value, symbol.ty)
        if symbol.is_global:
            self.emit(graph.GlobalStoreOp(value, symbol.global_name))
        else:
            set_name(value, symbol.name)
            self.env[symbol] = value

    def combine(self, op: str, old: SSAValue, new: SSAValue, ty: Ty) -> SSAValue:
        """`old op new` for a scalar `+=`, `-=`, `min=` or `max=`."""
        assert isinstance(ty, ScalarTy)
        if op in ("+=", "-="):
            return self.value(arith_table(ty)[op[0]](old, new))
        builders: dict[tuple[str, str], BinaryBuilder] = {
            ("float", "min="): arith.MinimumfOp,
            ("float", "max="): arith.MaximumfOp,
            ("signed", "min="): arith.MinSIOp,
            ("signed", "max="): arith.MaxSIOp,
            ("unsigned", "min="): arith.MinUIOp,
            ("unsigned", "max="): arith.MaxUIOp,
        }
        family = "float" if ty.is_float else "unsigned" if ty.is_unsigned else "signed"
        return self.value(builders[(family, op)](old, new))

    def element_assign(self, stmt: ast.Assign, target: ast.Index) -> None:
        """`vec[i] = e` (`graph.store`) or `vec[i] min= e` (`graph.reduce`), and
        the same on a lane `vec[i][j]`."""
        assert target.ty is not None
        name, index, lane = self.access(target)
        value = self.expr_as(stmt.value, target.ty)
        if stmt.op == "=":
            self.emit(graph.StoreOp(value, name, index, lane))
        else:
            kind = unsigned_kind(REDUCE_KINDS[stmt.op], target.ty)
            self.emit(graph.ReduceOp(kind, value, name, index, lane=lane))

    def loop_attributes(self, stmt: ast.Stmt, op: Operation) -> None:
        """`graph.label` (and `graph.schedule`) on a labelled loop or `if`."""
        label = self.sema.labels.get(stmt)
        if label is not None:
            op.attributes["graph.label"] = StringAttr(label)
        binding = self.bindings.get(stmt)
        if binding is not None:
            op.attributes["graph.schedule"] = binding.attr

    def carried_results(self, op: Operation, carried: Sequence[Symbol]) -> None:
        """Makes the results of a loop or `if` the new values of `carried`."""
        for symbol, result in zip(carried, op.results, strict=True):
            result.name_hint = symbol.name
            self.env[symbol] = result

    def region_block(self, carried: Sequence[Symbol], extra: Sequence[Attribute] = ()) -> Block:
        """A block whose arguments are `extra` then one per carried local."""
        block = Block(arg_types=[*extra, *(ir_type(s.ty) for s in carried)])
        for symbol, arg in zip(carried, block.args[len(extra) :], strict=True):
            arg.name_hint = symbol.name
        return block

    def bind(self, carried: Sequence[Symbol], values: Sequence[SSAValue]) -> None:
        """Makes `values` the current values of `carried` locals."""
        for symbol, value in zip(carried, values, strict=True):
            self.env[symbol] = value

    def while_stmt(self, stmt: ast.While) -> None:
        """`while c ... end` as `scf.while`, carrying the locals the body reassigns
        (and its break flag)."""
        flag = self.loop_flag(stmt)
        carried = self.reassigned(stmt.body) + ([flag] if flag is not None else [])
        self.scf_while(stmt, carried, flag, lambda args: self.expr_as(stmt.cond, BOOL))

    def scf_while(
        self,
        stmt: ast.While | ast.For,
        carried: Sequence[Symbol],
        flag: Symbol | None,
        cond: Callable[[Sequence[SSAValue]], SSAValue],
        step: Callable[[Sequence[SSAValue]], None] | None = None,
    ) -> None:
        """An `scf.while` over `stmt`'s body carrying `carried`: `cond` builds
        the condition from the carried values (false once `flag` is set), `step`
        runs after the body (a `for`'s increment)."""
        inits = [self.env[s] for s in carried]
        before = self.region_block(carried)
        after = self.region_block(carried)

        def condition() -> None:
            self.bind(carried, before.args)
            test = self.unless_flag(flag, lambda: cond(before.args))
            self.emit(scf.ConditionOp(test, *before.args))

        def loop_body() -> None:
            self.bind(carried, after.args)
            self.loop_body(flag, stmt.body)
            if step is not None:
                step(after.args)
            self.emit(scf.YieldOp(*(self.env[s] for s in carried)))

        self.in_block(before, condition)
        self.in_block(after, loop_body)
        op = scf.WhileOp(inits, [v.type for v in inits], Region(before), Region(after))
        self.loop_attributes(stmt, op)
        self.emit(op)
        self.carried_results(op, carried)

    def for_stmt(self, stmt: ast.For) -> None:
        """`for i in a:b ... end` as `scf.for` over i32 (`scf.while` if it breaks)."""
        start = self.expr_as(stmt.start, INT)
        stop = self.expr_as(stmt.stop, INT)
        step = self.constant(1, INT)
        flag = self.loop_flag(stmt)
        if flag is not None:
            self.breaking_for(stmt, start, stop, step, flag)
            return
        carried = self.reassigned(stmt.body)
        body = self.region_block(carried, extra=[i32])
        body.args[0].name_hint = stmt.var

        def loop_body() -> None:
            assert stmt.symbol is not None
            self.env[stmt.symbol] = body.args[0]
            self.bind(carried, body.args[1:])
            self.loop_body(None, stmt.body)
            self.emit(scf.YieldOp(*(self.env[s] for s in carried)))

        inits = [self.env[s] for s in carried]
        self.in_block(body, loop_body)
        op = scf.ForOp(start, stop, step, inits, body)
        self.loop_attributes(stmt, op)
        self.emit(op)
        self.carried_results(op, carried)

    def breaking_for(
        self, stmt: ast.For, start: SSAValue, stop: SSAValue, step: SSAValue, flag: Symbol
    ) -> None:
        """A `for` with a `break`: an `scf.while` carrying the counter first, then
        the reassigned locals and the break flag; it runs while the flag is false
        and the counter is below `stop`."""
        assert stmt.symbol is not None
        counter = stmt.symbol
        carried = [counter, *self.reassigned(stmt.body), flag]
        self.env[counter] = start

        def below(args: Sequence[SSAValue]) -> SSAValue:
            return self.value(arith.CmpiOp(args[0], stop, "slt"))

        def increment(args: Sequence[SSAValue]) -> None:
            self.env[counter] = self.value(arith.AddiOp(args[0], step))

        self.scf_while(stmt, carried, flag, below, increment)

    def if_stmt(self, stmt: ast.If) -> None:
        """`if c ... [else ...] end` as `scf.if`, yielding reassigned locals."""
        cond = self.expr_as(stmt.cond, BOOL)
        op, carried = self.if_op(cond, stmt.then_body, stmt.else_body)
        self.loop_attributes(stmt, op)
        self.emit(op)
        self.carried_results(op, carried)

    def if_op(
        self, cond: SSAValue, then_body: list[ast.Stmt], else_body: list[ast.Stmt] | None
    ) -> tuple[scf.IfOp, list[Symbol]]:
        """An `scf.if` (not yet emitted) over two statement lists, and the locals
        it yields."""
        carried = self.carried_by(then_body + (else_body or []))

        def branch(stmts: list[ast.Stmt]) -> Block:
            block = Block()

            def run() -> None:
                self.body(stmts)
                self.emit(scf.YieldOp(*(self.env[s] for s in carried)))

            self.in_block(block, run)
            return block

        then_block = branch(then_body)
        has_else = else_body is not None or carried
        else_region = Region(branch(else_body or [])) if has_else else Region()
        op = scf.IfOp(cond, [ir_type(s.ty) for s in carried], Region(then_block), else_region)
        return op, carried

    # -- expressions -------------------------------------------------------------------

    def expr_or_none(self, expr: ast.Expr) -> SSAValue | None:
        """An expression's value, or None for calls that give nothing."""
        if isinstance(expr, ast.Call):
            return self.call(expr)
        if isinstance(expr, ast.MethodCall):
            return self.method(expr)
        return self.expr(expr)

    def expr(self, expr: ast.Expr) -> SSAValue:
        """An expression's value, of its own type."""
        if isinstance(expr, ast.IntLit | ast.FloatLit | ast.BoolLit):
            assert isinstance(expr.ty, ScalarTy)
            return self.constant(expr.value, expr.ty)
        if isinstance(expr, ast.Name):
            return self.name(expr)
        if isinstance(expr, ast.Index):
            assert expr.ty is not None
            name, index, lane = self.access(expr)
            return self.value(graph.LoadOp(name, index, ir_type(expr.ty), lane))
        if isinstance(expr, ast.Unary):
            return self.unary(expr)
        if isinstance(expr, ast.Binary):
            return self.binary(expr)
        if isinstance(expr, ast.Load):
            return self.load(expr)
        if isinstance(expr, ast.Argv):
            return self.value(graph.ArgvIntOp(expr.index))
        if isinstance(expr, ast.New):
            return self.new(expr)
        value = self.expr_or_none(expr)
        assert value is not None, "sema lets only valued expressions through"
        return value

    def expr_as(self, expr: ast.Expr, ty: Ty) -> SSAValue:
        """An expression converted to `ty` (literals are built in `ty` directly)."""
        literal = self.literal_value(expr)
        if literal is not None and isinstance(ty, ScalarTy) and ty != BOOL:
            return self.constant(literal, ty)
        if isinstance(expr, ast.Argv) and isinstance(ty, ScalarTy) and ty.is_float:
            return self.value(graph.ArgvIntOp(expr.index, float_type(ty)))  # atof, not atoi
        assert expr.ty is not None
        return self.convert(self.expr(expr), expr.ty, ty)

    def literal_value(self, expr: ast.Expr) -> int | float | None:
        """The value of a (possibly negated) numeric literal, else None; an int
        literal may become a float constant, not the other way round."""
        if isinstance(expr, ast.Unary) and expr.op == "-":
            inner = self.literal_value(expr.operand)
            return None if inner is None else -inner
        if isinstance(expr, ast.IntLit | ast.FloatLit):
            return expr.value
        return None

    def convert(self, value: SSAValue, source: Ty, target: Ty) -> SSAValue:
        """GraphIt's implicit conversions (see `sema.is_assignable`)."""
        if source == target:
            return value
        if source == VERTEXSET:
            value = self.value(graph.VertexSetSizeOp(value))
            return self.convert(value, INT, target)
        if source == VERTEX:
            return self.convert(self.value(graph.VertexIdOp(value)), INT, target)
        if target == VERTEX:
            return self.value(graph.ToVertexOp(self.convert(value, source, INT)))
        assert isinstance(source, ScalarTy) and isinstance(target, ScalarTy)
        if source.is_integer and target.is_integer:
            return self.resize(value, source, target)
        if source.is_integer:
            to_float = arith.UIToFPOp if source.is_unsigned else arith.SIToFPOp
            return self.value(to_float(value, float_type(target)))
        if target.is_integer:  # warned about by sema: C's truncation toward zero
            to_int = arith.FPToUIOp if target.is_unsigned else arith.FPToSIOp
            return self.value(to_int(value, int_type(target)))
        if target == DOUBLE:
            return self.value(arith.ExtFOp(value, f64))
        return self.value(arith.TruncFOp(value, f32))

    def resize(self, value: SSAValue, source: ScalarTy, target: ScalarTy) -> SSAValue:
        """An integer converted to another integer type, as C converts: widened by
        the source's signedness, narrowed by dropping high bits."""
        if source.width == target.width:
            return value
        if source.width > target.width:
            return self.value(arith.TruncIOp(value, int_type(target)))
        widen = arith.ExtUIOp if source.is_unsigned else arith.ExtSIOp
        return self.value(widen(value, int_type(target)))

    def name(self, expr: ast.Name) -> SSAValue:
        """A local's current value, or a global's (`graph.global_load`)."""
        symbol = expr.symbol
        assert symbol is not None
        if symbol.is_global:
            return self.value(graph.GlobalLoadOp(symbol.global_name, ir_type(symbol.ty)))
        return self.env[symbol]

    def access(self, expr: ast.Index) -> tuple[str, SSAValue, SSAValue | None]:
        """What a vector access addresses: the vector's name, the element's
        index and, for `v[i][j]`, the lane j as an int."""
        if isinstance(expr.base, ast.Index):
            element = expr.base
            assert isinstance(element.base, ast.Name)
            return vector_name(element.base), self.index(element), self.expr_as(expr.index, INT)
        assert isinstance(expr.base, ast.Name)
        return vector_name(expr.base), self.index(expr), None

    def index(self, expr: ast.Index) -> SSAValue:
        """The index operand of a vector access (a vertex, or an integer as an int)."""
        assert expr.index.ty is not None
        if expr.index.ty == VERTEX:
            return self.expr(expr.index)
        return self.expr_as(expr.index, INT)

    def vertex_arg(self, expr: ast.Expr) -> SSAValue:
        """A vertex operand: a Vertex, or an integer of any type as an int."""
        return self.expr(expr) if expr.ty == VERTEX else self.expr_as(expr, INT)

    def unary(self, expr: ast.Unary) -> SSAValue:
        """`-x` and `not x`."""
        assert isinstance(expr.ty, ScalarTy)
        if expr.op == "not":
            true = self.constant(True, BOOL)
            return self.value(arith.XOrIOp(self.expr(expr.operand), true))
        literal = self.literal_value(expr)
        if literal is not None:
            return self.constant(literal, expr.ty)
        operand = self.expr_as(expr.operand, expr.ty)
        if expr.ty.is_float:
            return self.value(arith.NegfOp(operand))
        return self.value(arith.SubiOp(self.constant(0, expr.ty), operand))

    def binary(self, expr: ast.Binary) -> SSAValue:
        """Arithmetic, comparisons and logic on the common operand type."""
        ty = expr.operand_ty
        assert isinstance(ty, ScalarTy)
        left = self.expr_as(expr.left, ty)
        right = self.expr_as(expr.right, ty)
        if expr.op in LOGIC:
            return self.value(LOGIC[expr.op](left, right))
        if expr.op in INT_PREDICATES:
            if ty.is_float:
                return self.value(arith.CmpfOp(left, right, FLOAT_PREDICATES[expr.op]))
            predicates = UINT_PREDICATES if ty.is_unsigned else INT_PREDICATES
            return self.value(arith.CmpiOp(left, right, predicates[expr.op]))
        return self.value(arith_table(ty)[expr.op](left, right))

    def load(self, expr: ast.Load) -> SSAValue:
        """`load(argv[N])` / `load("file")`."""
        assert isinstance(expr.ty, EdgeSetTy)
        edges_type = ir_type(expr.ty)
        assert isinstance(edges_type, graph.EdgeSetType)
        if isinstance(expr.source, ast.Argv):
            return self.value(graph.LoadEdgesOp(edges_type, argv=expr.source.index))
        assert isinstance(expr.source, ast.StringLit)
        return self.value(graph.LoadEdgesOp(edges_type, path=expr.source.value))

    def new(self, expr: ast.New) -> SSAValue:
        """`new vertexset{Vertex}(n)`, `new list{...}()`, `new priority_queue...`."""
        if expr.ty == VERTEXSET:
            return self.value(graph.VertexSetNewOp(self.expr_as(expr.args[0], INT)))
        if isinstance(expr.ty, ListTy):
            return self.value(graph.ListNewOp())
        assert isinstance(expr.ty, PriorityQueueTy)
        within, across, vector, bucket, priority, init, start = expr.args
        assert isinstance(within, ast.BoolLit) and isinstance(across, ast.BoolLit)
        assert isinstance(bucket, ast.IntLit) and isinstance(priority, ast.IntLit)
        assert isinstance(init, ast.BoolLit) and isinstance(vector, ast.Name)
        flags = (within.value, across.value, bucket.value, priority.value, init.value)
        return self.value(
            graph.PriorityQueueNewOp(
                vector_name(vector), self.vertex_arg(start), SCALAR_IR[expr.ty.priority], flags
            )
        )

    # -- calls -----------------------------------------------------------------------

    def call(self, expr: ast.Call) -> SSAValue | None:
        """Builtins and user function calls (`func.call`)."""
        if isinstance(expr.target, FuncInfo):
            function = expr.target
            args = [self.expr_as(a, p.ty) for a, p in zip(expr.args, function.params, strict=True)]
            results = [ir_type(function.output.ty)] if function.output is not None else []
            op = self.emit(func.CallOp(function.name, args, results))
            return op.results[0] if results else None
        return self.builtin(expr)

    def builtin(self, expr: ast.Call) -> SSAValue | None:
        """`startTimer`, `stopTimer`, `atoi`, the math functions (`MATH_OPS`),
        `compare_and_swap`."""
        if expr.name == "startTimer":
            self.emit(graph.StartTimerOp())
            return None
        if expr.name == "stopTimer":
            return self.value(graph.StopTimerOp(f32))
        if expr.name == "atoi":
            argv = expr.args[0]
            assert isinstance(argv, ast.Argv)
            return self.value(graph.ArgvIntOp(argv.index))
        if expr.name in MATH_OPS:
            assert expr.ty is not None
            args = [self.expr_as(arg, expr.ty) for arg in expr.args]
            return self.value(MATH_OPS[expr.name](*args))
        target, expected, desired = expr.args
        assert isinstance(target, ast.Index) and target.ty is not None
        name, index, lane = self.access(target)
        return self.value(
            graph.CompareAndSwapOp(
                name,
                index,
                self.expr_as(expected, target.ty),
                self.expr_as(desired, target.ty),
                lane,
            )
        )

    def method(self, expr: ast.MethodCall) -> SSAValue | None:
        """Method calls, by what sema decided they mean."""
        self.store_captures(expr)
        if isinstance(expr.info, EdgeApplyInfo):
            return self.edge_apply(expr.info)
        info = expr.info
        assert isinstance(info, MethodInfo)
        if info.op in VECTOR_REDUCE_KINDS:
            return self.vector_reduction(expr, VECTOR_REDUCE_KINDS[info.op])
        receiver = self.expr(expr.receiver)
        if info.op == "vertexset_apply":
            assert info.udf is not None
            self.emit(graph.VertexSetApplyOp(receiver, info.udf, self.stmt_label))
            return None
        if info.op == "vertexset_filter":
            assert info.udf is not None
            return self.value(graph.VertexSetFilterOp(receiver, info.udf, self.stmt_label))
        if info.op in ("pq_update_min", "pq_update_max"):
            return self.update_priority(expr, info.op, receiver)
        if info.op == "pq_update_sum":
            return self.update_priority_sum(expr, receiver)
        if info.op == "pq_finished_node":
            vertex = self.vertex_arg(expr.args[0])
            return self.value(graph.PriorityQueueFinishedNodeOp(receiver, vertex))
        if info.op == "list_retrieve":
            return self.list_retrieve(expr, receiver)
        if info.op == "get_ngh":
            return self.neighbours(receiver, self.vertex_arg(expr.args[0]))
        if info.op in ("add_vertex", "list_insert"):
            op_class = {"add_vertex": graph.AddVertexOp, "list_insert": graph.ListInsertOp}[
                info.op
            ]
            argument = expr.args[0]
            value = self.vertex_arg(argument) if info.op == "add_vertex" else self.expr(argument)
            self.emit(op_class(receiver, value))
            return None
        if info.op == "vertex_count":
            return self.value(graph.VertexSetSizeOp(self.value(graph.GetVerticesOp(receiver))))
        unary_ops: dict[str, Callable[[SSAValue], Operation]] = {
            "get_vertices": graph.GetVerticesOp,
            "transpose": graph.TransposeOp,
            "vertexset_size": graph.VertexSetSizeOp,
            "pq_dequeue": graph.DequeueReadySetOp,
            "pq_finished": graph.PriorityQueueFinishedOp,
            "pq_current_priority": graph.GetCurrentPriorityOp,
        }
        return self.value(unary_ops[info.op](receiver))

    def neighbours(self, edges: SSAValue, vertex: SSAValue) -> SSAValue:
        """`edges.getNgh(v)`: a one-vertex frontier `{v}` traversed by an `apply`
        of an edge function returning true on every edge, then freed. Such an
        apply gives each destination once (its output is always deduplicated),
        so the result is a set whatever edges the edgeset repeats; an id outside
        the graph is caught as `addVertex`'s is (`--check-bounds`)."""
        source = self.value(graph.VertexSetNewOp(self.constant(0, INT)))
        self.emit(graph.AddVertexOp(source, vertex))
        apply = graph.EdgeSetApplyOp(
            edges, graph.ApplyKind.APPLY, self.every_edge_function(), frontier=source, returns_set=True
        )
        self.emit(apply)
        self.emit(graph.DeleteOp(source))
        return apply.results[0]

    def every_edge_function(self) -> str:
        """The name of `func @getNgh_edge(src, dst) -> i1 { true }` (with a
        counter where a function or global has the name), built on first use."""
        if self.every_edge is None:
            taken = {*self.sema.functions, *(symbol.global_name for symbol in self.sema.globals)}
            taken.update(capture_vector(owner, capture.name) for owner, capture in self.captures())
            name, count = "getNgh_edge", 1
            while name in taken:
                name, count = f"getNgh_edge{count}", count + 1
            vertex = graph.VertexType()
            block = Block(arg_types=[vertex, vertex])
            block.args[0].name_hint, block.args[1].name_hint = "src", "dst"
            true = self.stamp(arith.ConstantOp(IntegerAttr(1, i1)))
            block.add_ops([true, self.stamp(func.ReturnOp(true.results[0]))])
            function = func.FuncOp(name, ([vertex, vertex], [i1]), Region(block))
            self.every_edge = self.stamp(function)
        return self.every_edge.sym_name.data

    def vector_reduction(self, expr: ast.MethodCall, kind: graph.ReduceKind) -> SSAValue:
        """`v.sum()` / `v.max()` / `v.min()` (`graph.vector_reduce`)."""
        assert isinstance(expr.receiver, ast.Name) and expr.ty is not None
        kind = unsigned_kind(kind, expr.ty)
        return self.value(graph.VectorReduceOp(kind, vector_name(expr.receiver), ir_type(expr.ty)))

    def list_retrieve(self, expr: ast.MethodCall, stack: SSAValue) -> SSAValue | None:
        """`list.pop()` (a new set) or `list.retrieve(set)`: the popped set becomes
        `set`'s new value, as if assigned."""
        if not expr.args:
            return self.value(graph.ListRetrieveOp(stack))
        target = expr.args[0]
        assert isinstance(target, ast.Name) and target.symbol is not None
        popped = self.value(graph.ListRetrieveOp(stack, self.expr(target)))
        if target.symbol.is_global:
            self.emit(graph.GlobalStoreOp(popped, target.symbol.global_name))
        else:
            popped.name_hint = target.symbol.name
            self.env[target.symbol] = popped
        return None

    def update_priority(self, expr: ast.MethodCall, op: str, queue: SSAValue) -> SSAValue:
        """`pq.updatePriorityMin(v, old, new)` (or Max)."""
        queue_type = queue.type
        assert isinstance(queue_type, graph.PriorityQueueType)
        assert isinstance(expr.receiver.ty, PriorityQueueTy)
        priority = expr.receiver.ty.priority
        kind = graph.ReduceKind.MIN if op == "pq_update_min" else graph.ReduceKind.MAX
        vertex = self.vertex_arg(expr.args[0])
        old = self.expr_as(expr.args[1], priority)
        new = self.expr_as(expr.args[2], priority)
        return self.value(graph.UpdatePriorityOp(kind, queue, vertex, old, new))

    def update_priority_sum(self, expr: ast.MethodCall, queue: SSAValue) -> SSAValue:
        """`pq.updatePrioritySum(v, diff, threshold)`: the change and the threshold
        in the queue's priority type (an int change sign-extends, so -1 lowers a
        64-bit priority by one)."""
        assert isinstance(expr.receiver.ty, PriorityQueueTy)
        priority = expr.receiver.ty.priority
        vertex = self.vertex_arg(expr.args[0])
        diff = self.expr_as(expr.args[1], priority)
        threshold = self.expr_as(expr.args[2], priority)
        return self.value(graph.UpdatePrioritySumOp(queue, vertex, diff, threshold))

    def edge_apply(self, info: EdgeApplyInfo) -> SSAValue | None:
        """`graph.edgeset_apply`, with the statement's label and schedule."""
        edges = self.expr(info.edges)
        frontier = self.expr(info.frontier) if info.frontier is not None else None
        op = graph.EdgeSetApplyOp(
            edges,
            APPLY_KINDS[info.kind],
            info.udf,
            frontier=frontier,
            to_filter=info.to_filter,
            src_filter=info.src_filter,
            dst_filter=info.dst_filter,
            tracked=info.tracked,
            dedup=info.dedup,
            label=self.stmt_label,
            schedule=self.stmt_schedule,
            returns_set=info.returns_set,
        )
        self.emit(op)
        return op.results[0] if op.results else None


def build_module(program: ast.Program, filename: str, strict_schedule: bool = False) -> ModuleOp:
    """Checks `program`, attaches its schedules and builds its graph-dialect module.

    Raises `SourceError` for errors in the program or its schedule section;
    warnings go to stderr (schedule warnings are errors with `strict_schedule`).
    """
    program = main_program(program, filename)
    sema = check_program(program, filename)
    check_deletes(program, filename)
    warnings = Warnings(filename, strict_schedule)
    for pos, message in sema.conversions:
        warnings.warning(pos, message)
    bindings = resolve_schedules(program, sema, filename, warnings)
    check_fused_breaks(program, bindings, filename)
    module = IRGen(program, sema, bindings, filename).build()
    try:
        verify_module(module)
    except VerifyException as error:
        raise UserError(
            f"{filename}: error: internal frontend error, the generated IR does not verify: {error}"
        ) from None
    return module
