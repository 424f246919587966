"""Calls of user functions and builtins, and the function arguments an apply or
filter takes (`f`, a functor `f[values]`)."""

from __future__ import annotations

from gir.frontend import ast
from gir.frontend.sema.base import CheckerBase
from gir.frontend.sema.symbols import FuncInfo, functor_parts
from gir.frontend.sema.types import (
    BOOL,
    EdgeSetTy,
    DOUBLE,
    FLOAT,
    INT,
    STRING,
    UINT64,
    VERTEX,
    VERTEXSET,
    VOID,
    ScalarTy,
    Ty,
    VectorTy,
    arithmetic_type,
    is_assignable,
    is_vertex_like,
)
from gir.frontend.sema.vocabulary import BUILTINS, MATH_BUILTINS, WRITE_MIN_MAX


class CallChecks(CheckerBase):
    """Checks calls and function arguments."""

    def check_call(self, expr: ast.Expr) -> Ty:
        """A call of a builtin or a user function."""
        assert isinstance(expr, ast.Call)
        if expr.name in BUILTINS and expr.name not in self.functions:
            if expr.captures:
                raise self.error(expr.pos, f"'{expr.name}' is a builtin: it captures no values")
            expr.target = expr.name
            return self.check_builtin(expr)
        function = self.functions.get(expr.name)
        if function is None:
            if self.lookup(expr.name) is not None:
                raise self.error(expr.pos, f"'{expr.name}' is not a function")
            raise self.error(expr.pos, f"call of undefined function '{expr.name}'")
        if function.name == "main":
            raise self.error(expr.pos, "'main' cannot be called")
        if function.captures or expr.captures:
            function = self.functor_call(expr, function)
        self.check_arity(expr, len(function.params))
        if function.over_vectors:
            function = self.specialize_call(expr, function)
        # a constant's initializer runs at the start of main
        caller = self.current.name if self.current is not None else "main"
        self.calls.setdefault(caller, []).append(expr)
        for index, (arg, param) in enumerate(zip(expr.args, function.params, strict=True)):
            if isinstance(param.ty, VectorTy):  # an extern function's vector
                self.bind_vector(arg, param, function)
                continue
            if param.ty == STRING and isinstance(arg, ast.Argv):
                arg.ty = STRING  # the argument's text, as `load_coords(argv[1], n)` passes it
                continue
            ty = self.check_value(arg, f"argument {index + 1}")
            if not self.storable(arg, ty, param.ty):
                raise self.error(
                    arg.pos,
                    f"argument {index + 1} of '{function.name}' must be {param.ty}, found {ty}",
                )
        expr.target = function
        return function.result

    def functor_call(self, expr: ast.Call, function: FuncInfo) -> FuncInfo:
        """`f[values](args)`: a functor called as a function, as GraphIt allows.
        Its vector captures bind a specialization of `f` (by reference, as an
        apply's functor does); its other values are stored before the call
        (`functor_uses`), so `expr.captures` keeps only those."""
        if not function.captures:
            raise self.error(expr.pos, f"'{function.name}' captures no values: call it as {function.name}(...)")
        if not expr.captures:
            raise self.error(
                expr.pos,
                f"'{function.name}' captures values: give them, {function.name}[...](...), "
                "or pass it to an apply as a functor",
            )
        functor = ast.Functor(expr.pos, expr.name, expr.captures)
        callee, expr.captures = self.bind_functor(functor, "the called functor", vector_params=True)
        if expr.captures:
            self.functor_uses[expr] = (callee, expr.captures)
        expr.name = callee.name
        return callee

    def specialize_call(self, expr: ast.Call, function: FuncInfo) -> FuncInfo:
        """A call `f(..., vec, ...)` of a function with vector parameters becomes
        a call of `f`'s specialization for the vectors given, with the other
        arguments (`sema.specialize`)."""
        bound = [
            self.bind_vector(arg, param, function)
            for arg, param in zip(expr.args, function.params, strict=True)
            if isinstance(param.ty, VectorTy)
        ]
        clone = self.specialize(function, bound)
        expr.args = [
            arg
            for arg, param in zip(expr.args, function.params, strict=True)
            if not isinstance(param.ty, VectorTy)
        ]
        expr.name = clone.name
        return clone

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
        """`startTimer()`, `stopTimer()`, `atoi(argv[N])` or `atoi(s)` of a string, the math functions
        (`check_math`), `compare_and_swap(a[i], old, new)`."""
        if expr.name in ("startTimer", "stopTimer"):
            self.check_arity(expr, 0)
            return VOID if expr.name == "startTimer" else FLOAT
        if expr.name == "atoi":
            self.check_arity(expr, 1)
            if not isinstance(expr.args[0], ast.Argv):
                if self.check_expr(expr.args[0]) != STRING:
                    raise self.error(expr.args[0].pos, "atoi takes argv[N] or a string")
                return INT
            expr.args[0].ty = INT
            return INT
        if expr.name in MATH_BUILTINS:
            return self.check_math(expr)
        if expr.name in ("min", "max"):
            return self.check_min_max(expr)
        if expr.name in WRITE_MIN_MAX:
            return self.check_write_min_max(expr)
        if expr.name == "intersectNeighbor":
            return self.check_intersect_neighbor(expr)
        return self.check_compare_and_swap(expr)

    def check_intersect_neighbor(self, expr: ast.Call) -> Ty:
        """`intersectNeighbor(edges, src, dst)` (GraphIt's triangle counting): the
        number of common out-neighbours `w <= dst` of two vertices, a `uint_64`."""
        self.check_arity(expr, 3)
        edges, *ends = expr.args
        if not isinstance(self.check_value(edges, "the edgeset"), EdgeSetTy):
            raise self.error(edges.pos, "intersectNeighbor takes an edgeset first")
        for index, end in enumerate(ends, 2):
            ty = self.check_value(end, f"argument {index}")
            if not is_vertex_like(ty):
                raise self.error(end.pos, f"intersectNeighbor needs a vertex, found {ty}")
        return UINT64

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

    def check_min_max(self, expr: ast.Call) -> Ty:
        """GraphIt's `min(a, b)` / `max(a, b)`: two numbers (vertices as their
        ids), compared in their arithmetic type, which the call gives."""
        self.check_arity(expr, 2)
        left, right = (
            INT if ty == VERTEX else ty
            for ty in (self.check_value(arg, f"argument {i}") for i, arg in enumerate(expr.args, 1))
        )
        common = arithmetic_type(left, right)
        if common is None:
            raise self.error(expr.pos, f"{expr.name} needs two numbers, found {left} and {right}")
        return common

    def check_write_min_max(self, expr: ast.Call) -> Ty:
        """GraphIt's `writeMin(v, i, x)` (`writeMax`): `v[i] min= x` (`max=`) as
        an expression, true when the element changed. Its arguments become the
        element `v[i]` and the value."""
        self.check_arity(expr, 3)
        vector, index, value = expr.args
        if not isinstance(vector, ast.Name):
            raise self.error(vector.pos, f"{expr.name} needs a vector as its first argument")
        element = ast.Index(vector.pos, vector, index)
        elem = self.check_expr(element)
        if not (isinstance(elem, ScalarTy) and elem.is_numeric):
            raise self.error(vector.pos, f"{expr.name} needs a vector of numbers, found {vector.ty}")
        ty = self.check_value(value, "the value")
        if not self.storable(value, ty, elem):
            raise self.error(value.pos, f"{expr.name} on {elem} elements cannot take {ty}")
        expr.args = [element, value]
        return BOOL

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
        function, scalars = self.bind_functor(arg, role, vector_params=False)
        if scalars:
            self.functor_uses[arg] = (function, scalars)
        self.device_roots.add(function.name)
        return function

    def bind_functor(
        self, arg: ast.Expr, role: str, vector_params: bool
    ) -> tuple[FuncInfo, list[ast.Expr]]:
        """The function `f` or functor `f[values]` names (specialized for the
        vectors it captures; with `vector_params`, still taking its vector
        parameters) and the values of its other captures."""
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
        scalars: list[ast.Expr] = []
        bound = []
        for value, capture in zip(values, function.captures, strict=True):
            if isinstance(capture.ty, VectorTy):
                bound.append(self.bind_vector(value, capture, function))
                continue
            ty = self.check_value(value, f"the value of '{capture.name}'")
            if ty == VERTEXSET or not self.storable(value, ty, capture.ty):
                raise self.error(value.pos, f"'{capture.name}' is {capture.ty}, found {ty}")
            scalars.append(value)
        if function.over_vectors:
            if any(isinstance(p.ty, VectorTy) for p in function.params):
                if not vector_params:
                    raise self.error(
                        arg.pos,
                        f"{role} '{name}' takes a vector parameter: an apply gives it vertices "
                        "(capture the vector instead: func f[v : vector{Vertex}(T)](...))",
                    )
                if bound:
                    raise self.error(
                        arg.pos,
                        f"{role} '{name}' captures vectors and takes vector parameters: "
                        "capture them all, or pass them all as parameters",
                    )
            elif bound:
                function = self.specialize(function, bound)
        return function, scalars

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
