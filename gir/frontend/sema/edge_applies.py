"""Edgeset apply chains: `edges.from(f).to(g).srcFilter(h).dstFilter(k).apply*(udf, ...)`."""

from __future__ import annotations

from gir.dialects.graph import ApplyKind
from gir.frontend import ast
from gir.frontend.sema.base import CheckerBase
from gir.frontend.sema.symbols import EdgeApplyInfo, FuncInfo, functor_parts
from gir.frontend.sema.types import BOOL, VERTEX, VERTEXSET, VOID, EdgeSetTy, Ty
from gir.frontend.sema.vocabulary import FILTER_LINKS, is_chain_link


class EdgeApplyChecks(CheckerBase):
    """Checks edgeset apply chains."""

    def check_edge_apply(self, expr: ast.MethodCall) -> Ty:
        """An `edges.from(..).to(..).srcFilter(..).dstFilter(..).apply*(..)` chain."""
        links: list[ast.MethodCall] = []
        base = expr.receiver
        while is_chain_link(base):
            assert isinstance(base, ast.MethodCall)
            links.append(base)
            base = base.receiver
        edges = self.check_value(base, "the edgeset")
        if not isinstance(edges, EdgeSetTy):
            raise self.error(
                base.pos, f"'{expr.method}' over a chain needs an edgeset, found {edges}"
            )
        info = EdgeApplyInfo(base, ApplyKind.APPLY, "")
        for link in reversed(links):
            self.check_chain_link(link, info)
        self.check_apply_call(expr, info, edges)
        expr.info = info
        return VERTEXSET if info.kind == ApplyKind.APPLY_MODIFIED or info.returns_set else VOID

    def check_chain_link(self, link: ast.MethodCall, info: EdgeApplyInfo) -> None:
        """One `.from(..)`, `.to(..)`, `.srcFilter(..)` or `.dstFilter(..)`."""
        self.check_arity(link, 1)
        arg = link.args[0]
        name, _ = functor_parts(arg)
        is_function = name in self.functions and self.lookup(name or "") is None
        if link.method == "from" and not is_function:
            if info.frontier is not None:
                raise self.error(link.method_pos, "the edgeset apply already has a 'from' frontier")
            ty = self.check_value(arg, "the frontier")
            if ty != VERTEXSET:
                raise self.error(
                    arg.pos, f"from(...) needs a vertexset or a filter function, found {ty}"
                )
            info.frontier = arg
            return
        if link.method == "to" and not is_function:
            raise self.error(arg.pos, "to(...) needs a filter function (Vertex) -> bool")
        attr, role = FILTER_LINKS[link.method]
        if getattr(info, attr) is not None:
            raise self.error(link.method_pos, f"the edgeset apply already has a {role}")
        setattr(info, attr, self.vertex_function(arg, role, returns_bool=True))

    def check_apply_call(self, expr: ast.MethodCall, info: EdgeApplyInfo, edges: EdgeSetTy) -> None:
        """The final `apply(f)`, `applyModified(f, vec[, disable_dedup])` or
        `applyUpdatePriority(f)` of a chain.

        As in GraphIt's parser (`ApplyExpr::disable_deduplication`), the optional
        third argument of `applyModified` *disables* deduplication: the output
        frontier is deduplicated (`dedup`) unless it is `true`."""
        if expr.method == "applyModified":
            self.check_arity(expr, (2, 3))
            info.kind = ApplyKind.APPLY_MODIFIED
        else:
            self.check_arity(expr, 1)
            applies = {"apply": ApplyKind.APPLY, "applyUpdatePriority": ApplyKind.APPLY_UPDATE_PRIORITY}
            info.kind = applies[expr.method]
        modifies = info.kind == ApplyKind.APPLY_MODIFIED
        if modifies:
            self.ignore_unset_bool_result(expr.args[0])
        udf = self.check_edge_udf(expr.args[0], edges, may_return_bool=info.kind == ApplyKind.APPLY)
        info.udf = udf.name
        info.returns_set = udf.output is not None and not udf.output_ignored
        if info.kind != ApplyKind.APPLY_MODIFIED:
            return
        vector = self.vector_of(expr.args[1], "the tracked vector of applyModified")
        tracked = expr.args[1]
        assert isinstance(tracked, ast.Name)
        if vector.size is not None or vector.lanes is not None:
            raise self.error(
                tracked.pos,
                f"the tracked vector '{tracked.name}' must be a vector{{Vertex}} of scalars",
            )
        assert tracked.symbol is not None
        if tracked.symbol.global_name not in udf.writes:
            raise self.error(
                tracked.pos,
                f"applyModified tracks '{tracked.name}', which '{udf.name}' never writes",
            )
        info.tracked = tracked.symbol.global_name
        info.dedup = True
        if len(expr.args) == 3:
            flag = expr.args[2]
            if not isinstance(flag, ast.BoolLit):
                raise self.error(
                    flag.pos,
                    "the third argument of applyModified (disable deduplication) must be true or false",
                )
            flag.ty = BOOL
            info.dedup = not flag.value

    def ignore_unset_bool_result(self, arg: ast.Expr) -> None:
        """An `applyModified` edge function may declare a bool result, as GraphIt
        allows, when its body never sets it: GraphIt ignores it (the output holds
        the vertices whose tracked element changed), and so does gir
        (`FuncInfo.output_ignored`). A body that sets it would expect the value
        to matter: one located error saying to drop it."""
        name, _ = functor_parts(arg)
        udf = self.functions.get(name)
        if udf is None or udf.output is None or udf.result != BOOL:
            return
        output = udf.output.name
        sets = any(
            isinstance(expr, ast.Name) and expr.name == output
            for stmt in ast.walk_stmts(udf.decl.body)
            for top in ast.own_exprs(stmt)
            for expr in ast.walk_expr(top)
        )
        if sets:
            raise self.error(
                arg.pos,
                f"applyModified ignores what '{name}' returns (its output is the vertices whose "
                f"tracked vector changed), but '{name}' sets '{output}': drop '-> {output} : bool' "
                "and keep the update, or use apply, whose output is the destinations for which "
                "the function returns true",
            )
        udf.output_ignored = True

    def check_edge_udf(self, arg: ast.Expr, edges: EdgeSetTy, may_return_bool: bool) -> FuncInfo:
        """The edge function: `(Vertex, Vertex)` or `(Vertex, Vertex, weight)`,
        returning nothing, or a bool where `may_return_bool` (GraphIt's `apply`
        that builds a frontier)."""
        udf = self.function_arg(arg, "the edge function")
        params = [p.ty for p in udf.params]
        if len(params) == 3 and params[:2] == [VERTEX, VERTEX] and edges.weight is None:
            raise self.error(
                arg.pos, f"edge function '{udf.name}' takes a weight, but the edgeset is unweighted"
            )
        expected = [VERTEX, VERTEX] + ([edges.weight] if len(params) == 3 and edges.weight else [])
        returns_bool = may_return_bool and udf.result == BOOL
        if params != expected or (
            udf.output is not None and not returns_bool and not udf.output_ignored
        ):
            shape = ", ".join(str(t) for t in expected)
            results = "nothing or bool" if may_return_bool else "nothing"
            raise self.error(
                arg.pos,
                f"edge function '{udf.name}' must be a function ({shape}) -> {results}, it is {udf.signature()}",
            )
        return udf
