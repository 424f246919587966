"""What sema finds: the symbols names resolve to, functions' signatures, what
calls and method calls mean, and `SemaInfo`, what the rest of the frontend
needs; with the syntax-tree helpers these are built from."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.utils.str_enum import StrEnum

from gir.dialects.graph import ApplyKind
from gir.frontend import ast
from gir.frontend.ast import Pos
from gir.frontend.sema.types import VOID, Ty, VectorTy


class SymbolKind(StrEnum):
    """What declared a named value."""

    GLOBAL = "global"
    """A program-level `const`."""
    PARAM = "param"
    OUTPUT = "output"
    """A function's named output."""
    LOCAL = "local"
    """A `var` (and irgen's own locals, such as a loop's break flag)."""
    LOOP = "loop"
    """A `for` loop variable."""
    CAPTURE = "capture"
    """A functor's captured value (`func f[k : int](v : Vertex)`)."""


@dataclass(eq=False)
class Symbol:
    """A named value: a program-level `const`, a parameter, a function's output,
    a `var`, a `for` loop variable or a captured value (`kind`)."""

    name: str
    ty: Ty
    kind: SymbolKind
    pos: Pos
    storage: str | None = None
    """For a local vector (`var level : vector{Vertex}(int) = -1;` in a host
    function): the `graph.global` that holds it. GraphIt treats a local vector
    like a program-level one allocated at its declaration, so it is a global
    that the declaration (re)initializes each time it runs."""

    @property
    def is_global(self) -> bool:
        """Whether the value lives in an IR `graph.global`: a program-level
        constant, or a local vector."""
        return self.kind == SymbolKind.GLOBAL or self.storage is not None

    @property
    def global_name(self) -> str:
        """The `graph.global` that holds the value (`is_global` symbols only)."""
        return self.storage or self.name


@dataclass(eq=False)
class FuncInfo:
    """A function's signature and the global vectors its body writes directly."""

    name: str
    decl: ast.FuncDecl
    params: list[Symbol]
    output: Symbol | None
    writes: set[str] = field(default_factory=set)
    captures: list[Symbol] = field(default_factory=list)
    """A functor's captured values (`func f[k : int](v : Vertex)`): read-only
    in the body, given at each use as `f[value]`."""
    output_ignored: bool = False
    """The edge function of an `applyModified` declares a bool result its body
    never sets (GraphIt's closeness_centrality_weighted.gt): GraphIt ignores it,
    the output being the vertices whose tracked element changed, and gir builds
    the function without it."""
    bound: dict[str, Symbol] = field(default_factory=dict)
    """For a specialization (`sema.specialize`): each vector parameter or
    capture's name, bound to the vector the use passed."""

    @property
    def over_vectors(self) -> bool:
        """Whether a parameter or capture is a vector: the function is
        specialized per use and not built itself (an extern function takes
        its vectors as they are: a host call passes them)."""
        return not self.decl.extern and any(isinstance(s.ty, VectorTy) for s in [*self.params, *self.captures])

    @property
    def result(self) -> Ty:
        """The type a call gives."""
        return self.output.ty if self.output is not None else VOID

    def signature(self) -> str:
        """`(Vertex, Vertex) -> bool` as in messages."""
        params = ", ".join(str(p.ty) for p in self.params)
        return f"({params}) -> {self.result}"


@dataclass(eq=False)
class EdgeApplyInfo:
    """What an `edges[.from(f)][.to(g)]...apply*(udf, ...)` chain means."""

    edges: ast.Expr
    kind: ApplyKind
    udf: str
    frontier: ast.Expr | None = None
    to_filter: str | None = None
    src_filter: str | None = None
    dst_filter: str | None = None
    tracked: str | None = None
    dedup: bool = False
    returns_set: bool = False
    """An `apply` of a bool edge function: it gives the destinations it returned true for."""


@dataclass
class SemaInfo:
    """What the rest of the frontend needs from sema."""

    globals: list[Symbol]
    functions: dict[str, FuncInfo]
    labels: dict[ast.Stmt, str]
    label_stmts: dict[str, ast.Stmt]
    functor_uses: dict[ast.Expr, tuple[FuncInfo, list[ast.Expr]]] = field(default_factory=dict)
    """Each `f[values]` an apply takes: the functor it gives values to (a
    specialization where `f` captures vectors) and the scalar values it gives."""
    conversions: list[tuple[Pos, str]] = field(default_factory=list)
    """The implicit conversions that lose information, as (position, message):
    warnings, not errors, since GraphIt performs them."""
    relabels: list[Pos] = field(default_factory=list)
    """Each `edges.relabel()`: the program's graph is reordered."""
    label_copies: dict[ast.Stmt, ast.Stmt] = field(default_factory=dict)
    """Labelled statements of later specializations of a function over
    vectors, each with the statement its label path names (whose schedule it
    takes)."""

    def labelled(self, stmt: ast.Stmt) -> ast.Stmt:
        """The statement whose label path (and schedule) `stmt` has."""
        return self.label_copies.get(stmt, stmt)


def edge_applies(stmt: ast.Stmt) -> list[EdgeApplyInfo]:
    """The edgeset applies in `stmt`'s own expressions (after sema)."""
    return [
        sub.info
        for expr in ast.own_exprs(stmt)
        for sub in ast.walk_expr(expr)
        if isinstance(sub, ast.MethodCall) and isinstance(sub.info, EdgeApplyInfo)
    ]


def functor_parts(arg: ast.Expr) -> tuple[str | None, list[ast.Expr]]:
    """The function an apply's argument names and the values it captures: `f`,
    `f[a]` (parsed as an index) or `f[a, b]`; (None, []) for anything else."""
    if isinstance(arg, ast.Name):
        return arg.name, []
    if isinstance(arg, ast.Index) and isinstance(arg.base, ast.Name):
        return arg.base.name, [arg.index]
    if isinstance(arg, ast.Functor):
        return arg.name, list(arg.captures)
    return None, []


def capture_vector(function: str, capture: str) -> str:
    """The `vector[1]` global that carries a functor's captured value."""
    return f"{function}_{capture}_captured"


def literal_int(expr: ast.Expr) -> int | None:
    """The value of an int literal, possibly negated (`-1`), else None."""
    sign = 1
    while isinstance(expr, ast.Unary) and expr.op == "-":
        sign = -sign
        expr = expr.operand
    return sign * expr.value if isinstance(expr, ast.IntLit) else None


def vector_writes(body: list[ast.Stmt]) -> set[str]:
    """Names of vectors that `body` writes directly: element assignments and
    reductions, and `compare_and_swap`, `writeMin` and `writeMax` targets."""
    written: set[str] = set()
    for stmt in ast.walk_stmts(body):
        target = stmt.target if isinstance(stmt, ast.Assign) else None
        if isinstance(target, ast.Index) and (vector := indexed_vector(target)) is not None:
            written.add(vector.name)
        for expr in ast.own_exprs(stmt):
            for sub in ast.walk_expr(expr):
                if isinstance(sub, ast.Call) and sub.name == "compare_and_swap" and sub.args:
                    swapped = sub.args[0]
                    if isinstance(swapped, ast.Index) and (vector := indexed_vector(swapped)):
                        written.add(vector.name)
                if isinstance(sub, ast.Call) and sub.name in ("writeMin", "writeMax") and sub.args:
                    if isinstance(sub.args[0], ast.Name):
                        written.add(sub.args[0].name)
    return written


def indexed_vector(expr: ast.Index) -> ast.Name | None:
    """The vector an element access `v[i]` or lane access `v[i][j]` names."""
    base = expr.base.base if isinstance(expr.base, ast.Index) else expr.base
    return base if isinstance(base, ast.Name) else None
