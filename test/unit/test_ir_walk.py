"""`gir.ir_walk.walk`: the operations xDSL's `walk` yields, in the same order,
for every root kind and option, without a generator frame per level of nesting
(so a walk of IR nested deeper than Python's recursion limit still works, and
each operation costs the same however deep it lies)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i1
from xdsl.ir import Block, Operation, Region

from gir.api import compile as compile_program
from gir.api import lower_for_run
from gir.ir_walk import walk

PROGRAMS = Path(__file__).parents[1] / "programs"

OPTIONS = [
    pytest.param({}, id="pre-order"),
    pytest.param({"reverse": True}, id="reverse"),
    pytest.param({"region_first": True}, id="post-order"),
    pytest.param({"reverse": True, "region_first": True}, id="reverse-post-order"),
]


@pytest.fixture(scope="module")
def lowered() -> ModuleOp:
    """BC lowered to the GPU level: kernels, host loops, nested regions."""
    return lower_for_run(compile_program(str(PROGRAMS / "bc.gt"))._main().clone())


@pytest.mark.parametrize("options", OPTIONS)
def test_the_same_operations_in_the_same_order_as_xdsl(lowered: ModuleOp, options: dict[str, bool]) -> None:
    ops = list(lowered.walk(**options))
    assert len(ops) > 100
    assert list(walk(lowered, **options)) == ops
    nested = next(op for op in ops if isinstance(op, scf.ForOp | scf.WhileOp) and len(list(op.walk())) > 3)
    assert list(walk(nested, **options)) == list(nested.walk(**options))
    region = nested.regions[0]
    assert list(walk(region, **options)) == list(region.walk(**options))
    block = region.blocks[0]
    assert list(walk(block, **options)) == list(block.walk(**options))
    leaf = next(op for op in ops if not op.regions)
    assert list(walk(leaf, **options)) == [leaf]


def _nested_ifs(depth: int) -> tuple[ModuleOp, list[Operation]]:
    """A module of `depth` scf.ifs, each inside the one before, and its ops."""
    condition = arith.ConstantOp(IntegerAttr(1, i1))
    ops: list[Operation] = [condition]
    inner = Block([scf.YieldOp()])
    for _ in range(depth):
        branch = scf.IfOp(condition.result, [], Region(inner))
        ops.append(branch)
        inner = Block([branch, scf.YieldOp()])
    outer = inner.detach_op(inner.first_op)  # the outermost if
    return ModuleOp([condition, outer]), ops


def test_ir_nested_past_the_recursion_limit_is_walked() -> None:
    depth = sys.getrecursionlimit()
    module, ops = _nested_ifs(depth)
    walked = list(walk(module))
    assert len(walked) == 1 + len(ops) + depth  # the module, the ifs and constant, a yield each
    assert sum(isinstance(op, scf.IfOp) for op in walked) == depth


def test_operations_changed_while_walking_are_seen_as_xdsl_sees_them() -> None:
    """Lazy as xDSL's walk: an op's regions are entered after it is yielded, so
    an op added to them before the next step is walked too."""
    module, _ = _nested_ifs(2)
    seen = []
    for op in walk(module):
        seen.append(op.name)
        if isinstance(op, scf.IfOp) and len(seen) == 3:  # the outer if
            op.true_region.block.insert_op_before(arith.ConstantOp(IntegerAttr(0, i1)), op.true_region.block.first_op)
    assert seen.count("arith.constant") == 2
