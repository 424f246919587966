"""Vertexsets, priority queues and vectors used after `delete`, on any path.

`check_deletes(functions, filename)` follows every function's statements in order,
after `sema` resolved the names. A `delete x;` marks `x` deleted until `x` is
assigned again; deleting or reading a deleted `x` is a `SourceError` naming where
it was deleted. An `if` joins its branches (deleted on either path counts) and a
loop is followed until the deleted set stops growing, so a `delete` that a later
iteration repeats is found too::

    while frontier.getVertexSetSize() != 0
        ...
        delete frontier;      % error: the next iteration reads 'frontier'
    end

On the device both would free or read a buffer twice (heap corruption on PoCL).
"""

from __future__ import annotations

from gir.diagnostics import SourceError
from gir.frontend import ast
from gir.frontend.ast import Pos
from gir.frontend.sema import Symbol

Deleted = dict[Symbol, Pos]
"""The symbols deleted on some path to here, with where (the first) delete is."""


class DeleteChecker:
    """Follows the deleted set through one function body."""

    def __init__(self, filename: str):
        self.filename = filename
        self.break_states: list[list[Deleted]] = []

    def error(self, pos: Pos, message: str) -> SourceError:
        """A `SourceError` at `pos`."""
        return SourceError(self.filename, pos.line, pos.col, message)

    def check_uses(self, exprs: list[ast.Expr], deleted: Deleted) -> None:
        """No expression of `exprs` reads a deleted symbol."""
        for expr in exprs:
            for sub in ast.walk_expr(expr):
                if isinstance(sub, ast.Name) and sub.symbol in deleted:
                    where = deleted[sub.symbol]
                    raise self.error(
                        sub.pos, f"'{sub.name}' is used after 'delete' at {where}"
                    )

    def body(self, stmts: list[ast.Stmt], deleted: Deleted) -> Deleted:
        """The deleted set after `stmts`, starting from `deleted`."""
        state = dict(deleted)
        for stmt in stmts:
            if isinstance(stmt, ast.Break):
                # the loop's exit sees this state; nothing after a break runs
                self.break_states[-1].append(state)
                return {}
            state = self.stmt(stmt, state)
        return state

    def stmt(self, stmt: ast.Stmt, deleted: Deleted) -> Deleted:
        """The deleted set after `stmt`."""
        if isinstance(stmt, ast.Delete):
            return self.delete(stmt, deleted)
        if isinstance(stmt, ast.Assign):
            exprs = [stmt.value] if isinstance(stmt.target, ast.Name) else ast.own_exprs(stmt)
            self.check_uses(exprs, deleted)
            if isinstance(stmt.target, ast.Name):
                return {s: p for s, p in deleted.items() if s is not stmt.target.symbol}
            return deleted
        self.check_uses(ast.own_exprs(stmt), deleted)
        if isinstance(stmt, ast.VarDecl):
            return {s: p for s, p in deleted.items() if s is not stmt.symbol}
        if isinstance(stmt, ast.If):
            then_state = self.body(stmt.then_body, deleted)
            else_state = self.body(stmt.else_body or [], deleted)
            return {**else_state, **then_state}
        if isinstance(stmt, ast.While | ast.For):
            return self.loop(stmt, deleted)
        return deleted

    def delete(self, stmt: ast.Delete, deleted: Deleted) -> Deleted:
        """`delete x;`: `x` must not be deleted already."""
        target = stmt.value
        if isinstance(target, ast.Name) and target.symbol is not None:
            if target.symbol in deleted:
                where = deleted[target.symbol]
                if where == stmt.pos:
                    message = (
                        f"'{target.name}' is deleted twice: the next iteration of the loop "
                        "deletes it again without assigning it first"
                    )
                else:
                    message = f"'{target.name}' is deleted twice: it may already be deleted at {where}"
                raise self.error(stmt.pos, message)
            return {**deleted, target.symbol: stmt.pos}
        self.check_uses([target], deleted)
        return deleted

    def loop(self, stmt: ast.While | ast.For, deleted: Deleted) -> Deleted:
        """A loop: its body runs again with what the previous iteration deleted;
        after it, what is deleted at its head or at one of its `break`s."""
        entry = dict(deleted)
        while True:
            self.break_states.append([])
            after_body = self.body(stmt.body, entry)
            at_breaks = self.break_states.pop()
            merged = {**after_body, **deleted}
            if merged.keys() == entry.keys():
                exits = [*at_breaks, entry]
                return {s: p for state in exits for s, p in state.items()}
            entry = merged
            if isinstance(stmt, ast.While):
                self.check_uses([stmt.cond], entry)


def check_deletes(functions: list[ast.FuncDecl], filename: str) -> None:
    """Raises a `SourceError` for the first deleted vertexset or queue that is
    deleted again or read on some path in the bodies of `functions` (see the
    module docstring)."""
    checker = DeleteChecker(filename)
    for decl in functions:
        if not decl.extern:
            checker.body(decl.body, {})
