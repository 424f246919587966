"""Calls (user functions, builtins) and method calls, by what sema decided they
mean, edgeset applies included."""

from __future__ import annotations

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IntegerAttr, f32, i1
from xdsl.ir import Attribute, Block, Region, SSAValue

from gir.dialects import graph
from gir.frontend import ast
from gir.frontend.irgen.base import IRGenBase
from gir.frontend.irgen.locals import vector_name
from gir.frontend.irgen.values import MATH_OPS, RECEIVER_OPS, REDUCE_KINDS, ir_type, unsigned_kind
from gir.frontend.sema import (
    INT,
    EdgeApplyInfo,
    FuncInfo,
    NumberListTy,
    PriorityQueueTy,
    ScalarTy,
    VectorTy,
    capture_vector,
)
from gir.frontend.sema.vocabulary import WRITE_MIN_MAX
from gir.frontend.sema.meanings import (
    AddVertex,
    ExternApply,
    FinishedNode,
    ListInsert,
    ListRetrieve,
    Method,
    NumberListAppend,
    NumberListPop,
    NumberListSize,
    Neighbours,
    Relabel,
    UpdatePriority,
    UpdatePrioritySum,
    VectorReduction,
    VertexCount,
    VertexSetApply,
    VertexSetFilter,
)


MIN_MAX_OPS = {
    ("min", "float"): arith.MinnumfOp, ("max", "float"): arith.MaxnumfOp,
    ("min", "signed"): arith.MinSIOp, ("max", "signed"): arith.MaxSIOp,
    ("min", "unsigned"): arith.MinUIOp, ("max", "unsigned"): arith.MaxUIOp,
}  # fmt: skip
"""The op GraphIt's `min(a, b)` / `max(a, b)` becomes, by the family of their type
(floats as C's fmin/fmax: a NaN argument loses)."""


def _family(ty: ScalarTy) -> str:
    return "float" if ty.is_float else "unsigned" if ty.is_unsigned else "signed"


class CallGen(IRGenBase):
    """Builds calls and method calls."""

    def call(self, expr: ast.Call) -> SSAValue | None:
        """Builtins and user function calls (`func.call`)."""
        if isinstance(expr.target, FuncInfo):
            function = expr.target
            output = function.output
            results = [ir_type(output.ty)] if output is not None and not output.is_global else []
            if expr.on_host:
                return self.host_extern_call(expr, function, results)
            self.store_captures(expr)  # `f[values](args)`: a functor's values first
            args = [self.expr_as(a, p.ty) for a, p in zip(expr.args, function.params, strict=True)]
            op = self.emit(func.CallOp(function.name, args, results))
            return op.results[0] if results else None
        return self.builtin(expr)

    def host_extern_call(
        self, expr: ast.Call, function: FuncInfo, results: list[Attribute]
    ) -> SSAValue | None:
        """A call of an extern function from host code (`graph.call_extern`):
        vectors by name, the other arguments as values."""
        args: list[SSAValue] = []
        vectors: list[str] = []
        for arg, param in zip(expr.args, function.params, strict=True):
            if isinstance(param.ty, VectorTy):
                assert isinstance(arg, ast.Name)
                vectors.append(vector_name(arg))
            else:
                args.append(self.expr_as(arg, param.ty))
        op = self.emit(graph.CallExternOp(function.name, args, vectors, results))
        return op.results[0] if results else None

    def builtin(self, expr: ast.Call) -> SSAValue | None:
        """`startTimer`, `stopTimer`, `atoi`, the math functions (`MATH_OPS`),
        `intersectNeighbor`, `compare_and_swap`."""
        if expr.name == "startTimer":
            self.emit(graph.StartTimerOp())
            return None
        if expr.name == "stopTimer":
            return self.value(graph.StopTimerOp(f32))
        if expr.name == "atoi":
            argv = expr.args[0]
            if not isinstance(argv, ast.Argv):  # a string value
                return self.value(graph.StringToIntOp(self.expr(argv)))
            return self.value(graph.ArgvIntOp(argv.index))
        if expr.name in MATH_OPS:
            assert expr.ty is not None
            args = [self.expr_as(arg, expr.ty) for arg in expr.args]
            return self.value(MATH_OPS[expr.name](*args))
        if expr.name in ("min", "max"):
            assert isinstance(expr.ty, ScalarTy)
            lhs, rhs = (self.expr_as(arg, expr.ty) for arg in expr.args)
            return self.value(MIN_MAX_OPS[(expr.name, _family(expr.ty))](lhs, rhs))
        if expr.name in WRITE_MIN_MAX:
            element, value = expr.args
            assert isinstance(element, ast.Index) and element.ty is not None
            name, index, lane = self.access(element)
            kind = unsigned_kind(REDUCE_KINDS[WRITE_MIN_MAX[expr.name]], element.ty)
            new = self.expr_as(value, element.ty)
            return self.value(graph.ReduceOp(kind, new, name, index, lane=lane))
        if expr.name == "intersectNeighbor":
            edges, src, dst = expr.args
            return self.value(
                graph.IntersectNeighborsOp(
                    self.expr(edges),
                    self.vertex_arg(src),
                    self.vertex_arg(dst),
                    expr.intersection or "merge",
                )
            )
        target, expected, desired = expr.args
        assert isinstance(target, ast.Index) and target.ty is not None
        name, index, lane = self.access(target)
        return self.value(
            graph.CompareAndSwapOp(
                name,
                index,
                self.expr_as(expected, target.ty),
                self.expr_as(desired, target.ty),
                lane,
            )
        )

    def method(self, expr: ast.MethodCall) -> SSAValue | None:
        """Method calls, by what sema decided they mean (`sema.meanings`)."""
        self.store_captures(expr)
        info = expr.info
        if isinstance(info, EdgeApplyInfo):
            return self.edge_apply(info)
        if isinstance(info, VectorReduction):
            return self.vector_reduction(expr, info.kind)
        if isinstance(info, ExternApply):  # over the whole graph: no receiver value
            self.emit(graph.ApplyExternOp(info.function, info.over))
            return None
        receiver = self.expr(expr.receiver)
        match info:
            case VertexSetApply(udf=udf):
                self.emit(graph.VertexSetApplyOp(receiver, udf, self.stmt_label))
                return None
            case VertexSetFilter(udf=udf):
                return self.value(graph.VertexSetFilterOp(receiver, udf, self.stmt_label))
            case UpdatePriority(kind=kind):
                return self.update_priority(expr, kind, receiver)
            case UpdatePrioritySum():
                return self.update_priority_sum(expr, receiver)
            case FinishedNode():
                vertex = self.vertex_arg(expr.args[0])
                return self.value(graph.PriorityQueueFinishedNodeOp(receiver, vertex))
            case ListRetrieve():
                return self.list_retrieve(expr, receiver)
            case Neighbours():
                return self.neighbours(receiver, self.vertex_arg(expr.args[0]))
            case AddVertex():
                self.emit(graph.AddVertexOp(receiver, self.vertex_arg(expr.args[0])))
                return None
            case ListInsert():
                self.emit(graph.ListInsertOp(receiver, self.expr(expr.args[0])))
                return None
            case NumberListAppend():
                assert isinstance(expr.receiver.ty, NumberListTy)
                number = self.expr_as(expr.args[0], expr.receiver.ty.element)
                self.emit(graph.NumberListAppendOp(receiver, number))
                return None
            case NumberListPop():
                return self.value(graph.NumberListPopOp(receiver))
            case NumberListSize():
                return self.value(graph.NumberListSizeOp(receiver))
            case VertexCount():
                return self.value(graph.VertexSetSizeOp(self.value(graph.GetVerticesOp(receiver))))
            case Relabel():  # the load relabels the graph (build_module)
                return receiver
        assert isinstance(info, Method), "sema gives every method call a meaning"
        return self.value(RECEIVER_OPS[type(info)](receiver))

    def neighbours(self, edges: SSAValue, vertex: SSAValue) -> SSAValue:
        """`edges.getNgh(v)`: a one-vertex frontier `{v}` traversed by an `apply`
        of an edge function returning true on every edge, then freed. Such an
        apply gives each destination once (its output is always deduplicated),
        so the result is a set whatever edges the edgeset repeats; an id outside
        the graph is caught as `addVertex`'s is (`--check-bounds`)."""
        source = self.value(graph.VertexSetNewOp(self.constant(0, INT)))
        self.emit(graph.AddVertexOp(source, vertex))
        apply = graph.EdgeSetApplyOp(
            edges, graph.ApplyKind.APPLY, self.every_edge_function(), frontier=source, returns_set=True
        )
        self.emit(apply)
        self.emit(graph.DeleteOp(source))
        return apply.results[0]

    def every_edge_function(self) -> str:
        """The name of `func @getNgh_edge(src, dst) -> i1 { true }` (with a
        counter where a function or global has the name), built on first use."""
        if self.every_edge is None:
            taken = {*self.sema.functions, *(symbol.global_name for symbol in self.sema.globals)}
            taken.update(capture_vector(owner, capture.name) for owner, capture in self.captures())
            name, count = "getNgh_edge", 1
            while name in taken:
                name, count = f"getNgh_edge{count}", count + 1
            vertex = graph.VertexType()
            block = Block(arg_types=[vertex, vertex])
            block.args[0].name_hint, block.args[1].name_hint = "src", "dst"
            true = self.stamp(arith.ConstantOp(IntegerAttr(1, i1)))
            block.add_ops([true, self.stamp(func.ReturnOp(true.results[0]))])
            function = func.FuncOp(name, ([vertex, vertex], [i1]), Region(block))
            self.every_edge = self.stamp(function)
        return self.every_edge.sym_name.data

    def vector_reduction(self, expr: ast.MethodCall, kind: graph.ReduceKind) -> SSAValue:
        """`v.sum()` / `v.max()` / `v.min()` (`graph.vector_reduce`)."""
        assert isinstance(expr.receiver, ast.Name) and expr.ty is not None
        kind = unsigned_kind(kind, expr.ty)
        return self.value(graph.VectorReduceOp(kind, vector_name(expr.receiver), ir_type(expr.ty)))

    def list_retrieve(self, expr: ast.MethodCall, stack: SSAValue) -> SSAValue | None:
        """`list.pop()` (a new set) or `list.retrieve(set)`: the popped set becomes
        `set`'s new value, as if assigned."""
        if not expr.args:
            return self.value(graph.ListRetrieveOp(stack))
        target = expr.args[0]
        assert isinstance(target, ast.Name) and target.symbol is not None
        popped = self.value(graph.ListRetrieveOp(stack, self.expr(target)))
        if target.symbol.is_global:
            self.emit(graph.GlobalStoreOp(popped, target.symbol.global_name))
        else:
            popped.name_hint = target.symbol.name
            self.env[target.symbol] = popped
        return None

    def update_priority(
        self, expr: ast.MethodCall, kind: graph.ReduceKind, queue: SSAValue
    ) -> SSAValue:
        """`pq.updatePriorityMin(v, old, new)` (or Max)."""
        queue_type = queue.type
        assert isinstance(queue_type, graph.PriorityQueueType)
        assert isinstance(expr.receiver.ty, PriorityQueueTy)
        priority = expr.receiver.ty.priority
        vertex = self.vertex_arg(expr.args[0])
        old = self.expr_as(expr.args[1], priority)
        new = self.expr_as(expr.args[2], priority)
        return self.value(graph.UpdatePriorityOp(kind, queue, vertex, old, new))

    def update_priority_sum(self, expr: ast.MethodCall, queue: SSAValue) -> SSAValue:
        """`pq.updatePrioritySum(v, diff, threshold)`: the change and the threshold
        in the queue's priority type (an int change sign-extends, so -1 lowers a
        64-bit priority by one)."""
        assert isinstance(expr.receiver.ty, PriorityQueueTy)
        priority = expr.receiver.ty.priority
        vertex = self.vertex_arg(expr.args[0])
        diff = self.expr_as(expr.args[1], priority)
        threshold = self.expr_as(expr.args[2], priority)
        return self.value(graph.UpdatePrioritySumOp(queue, vertex, diff, threshold))

    def edge_apply(self, info: EdgeApplyInfo) -> SSAValue | None:
        """`graph.edgeset_apply`, with the statement's label and schedule."""
        edges = self.expr(info.edges)
        frontier = self.expr(info.frontier) if info.frontier is not None else None
        op = graph.EdgeSetApplyOp(
            edges,
            info.kind,
            info.udf,
            frontier=frontier,
            to_filter=info.to_filter,
            src_filter=info.src_filter,
            dst_filter=info.dst_filter,
            tracked=info.tracked,
            dedup=info.dedup,
            label=self.stmt_label,
            schedule=self.stmt_schedule,
            returns_set=info.returns_set,
        )
        self.emit(op)
        return op.results[0] if op.results else None
