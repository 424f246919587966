"""The syntax tree of a GraphIt program, as the parser builds it.

Every node carries the `Pos` (1-based line and column) where it starts, which is
where errors about it are reported. Nodes compare by identity (`eq=False`) so that
they can be dictionary keys. A few fields are filled in by semantic analysis
(`sema`) rather than by the parser: expression types (`Expr.ty`), the symbol a
name refers to, the common operand type of a binary operator, and what a call or
method call resolved to. They are declared with `init=False`.

`elif` chains are parsed into nested `If` statements in the `else` branch.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gir.frontend.sema import Symbol, Ty


@dataclass(frozen=True)
class Pos:
    """A 1-based source position."""

    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.line}:{self.col}"


# ---------------------------------------------------------------------------
# Type expressions (as written; sema resolves them to `sema.Ty`)
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class TypeExpr:
    """A type as written in the source."""

    pos: Pos


@dataclass(eq=False)
class ScalarTypeExpr(TypeExpr):
    """`int`, `uint`, `int64`, `uint_64`, `float`, `double`, `bool` or `string`."""

    name: str


@dataclass(eq=False)
class ElementTypeExpr(TypeExpr):
    """An element name used as a type (`Vertex`)."""

    name: str


@dataclass(eq=False)
class VertexSetTypeExpr(TypeExpr):
    """`vertexset{Vertex}`."""

    element: str


@dataclass(eq=False)
class EdgeSetTypeExpr(TypeExpr):
    """`edgeset{Edge}(Vertex, Vertex[, weight])`."""

    element: str
    endpoints: list[str]
    weight: TypeExpr | None


@dataclass(eq=False)
class VectorTypeExpr(TypeExpr):
    """`vector{Vertex}(T)` (per vertex, `size` None) or `vector[N](T)`; `T` may
    itself be a fixed-size `vector[K](T)` (`vector{Vertex}(vector[20](float))`).
    A size written as a name (`vector[K](float)`) has `size` None and
    `size_name` K: sema requires a constant."""

    element: str | None
    size: int | None
    value: TypeExpr
    size_name: str | None = None
    size_pos: Pos | None = None


@dataclass(eq=False)
class PriorityQueueTypeExpr(TypeExpr):
    """`priority_queue{Vertex}(T)`."""

    element: str
    priority: TypeExpr


@dataclass(eq=False)
class ListTypeExpr(TypeExpr):
    """`list{vertexset{Vertex}}`."""

    item: TypeExpr


# ---------------------------------------------------------------------------
# Expressions
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class Expr:
    """An expression; `ty` is its type once sema has checked it."""

    pos: Pos
    ty: Ty | None = field(default=None, init=False, repr=False)


@dataclass(eq=False)
class IntLit(Expr):
    """An integer literal."""

    value: int


@dataclass(eq=False)
class FloatLit(Expr):
    """A floating-point literal."""

    value: float


@dataclass(eq=False)
class BoolLit(Expr):
    """`true` or `false`."""

    value: bool


@dataclass(eq=False)
class StringLit(Expr):
    """A string literal (only `print` and `load` take one)."""

    value: str


@dataclass(eq=False)
class Name(Expr):
    """A use of a variable, constant or function name."""

    name: str
    symbol: Symbol | None = field(default=None, init=False, repr=False)


@dataclass(eq=False)
class Argv(Expr):
    """`argv[N]`: a file name inside `load(...)`, an int elsewhere."""

    index: int


@dataclass(eq=False)
class Index(Expr):
    """`base[index]`: an element of a vector; `v[i][j]` (an `Index` of an
    `Index`) is lane `j` of element `i` of a vector of fixed-size vectors."""

    base: Expr
    index: Expr


@dataclass(eq=False)
class VectorLit(Expr):
    """`{a, b, ...}`: the values of a fixed-size vector, in order."""

    items: list[Expr]


@dataclass(eq=False)
class Functor(Expr):
    """`f[a, b]` where an apply takes a function: GraphIt's functor, the function
    `f` with values for its captures. A one-value `f[a]` is parsed as an `Index`;
    sema tells the two apart by what `f` names."""

    name: str
    captures: list[Expr]


@dataclass(eq=False)
class Call(Expr):
    """`name(args)`: a call of a user function or a builtin (`atoi`, the math
    functions `fabs` `exp` `log` `log1p` `sqrt` `fmax` `fmin`, `startTimer`,
    `stopTimer`, `compare_and_swap`). `target` is the callee's
    `sema.FuncInfo`, or the builtin's name."""

    name: str
    args: list[Expr]
    captures: list[Expr] = field(default_factory=list)
    """The values of a functor called as a function, `f[a, b](args)` (empty for `f(args)`)."""
    target: Any = field(default=None, init=False, repr=False)
    intersection: str | None = field(default=None, init=False, repr=False)
    """For `intersectNeighbor`: the intersection method its statement's
    `program->configIntersection` chose (None: the default, `merge`)."""
    on_host: bool = field(default=False, init=False, repr=False)
    """For a call of an `extern func`: sema found it in host code (`main` or a
    function `main` calls), so the user's host implementation runs it."""


@dataclass(eq=False)
class MethodCall(Expr):
    """`receiver.method(args)`. `method_pos` is where the method name is; sema
    stores what the call means in `info` (e.g. an `EdgeApplyInfo`)."""

    receiver: Expr
    method: str
    method_pos: Pos
    args: list[Expr]
    info: Any = field(default=None, init=False, repr=False)


@dataclass(eq=False)
class Unary(Expr):
    """`-x` or `not x`."""

    op: str
    operand: Expr


@dataclass(eq=False)
class Binary(Expr):
    """`left op right`; `operand_ty` is the type both sides are converted to."""

    op: str
    left: Expr
    right: Expr
    operand_ty: Ty | None = field(default=None, init=False, repr=False)


@dataclass(eq=False)
class New(Expr):
    """`new T(args)`: `new vertexset{Vertex}(n)`, `new list{...}()`, and
    `new priority_queue{Vertex}(int)(flags..., start)` (the `(int)` is part of T)."""

    type: TypeExpr
    args: list[Expr]


@dataclass(eq=False)
class Load(Expr):
    """`load(argv[N])` or `load("file")`: reads the graph."""

    source: Expr


# ---------------------------------------------------------------------------
# Statements
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class Stmt:
    """A statement, optionally labelled `#label#` (for schedules)."""

    pos: Pos
    label: str | None = field(default=None, kw_only=True)
    label_pos: Pos | None = field(default=None, kw_only=True)


@dataclass(eq=False)
class VarDecl(Stmt):
    """`var name : T = init;` (type or initializer may be left out)."""

    name: str
    name_pos: Pos
    type: TypeExpr | None
    init: Expr | None
    symbol: Symbol | None = field(default=None, init=False, repr=False)


@dataclass(eq=False)
class Assign(Stmt):
    """`target op value;` with op one of `=`, `min=`, `max=`, `+=`, `-=`."""

    target: Expr
    op: str
    op_pos: Pos
    value: Expr


@dataclass(eq=False)
class If(Stmt):
    """`if cond ... [elif ...] [else ...] end`; `elif` is a nested `If` in
    `else_body`."""

    cond: Expr
    then_body: list[Stmt]
    else_body: list[Stmt] | None


@dataclass(eq=False)
class While(Stmt):
    """`while cond ... end`."""

    cond: Expr
    body: list[Stmt]


@dataclass(eq=False)
class For(Stmt):
    """`for var in start:stop ... end` (stop exclusive), or GraphIt's
    `par_for` (`parallel`), whose iterations the program promises are
    independent: gir runs them one after another, which is one of the orders a
    parallel loop may take."""

    var: str
    var_pos: Pos
    start: Expr
    stop: Expr
    body: list[Stmt]
    parallel: bool = False
    symbol: Symbol | None = field(default=None, init=False, repr=False)


@dataclass(eq=False)
class Print(Stmt):
    """`print value;` (a scalar or a string literal)."""

    value: Expr


@dataclass(eq=False)
class Delete(Stmt):
    """`delete value;`."""

    value: Expr


@dataclass(eq=False)
class ExprStmt(Stmt):
    """An expression evaluated for its effect (a call or method call)."""

    expr: Expr


@dataclass(eq=False)
class Break(Stmt):
    """`break;`: leaves the innermost enclosing `while` or `for`."""


# ---------------------------------------------------------------------------
# Declarations and the schedule section
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class ElementDecl:
    """`element Name end`."""

    pos: Pos
    name: str


@dataclass(eq=False)
class ConstDecl:
    """A program-level `const name : T [= init];`."""

    pos: Pos
    name: str
    name_pos: Pos
    type: TypeExpr
    init: Expr | None
    symbol: Symbol | None = field(default=None, init=False, repr=False)
    supplied: bool = field(default=False, kw_only=True)
    """Whether the caller gives the vector's values when the run starts (an
    export's vector parameter, or state an earlier export call left: see
    `gir.frontend.exports`): it is bound, but not filled."""


@dataclass(eq=False)
class Param:
    """A function parameter, or a function's named output."""

    pos: Pos
    name: str
    type: TypeExpr
    symbol: Symbol | None = field(default=None, init=False, repr=False)


@dataclass(eq=False)
class FuncDecl:
    """`func name[captures](params) [-> output : T] body end` (the captures of a
    functor are optional)."""

    pos: Pos
    name: str
    params: list[Param]
    output: Param | None
    body: list[Stmt]
    exported: bool = field(default=False, kw_only=True)
    """Whether it is an `export func` (an entry point called from Python)."""
    captures: list[Param] = field(default_factory=list)
    outputs: list[Param] = field(default_factory=list, kw_only=True)
    """Every named output in declaration order: `[output]` for `-> name : T`,
    several for GraphIt's `-> (a : T, b : U)`, which only an export may declare
    (`output` is then None: see `gir.frontend.exports`)."""
    extern: bool = field(default=False, kw_only=True)
    """Whether it is an `extern func` declaration (no body: the user's device
    code, given to gir-run/gir-translate with `--extern FILE`, implements it)."""


@dataclass(eq=False)
class SchedArg:
    """An argument in the schedule section: an identifier (an option value or a
    schedule name), a string, an integer, a float, or a `{a, b}` list of them
    (kind "list", as GraphIt's CPU `fuseFields({...})` takes)."""

    pos: Pos
    kind: str
    value: str | int | float | list[SchedArg]


@dataclass(eq=False)
class SchedDecl:
    """`SimpleGPUSchedule s;`, `SimpleGPUSchedule s2 = s1;` or
    `HybridGPUSchedule h (args);`."""

    pos: Pos
    type_name: str
    name: str
    name_pos: Pos
    copy_from: SchedArg | None
    args: list[SchedArg] | None


@dataclass(eq=False)
class SchedConfig:
    """`s.configX(args);`."""

    pos: Pos
    target: str
    method: str
    method_pos: Pos
    args: list[SchedArg]


@dataclass(eq=False)
class SchedProgramCall:
    """`program->method(args);` (only `applyGPUSchedule` is supported)."""

    pos: Pos
    method: str
    method_pos: Pos
    args: list[SchedArg]


SchedStmt = SchedDecl | SchedConfig | SchedProgramCall
Decl = ElementDecl | ConstDecl | FuncDecl


@dataclass(eq=False)
class Program:
    """A whole `.gt` file: declarations in source order and the schedule section."""

    decls: list[Decl]
    schedule: list[SchedStmt]

    @property
    def functions(self) -> list[FuncDecl]:
        """The program's functions, in source order."""
        return [d for d in self.decls if isinstance(d, FuncDecl)]

    @property
    def consts(self) -> list[ConstDecl]:
        """The program-level constants, in source order."""
        return [d for d in self.decls if isinstance(d, ConstDecl)]


# ---------------------------------------------------------------------------
# Traversal helpers
# ---------------------------------------------------------------------------


def child_bodies(stmt: Stmt) -> list[list[Stmt]]:
    """The statement lists nested directly in `stmt`."""
    if isinstance(stmt, If):
        return [stmt.then_body] + ([stmt.else_body] if stmt.else_body is not None else [])
    if isinstance(stmt, While | For):
        return [stmt.body]
    return []


def own_exprs(stmt: Stmt) -> list[Expr]:
    """The expressions of `stmt` itself (not of nested statements)."""
    if isinstance(stmt, VarDecl):
        return [stmt.init] if stmt.init is not None else []
    if isinstance(stmt, Assign):
        return [stmt.target, stmt.value]
    if isinstance(stmt, If | While):
        return [stmt.cond]
    if isinstance(stmt, For):
        return [stmt.start, stmt.stop]
    if isinstance(stmt, Print | Delete):
        return [stmt.value]
    if isinstance(stmt, ExprStmt):
        return [stmt.expr]
    return []


def sub_exprs(expr: Expr) -> list[Expr]:
    """The direct subexpressions of `expr`."""
    if isinstance(expr, Index):
        return [expr.base, expr.index]
    if isinstance(expr, VectorLit):
        return list(expr.items)
    if isinstance(expr, Functor):
        return list(expr.captures)
    if isinstance(expr, Call):
        return [*expr.captures, *expr.args]
    if isinstance(expr, MethodCall):
        return [expr.receiver, *expr.args]
    if isinstance(expr, Unary):
        return [expr.operand]
    if isinstance(expr, Binary):
        return [expr.left, expr.right]
    if isinstance(expr, New):
        return list(expr.args)
    if isinstance(expr, Load):
        return [expr.source]
    return []


def expr_depth(expr: Expr) -> int:
    """The number of nodes on the longest path from `expr` down (without recursion:
    it is what bounds the recursion of later walks)."""
    deepest = 0
    stack = [(expr, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((sub, depth + 1) for sub in sub_exprs(node))
    return deepest


def walk_expr(expr: Expr) -> Iterator[Expr]:
    """`expr` and all its subexpressions, outermost first."""
    yield expr
    for sub in sub_exprs(expr):
        yield from walk_expr(sub)


def loop_breaks(body: list[Stmt]) -> list[Break]:
    """The `break`s in `body` that leave the loop `body` belongs to: those of
    nested `if`s, not those of nested loops."""
    found: list[Break] = []
    for stmt in body:
        if isinstance(stmt, Break):
            found.append(stmt)
        elif isinstance(stmt, If):
            found.extend(loop_breaks(stmt.then_body + (stmt.else_body or [])))
    return found


def walk_stmts(body: list[Stmt]) -> Iterator[Stmt]:
    """Every statement of `body`, nested ones included, in source order (with
    a stack of the bodies entered, not a generator a level: those would pass
    each statement up through every level it is nested in)."""
    entered: list[Iterator[Stmt]] = [iter(body)]
    while entered:
        stmt = next(entered[-1], None)
        if stmt is None:
            entered.pop()
            continue
        yield stmt
        entered.extend(iter(nested) for nested in reversed(child_bodies(stmt)))
