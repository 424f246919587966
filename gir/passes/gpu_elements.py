"""Vector elements in device code (not a pass): a vector's element type on the
device, conversions to and from it, the position of a vector's element (lanes of
a vector of fixed-size arrays), comparisons and reductions of elements, and the
module's global vectors."""

from __future__ import annotations


from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    i1,
    i8,
    i32,
)
from xdsl.ir import Attribute, SSAValue

from gir.dialects import host
from gir.dialects.graph import GlobalOp, ReduceKind, VectorType
from gir.passes.gpu_kernels import as_i32, as_index, constant

# -- vector elements -------------------------------------------------------------


def element_type(vector: VectorType) -> Attribute:
    """A vector's element type on the device (bool: i8)."""
    return i8 if vector.element_type == i1 else vector.element_type


def to_element(b: Builder, value: SSAValue, vector: VectorType) -> SSAValue:
    """`value` as stored in `vector`'s buffer (a bool as an i8)."""
    if vector.element_type == i1:
        return b.insert(arith.ExtUIOp(value, i8)).result
    return value


def from_element(b: Builder, value: SSAValue, vector: VectorType) -> SSAValue:
    """An element loaded from `vector`'s buffer as the vector's type."""
    if vector.element_type == i1:
        return b.insert(arith.TruncIOp(value, i1)).result
    return value


def element_position(
    b: Builder, vector: VectorType, index: SSAValue, lane: SSAValue | None, on_device: bool = True
) -> SSAValue:
    """Where `vector[index]` (or its lane `lane`, for a vector of fixed-size
    vectors) lies in the vector's buffer: the lanes of one element are
    contiguous, so lane `l` of element `i` is at `i * lanes + l`. An `index` on
    the device, an i32 for the host's reads and writes (the printers spell both
    `int`: `|V| * lanes` must stay below 2^31)."""
    cast = as_index if on_device else as_i32
    position = cast(b, index)
    if lane is None:
        return position
    lanes = constant(b, vector.lane_count, IndexType() if on_device else i32)
    scaled = b.insert(arith.MuliOp(position, lanes)).result
    return b.insert(arith.AddiOp(scaled, cast(b, lane))).result


def _is_float(value_type: Attribute) -> bool:
    return not isinstance(value_type, IntegerType)


def compare(b: Builder, predicate: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    """`lhs <predicate> rhs` with predicate one of eq, ne, gt, lt (signed/ordered),
    or ugt, ult (integers read as unsigned)."""
    if _is_float(lhs.type):
        names = {"eq": "oeq", "ne": "one", "gt": "ogt", "lt": "olt"}
        return b.insert(arith.CmpfOp(lhs, rhs, names[predicate])).result
    names = {"eq": "eq", "ne": "ne", "gt": "sgt", "lt": "slt", "ugt": "ugt", "ult": "ult"}
    return b.insert(arith.CmpiOp(lhs, rhs, names[predicate])).result


def combine(b: Builder, kind: ReduceKind, old: SSAValue, value: SSAValue) -> SSAValue:
    """`old` reduced with `value` by `kind` (min, max, add, or umin, umax of
    integers)."""
    floating = _is_float(value.type)
    ops = {
        ReduceKind.MIN: arith.MinimumfOp if floating else arith.MinSIOp,
        ReduceKind.MAX: arith.MaximumfOp if floating else arith.MaxSIOp,
        ReduceKind.ADD: arith.AddfOp if floating else arith.AddiOp,
        ReduceKind.UMIN: arith.MinUIOp,
        ReduceKind.UMAX: arith.MaxUIOp,
    }
    return b.insert(ops[kind](old, value)).result


def zero(b: Builder, value_type: Attribute) -> SSAValue:
    """The zero of an integer or float type."""
    if isinstance(value_type, IntegerType):
        return b.insert(arith.ConstantOp(IntegerAttr(0, value_type))).result
    return b.insert(arith.ConstantOp(FloatAttr(0.0, value_type))).result  # type: ignore[arg-type]


def global_vectors(module: ModuleOp) -> dict[str, VectorType]:
    """The module's global vectors (`graph.global` of a vector type) by name."""
    return {
        op.sym_name.data: op.global_type
        for op in module.ops
        if isinstance(op, GlobalOp) and isinstance(op.global_type, VectorType)
    }
