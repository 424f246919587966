"""The state IR building shares (`IRGenBase`) and the helpers that append ops at
the insertion point, located at the statement being built."""

from __future__ import annotations

import math as math_lib
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    FileLineColLoc,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    LocationAttr,
    StringAttr,
    UnitAttr,
    UnknownLoc,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from gir.dialects import graph
from gir.dialects.graph import UNSIGNED_LITERAL
from gir.frontend import ast
from gir.frontend.irgen.values import F32_MAX, float_type, int_type, wrapped
from gir.frontend.schedule import ScheduleBinding
from gir.frontend.sema import BOOL, FLOAT, INT, VERTEXSET, ScalarTy, SemaInfo, Symbol, Ty


class IRGenBase:
    """The state of building one module: the insertion point, the current
    values of locals, the location and the label and schedule of the statement
    being built; with the helpers every concern uses to append ops. `IRGen`
    combines it with one mixin per concern (module and declarations,
    statements, control flow, expressions, calls and methods); a mixin calls the
    others' builders through `self`."""

    def __init__(
        self,
        program: ast.Program,
        sema: SemaInfo,
        bindings: dict[ast.Stmt, ScheduleBinding],
        filename: str = "",
    ):
        self.program = program
        self.filename = filename
        self.location: LocationAttr = UnknownLoc()
        """Where the ops being built come from: the statement (or declaration)
        being generated; `emit` gives it to every op it appends."""
        self.sema = sema
        self.bindings = bindings
        self.block = Block()
        self.env: dict[Symbol, SSAValue] = {}
        self.stmt_label: str | None = None
        self.stmt_schedule: Attribute | None = None
        self.break_flag: Symbol | None = None
        self.every_edge: func.FuncOp | None = None
        """The edge function `edges.getNgh(v)` applies (true on every edge),
        built at the first use; see `neighbours`."""

    # -- helpers -----------------------------------------------------------------

    def emit(self, op: Operation) -> Operation:
        """Appends `op` at the insertion point, located at the current statement."""
        self.block.add_op(self.stamp(op))
        return op

    def stamp(self, op: Operation) -> Operation:
        """`op`, located at the current statement unless it has a location."""
        if isinstance(op.location, UnknownLoc):
            op.location = self.location
        return op

    def source_location(self, pos: ast.Pos) -> LocationAttr:
        """The IR location of a source position (unknown without a file name)."""
        if not self.filename:
            return UnknownLoc()
        return FileLineColLoc(StringAttr(self.filename), IntAttr(pos.line), IntAttr(pos.col))

    @contextmanager
    def located(self, pos: ast.Pos) -> Iterator[None]:
        """Locates the ops built inside the `with` at `pos`."""
        saved = self.location
        self.location = self.source_location(pos)
        try:
            yield
        finally:
            self.location = saved

    def value(self, op: Operation) -> SSAValue:
        """Appends `op` and returns its single result."""
        self.emit(op)
        return op.results[0]

    def in_block(self, block: Block, body: Callable[[], None]) -> None:
        """Runs `body` with `block` as the insertion point and a private copy of
        the local environment."""
        saved_block, saved_env = self.block, self.env
        self.block, self.env = block, dict(saved_env)
        try:
            body()
        finally:
            self.block, self.env = saved_block, saved_env

    def constant(self, value: int | float | bool, ty: ScalarTy) -> SSAValue:
        """An `arith.constant` of the given GraphIt scalar type."""
        if ty.is_float:
            number = float(value)
            if ty == FLOAT and abs(number) > F32_MAX:
                number = math_lib.copysign(math_lib.inf, number)
            return self.value(arith.ConstantOp(FloatAttr(number, float_type(ty))))
        if ty == BOOL:
            return self.value(arith.ConstantOp(IntegerAttr(int(value), i1)))
        constant = arith.ConstantOp(IntegerAttr(wrapped(int(value), ty.width), int_type(ty)))
        if ty.is_unsigned and int(value) >= 1 << (ty.width - 1):
            constant.attributes[UNSIGNED_LITERAL] = UnitAttr()  # printed as 4294967295u
        return self.value(constant)

    def zero(self, ty: Ty) -> SSAValue:
        """The zero (false) value of a scalar type."""
        assert isinstance(ty, ScalarTy)
        return self.constant(0, ty)

    def initial_value(self, ty: Ty) -> SSAValue:
        """A local declared without a value: zero, or an empty vertexset."""
        if ty == VERTEXSET:
            return self.value(graph.VertexSetNewOp(self.constant(0, INT)))
        return self.zero(ty)
