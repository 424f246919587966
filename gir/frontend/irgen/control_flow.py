"""`while`, `for` and `if` as `scf.while`, `scf.for` and `scf.if` carrying the
locals their bodies reassign, and the flags that carry a `break` out."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import StringAttr, i1, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from gir.frontend import ast
from gir.frontend.irgen.base import IRGenBase
from gir.frontend.irgen.locals import assigned_symbols, set_name
from gir.frontend.irgen.values import ir_type
from gir.frontend.sema import BOOL, INT, Symbol, SymbolKind


class ControlFlowGen(IRGenBase):
    """Builds loops and ifs."""

    def unless_broken(self, stmts: list[ast.Stmt]) -> None:
        """`stmts` under `scf.if` on the loop's break flag being false."""
        assert self.break_flag is not None
        true = self.constant(True, BOOL)
        running = self.value(arith.XOrIOp(self.env[self.break_flag], true))
        op, carried = self.if_op(running, stmts, None)
        self.emit(op)
        self.carried_results(op, carried)

    def reassigned(self, stmts: list[ast.Stmt]) -> list[Symbol]:
        """The outer locals that `stmts` reassign: what a loop around them carries
        (besides its own break flag)."""
        return [s for s in assigned_symbols(stmts) if s in self.env]

    def carried_by(self, stmts: list[ast.Stmt]) -> list[Symbol]:
        """The outer locals that an `if` around `stmts` yields: those `stmts`
        reassign, and the enclosing loop's break flag where `stmts` may break."""
        carried = self.reassigned(stmts)
        if self.break_flag is not None and ast.loop_breaks(stmts):
            carried.append(self.break_flag)
        return carried

    def loop_flag(self, stmt: ast.While | ast.For) -> Symbol | None:
        """A fresh break flag (false) for a loop whose body breaks, else None."""
        if not ast.loop_breaks(stmt.body):
            return None
        flag = Symbol("broken", BOOL, SymbolKind.LOCAL, stmt.pos)
        self.env[flag] = self.constant(False, BOOL)
        set_name(self.env[flag], flag.name)
        return flag

    def loop_body(self, flag: Symbol | None, stmts: list[ast.Stmt]) -> None:
        """A loop's body statements, with `flag` as the target of its `break`s."""
        saved = self.break_flag
        self.break_flag = flag
        try:
            self.body(stmts)
        finally:
            self.break_flag = saved

    def unless_flag(self, flag: Symbol | None, cond: Callable[[], SSAValue]) -> SSAValue:
        """A loop condition: `cond()`, or false without evaluating it once the
        loop's break `flag` is set."""
        if flag is None:
            return cond()
        broken = Block()
        self.in_block(broken, lambda: self.emit(scf.YieldOp(self.constant(False, BOOL))))
        running = Block()
        self.in_block(running, lambda: self.emit(scf.YieldOp(cond())))
        return self.value(scf.IfOp(self.env[flag], [i1], Region(broken), Region(running)))

    def loop_attributes(self, stmt: ast.Stmt, op: Operation) -> None:
        """`graph.label` (and `graph.schedule`) on a labelled loop or `if`."""
        label = self.sema.labels.get(stmt)
        if label is not None:
            op.attributes["graph.label"] = StringAttr(label)
        binding = self.bindings.get(self.sema.labelled(stmt))
        if binding is not None:
            op.attributes["graph.schedule"] = binding.attr

    def carried_results(self, op: Operation, carried: Sequence[Symbol]) -> None:
        """Makes the results of a loop or `if` the new values of `carried`."""
        for symbol, result in zip(carried, op.results, strict=True):
            result.name_hint = symbol.name
            self.env[symbol] = result

    def region_block(self, carried: Sequence[Symbol], extra: Sequence[Attribute] = ()) -> Block:
        """A block whose arguments are `extra` then one per carried local."""
        block = Block(arg_types=[*extra, *(ir_type(s.ty) for s in carried)])
        for symbol, arg in zip(carried, block.args[len(extra) :], strict=True):
            arg.name_hint = symbol.name
        return block

    def bind(self, carried: Sequence[Symbol], values: Sequence[SSAValue]) -> None:
        """Makes `values` the current values of `carried` locals."""
        for symbol, value in zip(carried, values, strict=True):
            self.env[symbol] = value

    def while_stmt(self, stmt: ast.While) -> None:
        """`while c ... end` as `scf.while`, carrying the locals the body reassigns
        (and its break flag)."""
        flag = self.loop_flag(stmt)
        carried = self.reassigned(stmt.body) + ([flag] if flag is not None else [])
        self.scf_while(stmt, carried, flag, lambda args: self.expr_as(stmt.cond, BOOL))

    def scf_while(
        self,
        stmt: ast.While | ast.For,
        carried: Sequence[Symbol],
        flag: Symbol | None,
        cond: Callable[[Sequence[SSAValue]], SSAValue],
        step: Callable[[Sequence[SSAValue]], None] | None = None,
    ) -> None:
        """An `scf.while` over `stmt`'s body carrying `carried`: `cond` builds
        the condition from the carried values (false once `flag` is set), `step`
        runs after the body (a `for`'s increment)."""
        inits = [self.env[s] for s in carried]
        before = self.region_block(carried)
        after = self.region_block(carried)

        def condition() -> None:
            self.bind(carried, before.args)
            test = self.unless_flag(flag, lambda: cond(before.args))
            self.emit(scf.ConditionOp(test, *before.args))

        def loop_body() -> None:
            self.bind(carried, after.args)
            self.loop_body(flag, stmt.body)
            if step is not None:
                step(after.args)
            self.emit(scf.YieldOp(*(self.env[s] for s in carried)))

        self.in_block(before, condition)
        self.in_block(after, loop_body)
        op = scf.WhileOp(inits, [v.type for v in inits], Region(before), Region(after))
        self.loop_attributes(stmt, op)
        self.emit(op)
        self.carried_results(op, carried)

    def for_stmt(self, stmt: ast.For) -> None:
        """`for i in a:b ... end` as `scf.for` over i32 (`scf.while` if it breaks)."""
        start = self.expr_as(stmt.start, INT)
        stop = self.expr_as(stmt.stop, INT)
        step = self.constant(1, INT)
        flag = self.loop_flag(stmt)
        if flag is not None:
            self.breaking_for(stmt, start, stop, step, flag)
            return
        carried = self.reassigned(stmt.body)
        body = self.region_block(carried, extra=[i32])
        body.args[0].name_hint = stmt.var

        def loop_body() -> None:
            assert stmt.symbol is not None
            self.env[stmt.symbol] = body.args[0]
            self.bind(carried, body.args[1:])
            self.loop_body(None, stmt.body)
            self.emit(scf.YieldOp(*(self.env[s] for s in carried)))

        inits = [self.env[s] for s in carried]
        self.in_block(body, loop_body)
        op = scf.ForOp(start, stop, step, inits, body)
        self.loop_attributes(stmt, op)
        self.emit(op)
        self.carried_results(op, carried)

    def breaking_for(
        self, stmt: ast.For, start: SSAValue, stop: SSAValue, step: SSAValue, flag: Symbol
    ) -> None:
        """A `for` with a `break`: an `scf.while` carrying the counter first, then
        the reassigned locals and the break flag; it runs while the flag is false
        and the counter is below `stop`."""
        assert stmt.symbol is not None
        counter = stmt.symbol
        carried = [counter, *self.reassigned(stmt.body), flag]
        self.env[counter] = start

        def below(args: Sequence[SSAValue]) -> SSAValue:
            return self.value(arith.CmpiOp(args[0], stop, "slt"))

        def increment(args: Sequence[SSAValue]) -> None:
            self.env[counter] = self.value(arith.AddiOp(args[0], step))

        self.scf_while(stmt, carried, flag, below, increment)

    def if_stmt(self, stmt: ast.If) -> None:
        """`if c ... [else ...] end` as `scf.if`, yielding reassigned locals."""
        cond = self.expr_as(stmt.cond, BOOL)
        op, carried = self.if_op(cond, stmt.then_body, stmt.else_body)
        self.loop_attributes(stmt, op)
        self.emit(op)
        self.carried_results(op, carried)

    def if_op(
        self, cond: SSAValue, then_body: list[ast.Stmt], else_body: list[ast.Stmt] | None
    ) -> tuple[scf.IfOp, list[Symbol]]:
        """An `scf.if` (not yet emitted) over two statement lists, and the locals
        it yields."""
        carried = self.carried_by(then_body + (else_body or []))

        def branch(stmts: list[ast.Stmt]) -> Block:
            block = Block()

            def run() -> None:
                self.body(stmts)
                self.emit(scf.YieldOp(*(self.env[s] for s in carried)))

            self.in_block(block, run)
            return block

        then_block = branch(then_body)
        has_else = else_body is not None or carried
        else_region = Region(branch(else_body or [])) if has_else else Region()
        op = scf.IfOp(cond, [ir_type(s.ty) for s in carried], Region(then_block), else_region)
        return op, carried
