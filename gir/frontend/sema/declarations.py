"""The program's declarations: elements, function signatures, externs, constants
and their initializers, and the checks on where things may be used that need
the whole program (externs from the host, local vectors and `getNgh` on the
device, `main`)."""

from __future__ import annotations

from gir.dialects.gir_gpu import LIBRARY_NAMES, check_kernel_name
from gir.frontend import ast
from gir.frontend.ast import Pos
from gir.frontend.sema.base import CheckerBase
from gir.frontend.sema.meanings import OutDegrees
from gir.frontend.sema.symbols import (
    FuncInfo,
    SemaInfo,
    Symbol,
    SymbolKind,
    capture_vector,
    literal_int,
    vector_writes,
)
from gir.frontend.sema.types import (
    INT,
    STRING,
    VERTEX,
    VERTEXSET,
    EdgeSetTy,
    ScalarTy,
    NumberListTy,
    StringTy,
    Ty,
    VectorTy,
    is_integer,
)
from gir.frontend.sema.vocabulary import BUILTINS, DEGREE_METHODS, GET_NGH_ON_DEVICE


class DeclarationChecks(CheckerBase):
    """Declarations and whole-program checks."""

    def check(self) -> SemaInfo:
        """Checks the whole program and returns what irgen needs."""
        self.collect_elements()
        self.collect_functions()
        for decl in self.program.consts:
            self.check_const(decl)
        self.check_capture_names()
        for function in list(self.functions.values()):
            if not function.decl.extern and not function.over_vectors:
                self.check_function(function)
        self.check_specializations()
        self.check_main()
        self.check_extern_calls()
        self.check_local_vector_places()
        self.check_get_ngh_places()
        return SemaInfo(
            [*self.globals.values(), *(symbol for _, symbol in self.local_vectors)],
            {name: f for name, f in self.functions.items() if not f.over_vectors},
            self.labels,
            self.label_stmts,
            self.functor_uses,
            self.conversions,
            relabels=self.relabels,
            label_copies=self.label_copies,
        )

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
                ty = (
                    self.resolve_type(param.type, allow_vector=True, allow_string=True)
                    if decl.extern
                    else self.resolve_param_type(param.type)
                )
                if decl.extern and ty == VERTEX:
                    ty = INT  # the user's code takes a vertex as its id
                param.symbol = Symbol(param.name, ty, SymbolKind.PARAM, param.pos)
                params.append(param.symbol)
            output: Symbol | None = None
            if decl.output is not None:
                if any(p.name == decl.output.name for p in params):
                    raise self.error(
                        decl.output.pos, f"output '{decl.output.name}' is already a parameter"
                    )
                decl.output.symbol = self.output_symbol(decl, decl.output)
                output = decl.output.symbol
            self.functions[decl.name] = FuncInfo(
                decl.name, decl, params, output, vector_writes(decl.body),
                self.resolve_captures(decl, params),
            )  # fmt: skip
            if decl.extern:
                self.check_extern(self.functions[decl.name])

    def output_symbol(self, decl: ast.FuncDecl, output: ast.Param) -> Symbol:
        """A function's named output. A vector output (`-> ranks :
        vector{Vertex}(float)`) is a vector of the function's own, a global
        named `function_output` like a local vector; a call gives a copy of it
        (host functions only, as local vectors)."""
        if decl.extern and is_string_type(output.type):
            return Symbol(output.name, STRING, SymbolKind.OUTPUT, output.pos)
        if not (isinstance(output.type, ast.VectorTypeExpr) and not decl.extern):
            ty = self.resolve_value_type(output.type)
            return Symbol(output.name, ty, SymbolKind.OUTPUT, output.pos)
        ty = self.resolve_type(output.type, allow_vector=True)
        symbol = Symbol(output.name, ty, SymbolKind.OUTPUT, output.pos)
        taken = {
            *self.globals, *(d.name for d in self.program.consts),
            *(f.name for f in self.program.functions), *BUILTINS,
            *(s.global_name for _, s in self.local_vectors),
        }  # fmt: skip
        base = f"{decl.name}_{output.name}"
        candidates = [base, *(f"{base}_{n}" for n in range(2, len(taken) + 3))]
        symbol.storage = next(name for name in candidates if name not in taken)
        self.local_vectors.append((decl.name, symbol))
        return symbol

    def check_extern(self, function: FuncInfo) -> None:
        """An `extern func` is called by its own name in device C and in the
        host's C++: a C identifier that CUDA and OpenCL do not reserve. It takes
        scalars, strings and vectors and gives a scalar or a string; strings and
        vectors are host values, so only host code may call an extern over them
        (`check_extern_calls`)."""
        decl = function.decl
        # a library function's name (`pow`) is checked where C calls it: a
        # device call here, the complete CUDA program's host in its printer
        reason = None if decl.name in LIBRARY_NAMES else check_kernel_name(decl.name)
        if decl.name == "main" or reason is not None:
            self.refuse_extern_name(decl, reason or "'main' is the program's entry point")
        for symbol in function.params:
            if not isinstance(symbol.ty, ScalarTy | StringTy | VectorTy | NumberListTy):
                raise self.error(
                    symbol.pos,
                    f"extern function '{decl.name}' takes numbers, strings, vectors and lists of numbers, "
                    f"'{symbol.name}' is {symbol.ty}",
                )
        output = function.output
        if output is not None and not isinstance(output.ty, ScalarTy | StringTy):
            raise self.error(
                output.pos,
                f"extern function '{decl.name}' gives a number or a string, "
                f"'{output.name}' is {output.ty}",
            )

    def refuse_extern_name(self, decl: ast.FuncDecl, reason: str) -> None:
        """One error at an extern declaration whose name cannot be used."""
        reason = reason.replace("kernel name", "name")
        raise self.error(decl.pos, f"extern function '{decl.name}' cannot be declared: {reason}")

    def check_extern_calls(self) -> None:
        """Marks the calls of extern functions in host code (`main` and the
        functions it calls): the user's host implementation runs them. A
        function that runs on the device calls the device implementation, over
        scalars only; a function that runs on both cannot call an extern."""
        host = self.host_functions()
        device = self.device_functions()
        for caller, calls in self.calls.items():
            for call in calls:
                assert isinstance(call.target, FuncInfo)
                callee = call.target
                if not callee.decl.extern:
                    continue
                if caller in host and caller in device:
                    raise self.error(
                        call.pos,
                        f"extern function '{callee.name}' is called in '{caller}', which runs "
                        "both on the host (main calls it) and on the device (an apply runs "
                        "it): call it from one side only",
                    )
                call.on_host = caller in host
                if caller in device:
                    self.check_device_extern_call(call, callee)

    def check_device_extern_call(self, call: ast.Call, callee: FuncInfo) -> None:
        """A call of an extern from device code: device C calls it by a name the
        C library does not declare, over numbers only (strings and vectors are
        host values)."""
        if callee.name in LIBRARY_NAMES:
            self.refuse_extern_name(callee.decl, check_kernel_name(callee.name) or "")
        host_only = [p for p in callee.params if not isinstance(p.ty, ScalarTy)]
        if callee.output is not None and callee.output.ty == STRING:
            host_only.append(callee.output)
        if host_only:
            what = "a vector" if isinstance(host_only[0].ty, VectorTy) else "a string"
            raise self.error(
                call.pos,
                f"extern function '{callee.name}' takes or gives {what} "
                f"('{host_only[0].name}'), a host value: call it from main or a "
                "function main calls, not from a function an apply runs",
            )

    def host_functions(self) -> set[str]:
        """The functions that run on the host: `main` and those it calls."""
        host, pending = {"main"}, ["main"]
        while pending:
            for call in self.calls.get(pending.pop(), []):
                assert isinstance(call.target, FuncInfo)
                if call.target.name not in host and not call.target.decl.extern:
                    host.add(call.target.name)
                    pending.append(call.target.name)
        return host

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

    def resolve_param_type(self, type_expr: ast.TypeExpr) -> Ty:
        """A parameter's or capture's type: a value type, or a vector (passed by
        reference: see `sema.specialize`)."""
        return self.resolve_type(type_expr, allow_vector=isinstance(type_expr, ast.VectorTypeExpr))

    def resolve_captures(self, decl: ast.FuncDecl, params: list[Symbol]) -> list[Symbol]:
        """A functor's captures: scalars or vectors, named apart from its parameters."""
        captures: list[Symbol] = []
        for capture in decl.captures:
            if any(s.name == capture.name for s in [*captures, *params]):
                raise self.error(capture.pos, f"'{capture.name}' is already defined")
            ty = self.resolve_param_type(capture.type)
            if not isinstance(ty, ScalarTy | VectorTy):
                raise self.error(
                    capture.pos, f"captured values must be scalars or vectors, not {ty}"
                )
            capture.symbol = Symbol(capture.name, ty, SymbolKind.CAPTURE, capture.pos)
            captures.append(capture.symbol)
        return captures

    def check_capture_names(self) -> None:
        """The vector that carries a captured value must not clash with a name."""
        for function in self.functions.values():
            for capture in function.captures:
                if isinstance(capture.ty, VectorTy):
                    continue
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
        if ty == VERTEX:
            ty = INT  # a global vertex (astar's `dst_vertex`) is kept as its id
        self.scopes = [{}]
        self.current = None
        if decl.init is not None:
            decl.init = self.check_initializer(decl.init, ty, decl.name)
            value = literal_int(decl.init)
            if is_integer(ty) and value is not None:
                self.constant_ints[decl.name] = value
        elif isinstance(ty, EdgeSetTy):
            raise self.error(
                decl.name_pos, f"edgeset '{decl.name}' needs an initializer such as load(argv[1])"
            )
        decl.symbol = Symbol(decl.name, ty, SymbolKind.GLOBAL, decl.name_pos)
        self.globals[decl.name] = decl.symbol

    def check_initializer(self, init: ast.Expr, ty: Ty, name: str) -> ast.Expr:
        """An initial value (or assigned value) `init` for `name` of type `ty`;
        the expression to store, which differs from `init` where an integer is
        stored in a bool (`integer_as_bool`)."""
        if isinstance(init, ast.Load):
            self.check_load(init, ty)
            return init
        if isinstance(ty, VectorTy):
            self.check_vector_value(init, ty, name)
            return init
        if ty == STRING and isinstance(init, ast.Argv):
            init.ty = STRING  # the argument's text, not atoi's number
            return init
        value = self.check_expr(init)
        stored = self.integer_as_bool(init, value, ty)
        if not self.storable(stored, stored.ty or value, ty):
            raise self.error(init.pos, f"cannot assign {value} to '{name}' of type {ty}")
        return stored

    def check_vector_value(self, init: ast.Expr, ty: VectorTy, name: str) -> None:
        """A whole-vector value: a scalar to fill it with (every lane of a vector
        of vectors), `edges.getOutDegrees()` (`getOutDegreesUint()` for a
        `vector{Vertex}(uint)`), another vector of the same type to copy, or a
        literal `{a, b, ...}` with one value per element of a `vector[N](T)`."""
        if isinstance(init, ast.VectorLit):
            self.check_vector_literal(init, ty, name)
            return
        if isinstance(init, ast.New) and isinstance(init.type, ast.VectorTypeExpr):
            self.check_new_vector(init, ty, name)
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
            init.info = OutDegrees()
            init.ty = ty
            return
        if self.names_vector(init):
            source = self.vector_of(init, "the copied vector")
            if source != ty:
                raise self.error(init.pos, f"cannot copy {source} into '{name}' of type {ty}")
            return
        value = self.check_expr(init)
        if isinstance(value, VectorTy):  # a call of a function returning a vector
            if value != ty:
                raise self.error(init.pos, f"cannot copy {value} into '{name}' of type {ty}")
            return
        if value == VERTEXSET or not self.storable(init, value, ty.elem):
            raise self.error(init.pos, f"cannot initialize '{name}' of type {ty} with {value}")

    def check_new_vector(self, init: ast.New, ty: VectorTy, name: str) -> None:
        """GraphIt's `new vector{Vertex}(T)()`, a fresh vector of `name`'s type:
        its storage is allocated once, so this gives it zeros afresh."""
        made = self.resolve_type(init.type, allow_vector=True)
        if made != ty:
            raise self.error(init.pos, f"cannot assign a new {made} to '{name}' of type {ty}")
        self.check_new_arity(init, 0)
        init.ty = ty

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


def is_string_type(type_expr: ast.TypeExpr) -> bool:
    """Whether `type_expr` is GraphIt's `string`."""
    return isinstance(type_expr, ast.ScalarTypeExpr) and type_expr.name == "string"
