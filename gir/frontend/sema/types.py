"""GraphIt's types as sema knows them (`Ty`), and the rules by which values of
one type are stored as, or computed with, another (C's, as GraphIt follows them)."""

from __future__ import annotations

from dataclasses import dataclass



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
class NumberListTy(Ty):
    """`list{int}` (any number type): a host value, as strings are."""

    element: ScalarTy

    def __str__(self) -> str:
        return f"list{{{self.element}}}"


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
