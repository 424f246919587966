"""Function bodies and their statements, with the label paths (`s0:s1`) the
schedule section refers to."""

from __future__ import annotations

from gir.frontend import ast
from gir.frontend.sema.base import CheckerBase
from gir.frontend.sema.symbols import FuncInfo, Symbol, SymbolKind
from gir.frontend.sema.types import (
    is_integer,
    BOOL,
    INT,
    VERTEXSET,
    PriorityQueueTy,
    ScalarTy,
    NumberListTy,
    StringTy,
    VectorTy,
    VertexSetTy,
    VertexTy,
    VoidTy,
    is_assignable,
)


class StatementChecks(CheckerBase):
    """Checks functions and statements."""

    def check_function(self, function: FuncInfo) -> None:
        """A function body, with its parameters and output in scope."""
        self.current = function
        self.scopes = [{}]
        for param in [*function.captures, *function.params]:
            self.declare(param)
        self.scopes[-1].update(function.bound)
        if function.output is not None:
            self.declare(function.output)
        self.check_body(function.decl.body, parent_label=None)
        self.current = None

    def check_body(self, body: list[ast.Stmt], parent_label: str | None) -> None:
        """A statement list in its own scope; `parent_label` is the path of the
        nearest labelled enclosing statement."""

        def run() -> None:
            for index, stmt in enumerate(body):
                body[index] = stmt = atomic_add_as_reduction(stmt)
                self.check_stmt(stmt, parent_label)

        self.in_scope(run)

    def check_stmt(self, stmt: ast.Stmt, parent_label: str | None) -> None:
        """One statement (and the ones nested in it)."""
        label = self.record_label(stmt, parent_label)
        if isinstance(stmt, ast.VarDecl):
            self.check_var(stmt)
        elif isinstance(stmt, ast.Assign):
            self.check_assign(stmt)
        elif isinstance(stmt, ast.If):
            stmt.cond = self.check_condition(stmt.cond, "if")
            self.check_body(stmt.then_body, label)
            if stmt.else_body is not None:
                self.check_body(stmt.else_body, label)
        elif isinstance(stmt, ast.While):
            stmt.cond = self.check_condition(stmt.cond, "while")
            self.in_loop(lambda: self.check_body(stmt.body, label))
        elif isinstance(stmt, ast.For):
            self.in_loop(lambda: self.check_for(stmt, label))
        elif isinstance(stmt, ast.Print):
            self.check_print(stmt)
        elif isinstance(stmt, ast.Delete):
            self.check_delete(stmt)
        elif isinstance(stmt, ast.ExprStmt):
            self.check_expr_stmt(stmt)
        elif isinstance(stmt, ast.Break) and self.loop_depth == 0:
            raise self.error(stmt.pos, "'break' outside a while or for loop")

    def record_label(self, stmt: ast.Stmt, parent_label: str | None) -> str | None:
        """The label path of `stmt` (`s0:s1`), or the enclosing one if unlabelled."""
        if stmt.label is None:
            return parent_label
        path = stmt.label if parent_label is None else f"{parent_label}:{stmt.label}"
        first = self.label_stmts.get(path)
        if first is not None and self.current is not None and self.current.bound:
            if first.label_pos == stmt.label_pos:
                # one statement of a function over vectors, in a second
                # specialization: the same label, so the same schedule
                self.labels[stmt] = path
                self.label_copies[stmt] = first
                return path
        if path in self.label_stmts:
            previous = self.label_stmts[path].label_pos
            raise self.error(
                stmt.label_pos or stmt.pos, f"label '{path}' is already used at {previous}"
            )
        self.labels[stmt] = path
        self.label_stmts[path] = stmt
        return path

    def check_var(self, stmt: ast.VarDecl) -> None:
        """`var x : T = e;` (scalars, vertexsets and vectors may leave out `= e`:
        zero, or an empty vertexset, as in GraphIt). A local vector
        (`var level : vector{Vertex}(int) = -1;`) is held in a global of its
        own (`Symbol.storage`), initialized where the declaration runs."""
        if isinstance(stmt.type, ast.VectorTypeExpr):
            ty = self.resolve_type(stmt.type, allow_vector=True)
            if stmt.init is not None:
                stmt.init = self.check_initializer(stmt.init, ty, stmt.name)
            assert self.current is not None
            storage = self.local_vector_storage(stmt.name)
            stmt.symbol = Symbol(stmt.name, ty, SymbolKind.LOCAL, stmt.name_pos, storage)
            self.declare(stmt.symbol)
            self.local_vectors.append((self.current.name, stmt.symbol))
            return
        if stmt.type is not None:
            ty = self.resolve_type(stmt.type, allow_string=self.in_main())
            if stmt.init is not None:
                stmt.init = self.check_initializer(stmt.init, ty, stmt.name)
            elif not isinstance(ty, ScalarTy | VertexSetTy):
                raise self.error(
                    stmt.name_pos, f"variable '{stmt.name}' of type {ty} needs an initial value"
                )
        else:
            assert stmt.init is not None
            if isinstance(stmt.init, ast.Load):
                raise self.error(stmt.init.pos, "give the edgeset's type when loading it")
            ty = self.check_expr(stmt.init)
            if isinstance(ty, VoidTy) or (isinstance(ty, StringTy | NumberListTy) and not self.in_main()):
                raise self.error(stmt.init.pos, f"cannot initialize '{stmt.name}' with {ty}")
        stmt.symbol = Symbol(stmt.name, ty, SymbolKind.LOCAL, stmt.name_pos)
        self.declare(stmt.symbol)

    def in_main(self) -> bool:
        """Whether the statements checked now are `main`'s, which runs on the host
        only (where strings may live)."""
        return self.current is not None and self.current.name == "main"

    def check_assign(self, stmt: ast.Assign) -> None:
        """`x = e;`, `a[i] = e;`, `a[i] min= e;`, `x += e;`, ..."""
        if isinstance(stmt.target, ast.Index):
            self.check_element_assign(stmt, stmt.target)
            return
        assert isinstance(stmt.target, ast.Name)
        symbol = self.resolve_name(stmt.target)
        stmt.target.ty = symbol.ty
        if symbol.kind in (SymbolKind.LOOP, SymbolKind.CAPTURE):
            what = "loop variable" if symbol.kind == SymbolKind.LOOP else "captured value"
            raise self.error(stmt.target.pos, f"cannot assign to {what} '{symbol.name}'")
        if isinstance(symbol.ty, VectorTy):
            if stmt.op != "=":
                raise self.error(stmt.op_pos, f"'{stmt.op}' does not apply to a whole vector")
            self.check_vector_value(stmt.value, symbol.ty, symbol.name)
            return
        if stmt.op != "=" and not (isinstance(symbol.ty, ScalarTy) and symbol.ty.is_numeric):
            raise self.error(
                stmt.op_pos, f"'{stmt.op}' needs a numeric variable, '{symbol.name}' is {symbol.ty}"
            )
        stmt.value = self.check_initializer(stmt.value, symbol.ty, symbol.name)

    def check_element_assign(self, stmt: ast.Assign, target: ast.Index) -> None:
        """An assignment or reduction to a vector element."""
        elem = self.check_expr(target)
        value = self.check_expr(stmt.value)
        stored = self.integer_as_bool(stmt.value, value, elem)
        if value == VERTEXSET or not self.storable(stored, stored.ty or value, elem):
            raise self.error(stmt.value.pos, f"cannot assign {value} to an element of type {elem}")
        if stmt.op == "-=":
            raise self.error(
                stmt.op_pos,
                "'-=' is not supported on vector elements (use '+=' with a negated value)",
            )
        if stmt.op != "=" and elem == BOOL:
            raise self.error(stmt.op_pos, f"'{stmt.op}' does not apply to bool elements")
        stmt.value = stored

    def check_condition(self, cond: ast.Expr, what: str) -> ast.Expr:
        """An `if` or `while` condition: a bool, or an integer that is true when
        it is not zero, as in C++ (GraphIt's `while (1) ... break; end`), which
        becomes `cond != 0`."""
        ty = self.check_expr(cond)
        if is_integer(ty):
            nonzero = ast.Binary(cond.pos, "!=", cond, ast.IntLit(cond.pos, 0))
            self.check_expr(nonzero)
            return nonzero
        if ty != BOOL:
            raise self.error(cond.pos, f"{what} condition must be bool or an integer, found {ty}")
        return cond

    def check_for(self, stmt: ast.For, label: str | None) -> None:
        """`for i in a:b ... end` with int bounds."""
        for bound in (stmt.start, stmt.stop):
            ty = self.check_count(bound)
            self.check_literal_fits(bound, INT)
            if not is_assignable(ty, INT) or ty == VERTEXSET:
                raise self.error(bound.pos, f"for loop bounds must be int, found {ty}")
        stmt.symbol = Symbol(stmt.var, INT, SymbolKind.LOOP, stmt.var_pos)

        def run() -> None:
            assert stmt.symbol is not None
            self.declare(stmt.symbol)
            for nested in stmt.body:
                self.check_stmt(nested, label)

        self.in_scope(run)

    def check_print(self, stmt: ast.Print) -> None:
        """`print e;` of a scalar, a vertex or a string literal."""
        ty = self.check_count(stmt.value)
        if not isinstance(ty, ScalarTy | StringTy | VertexTy):
            raise self.error(stmt.value.pos, f"cannot print a value of type {ty}")

    def check_delete(self, stmt: ast.Delete) -> None:
        """`delete x;` of a vertexset, a priority queue or a vector. A vector
        keeps its storage (a `graph.global`, allocated once), so its delete only
        ends its use: reading it afterwards is an error (`gir.frontend.deletes`)."""
        if self.names_vector(stmt.value):
            self.vector_of(stmt.value, "the deleted value")
            return
        ty = self.check_expr(stmt.value)
        if not isinstance(ty, VertexSetTy | PriorityQueueTy):
            raise self.error(
                stmt.value.pos, f"can only delete a vertexset, priority queue or vector, not {ty}"
            )

    def check_expr_stmt(self, stmt: ast.ExprStmt) -> None:
        """An expression statement: a call or method call."""
        if not isinstance(stmt.expr, ast.Call | ast.MethodCall):
            raise self.error(stmt.expr.pos, "expected a call or an assignment")
        self.check_expr(stmt.expr)


def atomic_add_as_reduction(stmt: ast.Stmt) -> ast.Stmt:
    """GraphIt's `atomicAdd(vector, index, value);` is `vector[index] += value;`:
    gir makes a reduction atomic wherever other threads may add to the same
    element (`graph-insert-atomics`). Any other statement is returned as is."""
    call = stmt.expr if isinstance(stmt, ast.ExprStmt) else None
    if not (isinstance(call, ast.Call) and call.name == "atomicAdd" and len(call.args) == 3):
        return stmt
    vector, index, value = call.args
    element = ast.Index(vector.pos, vector, index)
    return ast.Assign(stmt.pos, element, "+=", call.pos, value, label=stmt.label, label_pos=stmt.label_pos)
