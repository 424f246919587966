"""Name resolution and type checking of a GraphIt program, before IR is built.

`check_program` walks the syntax tree once, resolves every name to a `Symbol` (or
a function's `FuncInfo`), gives every expression its type (`Expr.ty`), and decides
what each call and method call means (`Call.target`, `MethodCall.info`, e.g. an
`EdgeApplyInfo` for an `edges.from(f).to(g).applyModified(h, v)` chain). It also
builds the label paths (`s0:s1`) that the schedule section refers to. Every user
error is a `SourceError` at the offending token, so that `irgen` can assume a
well-formed program.

GraphIt's implicit conversions are accepted: an int literal or value where a float
or double is expected, float <-> double, int <-> Vertex (vertex ids), and a
vertexset where an int is expected (its size: `var n : int = edges.getVertices();`).
`edges.getVertices()` is also the vertex count wherever GraphIt takes it as one: a
`for` bound, `print`, an arithmetic or comparison operand. `argv[N]` outside
`load(...)` is an int (GraphIt's `atoi(argv[N])`). An integer literal must fit
the integer type it is stored as (above 2^63-1 only a `uint_64` holds one).

A vector declared with `var` in a host function (`main` or one it calls) is
held in a global of its own (`Symbol.storage`), as GraphIt allocates a local
vector like a program-level one at its declaration.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gir.diagnostics import SourceError
from gir.dialects.gir_gpu import check_kernel_name
from gir.frontend import ast
from gir.frontend.ast import Pos

# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


class Ty:
    """A GraphIt type, as sema knows it."""


@dataclass(frozen=True)
class ScalarTy(Ty):
    """`int`, `uint`, `int64`, `uint_64`, `float`, `double` or `bool`."""

    kind: str

    def __str__(self) -> str:
        return self.kind

    @property
    def is_float(self) -> bool:
        """Whether this is `float` or `double`."""
        return self.kind in ("float", "double")

    @property
    def is_numeric(self) -> bool:
        """Whether arithmetic applies (the integers, float, double)."""
        return self.kind != "bool"

    @property
    def is_integer(self) -> bool:
        """Whether this is one of the integer types (not bool)."""
        return self.kind in INTEGER_WIDTHS

    @property
    def is_unsigned(self) -> bool:
        """Whether this is `uint` or `uint_64` (unsigned comparison, division,
        widening and conversion to float)."""
        return self.kind in ("uint", "uint_64")

    @property
    def width(self) -> int:
        """Bits of the value (1 for bool)."""
        return INTEGER_WIDTHS.get(self.kind, 64 if self.kind == "double" else 32 if self.kind == "float" else 1)


INTEGER_WIDTHS = {"int": 32, "uint": 32, "int64": 64, "uint_64": 64}
"""The integer types and their widths (the C types `int`, `unsigned int`,
`long long`, `unsigned long long`)."""
INT = ScalarTy("int")
UINT = ScalarTy("uint")
INT64 = ScalarTy("int64")
UINT64 = ScalarTy("uint_64")
FLOAT = ScalarTy("float")
DOUBLE = ScalarTy("double")
BOOL = ScalarTy("bool")


@dataclass(frozen=True)
class VertexTy(Ty):
    """A vertex (`Vertex`)."""

    def __str__(self) -> str:
        return "Vertex"


@dataclass(frozen=True)
class EdgeSetTy(Ty):
    """`edgeset{Edge}(Vertex,Vertex[,weight])`."""

    weight: ScalarTy | None = None

    def __str__(self) -> str:
        weight = f",{self.weight}" if self.weight is not None else ""
        return f"edgeset{{Edge}}(Vertex,Vertex{weight})"


@dataclass(frozen=True)
class VertexSetTy(Ty):
    """`vertexset{Vertex}`."""

    def __str__(self) -> str:
        return "vertexset{Vertex}"


@dataclass(frozen=True)
class VectorTy(Ty):
    """`vector{Vertex}(T)` (`size` None) or `vector[size](T)`; with `lanes`, each
    element is itself a `vector[lanes](T)` (`vector{Vertex}(vector[20](float))`),
    read and written one scalar at a time as `v[i][lane]`."""

    elem: ScalarTy
    size: int | None = None
    lanes: int | None = None

    def __str__(self) -> str:
        value = str(self.elem) if self.lanes is None else f"vector[{self.lanes}]({self.elem})"
        if self.size is None:
            return f"vector{{Vertex}}({value})"
        return f"vector[{self.size}]({value})"


@dataclass(frozen=True)
class PriorityQueueTy(Ty):
    """`priority_queue{Vertex}(T)`."""

    priority: ScalarTy

    def __str__(self) -> str:
        return f"priority_queue{{Vertex}}({self.priority})"


@dataclass(frozen=True)
class ListTy(Ty):
    """`list{vertexset{Vertex}}`."""

    def __str__(self) -> str:
        return "list{vertexset{Vertex}}"


@dataclass(frozen=True)
class StringTy(Ty):
    """A string literal's type (only `print` accepts one)."""

    def __str__(self) -> str:
        return "string"


@dataclass(frozen=True)
class VoidTy(Ty):
    """What calls of functions without output, and applies, give."""

    def __str__(self) -> str:
        return "nothing"


VERTEX = VertexTy()
VERTEXSET = VertexSetTy()
VOID = VoidTy()
STRING = StringTy()


def is_integer(ty: Ty) -> bool:
    """Whether `ty` is one of the integer types."""
    return isinstance(ty, ScalarTy) and ty.is_integer


def is_vertex_like(ty: Ty) -> bool:
    """Whether `ty` may name a vertex: a Vertex or an integer (its id)."""
    return ty == VERTEX or is_integer(ty)


def is_assignable(source: Ty, target: Ty) -> bool:
    """Whether a `source` value may be stored where a `target` is expected:
    between the integer types as C converts them, integers to floats."""
    if source == target:
        return True
    if isinstance(target, ScalarTy) and target.is_float:
        return isinstance(source, ScalarTy) and source.is_numeric
    if is_integer(target):
        return is_integer(source) or source == VERTEX or (target == INT and source == VERTEXSET)
    return target == VERTEX and is_integer(source)


def drops_fraction(source: Ty, target: Ty) -> bool:
    """Whether storing a `source` value as a `target` is GraphIt's implicit
    conversion of a float or double to an integer (truncating, as C does), which
    sema accepts with a warning."""
    return isinstance(source, ScalarTy) and source.is_float and is_integer(target)


def arithmetic_type(left: Ty, right: Ty) -> ScalarTy | None:
    """The type `left op right` computes in, for + - * / and comparisons; None if
    the operands do not mix. Vertices count as ints (their ids). Integers follow
    C's usual conversions: the wider type, and unsigned where widths are equal."""
    sides = [INT if side == VERTEX else side for side in (left, right)]
    if not all(isinstance(side, ScalarTy) and side.is_numeric for side in sides):
        return None
    for kind in (DOUBLE, FLOAT):
        if kind in sides:
            return kind
    scalars = [side for side in sides if isinstance(side, ScalarTy)]
    return max(scalars, key=lambda side: (side.width, side.is_unsigned))


# ---------------------------------------------------------------------------
# Symbols and analysis results
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class Symbol:
    """A named value: a program-level `const` (`kind` "global"), a parameter, a
    function's output, a `var`, or a `for` loop variable."""

    name: str
    ty: Ty
    kind: str
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
        return self.kind == "global" or self.storage is not None

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
    kind: str
    udf: str
    frontier: ast.Expr | None = None
    to_filter: str | None = None
    src_filter: str | None = None
    dst_filter: str | None = None
    tracked: str | None = None
    dedup: bool = False
    returns_set: bool = False
    """An `apply` of a bool edge function: it gives the destinations it returned true for."""


@dataclass(frozen=True)
class MethodInfo:
    """What a (non-edgeset-apply) method call means: `op` names the IR operation
    (`get_vertices`, `vertexset_apply`, `pq_update_min`, ...), `udf` the function
    argument where there is one."""

    op: str
    udf: str | None = None


@dataclass
class SemaInfo:
    """What the rest of the frontend needs from sema."""

    globals: list[Symbol]
    functions: dict[str, FuncInfo]
    labels: dict[ast.Stmt, str]
    label_stmts: dict[str, ast.Stmt]
    functor_uses: dict[ast.Expr, FuncInfo] = field(default_factory=dict)
    """Each `f[values]` an apply takes, and the functor it gives values to."""
    conversions: list[tuple[Pos, str]] = field(default_factory=list)
    """The implicit conversions that lose information, as (position, message):
    warnings, not errors, since GraphIt performs them."""


MAX_VECTOR_SIZE = 2**31 - 1
"""Most elements of a `vector[N]` (lanes included): device indices are 32-bit."""
VECTOR_REDUCTIONS = {"sum": "vector_sum", "max": "vector_max", "min": "vector_min"}
"""Whole-vector reduction methods and the `MethodInfo.op` each becomes."""
DEGREE_METHODS = {"getOutDegrees": INT, "getOutDegreesUint": UINT}
"""The edgeset methods that give every vertex's out-degree, and its element type."""
MATH_BUILTINS = {
    "fabs": 1, "exp": 1, "log": 1, "log1p": 1, "sqrt": 1, "fmax": 2, "fmin": 2,
}  # fmt: skip
"""C's math functions an expression may call, and how many arguments each takes:
they compute in the arguments' common float type (`float` for integers)."""
BUILTINS = ("startTimer", "stopTimer", "atoi", "compare_and_swap", *MATH_BUILTINS)
SCALAR_NAMES = {
    "int": INT, "uint": UINT, "int64": INT64, "uint_64": UINT64,
    "float": FLOAT, "double": DOUBLE, "bool": BOOL,
}  # fmt: skip
APPLY_METHODS = ("apply", "applyModified", "applyUpdatePriority")
CHAIN_METHODS = ("from", "to", "srcFilter", "dstFilter")
FILTER_LINKS = {
    "from": ("src_filter", "source filter"),
    "srcFilter": ("src_filter", "source filter"),
    "to": ("to_filter", "to filter"),
    "dstFilter": ("dst_filter", "destination filter"),
}
"""Filter links of an apply chain: the `EdgeApplyInfo` field each sets, and its name
in messages (`from(f)` with a function is a source filter)."""


GET_NGH_SUPPORTED = (
    "gir supports edges.getNgh(v) in main and the functions main calls, where it "
    "gives a vertexset of v's out-neighbours"
)
GET_NGH_ON_DEVICE = (
    "edges.getNgh(v) in '{function}', which runs on the device (an apply or filter "
    "runs it), is not supported: " + GET_NGH_SUPPORTED + "; a vertex or edge function "
    "reaches neighbours through an edgeset apply, edges.from(set).apply(f)"
)
"""Why `edges.getNgh(v)` is refused in device code: a per-vertex neighbour set
inside a function would be a serial loop per GPU thread, outside every load balance."""
GET_NGH_LOOP_UNSUPPORTED = (
    "'for ngh in edges.getNgh(v)' is not supported: " + GET_NGH_SUPPORTED
    + "; apply a vertex function to it: var ngh : vertexset{Vertex} = edges.getNgh(v); "
    "ngh.apply(f);"
)


def is_chain_link(expr: ast.Expr) -> bool:
    """Whether `expr` is a `.from(..)`/`.to(..)`/`.srcFilter(..)`/`.dstFilter(..)`
    link of an edgeset apply chain."""
    return isinstance(expr, ast.MethodCall) and expr.method in CHAIN_METHODS


def edge_applies(stmt: ast.Stmt) -> list[EdgeApplyInfo]:
    """The edgeset applies in `stmt`'s own expressions (after sema)."""
    return [
        sub.info
        for expr in ast.own_exprs(stmt)
        for sub in ast.walk_expr(expr)
        if isinstance(sub, ast.MethodCall) and isinstance(sub.info, EdgeApplyInfo)
    ]


# ---------------------------------------------------------------------------
# The checker
# ---------------------------------------------------------------------------


class Checker:
    """Checks one program; see `check_program`."""

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
        self.functor_uses: dict[ast.Expr, FuncInfo] = {}
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

    def error(self, pos: Pos, message: str) -> SourceError:
        """A `SourceError` at `pos`."""
        return SourceError(self.filename, pos.line, pos.col, message)

    # -- program ---------------------------------------------------------------

    def check(self) -> SemaInfo:
        """Checks the whole program and returns what irgen needs."""
        self.collect_elements()
        self.collect_functions()
        for decl in self.program.consts:
            self.check_const(decl)
        self.check_capture_names()
        for function in self.functions.values():
            if not function.decl.extern:
                self.check_function(function)
        self.check_main()
        self.check_extern_calls()
        self.check_local_vector_places()
        self.check_get_ngh_places()
        return SemaInfo(
            [*self.globals.values(), *(symbol for _, symbol in self.local_vectors)],
            self.functions,
            self.labels,
            self.label_stmts,
            self.functor_uses,
            self.conversions,
        )

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

    def collect_elements(self) -> None:
        """Records `element` declarations and which elements name edges."""
        for decl in self.program.decls:
            if isinstance(decl, ast.ElementDecl):
                if decl.name in self.elements:
                    raise self.error(decl.pos, f"element '{decl.name}' is already defined")
                self.elements[decl.name] = decl
            elif isinstance(decl, ast.ConstDecl) and isinstance(decl.type, ast.EdgeSetTypeExpr):
                self.edge_elements.add(decl.type.element)

    def collect_functions(self) -> None:
        """Records every function's signature, so that calls may come first."""
        for decl in self.program.functions:
            if decl.name in self.functions or decl.name in BUILTINS:
                raise self.error(decl.pos, f"function '{decl.name}' is already defined")
            params: list[Symbol] = []
            for param in decl.params:
                if any(p.name == param.name for p in params):
                    raise self.error(param.pos, f"parameter '{param.name}' is already defined")
                param.symbol = Symbol(
                    param.name, self.resolve_value_type(param.type), "param", param.pos
                )
                params.append(param.symbol)
            output: Symbol | None = None
            if decl.output is not None:
                if any(p.name == decl.output.name for p in params):
                    raise self.error(
                        decl.output.pos, f"output '{decl.output.name}' is already a parameter"
                    )
                decl.output.symbol = Symbol(
                    decl.output.name,
                    self.resolve_value_type(decl.output.type),
                    "output",
                    decl.output.pos,
                )
                output = decl.output.symbol
            self.functions[decl.name] = FuncInfo(
                decl.name, decl, params, output, vector_writes(decl.body),
                self.resolve_captures(decl, params),
            )  # fmt: skip
            if decl.extern:
                self.check_extern(self.functions[decl.name])

    def check_extern(self, function: FuncInfo) -> None:
        """An `extern func` is called by its own name in device C: a C identifier
        that CUDA and OpenCL do not reserve, over scalars only."""
        decl = function.decl
        reason = check_kernel_name(decl.name)
        if decl.name == "main" or reason is not None:
            reason = reason or "'main' is the program's entry point"
            reason = reason.replace("kernel name", "name")
            raise self.error(decl.pos, f"extern function '{decl.name}' cannot be declared: {reason}")
        symbols = [*function.params, *([function.output] if function.output else [])]
        for symbol in symbols:
            if not isinstance(symbol.ty, ScalarTy):
                raise self.error(
                    symbol.pos,
                    f"extern function '{decl.name}' takes and gives scalars only, "
                    f"'{symbol.name}' is {symbol.ty}",
                )

    def check_extern_calls(self) -> None:
        """Extern functions run on the device only: none may be called from `main`
        or from a function `main` calls (those run on the host)."""
        host, pending = {"main"}, ["main"]
        while pending:
            for call in self.calls.get(pending.pop(), []):
                assert isinstance(call.target, FuncInfo)
                callee = call.target
                if callee.decl.extern:
                    raise self.error(
                        call.pos,
                        f"extern function '{callee.name}' is device code: call it from a "
                        "function that an apply runs, not from the host (main)",
                    )
                if callee.name not in host:
                    host.add(callee.name)
                    pending.append(callee.name)

    def device_functions(self) -> set[str]:
        """The functions that run on the device: those an apply or filter runs,
        and those they call."""
        device, pending = set(self.device_roots), list(self.device_roots)
        while pending:
            for call in self.calls.get(pending.pop(), []):
                assert isinstance(call.target, FuncInfo)
                if call.target.name not in device:
                    device.add(call.target.name)
                    pending.append(call.target.name)
        return device

    def check_local_vector_places(self) -> None:
        """Local vectors belong to host code: none may be declared in a function
        that an apply or filter runs, or that such a function calls."""
        device = self.device_functions()
        for function, symbol in self.local_vectors:
            if function in device:
                raise self.error(
                    symbol.pos,
                    f"local vector '{symbol.name}' in '{function}', which runs on the device "
                    "(an apply or filter runs it): declare vectors in main, in a function "
                    "main calls, or at program level",
                )

    def check_get_ngh_places(self) -> None:
        """`edges.getNgh(v)` builds a vertexset with an edgeset apply, a host
        operation: none may be in a function that runs on the device."""
        device = self.device_functions()
        for function, pos in self.get_ngh_uses:
            if function in device:
                raise self.error(pos, GET_NGH_ON_DEVICE.format(function=function))

    def local_vector_storage(self, name: str) -> str:
        """The name of the `graph.global` holding a local vector `name`: `name`
        itself where no constant, function, captured value or other local vector
        has it, else `function_name` (with a counter where that is taken too)."""
        taken = {
            *self.globals, *self.functions, *BUILTINS,
            *(capture_vector(f.name, c.name) for f in self.functions.values() for c in f.captures),
            *(symbol.global_name for _, symbol in self.local_vectors),
        }  # fmt: skip
        assert self.current is not None
        candidates = [name, f"{self.current.name}_{name}"]
        candidates += (f"{self.current.name}_{name}_{n}" for n in range(2, len(taken) + 3))
        return next(candidate for candidate in candidates if candidate not in taken)

    def resolve_captures(self, decl: ast.FuncDecl, params: list[Symbol]) -> list[Symbol]:
        """A functor's captures: scalars, named apart from its parameters."""
        captures: list[Symbol] = []
        for capture in decl.captures:
            if any(s.name == capture.name for s in [*captures, *params]):
                raise self.error(capture.pos, f"'{capture.name}' is already defined")
            ty = self.resolve_type(capture.type)
            if not isinstance(ty, ScalarTy):
                raise self.error(capture.pos, f"captured values must be scalars, not {ty}")
            capture.symbol = Symbol(capture.name, ty, "capture", capture.pos)
            captures.append(capture.symbol)
        return captures

    def check_capture_names(self) -> None:
        """The vector that carries a captured value must not clash with a name."""
        for function in self.functions.values():
            for capture in function.captures:
                hidden = capture_vector(function.name, capture.name)
                if hidden in self.globals or hidden in self.functions:
                    raise self.error(
                        capture.pos,
                        f"'{hidden}' is already defined; gir names the captured value so",
                    )

    def check_main(self) -> None:
        """The program needs `func main()` without parameters or output."""
        main = self.functions.get("main")
        if main is None:
            raise self.error(Pos(1, 1), "the program has no 'main' function")
        if main.params or main.output is not None:
            raise self.error(main.decl.pos, "'main' takes no parameters and has no output")

    def check_const(self, decl: ast.ConstDecl) -> None:
        """A program-level constant: its type and its initializer (run in main)."""
        if decl.name in self.globals or decl.name in self.functions:
            raise self.error(decl.name_pos, f"'{decl.name}' is already defined")
        ty = self.resolve_type(decl.type, allow_vector=True)
        self.scopes = [{}]
        self.current = None
        if decl.init is not None:
            self.check_initializer(decl.init, ty, decl.name)
            value = literal_int(decl.init)
            if is_integer(ty) and value is not None:
                self.constant_ints[decl.name] = value
        elif isinstance(ty, EdgeSetTy):
            raise self.error(
                decl.name_pos, f"edgeset '{decl.name}' needs an initializer such as load(argv[1])"
            )
        decl.symbol = Symbol(decl.name, ty, "global", decl.name_pos)
        self.globals[decl.name] = decl.symbol

    def check_initializer(self, init: ast.Expr, ty: Ty, name: str) -> None:
        """An initial value (or assigned value) `init` for `name` of type `ty`."""
        if isinstance(init, ast.Load):
            self.check_load(init, ty)
            return
        if isinstance(ty, VectorTy):
            self.check_vector_value(init, ty, name)
            return
        value = self.check_expr(init)
        if not self.storable(init, value, ty):
            raise self.error(init.pos, f"cannot assign {value} to '{name}' of type {ty}")

    def check_vector_value(self, init: ast.Expr, ty: VectorTy, name: str) -> None:
        """A whole-vector value: a scalar to fill it with (every lane of a vector
        of vectors), `edges.getOutDegrees()` (`getOutDegreesUint()` for a
        `vector{Vertex}(uint)`), another vector of the same type to copy, or a
        literal `{a, b, ...}` with one value per element of a `vector[N](T)`."""
        if isinstance(init, ast.VectorLit):
            self.check_vector_literal(init, ty, name)
            return
        if isinstance(init, ast.MethodCall) and init.method in DEGREE_METHODS:
            edges = self.check_expr(init.receiver)
            if not isinstance(edges, EdgeSetTy) or init.args:
                raise self.error(
                    init.method_pos, f"{init.method}() takes no arguments and applies to an edgeset"
                )
            elem = DEGREE_METHODS[init.method]
            if ty.size is not None or ty.elem != elem:
                raise self.error(
                    init.method_pos, f"{init.method}() gives a vector{{Vertex}}({elem}), not {ty}"
                )
            init.info = MethodInfo("out_degrees")
            init.ty = ty
            return
        if self.names_vector(init):
            source = self.vector_of(init, "the copied vector")
            if source != ty:
                raise self.error(init.pos, f"cannot copy {source} into '{name}' of type {ty}")
            return
        value = self.check_expr(init)
        if value == VERTEXSET or not self.storable(init, value, ty.elem):
            raise self.error(init.pos, f"cannot initialize '{name}' of type {ty} with {value}")

    def check_vector_literal(self, init: ast.VectorLit, ty: VectorTy, name: str) -> None:
        """`{a, b, ...}` for `name` of type `ty`: a `vector[N](T)` of scalars,
        exactly N values, each storable as a T."""
        if ty.size is None or ty.lanes is not None:
            raise self.error(
                init.pos,
                f"a vector literal {{...}} gives the elements of a fixed-size vector[N](T); "
                f"'{name}' is {ty} (initialize it with one value for every element)",
            )
        if len(init.items) != ty.size:
            raise self.error(
                init.pos,
                f"the vector literal has {len(init.items)} values, '{name}' of type {ty} "
                f"holds {ty.size}",
            )
        for item in init.items:
            value = self.check_value(item, "a vector literal value")
            if value == VERTEXSET or not self.storable(item, value, ty.elem):
                raise self.error(
                    item.pos, f"cannot store {value} in '{name}', a vector of {ty.elem}"
                )
        init.ty = ty

    def check_load(self, load: ast.Load, ty: Ty) -> None:
        """`load(argv[N])` / `load("file")`, which must initialize an edgeset."""
        if not isinstance(ty, EdgeSetTy):
            raise self.error(load.pos, f"load(...) gives an edgeset, not {ty}")
        if not isinstance(load.source, ast.Argv | ast.StringLit):
            raise self.error(load.source.pos, "load(...) takes argv[N] or a file name string")
        load.source.ty = INT if isinstance(load.source, ast.Argv) else STRING
        load.ty = ty

    # -- types -------------------------------------------------------------------

    def resolve_type(self, type_expr: ast.TypeExpr, allow_vector: bool = False) -> Ty:
        """The type a type expression denotes."""
        if isinstance(type_expr, ast.ScalarTypeExpr):
            if type_expr.name == "string":
                raise self.error(type_expr.pos, "string variables are not supported")
            return SCALAR_NAMES[type_expr.name]
        if isinstance(type_expr, ast.ElementTypeExpr):
            if type_expr.name == "vertexsubset" and type_expr.name not in self.elements:
                # GraphIt's name for a set of the (one) vertex element's vertices
                return VERTEXSET
            self.check_vertex_element(type_expr.name, type_expr.pos)
            return VERTEX
        if isinstance(type_expr, ast.VertexSetTypeExpr):
            self.check_vertex_element(type_expr.element, type_expr.pos)
            return VERTEXSET
        if isinstance(type_expr, ast.EdgeSetTypeExpr):
            return self.resolve_edgeset_type(type_expr)
        if isinstance(type_expr, ast.VectorTypeExpr):
            return self.resolve_vector_type(type_expr, allow_vector)
        if isinstance(type_expr, ast.PriorityQueueTypeExpr):
            self.check_vertex_element(type_expr.element, type_expr.pos)
            return PriorityQueueTy(self.resolve_scalar(type_expr.priority, "priority"))
        if isinstance(type_expr, ast.ListTypeExpr):
            if self.resolve_type(type_expr.item) != VERTEXSET:
                raise self.error(type_expr.pos, "only lists of vertexsets are supported")
            return ListTy()
        raise self.error(type_expr.pos, "unsupported type")

    def resolve_value_type(self, type_expr: ast.TypeExpr) -> Ty:
        """A parameter's, output's or scalar local's type (no vectors)."""
        return self.resolve_type(type_expr, allow_vector=False)

    def resolve_scalar(self, type_expr: ast.TypeExpr, role: str) -> ScalarTy:
        """A type that must be int, float, double or bool."""
        ty = self.resolve_type(type_expr)
        if not isinstance(ty, ScalarTy):
            raise self.error(
                type_expr.pos, f"{role} type must be int, float, double or bool, not {ty}"
            )
        return ty

    def resolve_edgeset_type(self, type_expr: ast.EdgeSetTypeExpr) -> EdgeSetTy:
        """`edgeset{Edge}(Vertex, Vertex[, W])`."""
        if type_expr.element not in self.elements:
            raise self.error(type_expr.pos, f"unknown element '{type_expr.element}'")
        for endpoint in type_expr.endpoints:
            self.check_vertex_element(endpoint, type_expr.pos)
        if type_expr.weight is None:
            return EdgeSetTy()
        weight = self.resolve_scalar(type_expr.weight, "edge weight")
        if weight == BOOL:
            raise self.error(type_expr.weight.pos, "edge weights must be int, float or double")
        return EdgeSetTy(weight)

    def resolve_vector_type(self, type_expr: ast.VectorTypeExpr, allow_vector: bool) -> VectorTy:
        """`vector{Vertex}(T)` or `vector[N](T)`, where T is a scalar or a
        fixed-size `vector[K](S)` of scalars; program-level consts and local
        vars only (`allow_vector`)."""
        if not allow_vector:
            raise self.error(
                type_expr.pos,
                "a vector cannot be passed, returned or captured: declare it as a "
                "program-level const or a local var",
            )
        if type_expr.element is not None:
            self.check_vertex_element(type_expr.element, type_expr.pos)
        size = self.vector_size(type_expr)
        inner = type_expr.value
        if not isinstance(inner, ast.VectorTypeExpr):
            return VectorTy(self.resolve_scalar(inner, "vector element"), size)
        if inner.element is not None:
            raise self.error(
                inner.pos,
                "the elements of a vector may be fixed-size vectors vector[K](T), "
                f"not per-vertex vector{{{inner.element}}}(...)",
            )
        lanes = self.vector_size(inner)
        if isinstance(inner.value, ast.VectorTypeExpr):
            raise self.error(
                inner.value.pos, "vectors nest two levels deep at most (vector{Vertex}(vector[K](T)))"
            )
        if size is not None and lanes is not None and size * lanes > MAX_VECTOR_SIZE:
            raise self.error(
                type_expr.pos,
                f"vector of {size} x {lanes} values exceeds the limit of {MAX_VECTOR_SIZE} elements",
            )
        return VectorTy(self.resolve_scalar(inner.value, "vector element"), size, lanes)

    def vector_size(self, type_expr: ast.VectorTypeExpr) -> int | None:
        """The N of `vector[N](T)` (None for a per-vertex vector): a positive
        integer literal, or the name of a program-level const int initialized
        with one (declared before it), as GraphIt's CF writes `vector[K]`."""
        if type_expr.size_name is not None:
            at = type_expr.size_pos or type_expr.pos
            size = self.constant_ints.get(type_expr.size_name)
            if size is None:
                raise self.error(
                    at,
                    f"vector size '{type_expr.size_name}' is not a constant: give an integer "
                    "literal or the name of a program-level const int initialized with one",
                )
            if size <= 0 or size > MAX_VECTOR_SIZE:
                raise self.error(
                    at,
                    f"vector size '{type_expr.size_name}' is {size}: a fixed-size vector needs "
                    f"1 to {MAX_VECTOR_SIZE} elements",
                )
            return size
        if type_expr.element is None and type_expr.size is not None and type_expr.size <= 0:
            raise self.error(type_expr.pos, "a fixed-size vector needs a positive size")
        return type_expr.size

    def check_vertex_element(self, name: str, pos: Pos) -> None:
        """`name` must be a declared element that is not an edgeset's edge element."""
        if name not in self.elements:
            raise self.error(pos, f"unknown type '{name}'")
        if name in self.edge_elements:
            raise self.error(pos, f"edge element '{name}' cannot be used as a vertex type")

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

    # -- functions and statements ----------------------------------------------------

    def check_function(self, function: FuncInfo) -> None:
        """A function body, with its parameters and output in scope."""
        self.current = function
        self.scopes = [{}]
        for param in [*function.captures, *function.params]:
            self.declare(param)
        if function.output is not None:
            self.declare(function.output)
        self.check_body(function.decl.body, parent_label=None)
        self.current = None

    def check_body(self, body: list[ast.Stmt], parent_label: str | None) -> None:
        """A statement list in its own scope; `parent_label` is the path of the
        nearest labelled enclosing statement."""

        def run() -> None:
            for stmt in body:
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
            self.check_condition(stmt.cond, "if")
            self.check_body(stmt.then_body, label)
            if stmt.else_body is not None:
                self.check_body(stmt.else_body, label)
        elif isinstance(stmt, ast.While):
            self.check_condition(stmt.cond, "while")
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
                self.check_initializer(stmt.init, ty, stmt.name)
            assert self.current is not None
            storage = self.local_vector_storage(stmt.name)
            stmt.symbol = Symbol(stmt.name, ty, "local", stmt.name_pos, storage)
            self.declare(stmt.symbol)
            self.local_vectors.append((self.current.name, stmt.symbol))
            return
        if stmt.type is not None:
            ty = self.resolve_value_type(stmt.type)
            if stmt.init is not None:
                self.check_initializer(stmt.init, ty, stmt.name)
            elif not isinstance(ty, ScalarTy | VertexSetTy):
                raise self.error(
                    stmt.name_pos, f"variable '{stmt.name}' of type {ty} needs an initial value"
                )
        else:
            assert stmt.init is not None
            if isinstance(stmt.init, ast.Load):
                raise self.error(stmt.init.pos, "give the edgeset's type when loading it")
            ty = self.check_expr(stmt.init)
            if isinstance(ty, VoidTy | StringTy):
                raise self.error(stmt.init.pos, f"cannot initialize '{stmt.name}' with {ty}")
        stmt.symbol = Symbol(stmt.name, ty, "local", stmt.name_pos)
        self.declare(stmt.symbol)

    def check_assign(self, stmt: ast.Assign) -> None:
        """`x = e;`, `a[i] = e;`, `a[i] min= e;`, `x += e;`, ..."""
        if isinstance(stmt.target, ast.Index):
            self.check_element_assign(stmt, stmt.target)
            return
        assert isinstance(stmt.target, ast.Name)
        symbol = self.resolve_name(stmt.target)
        stmt.target.ty = symbol.ty
        if symbol.kind in ("loop", "capture"):
            what = "loop variable" if symbol.kind == "loop" else "captured value"
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
        self.check_initializer(stmt.value, symbol.ty, symbol.name)

    def check_element_assign(self, stmt: ast.Assign, target: ast.Index) -> None:
        """An assignment or reduction to a vector element."""
        elem = self.check_expr(target)
        value = self.check_expr(stmt.value)
        if value == VERTEXSET or not self.storable(stmt.value, value, elem):
            raise self.error(stmt.value.pos, f"cannot assign {value} to an element of type {elem}")
        if stmt.op == "-=":
            raise self.error(
                stmt.op_pos,
                "'-=' is not supported on vector elements (use '+=' with a negated value)",
            )
        if stmt.op != "=" and elem == BOOL:
            raise self.error(stmt.op_pos, f"'{stmt.op}' does not apply to bool elements")

    def check_condition(self, cond: ast.Expr, what: str) -> None:
        """An `if` or `while` condition, which must be bool."""
        ty = self.check_expr(cond)
        if ty != BOOL:
            raise self.error(cond.pos, f"{what} condition must be bool, found {ty}")

    def check_for(self, stmt: ast.For, label: str | None) -> None:
        """`for i in a:b ... end` with int bounds."""
        for bound in (stmt.start, stmt.stop):
            ty = self.check_count(bound)
            self.check_literal_fits(bound, INT)
            if not is_assignable(ty, INT) or ty == VERTEXSET:
                raise self.error(bound.pos, f"for loop bounds must be int, found {ty}")
        stmt.symbol = Symbol(stmt.var, INT, "loop", stmt.var_pos)

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
        """`delete x;` of a vertexset or priority queue."""
        ty = self.check_expr(stmt.value)
        if not isinstance(ty, VertexSetTy | PriorityQueueTy):
            raise self.error(
                stmt.value.pos, f"can only delete a vertexset or priority queue, not {ty}"
            )

    def check_expr_stmt(self, stmt: ast.ExprStmt) -> None:
        """An expression statement: a call or method call."""
        if not isinstance(stmt.expr, ast.Call | ast.MethodCall):
            raise self.error(stmt.expr.pos, "expected a call or an assignment")
        self.check_expr(stmt.expr)

    # -- expressions ---------------------------------------------------------------------

    def check_expr(self, expr: ast.Expr) -> Ty:
        """Types `expr` (stored in `expr.ty`) and returns the type."""
        checkers: dict[type, Callable[[ast.Expr], Ty]] = {
            ast.IntLit: self.check_int,
            ast.FloatLit: lambda e: FLOAT,
            ast.BoolLit: lambda e: BOOL,
            ast.StringLit: lambda e: STRING,
            ast.Name: self.check_name,
            ast.Argv: self.check_argv,
            ast.Index: self.check_index,
            ast.Call: self.check_call,
            ast.MethodCall: self.check_method,
            ast.Unary: self.check_unary,
            ast.Binary: self.check_binary,
            ast.New: self.check_new,
            ast.Load: self.check_misplaced_load,
            ast.VectorLit: self.check_misplaced_literal,
        }
        ty = checkers[type(expr)](expr)
        expr.ty = ty
        return ty

    def check_value(self, expr: ast.Expr, role: str) -> Ty:
        """An expression that must produce a value."""
        ty = self.check_expr(expr)
        if ty == VOID:
            raise self.error(expr.pos, f"{role} has no value")
        return ty

    def check_count(self, expr: ast.Expr, role: str = "the value") -> Ty:
        """An expression where GraphIt reads `edges.getVertices()` as the vertex
        count: typed int there (irgen converts the vertexset to its size)."""
        ty = self.check_value(expr, role)
        if (
            ty == VERTEXSET
            and isinstance(expr, ast.MethodCall)
            and isinstance(expr.info, MethodInfo)
            and expr.info.op == "get_vertices"
        ):
            expr.info = MethodInfo("vertex_count")
            expr.ty = INT
            return INT
        return ty

    def check_int(self, expr: ast.Expr) -> Ty:
        """An integer literal: an int, or (as in C) the first of `int64` and
        `uint_64` it fits in."""
        assert isinstance(expr, ast.IntLit)
        for ty, low, high in ((INT, -(2**31), 2**31), (INT64, -(2**63), 2**63), (UINT64, 0, 2**64)):
            if low <= expr.value < high:
                return ty
        raise self.error(expr.pos, f"integer literal {expr.value} does not fit in 64 bits")

    def check_argv(self, expr: ast.Expr) -> Ty:
        """`argv[N]` where no load takes it: the argument as an int."""
        return INT

    def check_misplaced_literal(self, expr: ast.Expr) -> Ty:
        """`{a, b}` anywhere but as a fixed-size vector's value."""
        raise self.error(
            expr.pos, "a vector literal {...} can only initialize or be assigned to a vector[N](T)"
        )

    def check_misplaced_load(self, expr: ast.Expr) -> Ty:
        """`load(...)` anywhere but as an edgeset's initial value."""
        raise self.error(expr.pos, "load(...) can only initialize an edgeset")

    def resolve_name(self, name: ast.Name) -> Symbol:
        """The symbol a name refers to; functions and unknown names are errors."""
        symbol = self.lookup(name.name)
        if symbol is None:
            if name.name in self.functions or name.name in BUILTINS:
                raise self.error(name.pos, f"'{name.name}' is a function, not a value")
            raise self.error(name.pos, f"undefined name '{name.name}'")
        name.symbol = symbol
        return symbol

    def check_name(self, expr: ast.Expr) -> Ty:
        """A variable or constant used as a value (whole vectors cannot be)."""
        assert isinstance(expr, ast.Name)
        symbol = self.resolve_name(expr)
        if isinstance(symbol.ty, VectorTy):
            raise self.error(
                expr.pos, f"vector '{symbol.name}' can only be used through its elements"
            )
        return symbol.ty

    def vector_of(self, expr: ast.Expr, role: str) -> VectorTy:
        """`expr` must name a program-level vector; returns its type."""
        if not isinstance(expr, ast.Name):
            raise self.error(expr.pos, f"{role} must be the name of a vector")
        symbol = self.resolve_name(expr)
        if not isinstance(symbol.ty, VectorTy):
            raise self.error(expr.pos, f"{role} must be a vector, '{symbol.name}' is {symbol.ty}")
        expr.ty = symbol.ty
        return symbol.ty

    def check_index(self, expr: ast.Expr) -> Ty:
        """`vec[i]`: i is a Vertex or an integer (an integer only for fixed-size
        vectors); `vec[i][j]` for a vector of fixed-size vectors, j an integer
        (a literal j must lie in `[0, K)`)."""
        assert isinstance(expr, ast.Index)
        if isinstance(expr.base, ast.Index):
            return self.check_lane(expr, expr.base)
        vector = self.vector_of(expr.base, "an indexed value")
        self.check_element_index(expr, vector)
        if vector.lanes is not None:
            assert isinstance(expr.base, ast.Name)
            raise self.error(
                expr.pos,
                f"'{expr.base.name}' holds a vector[{vector.lanes}]({vector.elem}) per element: "
                f"read and write one value of it as {expr.base.name}[i][j]",
            )
        return vector.elem

    def check_element_index(self, expr: ast.Index, vector: VectorTy) -> None:
        """The index of an element of `vector`, as `expr` gives it."""
        index = self.check_expr(expr.index)
        if not (is_integer(index) or (index == VERTEX and vector.size is None)):
            expected = "an integer" if vector.size is not None else "a Vertex or an integer"
            raise self.error(expr.index.pos, f"vector index must be {expected}, found {index}")
        self.check_constant_index(expr, vector.size, vector)

    def check_lane(self, expr: ast.Index, element: ast.Index) -> Ty:
        """`vec[i][j]`: lane j of element i of a vector of fixed-size vectors."""
        if isinstance(element.base, ast.Index):
            raise self.error(expr.pos, "vectors nest two levels deep at most: index them as v[i][j]")
        vector = self.vector_of(element.base, "an indexed value")
        assert isinstance(element.base, ast.Name)
        if vector.lanes is None:
            raise self.error(
                expr.index.pos,
                f"'{element.base.name}' is {vector}: its elements are scalars, index it once",
            )
        self.check_element_index(element, vector)
        element.ty = VectorTy(vector.elem, vector.lanes)
        lane = self.check_expr(expr.index)
        if not is_integer(lane):
            raise self.error(
                expr.index.pos,
                f"the index into a vector[{vector.lanes}]({vector.elem}) must be an integer, "
                f"found {lane}",
            )
        self.check_constant_index(expr, vector.lanes, element.ty, element.base.name)
        return vector.elem

    def check_constant_index(
        self, expr: ast.Index, size: int | None, vector: VectorTy, name: str | None = None
    ) -> None:
        """A literal index must lie inside the vector: `[0, N)` for a `vector[N]`
        (`size` N; the lanes of a vector of vectors), non-negative for a
        per-vertex vector (its size is known at run time)."""
        value = literal_int(expr.index)
        if value is None:
            return
        if name is None:
            assert isinstance(expr.base, ast.Name)
            name = expr.base.name
        if value < 0:
            raise self.error(expr.index.pos, f"index {value} is negative: '{name}' starts at 0")
        if size is not None and value >= size:
            raise self.error(
                expr.index.pos,
                f"index {value} is past the end of '{name}' ({vector}: indices 0 to {size - 1})",
            )

    def check_unary(self, expr: ast.Expr) -> Ty:
        """`-x` (numeric) and `not x` (bool)."""
        assert isinstance(expr, ast.Unary)
        operand = self.check_value(expr.operand, "the operand")
        if expr.op == "not":
            if operand != BOOL:
                raise self.error(expr.operand.pos, f"'not' needs a bool, found {operand}")
            return BOOL
        numeric = arithmetic_type(operand, operand)
        if numeric is None:
            raise self.error(expr.operand.pos, f"'-' needs a number, found {operand}")
        return numeric

    def check_binary(self, expr: ast.Expr) -> Ty:
        """Arithmetic, comparisons and logic."""
        assert isinstance(expr, ast.Binary)
        left = self.check_count(expr.left, "the left operand")
        right = self.check_count(expr.right, "the right operand")
        if expr.op in ("and", "or", "xor"):
            if left != BOOL or right != BOOL:
                raise self.error(
                    expr.pos, f"'{expr.op}' needs bool operands, found {left} and {right}"
                )
            expr.operand_ty = BOOL
            return BOOL
        if expr.op in ("==", "!=") and left == BOOL and right == BOOL:
            expr.operand_ty = BOOL
            return BOOL
        common = arithmetic_type(left, right)
        if common is None:
            raise self.error(expr.pos, f"'{expr.op}' cannot combine {left} and {right}")
        expr.operand_ty = common
        return BOOL if expr.op in ("==", "!=", "<", ">", "<=", ">=") else common

    # -- calls ---------------------------------------------------------------------------

    def check_call(self, expr: ast.Expr) -> Ty:
        """A call of a builtin or a user function."""
        assert isinstance(expr, ast.Call)
        if expr.name in BUILTINS and expr.name not in self.functions:
            expr.target = expr.name
            return self.check_builtin(expr)
        function = self.functions.get(expr.name)
        if function is None:
            if self.lookup(expr.name) is not None:
                raise self.error(expr.pos, f"'{expr.name}' is not a function")
            raise self.error(expr.pos, f"call of undefined function '{expr.name}'")
        if function.name == "main":
            raise self.error(expr.pos, "'main' cannot be called")
        if function.captures:
            raise self.error(
                expr.pos, f"'{function.name}' captures values: pass it to an apply as a functor"
            )
        self.check_arity(expr, len(function.params))
        if self.current is not None:
            self.calls.setdefault(self.current.name, []).append(expr)
        for index, (arg, param) in enumerate(zip(expr.args, function.params, strict=True)):
            ty = self.check_value(arg, f"argument {index + 1}")
            if not self.storable(arg, ty, param.ty):
                raise self.error(
                    arg.pos,
                    f"argument {index + 1} of '{function.name}' must be {param.ty}, found {ty}",
                )
        expr.target = function
        return function.result

    def check_arity(self, expr: ast.Call | ast.MethodCall, count: int | tuple[int, ...]) -> None:
        """The call must have `count` arguments (one of them, for a tuple)."""
        counts = (count,) if isinstance(count, int) else count
        if len(expr.args) in counts:
            return
        name = expr.name if isinstance(expr, ast.Call) else expr.method
        wanted = " or ".join(str(c) for c in counts)
        plural = "" if counts == (1,) else "s"
        raise self.error(
            expr.pos if isinstance(expr, ast.Call) else expr.method_pos,
            f"'{name}' takes {wanted} argument{plural}, got {len(expr.args)}",
        )

    def check_builtin(self, expr: ast.Call) -> Ty:
        """`startTimer()`, `stopTimer()`, `atoi(argv[N])`, the math functions
        (`check_math`), `compare_and_swap(a[i], old, new)`."""
        if expr.name in ("startTimer", "stopTimer"):
            self.check_arity(expr, 0)
            return VOID if expr.name == "startTimer" else FLOAT
        if expr.name == "atoi":
            self.check_arity(expr, 1)
            if not isinstance(expr.args[0], ast.Argv):
                raise self.error(expr.args[0].pos, "atoi takes argv[N]")
            expr.args[0].ty = INT
            return INT
        if expr.name in MATH_BUILTINS:
            return self.check_math(expr)
        return self.check_compare_and_swap(expr)

    def check_math(self, expr: ast.Call) -> Ty:
        """`fabs(x)`, `exp(x)`, `log(x)`, `log1p(x)`, `sqrt(x)`, `fmax(x, y)`,
        `fmin(x, y)`: numbers (or vertices, as their ids) in, the arguments'
        common float type out (`float` when every argument is an integer)."""
        self.check_arity(expr, MATH_BUILTINS[expr.name])
        common: ScalarTy = FLOAT
        for index, arg in enumerate(expr.args):
            role = "the argument" if len(expr.args) == 1 else f"argument {index + 1}"
            ty = self.check_value(arg, role)
            ty = INT if ty == VERTEX else ty  # a vertex's id, as in arithmetic
            if not (isinstance(ty, ScalarTy) and ty.is_numeric):
                raise self.error(arg.pos, f"{expr.name} needs a number, found {ty}")
            if ty.is_float and (ty == DOUBLE or common != DOUBLE):
                common = ty
        return common

    def check_compare_and_swap(self, expr: ast.Call) -> Ty:
        """`compare_and_swap(vec[i], expected, desired)`."""
        self.check_arity(expr, 3)
        target = expr.args[0]
        if not isinstance(target, ast.Index):
            raise self.error(
                target.pos, "compare_and_swap needs a vector element as its first argument"
            )
        elem = self.check_expr(target)
        for arg in expr.args[1:]:
            ty = self.check_value(arg, "the argument")
            self.check_literal_fits(arg, elem)
            if not is_assignable(ty, elem) or ty == VERTEXSET:
                raise self.error(arg.pos, f"compare_and_swap on {elem} elements cannot take {ty}")
        return BOOL

    def function_arg(self, arg: ast.Expr, role: str) -> FuncInfo:
        """An argument that must name a user function, or a functor `f[values]`
        with one value per capture of `f`."""
        name, values = functor_parts(arg)
        if name not in self.functions:
            raise self.error(arg.pos, f"{role} must be the name of a function")
        function = self.functions[name]
        if function.decl.extern:
            raise self.error(
                arg.pos, f"{role} '{name}' is an extern function: call it from a function"
            )
        if len(values) != len(function.captures):
            wanted = ", ".join(f"{c.name} : {c.ty}" for c in function.captures)
            raise self.error(
                arg.pos,
                f"'{name}' captures {len(function.captures)} value(s) [{wanted}], "
                f"given {len(values)}",
            )
        for value, capture in zip(values, function.captures, strict=True):
            ty = self.check_value(value, f"the value of '{capture.name}'")
            if ty == VERTEXSET or not self.storable(value, ty, capture.ty):
                raise self.error(value.pos, f"'{capture.name}' is {capture.ty}, found {ty}")
        if values:
            self.functor_uses[arg] = function
        self.device_roots.add(function.name)
        return function

    def vertex_function(self, arg: ast.Expr, role: str, returns_bool: bool) -> str:
        """A function `(Vertex) -> bool` (filters) or `(Vertex)` (vertex applies)."""
        function = self.function_arg(arg, role)
        wanted = BOOL if returns_bool else VOID
        if [p.ty for p in function.params] != [VERTEX] or function.result != wanted:
            expected = "(Vertex) -> bool" if returns_bool else "(Vertex) -> nothing"
            raise self.error(
                arg.pos,
                f"{role} '{function.name}' must be a function {expected}, it is {function.signature()}",
            )
        return function.name

    # -- method calls --------------------------------------------------------------------

    def check_method(self, expr: ast.Expr) -> Ty:
        """A method call, by the receiver's type."""
        assert isinstance(expr, ast.MethodCall)
        if expr.method in APPLY_METHODS and is_chain_link(expr.receiver):
            return self.check_edge_apply(expr)
        if expr.method in VECTOR_REDUCTIONS and self.names_vector(expr.receiver):
            return self.check_vector_reduction(expr)
        receiver = self.check_value(expr.receiver, "the receiver")
        if isinstance(receiver, EdgeSetTy):
            if expr.method in APPLY_METHODS:
                return self.check_edge_apply(expr)
            return self.check_edgeset_method(expr, receiver)
        if isinstance(receiver, VertexSetTy):
            return self.check_vertexset_method(expr)
        if isinstance(receiver, PriorityQueueTy):
            return self.check_queue_method(expr, receiver)
        if isinstance(receiver, ListTy):
            return self.check_list_method(expr)
        raise self.error(expr.method_pos, f"{receiver} has no method '{expr.method}'")

    def names_vector(self, expr: ast.Expr) -> bool:
        """Whether `expr` is the name of a vector (a whole-vector operand)."""
        if not isinstance(expr, ast.Name):
            return False
        symbol = self.lookup(expr.name)
        return symbol is not None and isinstance(symbol.ty, VectorTy)

    def check_vector_reduction(self, expr: ast.MethodCall) -> Ty:
        """`v.sum()`, `v.max()`, `v.min()` of a numeric vector: its element type."""
        self.check_arity(expr, 0)
        vector = self.vector_of(expr.receiver, "the reduced value")
        if vector.elem == BOOL:
            raise self.error(
                expr.method_pos, f"'{expr.method}()' needs a numeric vector, not {vector}"
            )
        expr.info = MethodInfo(VECTOR_REDUCTIONS[expr.method])
        return vector.elem

    def check_edgeset_method(self, expr: ast.MethodCall, edges: EdgeSetTy) -> Ty:
        """`getVertices()`, `transpose()` (and a misplaced `getOutDegrees`/`from`)."""
        if expr.method == "getVertices":
            self.check_arity(expr, 0)
            expr.info = MethodInfo("get_vertices")
            return VERTEXSET
        if expr.method == "transpose":
            self.check_arity(expr, 0)
            expr.info = MethodInfo("transpose")
            return edges
        if expr.method in DEGREE_METHODS:
            raise self.error(
                expr.method_pos,
                f"{expr.method}() can only initialize or assign a "
                f"vector{{Vertex}}({DEGREE_METHODS[expr.method]})",
            )
        if expr.method in CHAIN_METHODS:
            raise self.error(
                expr.method_pos,
                f"'{expr.method}(...)' must be followed by apply, applyModified or applyUpdatePriority",
            )
        if expr.method == "getNgh":
            return self.check_get_ngh(expr)
        raise self.error(expr.method_pos, f"edgeset has no method '{expr.method}'")

    def check_get_ngh(self, expr: ast.MethodCall) -> Ty:
        """`edges.getNgh(v)`: the vertexset of `v`'s out-neighbours, in host code
        only (see `check_get_ngh_places`)."""
        self.check_arity(expr, 1)
        ty = self.check_value(expr.args[0], "the vertex")
        if not is_vertex_like(ty):
            raise self.error(expr.args[0].pos, f"getNgh needs a Vertex or int, found {ty}")
        function = "main" if self.current is None else self.current.name  # a const's init runs in main
        self.get_ngh_uses.append((function, expr.method_pos))
        expr.info = MethodInfo("get_ngh")
        return VERTEXSET

    def check_vertexset_method(self, expr: ast.MethodCall) -> Ty:
        """`size()`, `getVertexSetSize()`, `addVertex(v)`, `apply(f)`, `filter(f)`/`where(f)`."""
        if expr.method in ("size", "getVertexSetSize"):
            self.check_arity(expr, 0)
            expr.info = MethodInfo("vertexset_size")
            return INT
        if expr.method == "addVertex":
            self.check_arity(expr, 1)
            ty = self.check_value(expr.args[0], "the vertex")
            if not is_vertex_like(ty):
                raise self.error(expr.args[0].pos, f"addVertex needs a Vertex or int, found {ty}")
            expr.info = MethodInfo("add_vertex")
            return VOID
        if expr.method == "apply":
            self.check_arity(expr, 1)
            udf = self.vertex_function(expr.args[0], "vertex function", returns_bool=False)
            expr.info = MethodInfo("vertexset_apply", udf)
            return VOID
        if expr.method in ("filter", "where"):
            self.check_arity(expr, 1)
            udf = self.vertex_function(expr.args[0], "filter function", returns_bool=True)
            expr.info = MethodInfo("vertexset_filter", udf)
            return VERTEXSET
        raise self.error(expr.method_pos, f"vertexset has no method '{expr.method}'")

    def check_queue_method(self, expr: ast.MethodCall, queue: PriorityQueueTy) -> Ty:
        """`updatePriorityMin/Max(v, old, new)`, `dequeue_ready_set()`, `finished()`,
        `finishedNode(v)`, `get_current_priority()`."""
        if expr.method == "updatePrioritySum":
            return self.check_priority_sum(expr, queue)
        if expr.method == "finishedNode":
            self.check_arity(expr, 1)
            self.check_queue_vertex(expr.args[0])
            expr.info = MethodInfo("pq_finished_node")
            return BOOL
        if expr.method in ("updatePriorityMin", "updatePriorityMax"):
            self.check_arity(expr, 3)
            self.check_queue_vertex(expr.args[0])
            for arg in expr.args[1:]:
                ty = self.check_value(arg, "the priority")
                self.check_literal_fits(arg, queue.priority)
                if not is_assignable(ty, queue.priority) or ty == VERTEXSET:
                    raise self.error(arg.pos, f"priorities are {queue.priority}, found {ty}")
            expr.info = MethodInfo(
                "pq_update_min" if expr.method.endswith("Min") else "pq_update_max"
            )
            return BOOL
        simple = {
            "dequeue_ready_set": ("pq_dequeue", VERTEXSET),
            "finished": ("pq_finished", BOOL),
            "get_current_priority": ("pq_current_priority", queue.priority),
        }
        if expr.method in simple:
            self.check_arity(expr, 0)
            op, ty = simple[expr.method]
            expr.info = MethodInfo(op)
            return ty
        raise self.error(expr.method_pos, f"priority_queue has no method '{expr.method}'")

    def check_queue_vertex(self, arg: ast.Expr) -> None:
        """The vertex a queue method takes: a Vertex or an int id."""
        vertex = self.check_value(arg, "the vertex")
        if not is_vertex_like(vertex):
            raise self.error(arg.pos, f"the vertex must be a Vertex or int, found {vertex}")

    def check_priority_sum(self, expr: ast.MethodCall, queue: PriorityQueueTy) -> Ty:
        """`updatePrioritySum(v, diff, threshold)` on a queue of integer priorities."""
        self.check_arity(expr, 3)
        self.check_queue_vertex(expr.args[0])
        if not is_integer(queue.priority):
            raise self.error(
                expr.method_pos,
                "updatePrioritySum needs int, uint, int64 or uint_64 priorities, "
                f"not {queue.priority}",
            )
        for arg in expr.args[1:]:
            ty = self.check_value(arg, "the priority change")
            self.check_literal_fits(arg, INT)
            if not is_integer(ty):
                raise self.error(arg.pos, f"priority changes are int, found {ty}")
        expr.info = MethodInfo("pq_update_sum")
        return BOOL

    def check_list_method(self, expr: ast.MethodCall) -> Ty:
        """`insert(set)` / `append(set)` (push a copy), `retrieve(set)` (pop the
        last into a vertexset variable) and `pop()` (the last, as a new set)."""
        if expr.method == "pop":
            self.check_arity(expr, 0)
            expr.info = MethodInfo("list_retrieve")
            return VERTEXSET
        if expr.method not in ("insert", "append", "retrieve"):
            raise self.error(expr.method_pos, f"list has no method '{expr.method}'")
        self.check_arity(expr, 1)
        ty = self.check_value(expr.args[0], "the argument")
        if ty != VERTEXSET:
            raise self.error(expr.args[0].pos, f"{expr.method} needs a vertexset, found {ty}")
        if expr.method == "retrieve" and not isinstance(expr.args[0], ast.Name):
            raise self.error(expr.args[0].pos, "retrieve needs a vertexset variable")
        expr.info = MethodInfo("list_retrieve" if expr.method == "retrieve" else "list_insert")
        return VOID

    # -- edgeset applies -----------------------------------------------------------------

    def check_edge_apply(self, expr: ast.MethodCall) -> Ty:
        """An `edges.from(..).to(..).srcFilter(..).dstFilter(..).apply*(..)` chain."""
        links: list[ast.MethodCall] = []
        base = expr.receiver
        while is_chain_link(base):
            assert isinstance(base, ast.MethodCall)
            links.append(base)
            base = base.receiver
        edges = self.check_value(base, "the edgeset")
        if not isinstance(edges, EdgeSetTy):
            raise self.error(
                base.pos, f"'{expr.method}' over a chain needs an edgeset, found {edges}"
            )
        info = EdgeApplyInfo(base, "apply", "")
        for link in reversed(links):
            self.check_chain_link(link, info)
        self.check_apply_call(expr, info, edges)
        expr.info = info
        return VERTEXSET if info.kind == "apply_modified" or info.returns_set else VOID

    def check_chain_link(self, link: ast.MethodCall, info: EdgeApplyInfo) -> None:
        """One `.from(..)`, `.to(..)`, `.srcFilter(..)` or `.dstFilter(..)`."""
        self.check_arity(link, 1)
        arg = link.args[0]
        name, _ = functor_parts(arg)
        is_function = name in self.functions and self.lookup(name or "") is None
        if link.method == "from" and not is_function:
            if info.frontier is not None:
                raise self.error(link.method_pos, "the edgeset apply already has a 'from' frontier")
            ty = self.check_value(arg, "the frontier")
            if ty != VERTEXSET:
                raise self.error(
                    arg.pos, f"from(...) needs a vertexset or a filter function, found {ty}"
                )
            info.frontier = arg
            return
        if link.method == "to" and not is_function:
            raise self.error(arg.pos, "to(...) needs a filter function (Vertex) -> bool")
        attr, role = FILTER_LINKS[link.method]
        if getattr(info, attr) is not None:
            raise self.error(link.method_pos, f"the edgeset apply already has a {role}")
        setattr(info, attr, self.vertex_function(arg, role, returns_bool=True))

    def check_apply_call(self, expr: ast.MethodCall, info: EdgeApplyInfo, edges: EdgeSetTy) -> None:
        """The final `apply(f)`, `applyModified(f, vec[, disable_dedup])` or
        `applyUpdatePriority(f)` of a chain.

        As in GraphIt's parser (`ApplyExpr::disable_deduplication`), the optional
        third argument of `applyModified` *disables* deduplication: the output
        frontier is deduplicated (`dedup`) unless it is `true`."""
        if expr.method == "applyModified":
            self.check_arity(expr, (2, 3))
            info.kind = "apply_modified"
        else:
            self.check_arity(expr, 1)
            info.kind = "apply" if expr.method == "apply" else "apply_update_priority"
        udf = self.check_edge_udf(expr.args[0], edges, may_return_bool=info.kind == "apply")
        info.udf = udf.name
        info.returns_set = udf.output is not None
        if info.kind != "apply_modified":
            return
        vector = self.vector_of(expr.args[1], "the tracked vector of applyModified")
        tracked = expr.args[1]
        assert isinstance(tracked, ast.Name)
        if vector.size is not None or vector.lanes is not None:
            raise self.error(
                tracked.pos,
                f"the tracked vector '{tracked.name}' must be a vector{{Vertex}} of scalars",
            )
        if tracked.name not in udf.writes:
            raise self.error(
                tracked.pos,
                f"applyModified tracks '{tracked.name}', which '{udf.name}' never writes",
            )
        info.tracked = tracked.name
        info.dedup = True
        if len(expr.args) == 3:
            flag = expr.args[2]
            if not isinstance(flag, ast.BoolLit):
                raise self.error(
                    flag.pos,
                    "the third argument of applyModified (disable deduplication) must be true or false",
                )
            flag.ty = BOOL
            info.dedup = not flag.value

    def check_edge_udf(self, arg: ast.Expr, edges: EdgeSetTy, may_return_bool: bool) -> FuncInfo:
        """The edge function: `(Vertex, Vertex)` or `(Vertex, Vertex, weight)`,
        returning nothing, or a bool where `may_return_bool` (GraphIt's `apply`
        that builds a frontier)."""
        udf = self.function_arg(arg, "the edge function")
        params = [p.ty for p in udf.params]
        if len(params) == 3 and params[:2] == [VERTEX, VERTEX] and edges.weight is None:
            raise self.error(
                arg.pos, f"edge function '{udf.name}' takes a weight, but the edgeset is unweighted"
            )
        expected = [VERTEX, VERTEX] + ([edges.weight] if len(params) == 3 and edges.weight else [])
        returns_bool = may_return_bool and udf.result == BOOL
        if params != expected or (udf.output is not None and not returns_bool):
            shape = ", ".join(str(t) for t in expected)
            results = "nothing or bool" if may_return_bool else "nothing"
            raise self.error(
                arg.pos,
                f"edge function '{udf.name}' must be a function ({shape}) -> {results}, it is {udf.signature()}",
            )
        return udf

    # -- new -------------------------------------------------------------------------------

    def check_new(self, expr: ast.Expr) -> Ty:
        """`new vertexset{Vertex}(n)`, `new list{...}()`,
        `new priority_queue{Vertex}(T)(dup_within, dup_across, vec, bucket_order,
        priority_order, init_bucket, start)`."""
        assert isinstance(expr, ast.New)
        ty = self.resolve_type(expr.type)
        if ty == VERTEXSET:
            self.check_new_arity(expr, 1)
            count = self.check_value(expr.args[0], "the size")
            if not (is_integer(count) or count == VERTEXSET):
                raise self.error(
                    expr.args[0].pos, f"a vertexset's initial size must be int, found {count}"
                )
            return ty
        if isinstance(ty, ListTy):
            self.check_new_arity(expr, 0)
            return ty
        if isinstance(ty, PriorityQueueTy):
            self.check_new_queue(expr, ty)
            return ty
        raise self.error(expr.pos, f"cannot create a {ty} with 'new'")

    def check_new_arity(self, expr: ast.New, count: int) -> None:
        """`new T(...)` with exactly `count` arguments."""
        if len(expr.args) != count:
            raise self.error(
                expr.pos, f"'new' of this type takes {count} argument(s), got {len(expr.args)}"
            )

    def check_new_queue(self, expr: ast.New, queue: PriorityQueueTy) -> None:
        """The seven constructor arguments of a priority queue."""
        self.check_new_arity(expr, 7)
        kinds = (ast.BoolLit, ast.BoolLit, None, ast.IntLit, ast.IntLit, ast.BoolLit, None)
        for arg, kind in zip(expr.args, kinds, strict=True):
            if kind is not None:
                if not isinstance(arg, kind):
                    literal = "true or false" if kind is ast.BoolLit else "an integer literal"
                    raise self.error(arg.pos, f"this priority queue argument must be {literal}")
                self.check_expr(arg)
        vector = self.vector_of(expr.args[2], "the priority vector")
        if vector.size is not None or vector.lanes is not None or vector.elem != queue.priority:
            raise self.error(
                expr.args[2].pos,
                f"the priority vector must be a vector{{Vertex}}({queue.priority}), found {vector}",
            )
        start = self.check_value(expr.args[6], "the start vertex")
        if not is_vertex_like(start):
            raise self.error(
                expr.args[6].pos, f"the start vertex must be a Vertex or int, found {start}"
            )


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
    reductions, and `compare_and_swap` targets."""
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
    return written


def indexed_vector(expr: ast.Index) -> ast.Name | None:
    """The vector an element access `v[i]` or lane access `v[i][j]` names."""
    base = expr.base.base if isinstance(expr.base, ast.Index) else expr.base
    return base if isinstance(base, ast.Name) else None


def check_program(program: ast.Program, filename: str) -> SemaInfo:
    """Resolves names and checks types; raises `SourceError` for the first error."""
    return Checker(program, filename).check()
