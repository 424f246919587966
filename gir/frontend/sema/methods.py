"""Method calls other than edgeset applies, by the receiver's type (edgeset,
vertexset, priority queue, list, whole vector)."""

from __future__ import annotations

from gir.dialects.graph import ReduceKind
from gir.frontend import ast
from gir.frontend.sema.base import CheckerBase
from gir.frontend.sema.meanings import (
    AddVertex,
    CurrentPriority,
    DequeueReadySet,
    ExternApply,
    FinishedNode,
    GetVertices,
    ListInsert,
    ListRetrieve,
    Method,
    NumberListAppend,
    NumberListPop,
    NumberListSize,
    Neighbours,
    QueueFinished,
    Relabel,
    Transpose,
    UpdatePriority,
    UpdatePrioritySum,
    VectorReduction,
    VertexSetApply,
    VertexSetFilter,
    VertexSetSize,
)
from gir.frontend.sema.types import (
    BOOL,
    INT,
    VERTEXSET,
    VOID,
    EdgeSetTy,
    ListTy,
    NumberListTy,
    PriorityQueueTy,
    Ty,
    VectorTy,
    VertexSetTy,
    is_assignable,
    is_integer,
    is_vertex_like,
)
from gir.frontend.sema.vocabulary import (
    APPLY_METHODS,
    CHAIN_METHODS,
    DEGREE_METHODS,
    VECTOR_REDUCTIONS,
    is_chain_link,
)


class MethodChecks(CheckerBase):
    """Checks method calls."""

    def check_method(self, expr: ast.Expr) -> Ty:
        """A method call, by the receiver's type."""
        assert isinstance(expr, ast.MethodCall)
        if expr.method == "apply" and self.names_extern(expr.args) and not is_chain_link(expr.receiver):
            return self.check_extern_apply(expr)
        if expr.method in APPLY_METHODS and is_chain_link(expr.receiver):
            return self.check_edge_apply(expr)
        if expr.method in VECTOR_REDUCTIONS and self.names_vector(expr.receiver):
            return self.check_vector_reduction(expr)
        receiver = self.check_value(expr.receiver, "the receiver")
        if isinstance(receiver, EdgeSetTy):
            if expr.method in APPLY_METHODS:
                return self.check_edge_apply(expr)
            return self.check_edgeset_method(expr, receiver)
        if isinstance(receiver, VertexSetTy):
            return self.check_vertexset_method(expr)
        if isinstance(receiver, PriorityQueueTy):
            return self.check_queue_method(expr, receiver)
        if isinstance(receiver, ListTy):
            return self.check_list_method(expr)
        if isinstance(receiver, NumberListTy):
            return self.check_number_list_method(expr, receiver)
        raise self.error(expr.method_pos, f"{receiver} has no method '{expr.method}'")

    def names_extern(self, args: list[ast.Expr]) -> bool:
        """Whether `args` is one name, of an extern function."""
        if len(args) != 1 or not isinstance(args[0], ast.Name):
            return False
        function = self.functions.get(args[0].name)
        return function is not None and function.decl.extern

    def check_extern_apply(self, expr: ast.MethodCall) -> Ty:
        """`vertices.apply(f)` / `edges.apply(f)` of an extern function, as
        GraphIt runs it on the CPU: over every vertex (a const vertexset holding
        `edges.getVertices()` or declaring the vertex count, `new
        vertexset{Vertex}(N)`) or every edge of a loaded edgeset, `f` taking a
        vertex (`f(v)`) or an edge (`f(src, dst[, weight])`) and giving nothing."""
        assert isinstance(expr.args[0], ast.Name)
        function = self.functions[expr.args[0].name]
        receiver = self.check_value(expr.receiver, "the receiver")
        if not isinstance(receiver, VertexSetTy | EdgeSetTy):
            raise self.error(expr.method_pos, f"{receiver} has no method 'apply'")
        over, each = ("edges", "edge") if isinstance(receiver, EdgeSetTy) else ("vertices", "vertex")
        if not self.covers_the_graph(expr.receiver, over):
            raise self.error(
                expr.receiver.pos,
                f"the extern function '{function.name}' is applied on the host over every "
                f"{each} of the graph: apply it to a const "
                + ("edgeset the program loads" if over == "edges" else
                   "vertexset holding edges.getVertices()")
                + ", or call it from a vertex or edge function",
            )  # fmt: skip
        wanted = ["Vertex"] if over == "vertices" else ["Vertex", "Vertex"]
        if isinstance(receiver, EdgeSetTy) and receiver.weight is not None:
            wanted.append(str(receiver.weight))
        params = [symbol.ty for symbol in function.params]
        takes = len(params) == len(wanted) or (over == "edges" and len(params) == 2)
        if not takes or not all(is_integer(ty) and ty.kind == "int" for ty in params[:2]) or (
            len(params) == 3 and str(params[2]) != wanted[2]
        ) or function.output is not None:
            raise self.error(
                expr.args[0].pos,
                f"the extern function '{function.name}' is applied over {over}: it must take "
                f"({', '.join(wanted)}) and give nothing, as it runs once per {each}",
            )
        expr.info = ExternApply(function.name, over)
        return VOID

    def covers_the_graph(self, receiver: ast.Expr, over: str) -> bool:
        """Whether `receiver` names a program const that holds every vertex
        (or every edge) of the graph."""
        consts = {d.name: d for d in self.program.consts}
        seen: set[str] = set()
        # a const may hold another's value (an export's `edges = edges_arg;`)
        while isinstance(receiver, ast.Name) and receiver.name in consts and receiver.name not in seen:
            seen.add(receiver.name)
            init = consts[receiver.name].init
            if not isinstance(init, ast.Name):
                break
            receiver = init
        else:
            return False
        if over == "edges":
            return init is None or isinstance(init, ast.Load)
        if isinstance(init, ast.MethodCall):
            return init.method == "getVertices"
        return isinstance(init, ast.New) and len(init.args) == 1 and isinstance(init.args[0], ast.IntLit)

    def names_vector(self, expr: ast.Expr) -> bool:
        """Whether `expr` is the name of a vector (a whole-vector operand)."""
        if not isinstance(expr, ast.Name):
            return False
        symbol = self.lookup(expr.name)
        return symbol is not None and isinstance(symbol.ty, VectorTy)

    def check_vector_reduction(self, expr: ast.MethodCall) -> Ty:
        """`v.sum()`, `v.max()`, `v.min()` of a numeric vector: its element type."""
        self.check_arity(expr, 0)
        vector = self.vector_of(expr.receiver, "the reduced value")
        if vector.elem == BOOL:
            raise self.error(
                expr.method_pos, f"'{expr.method}()' needs a numeric vector, not {vector}"
            )
        expr.info = VectorReduction(VECTOR_REDUCTIONS[expr.method])
        return vector.elem

    def check_edgeset_method(self, expr: ast.MethodCall, edges: EdgeSetTy) -> Ty:
        """`getVertices()`, `transpose()`, `relabel()` (and a misplaced
        `getOutDegrees`/`from`)."""
        if expr.method == "getVertices":
            self.check_arity(expr, 0)
            expr.info = GetVertices()
            return VERTEXSET
        if expr.method == "transpose":
            self.check_arity(expr, 0)
            expr.info = Transpose()
            return edges
        if expr.method == "relabel":
            self.check_arity(expr, 0)
            expr.info = Relabel()
            self.relabels.append(expr.method_pos)
            return edges
        if expr.method in DEGREE_METHODS:
            raise self.error(
                expr.method_pos,
                f"{expr.method}() can only initialize or assign a "
                f"vector{{Vertex}}({DEGREE_METHODS[expr.method]})",
            )
        if expr.method in CHAIN_METHODS:
            raise self.error(
                expr.method_pos,
                f"'{expr.method}(...)' must be followed by apply, applyModified or applyUpdatePriority",
            )
        if expr.method == "getNgh":
            return self.check_get_ngh(expr)
        raise self.error(expr.method_pos, f"edgeset has no method '{expr.method}'")

    def check_get_ngh(self, expr: ast.MethodCall) -> Ty:
        """`edges.getNgh(v)`: the vertexset of `v`'s out-neighbours, in host code
        only (see `check_get_ngh_places`)."""
        self.check_arity(expr, 1)
        ty = self.check_value(expr.args[0], "the vertex")
        if not is_vertex_like(ty):
            raise self.error(expr.args[0].pos, f"getNgh needs a Vertex or int, found {ty}")
        function = "main" if self.current is None else self.current.name  # a const's init runs in main
        self.get_ngh_uses.append((function, expr.method_pos))
        expr.info = Neighbours()
        return VERTEXSET

    def check_vertexset_method(self, expr: ast.MethodCall) -> Ty:
        """`size()`, `getVertexSetSize()`, `addVertex(v)`, `apply(f)`, `filter(f)`/`where(f)`."""
        if expr.method in ("size", "getVertexSetSize"):
            self.check_arity(expr, 0)
            expr.info = VertexSetSize()
            return INT
        if expr.method == "addVertex":
            self.check_arity(expr, 1)
            ty = self.check_value(expr.args[0], "the vertex")
            if not is_vertex_like(ty):
                raise self.error(expr.args[0].pos, f"addVertex needs a Vertex or int, found {ty}")
            expr.info = AddVertex()
            return VOID
        if expr.method == "apply":
            self.check_arity(expr, 1)
            udf = self.vertex_function(expr.args[0], "vertex function", returns_bool=False)
            expr.info = VertexSetApply(udf)
            return VOID
        if expr.method in ("filter", "where"):
            self.check_arity(expr, 1)
            udf = self.vertex_function(expr.args[0], "filter function", returns_bool=True)
            expr.info = VertexSetFilter(udf)
            return VERTEXSET
        raise self.error(expr.method_pos, f"vertexset has no method '{expr.method}'")

    def check_queue_method(self, expr: ast.MethodCall, queue: PriorityQueueTy) -> Ty:
        """`updatePriorityMin/Max(v, old, new)`, `dequeue_ready_set()`, `finished()`,
        `finishedNode(v)`, `get_current_priority()`."""
        if expr.method == "updatePrioritySum":
            return self.check_priority_sum(expr, queue)
        if expr.method == "finishedNode":
            self.check_arity(expr, 1)
            self.check_queue_vertex(expr.args[0])
            expr.info = FinishedNode()
            return BOOL
        if expr.method in ("updatePriorityMin", "updatePriorityMax"):
            self.check_arity(expr, 3)
            self.check_queue_vertex(expr.args[0])
            for arg in expr.args[1:]:
                ty = self.check_value(arg, "the priority")
                self.check_literal_fits(arg, queue.priority)
                if not is_assignable(ty, queue.priority) or ty == VERTEXSET:
                    raise self.error(arg.pos, f"priorities are {queue.priority}, found {ty}")
            kind = ReduceKind.MIN if expr.method.endswith("Min") else ReduceKind.MAX
            expr.info = UpdatePriority(kind)
            return BOOL
        simple: dict[str, tuple[Method, Ty]] = {
            "dequeue_ready_set": (DequeueReadySet(), VERTEXSET),
            # GraphIt's earlier name of it (apps/sssp_delta_stepping.gt)
            "dequeue_lowest_priority": (DequeueReadySet(), VERTEXSET),
            "finished": (QueueFinished(), BOOL),
            "get_current_priority": (CurrentPriority(), queue.priority),
        }
        if expr.method in simple:
            self.check_arity(expr, 0)
            expr.info, ty = simple[expr.method]
            return ty
        raise self.error(expr.method_pos, f"priority_queue has no method '{expr.method}'")

    def check_queue_vertex(self, arg: ast.Expr) -> None:
        """The vertex a queue method takes: a Vertex or an int id."""
        vertex = self.check_value(arg, "the vertex")
        if not is_vertex_like(vertex):
            raise self.error(arg.pos, f"the vertex must be a Vertex or int, found {vertex}")

    def check_priority_sum(self, expr: ast.MethodCall, queue: PriorityQueueTy) -> Ty:
        """`updatePrioritySum(v, diff, threshold)` on a queue of integer priorities."""
        self.check_arity(expr, 3)
        self.check_queue_vertex(expr.args[0])
        if not is_integer(queue.priority):
            raise self.error(
                expr.method_pos,
                "updatePrioritySum needs int, uint, int64 or uint_64 priorities, "
                f"not {queue.priority}",
            )
        for arg in expr.args[1:]:
            ty = self.check_value(arg, "the priority change")
            self.check_literal_fits(arg, INT)
            if not is_integer(ty):
                raise self.error(arg.pos, f"priority changes are int, found {ty}")
        expr.info = UpdatePrioritySum()
        return BOOL

    def check_number_list_method(self, expr: ast.MethodCall, numbers: NumberListTy) -> Ty:
        """`append(x)` / `insert(x)` (a number converted to the element type, as
        an assignment converts it), `pop()` (the last number) and `size()`."""
        if expr.method in ("pop", "size"):
            self.check_arity(expr, 0)
            expr.info = NumberListPop() if expr.method == "pop" else NumberListSize()
            return numbers.element if expr.method == "pop" else INT
        if expr.method not in ("append", "insert"):
            raise self.error(expr.method_pos, f"{numbers} has no method '{expr.method}'")
        self.check_arity(expr, 1)
        ty = self.check_value(expr.args[0], "the argument")
        if ty == VERTEXSET or not is_assignable(ty, numbers.element):
            raise self.error(
                expr.args[0].pos, f"{expr.method} on a {numbers} cannot take a {ty}"
            )
        expr.info = NumberListAppend()
        return VOID

    def check_list_method(self, expr: ast.MethodCall) -> Ty:
        """`insert(set)` / `append(set)` (push a copy), `retrieve(set)` (pop the
        last into a vertexset variable) and `pop()` (the last, as a new set)."""
        if expr.method == "pop":
            self.check_arity(expr, 0)
            expr.info = ListRetrieve()
            return VERTEXSET
        if expr.method not in ("insert", "append", "retrieve"):
            raise self.error(expr.method_pos, f"list has no method '{expr.method}'")
        self.check_arity(expr, 1)
        ty = self.check_value(expr.args[0], "the argument")
        if ty != VERTEXSET:
            raise self.error(expr.args[0].pos, f"{expr.method} needs a vertexset, found {ty}")
        if expr.method == "retrieve" and not isinstance(expr.args[0], ast.Name):
            raise self.error(expr.args[0].pos, "retrieve needs a vertexset variable")
        expr.info = ListRetrieve() if expr.method == "retrieve" else ListInsert()
        return VOID
