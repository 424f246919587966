"""GraphIt's built-in names as sema knows them: builtin functions, methods by
receiver, scalar type names, apply-chain links, and the limits and messages
that several checks share."""

from __future__ import annotations

from gir.dialects.graph import ReduceKind
from gir.frontend import ast
from gir.frontend.sema.types import BOOL, DOUBLE, FLOAT, INT, INT64, UINT, UINT64


MAX_VECTOR_SIZE = 2**31 - 1
"""Most elements of a `vector[N]` (lanes included): device indices are 32-bit."""
VECTOR_REDUCTIONS = {"sum": ReduceKind.ADD, "max": ReduceKind.MAX, "min": ReduceKind.MIN}
"""Whole-vector reduction methods and how each reduces."""
DEGREE_METHODS = {"getOutDegrees": INT, "getOutDegreesUint": UINT}
"""The edgeset methods that give every vertex's out-degree, and its element type."""
MATH_BUILTINS = {
    "fabs": 1, "exp": 1, "log": 1, "log1p": 1, "sqrt": 1, "fmax": 2, "fmin": 2,
}  # fmt: skip
"""C's math functions an expression may call, and how many arguments each takes:
they compute in the arguments' common float type (`float` for integers)."""
WRITE_MIN_MAX = {"writeMin": "min=", "writeMax": "max="}
"""GraphIt's `writeMin(v, i, x)` / `writeMax`: `v[i] min= x` as an expression,
true when the element changed."""
BUILTINS = (
    "startTimer", "stopTimer", "atoi", "compare_and_swap", "intersectNeighbor", "min", "max",
    *WRITE_MIN_MAX, *MATH_BUILTINS,
)
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
