"""Statements without nested statements (declarations, assignments, `print`,
`delete`, calls), and the statement lists they stand in, `break` included."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.ir import SSAValue

from gir.dialects import graph
from gir.frontend import ast
from gir.frontend.irgen.base import IRGenBase
from gir.frontend.irgen.locals import set_name
from gir.frontend.irgen.values import REDUCE_KINDS, BinaryBuilder, arith_table, unsigned_kind
from gir.frontend.sema import BOOL, INT, INT64, STRING, UINT, VERTEX, ScalarTy, Ty, VectorTy


class StatementGen(IRGenBase):
    """Builds statement lists and simple statements."""

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
        binding = self.bindings.get(self.sema.labelled(stmt))
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
            if not isinstance(stmt.value.ty, VectorTy):  # a vector's global stays
                self.emit(graph.DeleteOp(self.expr(stmt.value)))
        elif isinstance(stmt, ast.ExprStmt):
            self.expr_or_none(stmt.expr)

    def print_stmt(self, stmt: ast.Print) -> None:
        """`print e;`: a string literal's text, a string value, or a scalar (vertices print their id)."""
        if isinstance(stmt.value, ast.StringLit):
            self.emit(graph.PrintOp(text=stmt.value.value))
            return
        if stmt.value.ty == STRING:
            self.emit(graph.PrintOp(self.expr(stmt.value)))
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
