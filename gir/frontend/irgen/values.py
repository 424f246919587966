"""GraphIt's types and operators as IR: the IR type of each GraphIt type, the
ops of each operator by operand type, and constants as signless integers."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import Float32Type, Float64Type, IntegerType, f32, f64, i1, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue

from gir.dialects.printing import NumberListType
from gir.dialects import graph
from gir.dialects.printing import StringType
from gir.frontend.sema import (
    BOOL,
    DOUBLE,
    FLOAT,
    INT,
    INT64,
    UINT,
    UINT64,
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
)
from gir.frontend.sema.meanings import (
    CurrentPriority,
    DequeueReadySet,
    GetVertices,
    Method,
    QueueFinished,
    Transpose,
    VertexSetSize,
)


SCALAR_IR: dict[ScalarTy, Attribute] = {
    INT: i32, UINT: i32, INT64: i64, UINT64: i64, FLOAT: f32, DOUBLE: f64, BOOL: i1,
}  # fmt: skip
"""IR types are signless, as in MLIR: `uint` is an i32 whose comparisons,
divisions, widenings and conversions to float are the unsigned ops."""
F32_MAX = 3.4028234663852886e38
"""The largest finite f32; float literals beyond it become infinities (as in C++)."""
BinaryBuilder = Callable[[SSAValue, SSAValue], Operation]
INT_PREDICATES = {"==": "eq", "!=": "ne", "<": "slt", "<=": "sle", ">": "sgt", ">=": "sge"}
UINT_PREDICATES = {"==": "eq", "!=": "ne", "<": "ult", "<=": "ule", ">": "ugt", ">=": "uge"}
FLOAT_PREDICATES = {"==": "oeq", "!=": "une", "<": "olt", "<=": "ole", ">": "ogt", ">=": "oge"}
INT_ARITH: dict[str, BinaryBuilder] = {
    "+": arith.AddiOp, "-": arith.SubiOp, "*": arith.MuliOp, "/": arith.DivSIOp,
}  # fmt: skip
UINT_ARITH: dict[str, BinaryBuilder] = {**INT_ARITH, "/": arith.DivUIOp}
FLOAT_ARITH: dict[str, BinaryBuilder] = {
    "+": arith.AddfOp, "-": arith.SubfOp, "*": arith.MulfOp, "/": arith.DivfOp,
}  # fmt: skip
LOGIC: dict[str, BinaryBuilder] = {"and": arith.AndIOp, "or": arith.OrIOp, "xor": arith.XOrIOp}
REDUCE_KINDS = {
    "min=": graph.ReduceKind.MIN,
    "max=": graph.ReduceKind.MAX,
    "+=": graph.ReduceKind.ADD,
}


def unsigned_kind(kind: graph.ReduceKind, ty: Ty) -> graph.ReduceKind:
    """`kind` for elements of type `ty`: `min`/`max` of `uint` and `uint_64`
    compare as unsigned (`umin`/`umax`); integers are signless in the IR."""
    if isinstance(ty, ScalarTy) and ty.is_unsigned:
        unsigned = {graph.ReduceKind.MIN: graph.ReduceKind.UMIN, graph.ReduceKind.MAX: graph.ReduceKind.UMAX}
        return unsigned.get(kind, kind)
    return kind


RECEIVER_OPS: dict[type[Method], Callable[[SSAValue], Operation]] = {
    GetVertices: graph.GetVerticesOp,
    Transpose: graph.TransposeOp,
    VertexSetSize: graph.VertexSetSizeOp,
    DequeueReadySet: graph.DequeueReadySetOp,
    QueueFinished: graph.PriorityQueueFinishedOp,
    CurrentPriority: graph.GetCurrentPriorityOp,
}
"""The methods that are one op of their receiver, and that op."""


MATH_OPS: dict[str, Callable[..., Operation]] = {
    "fabs": math.AbsFOp,
    "exp": math.ExpOp,
    "log": math.LogOp,
    "log1p": math.Log1pOp,
    "sqrt": math.SqrtOp,
    "fmax": arith.MaxnumfOp,
    "fmin": arith.MinnumfOp,
}
"""The op each math builtin becomes (`fmax`/`fmin` as C's: a NaN argument loses)."""


def float_type(ty: ScalarTy) -> Float32Type | Float64Type:
    """The IR type of `float` (f32) or `double` (f64)."""
    return f64 if ty == DOUBLE else f32


def int_type(ty: ScalarTy) -> IntegerType:
    """The IR type of an integer type or `bool` (i1)."""
    return IntegerType(ty.width)


def arith_table(ty: ScalarTy) -> dict[str, BinaryBuilder]:
    """The builders of + - * / on `ty`."""
    if ty.is_float:
        return FLOAT_ARITH
    return UINT_ARITH if ty.is_unsigned else INT_ARITH


def wrapped(value: int, width: int) -> int:
    """`value` modulo 2**width, as the signed number a signless constant holds."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >= 1 << (width - 1) else value


def ir_type(ty: Ty) -> Attribute:
    """The IR type of a GraphIt type."""
    if isinstance(ty, ScalarTy):
        return SCALAR_IR[ty]
    if isinstance(ty, StringTy):
        return StringType()
    if isinstance(ty, VertexTy):
        return graph.VertexType()
    if isinstance(ty, EdgeSetTy):
        return graph.EdgeSetType(None if ty.weight is None else SCALAR_IR[ty.weight])
    if isinstance(ty, VertexSetTy):
        return graph.VertexSetType()
    if isinstance(ty, VectorTy):
        size = -1 if ty.size is None else ty.size
        return graph.VectorType(SCALAR_IR[ty.elem], size, ty.lanes or 0)
    if isinstance(ty, PriorityQueueTy):
        return graph.PriorityQueueType(SCALAR_IR[ty.priority])
    if isinstance(ty, ListTy):
        return graph.ListType()
    if isinstance(ty, NumberListTy):
        return NumberListType(SCALAR_IR[ty.element])
