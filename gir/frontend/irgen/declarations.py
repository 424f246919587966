"""The module: globals, functions (`main` runs the constants' initializers), the
carrying of functors' captured values, whole-vector initializations."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Block, Operation, Region

from gir.dialects import graph
from gir.frontend import ast
from gir.frontend.irgen.base import IRGenBase
from gir.frontend.irgen.locals import needs_default, set_name, vector_name
from gir.frontend.irgen.nesting import check_nesting
from gir.frontend.irgen.values import ir_type
from gir.frontend.sema import (
    INT,
    FuncInfo,
    ScalarTy,
    Symbol,
    VectorTy,
    capture_vector,
    literal_int,
)
from gir.frontend.sema.meanings import OutDegrees


class DeclarationGen(IRGenBase):
    """Builds the module, its globals and its functions."""

    def build(self) -> ModuleOp:
        """The whole module; its nesting checked against `gir.frontend.limits`."""
        ops: list[Operation] = []
        supplied = {decl.name for decl in self.program.consts if decl.supplied}
        for symbol in self.sema.globals:
            with self.located(symbol.pos):
                unsigned = isinstance(symbol.ty, VectorTy) and symbol.ty.elem.is_unsigned
                given = isinstance(symbol.ty, VectorTy) and symbol.global_name in supplied
                ops.append(self.stamp(graph.GlobalOp(symbol.global_name, ir_type(symbol.ty), unsigned, given)))
        for function, capture in self.captures():
            with self.located(capture.pos):
                vector = graph.VectorType(ir_type(capture.ty), 1)
                ops.append(self.stamp(graph.GlobalOp(capture_vector(function, capture.name), vector)))
        for function in self.sema.functions.values():
            with self.located(function.decl.pos):
                ops.append(self.stamp(self.function(function)))
        if self.every_edge is not None:
            ops.append(self.every_edge)
        module = ModuleOp(ops)
        check_nesting(module, self.filename)
        return module

    def function(self, function: FuncInfo) -> func.FuncOp:
        """One `func.func`; `main` first runs the constants' initializers; an
        `extern func` is a declaration (`func.func private`, no body)."""
        inputs = [ir_type(p.ty) for p in function.params]
        output = function.output
        if function.output_ignored or (output is not None and output.is_global):
            output = None  # an ignored bool, or a vector output (a global of its own)
        outputs = [ir_type(output.ty)] if output is not None else []
        if function.decl.extern:
            return func.FuncOp.external(function.name, inputs, outputs)
        block = Block(arg_types=inputs)
        self.env = {}
        for param, arg in zip(function.params, block.args, strict=True):
            arg.name_hint = param.name
            self.env[param] = arg
        self.block = block
        if output is not None and needs_default(function.decl.body, output):
            zero = self.zero(output.ty)
            set_name(zero, output.name)
            self.env[output] = zero
        for capture in function.captures:
            index = self.constant(0, INT)
            vector = capture_vector(function.name, capture.name)
            value = self.value(graph.LoadOp(vector, index, ir_type(capture.ty)))
            set_name(value, capture.name)
            self.env[capture] = value
        if function.name == "main":
            # the graph first, wherever it is declared: GraphIt allocates the
            # vertex vectors declared before it with the graph's size too
            loads_first = sorted(self.program.consts, key=lambda d: not isinstance(d.init, ast.Load))
            for decl in loads_first:
                with self.located(decl.pos):
                    self.global_init(decl)
            for owner, capture in self.captures():
                with self.located(capture.pos):
                    self.emit(graph.VectorFillOp(capture_vector(owner, capture.name), self.zero(capture.ty)))
        self.body(function.decl.body)
        results = [self.env[output]] if output is not None else []

        self.emit(func.ReturnOp(*results))
        op = func.FuncOp(function.name, (inputs, outputs), Region(block))
        count = self.declared_vertex_count() if function.name == "main" else None
        if count is not None:
            op.attributes[graph.VERTEX_COUNT] = IntegerAttr(count, i32)
        return op

    def declared_vertex_count(self) -> int | None:
        """The vertex count of a program that loads no graph, from its first
        program-level `const vertices : vertexset{Vertex} = new vertexset{Vertex}(N);`
        with N an integer literal, as GraphIt sizes such a program's vertex
        vectors (`graph.VERTEX_COUNT`); None otherwise."""
        inits = [decl.init for decl in self.program.consts if decl.init is not None]
        exprs = [
            *inits,
            *(e for f in self.program.functions for s in ast.walk_stmts(f.body) for e in ast.own_exprs(s)),
        ]  # fmt: skip
        if any(isinstance(sub, ast.Load) for expr in exprs for sub in ast.walk_expr(expr)):
            return None
        for decl in self.program.consts:
            init = decl.init
            if isinstance(decl.type, ast.VertexSetTypeExpr) and isinstance(init, ast.New) and init.args:
                count = literal_int(init.args[0])
                if count is not None and 0 < count < 2**31:
                    return count
        if self.only_empty_vertex_sets():
            return 0
        return None

    def only_empty_vertex_sets(self) -> bool:
        """Whether the program, which loads no graph and declares no vertex
        count, uses vertices only through vertex sets made empty, `new
        vertexset{Vertex}(0)` (GraphIt's simple_vertexset_list.gt keeps them in a
        list): it has no vertices, as GraphIt's element without a count, and
        those sets stay empty. A vertex vector would have no elements, so one
        keeps the program refused."""
        symbols = [d.symbol for d in self.program.consts]
        symbols += [
            s.symbol for f in self.program.functions for s in ast.walk_stmts(f.body) if isinstance(s, ast.VarDecl)
        ]
        if any(symbol is not None and isinstance(symbol.ty, VectorTy) and symbol.ty.size is None for symbol in symbols):
            return False
        inits = [decl.init for decl in self.program.consts if decl.init is not None]
        roots = [*inits, *(e for f in self.program.functions for s in ast.walk_stmts(f.body) for e in ast.own_exprs(s))]
        exprs = [sub for expr in roots for sub in ast.walk_expr(expr)]
        sets = [e for e in exprs if isinstance(e, ast.New) and isinstance(e.type, ast.VertexSetTypeExpr)]
        return bool(sets) and all(e.args and literal_int(e.args[0]) == 0 for e in sets)

    def captures(self) -> Iterator[tuple[str, Symbol]]:
        """Every functor's captures, with the functor's name."""
        for function in self.sema.functions.values():
            for capture in function.captures:
                yield function.name, capture

    def store_captures(self, expr: ast.MethodCall | ast.Call) -> None:
        """Before an apply or a call: each functor it takes or calls, `f[values]`,
        gets its values stored into the vectors that carry them (to the device)."""
        for sub in ast.walk_expr(expr):
            use = self.sema.functor_uses.get(sub)
            if use is None:
                continue
            function, values = use
            for value, capture in zip(values, function.captures, strict=True):
                vector = capture_vector(function.name, capture.name)
                stored = self.expr_as(value, capture.ty)
                self.emit(graph.StoreOp(stored, vector, self.constant(0, INT)))

    def global_init(self, decl: ast.ConstDecl) -> None:
        """The initialization of one program-level constant, in `main`."""
        assert decl.symbol is not None
        ty = decl.symbol.ty
        if isinstance(ty, VectorTy) and decl.supplied:
            return  # the caller's values, copied in when the run binds it
        if isinstance(ty, VectorTy):
            self.vector_assign(decl.name, ty, decl.init)
        elif decl.init is not None:
            value = self.expr_as(decl.init, ty)
            set_name(value, decl.name)
            self.emit(graph.GlobalStoreOp(value, decl.name))
        elif isinstance(ty, ScalarTy):
            self.emit(graph.GlobalStoreOp(self.zero(ty), decl.name))

    def vector_assign(self, name: str, ty: VectorTy, init: ast.Expr | None) -> None:
        """A whole-vector initialization: fill with a value (zero by default),
        `edges.getOutDegrees()`, a copy, or a literal `{a, b, ...}` (one
        `graph.store` per element)."""
        if isinstance(init, ast.VectorLit):
            for position, item in enumerate(init.items):
                index = self.constant(position, INT)
                self.emit(graph.StoreOp(self.expr_as(item, ty.elem), name, index))
            return
        if isinstance(init, ast.MethodCall) and isinstance(init.info, OutDegrees):
            self.emit(graph.OutDegreesOp(self.expr(init.receiver), name))
            return
        if isinstance(init, ast.Name) and isinstance(init.ty, VectorTy):
            self.emit(graph.VectorCopyOp(name, vector_name(init)))
            return
        if isinstance(init, ast.Call) and isinstance(init.target, FuncInfo) and init.target.output:
            if init.target.output.is_global:  # a function's vector output: a copy of it
                self.call(init)
                self.emit(graph.VectorCopyOp(name, init.target.output.global_name))
                return
        fresh = init is None or isinstance(init, ast.New)  # `new vector{Vertex}(T)()`
        fill = self.zero(ty.elem) if fresh else self.expr_as(init, ty.elem)
        self.emit(graph.VectorFillOp(name, fill))
