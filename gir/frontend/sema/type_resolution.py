"""Type expressions as written (`vector{Vertex}(float)`) to sema's types."""

from __future__ import annotations

from gir.frontend import ast
from gir.frontend.ast import Pos
from gir.frontend.sema.base import CheckerBase
from gir.frontend.sema.types import (
    BOOL,
    STRING,
    VERTEX,
    VERTEXSET,
    EdgeSetTy,
    ListTy,
    NumberListTy,
    PriorityQueueTy,
    ScalarTy,
    Ty,
    VectorTy,
)
from gir.frontend.sema.vocabulary import MAX_VECTOR_SIZE, SCALAR_NAMES


class TypeResolution(CheckerBase):
    """Resolves type expressions."""

    def resolve_type(
        self, type_expr: ast.TypeExpr, allow_vector: bool = False, allow_string: bool = False
    ) -> Ty:
        """The type a type expression denotes; `string` only where `allow_string`
        (a local of `main`: strings live on the host only)."""
        if isinstance(type_expr, ast.ScalarTypeExpr):
            if type_expr.name == "string":
                if not allow_string:
                    raise self.error(
                        type_expr.pos,
                        "strings are host values: a string can only be a local variable of main",
                    )
                return STRING
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
            item = self.resolve_type(type_expr.item)
            if item == VERTEXSET:
                return ListTy()
            if not isinstance(item, ScalarTy) or item == BOOL:
                raise self.error(
                    type_expr.pos, f"lists hold vertexsets or numbers, not {item}"
                )
            if not allow_string:
                raise self.error(
                    type_expr.pos,
                    "lists of numbers are host values: such a list can only be a local "
                    "variable of main or an extern function's parameter",
                )
            return NumberListTy(item)
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
                "a vector cannot be used here: vectors are declared (const or var), "
                "passed to functions and returned by functions that run on the host",
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
