"""Expressions: literals, names, vector accesses, operators, conversions, `load`
and `new`."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import f32, f64
from xdsl.ir import SSAValue

from gir.dialects import graph
from gir.frontend import ast
from gir.frontend.irgen.base import IRGenBase
from gir.frontend.irgen.locals import vector_name
from gir.frontend.irgen.values import (
    FLOAT_PREDICATES,
    INT_PREDICATES,
    LOGIC,
    SCALAR_IR,
    UINT_PREDICATES,
    arith_table,
    float_type,
    int_type,
    ir_type,
)
from gir.frontend.sema import (
    BOOL,
    DOUBLE,
    INT,
    STRING,
    VERTEX,
    VERTEXSET,
    EdgeSetTy,
    ListTy,
    NumberListTy,
    PriorityQueueTy,
    ScalarTy,
    Ty,
)


class ExpressionGen(IRGenBase):
    """Builds expressions."""

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
        if isinstance(expr, ast.Argv) and expr.ty == STRING:
            return self.value(graph.ArgvStringOp(expr.index))
        if isinstance(expr, ast.Argv):
            return self.value(graph.ArgvIntOp(expr.index))
        if isinstance(expr, ast.StringLit):
            return self.value(graph.StringConstantOp(expr.value))
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
        if isinstance(expr, ast.Argv) and ty == STRING:
            return self.value(graph.ArgvStringOp(expr.index))
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
        if ty == STRING:
            same = self.value(graph.StringEqOp(self.expr(expr.left), self.expr(expr.right)))
            if expr.op == "==":
                return same
            return self.value(arith.XOrIOp(same, self.constant(1, BOOL)))
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
        if isinstance(expr.ty, NumberListTy):
            return self.value(graph.NumberListNewOp(ir_type(expr.ty.element)))
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
