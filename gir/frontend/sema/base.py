"""The state the checker's concerns share (`CheckerBase`): the program, what has
been found so far, the scopes, and the conversion checks every concern uses."""

from __future__ import annotations

from collections.abc import Callable

from gir.diagnostics import SourceError
from gir.frontend import ast
from gir.frontend.ast import Pos
from gir.frontend.sema.symbols import FuncInfo, Symbol, literal_int
from gir.frontend.sema.types import (
    BOOL,
    INT,
    VERTEX,
    ScalarTy,
    Ty,
    drops_fraction,
    is_assignable,
    is_integer,
)


class CheckerBase:
    """The state of one check of a program, its scopes and the checks every
    concern shares. `Checker` combines it with one mixin per concern
    (declarations, types, statements, expressions, calls, methods, edgeset
    applies); a mixin calls the others' checks through `self`."""

    def __init__(self, program: ast.Program, filename: str):
        self.program = program
        self.filename = filename
        self.elements: dict[str, ast.ElementDecl] = {}
        self.edge_elements: set[str] = set()
        self.globals: dict[str, Symbol] = {}
        self.functions: dict[str, FuncInfo] = {}
        self.scopes: list[dict[str, Symbol]] = []
        self.current: FuncInfo | None = None
        self.labels: dict[ast.Stmt, str] = {}
        self.label_stmts: dict[str, ast.Stmt] = {}
        self.loop_depth = 0
        self.conversions: list[tuple[Pos, str]] = []
        self.functor_uses: dict[ast.Expr, tuple[FuncInfo, list[ast.Expr]]] = {}
        self.specializations: dict[tuple[str, tuple[int, ...]], FuncInfo] = {}
        """Each function over vectors specialized, by name and the vectors bound."""
        self.pending_specializations: list[FuncInfo] = []
        self.label_copies: dict[ast.Stmt, ast.Stmt] = {}
        """Each labelled statement of a second or later specialization, with the
        first specialization's copy, which its label path names."""
        self.calls: dict[str, list[ast.Call]] = {}
        """The user-function calls in each function's body, by caller."""
        self.constant_ints: dict[str, int] = {}
        """Program-level integer consts initialized with a literal: the names a
        vector size may be given by (`vector[K](float)`)."""
        self.local_vectors: list[tuple[str, Symbol]] = []
        """Each local vector `var v : vector...`, with the function declaring it."""
        self.device_roots: set[str] = set()
        """The functions that applies and filters run (on the device)."""
        self.get_ngh_uses: list[tuple[str, Pos]] = []
        """Each `edges.getNgh(v)`, with the function it is in."""
        self.relabels: list[Pos] = []
        """Each `edges.relabel()`."""

    def error(self, pos: Pos, message: str) -> SourceError:
        """A `SourceError` at `pos`."""
        return SourceError(self.filename, pos.line, pos.col, message)

    def storable(self, value: ast.Expr, source: Ty, target: Ty) -> bool:
        """Whether `value` (of type `source`) may be stored as a `target`; a
        float stored as an integer is, with a warning at `value`. An integer
        literal must fit the target (`check_literal_fits`)."""
        self.check_literal_fits(value, target)
        if drops_fraction(source, target):
            self.conversions.append(
                (value.pos, f"implicit conversion from {source} to {target} drops the fraction")
            )
            return True
        return is_assignable(source, target)

    def integer_as_bool(self, value: ast.Expr, source: Ty, target: Ty) -> ast.Expr:
        """`value` as stored in a `target`: an integer stored in a bool becomes
        `value != 0`, C++'s conversion, which GraphIt's generated code relies on
        (`output = 0;` in a filter returning bool); any other value is itself.
        `value` has been checked (its type is `source`)."""
        if target != BOOL or not is_integer(source):
            return value
        nonzero = ast.Binary(value.pos, "!=", value, ast.IntLit(value.pos, 0))
        self.check_expr(nonzero)
        return nonzero

    def check_literal_fits(self, value: ast.Expr, target: Ty) -> None:
        """An integer literal (possibly negated) stored as an integer type must
        fit it: 18446744073709551615 only in a `uint_64`, 3000000000 not in an
        `int`. A negative literal in an unsigned type wraps as in C (`-1` is
        the largest uint), down to the signed type's least value."""
        number = literal_int(value)
        if number is None or not (is_integer(target) or target == VERTEX):
            return
        ty = INT if target == VERTEX else target
        assert isinstance(ty, ScalarTy)
        low = -(1 << (ty.width - 1))
        high = 1 << (ty.width if ty.is_unsigned else ty.width - 1)
        if low <= number < high:
            return
        hint = ""
        if number >= 1 << 63:
            hint = ": a literal above 2^63-1 is a uint_64, and only a uint_64 holds it"
        elif number < -(1 << 63):
            hint = ": it is below every 64-bit integer type"
        raise self.error(value.pos, f"integer literal {number} does not fit in {target}{hint}")

    # -- scopes --------------------------------------------------------------------

    def declare(self, symbol: Symbol) -> None:
        """Adds a local to the innermost scope; redefinition there is an error."""
        scope = self.scopes[-1]
        if symbol.name in scope:
            previous = scope[symbol.name].pos
            raise self.error(symbol.pos, f"'{symbol.name}' is already defined at {previous}")
        scope[symbol.name] = symbol

    def lookup(self, name: str) -> Symbol | None:
        """The local or global `name` refers to here."""
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return self.globals.get(name)

    def in_scope(self, body: Callable[[], None]) -> None:
        """Runs `body` with a fresh innermost scope."""
        self.scopes.append({})
        try:
            body()
        finally:
            self.scopes.pop()

    def in_loop(self, body: Callable[[], None]) -> None:
        """Runs `body` (a loop's checks) where `break` is allowed."""
        self.loop_depth += 1
        try:
            body()
        finally:
            self.loop_depth -= 1
