"""What the syntax tree says about locals that IR building needs: which locals a
loop or `if` carries, whether a named output needs a default, and SSA names."""

from __future__ import annotations

from xdsl.ir import SSAValue

from gir.frontend import ast
from gir.frontend.sema import Symbol
from gir.frontend.sema.meanings import ListRetrieve


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
    if isinstance(info, ListRetrieve) and stmt.expr.args:
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
