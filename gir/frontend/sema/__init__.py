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

The package is split by concern: `types` (GraphIt's types and conversions),
`symbols` (what sema finds: `Symbol`, `FuncInfo`, what calls mean, `SemaInfo`),
`vocabulary` (builtin names), and one checker mixin per concern over
`base.CheckerBase` (`declarations`, `type_resolution`, `statements`,
`expressions`, `calls`, `methods`, `edge_applies`), combined in `checker.Checker`.
"""

from gir.frontend.sema.checker import Checker, check_program
from gir.frontend.sema.meanings import Method
from gir.frontend.sema.symbols import (
    EdgeApplyInfo,
    FuncInfo,
    SemaInfo,
    Symbol,
    SymbolKind,
    capture_vector,
    edge_applies,
    functor_parts,
    literal_int,
)
from gir.frontend.sema.types import (
    BOOL,
    DOUBLE,
    FLOAT,
    INT,
    INT64,
    STRING,
    UINT,
    UINT64,
    VERTEX,
    VERTEXSET,
    VOID,
    EdgeSetTy,
    ListTy,
    NumberListTy,
    PriorityQueueTy,
    ScalarTy,
    StringTy,
    Ty,
    VectorTy,
    VertexSetTy,
    VertexTy,
    VoidTy,
)
from gir.frontend.sema.vocabulary import GET_NGH_LOOP_UNSUPPORTED, MAX_VECTOR_SIZE

__all__ = [
    "BOOL", "DOUBLE", "FLOAT", "INT", "INT64", "STRING", "UINT", "UINT64",
    "VERTEX", "VERTEXSET", "VOID",
    "Checker", "EdgeApplyInfo", "EdgeSetTy", "FuncInfo", "ListTy", "Method", "NumberListTy",
    "PriorityQueueTy", "ScalarTy", "SemaInfo", "StringTy", "Symbol", "SymbolKind", "Ty",
    "VectorTy", "VertexSetTy", "VertexTy", "VoidTy",
    "GET_NGH_LOOP_UNSUPPORTED", "MAX_VECTOR_SIZE",
    "capture_vector", "check_program", "edge_applies", "functor_parts", "literal_int",
]  # fmt: skip
