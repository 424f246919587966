"""Expressions: literals, names, vector accesses, operators and `new`; each gets
its type (`Expr.ty`)."""

from __future__ import annotations

from collections.abc import Callable

from gir.frontend import ast
from gir.frontend.sema.base import CheckerBase
from gir.frontend.sema.meanings import GetVertices, VertexCount
from gir.frontend.sema.symbols import Symbol, literal_int
from gir.frontend.sema.types import (
    BOOL,
    FLOAT,
    INT,
    INT64,
    STRING,
    UINT64,
    VERTEX,
    VERTEXSET,
    VOID,
    ListTy,
    NumberListTy,
    PriorityQueueTy,
    Ty,
    VectorTy,
    arithmetic_type,
    is_integer,
    is_vertex_like,
)
from gir.frontend.sema.vocabulary import BUILTINS


class ExpressionChecks(CheckerBase):
    """Types expressions."""

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
            and isinstance(expr.info, GetVertices)
        ):
            expr.info = VertexCount()
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
        if expr.op in ("==", "!=") and STRING in (left, right):
            for side in (expr.left, expr.right):
                if isinstance(side, ast.Argv):
                    side.ty = STRING  # `argv[2] == "rmat"` compares the text
            if any(side.ty != STRING for side in (expr.left, expr.right)):
                raise self.error(expr.pos, f"'{expr.op}' cannot compare {left} and {right}")
            expr.operand_ty = STRING  # compares the texts
            return BOOL
        if expr.op in ("==", "!=") and left == BOOL and right == BOOL:
            expr.operand_ty = BOOL
            return BOOL
        common = arithmetic_type(left, right)
        if common is None:
            raise self.error(expr.pos, f"'{expr.op}' cannot combine {left} and {right}")
        expr.operand_ty = common
        return BOOL if expr.op in ("==", "!=", "<", ">", "<=", ">=") else common

    # -- new -------------------------------------------------------------------------------

    def check_new(self, expr: ast.Expr) -> Ty:
        """`new vertexset{Vertex}(n)`, `new list{...}()`,
        `new priority_queue{Vertex}(T)(dup_within, dup_across, vec, bucket_order,
        priority_order, init_bucket, start)`."""
        assert isinstance(expr, ast.New)
        # a list of numbers lives on the host: where the new list may be kept is
        # the variable's check (`check_var`)
        ty = self.resolve_type(expr.type, allow_string=isinstance(expr.type, ast.ListTypeExpr))
        if ty == VERTEXSET:
            self.check_new_arity(expr, 1)
            count = self.check_value(expr.args[0], "the size")
            if not (is_integer(count) or count == VERTEXSET):
                raise self.error(
                    expr.args[0].pos, f"a vertexset's initial size must be int, found {count}"
                )
            return ty
        if isinstance(ty, ListTy | NumberListTy):
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
