"""Source locations: `UserError.at` and the inheritance of locations by the ops a
pass makes (`gir.passes.locations`)."""

from __future__ import annotations

from xdsl.dialects import arith, func, test
from xdsl.dialects.builtin import (
    FileLineColLoc,
    IntAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    i32,
)
from xdsl.rewriter import Rewriter

from gir.diagnostics import SourceError, UserError
from gir.passes.locations import Snapshot, inherit_locations


def _loc(line: int, column: int = 5) -> FileLineColLoc:
    return FileLineColLoc(StringAttr("p.gt"), IntAttr(line), IntAttr(column))


def _constant(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, i32))


def test_an_error_about_an_unlocated_op_takes_its_parents_position() -> None:
    inner = _constant(1)
    function = func.FuncOp("f", ((), ()))
    function.body.block.add_op(inner)
    function.location = _loc(3, 1)
    error = UserError.at(inner, "error: no lowering")
    assert isinstance(error, SourceError)
    assert str(error) == "p.gt:3:1: error: no lowering"


def test_an_error_without_any_location_is_unlocated() -> None:
    assert str(UserError.at(_constant(1), "no lowering")) == "error: no lowering"
    assert str(UserError.at(None, "error: no lowering")) == "error: no lowering"


def _module_with(*ops: arith.ConstantOp) -> tuple[ModuleOp, func.FuncOp]:
    main = func.FuncOp("main", ((), ()))
    main.body.block.add_ops([*ops, func.ReturnOp()])
    return ModuleOp([main]), main


def test_a_replacement_takes_the_location_of_the_op_it_replaces() -> None:
    first, second, third = _constant(1), _constant(2), _constant(3)
    for line, op in ((10, first), (11, second), (12, third)):
        op.location = _loc(line)
    module, _ = _module_with(first, second, third)
    before = Snapshot.of(module)
    Rewriter.replace_op(second, [_constant(20), replacement := _constant(21)])
    inherit_locations(module, before)
    assert replacement.location == _loc(11)
    assert replacement.prev_op is not None and replacement.prev_op.location == _loc(11)


def test_an_inserted_op_takes_the_location_of_the_op_after_it() -> None:
    first, second = _constant(1), _constant(2)
    first.location, second.location = _loc(10), _loc(11)
    module, main = _module_with(first, second)
    before = Snapshot.of(module)
    inserted = _constant(5)
    main.body.block.insert_op_before(inserted, second)
    inherit_locations(module, before)
    assert inserted.location == _loc(11)


def test_a_new_symbol_takes_the_location_of_its_first_user() -> None:
    launch_like = _constant(1)
    module, main = _module_with(launch_like)
    before = Snapshot.of(module)
    kernel = func.FuncOp("k", ((), ()))
    kernel.body.block.add_op(func.ReturnOp())
    module.body.block.insert_op_before(kernel, main)
    user = test.TestOp(properties={"callee": SymbolRefAttr("k")})  # a launch of @k
    user.location = _loc(7)
    main.body.block.insert_op_before(user, launch_like)
    inherit_locations(module, before)
    assert kernel.location == _loc(7)
    assert kernel.body.block.first_op is not None
    assert kernel.body.block.first_op.location == _loc(7)

