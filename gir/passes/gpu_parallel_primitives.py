"""Builders shared by the expansions of gir's device-wide primitives (not a pass).

`gpu-expand-scan` (exclusive scans) and `gpu-expand-reduce` (vector reductions)
both turn one GPU-level op into block-level kernels and their host launches; the
small pieces they build the same way live here: the block sizes such kernels are
made for, named constants and index casts inside an `ImplicitBuilder`, a guarded
store, block-argument names, and the module-level op that holds an op.
"""

from __future__ import annotations

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from gir.diagnostics import UserError

BLOCK_SIZES = tuple(2**power for power in range(5, 11))
"""The block sizes the parallel primitives are built for: powers of two, 32 to 1024."""


def check_block_size(pass_name: str, block_size: int) -> None:
    """A `UserError` naming `pass_name` unless `block_size` is one of `BLOCK_SIZES`."""
    if block_size not in BLOCK_SIZES:
        raise UserError(
            f"error: {pass_name}: block-size is a power of two from 32 to 1024, not {block_size}"
        )
"""The block sizes the primitives' kernels can be made for: powers of two, 32 to 1024."""


def top_level_op(op: Operation, module: ModuleOp) -> Operation:
    """The op of `module`'s body that holds `op` (where a new kernel goes before)."""
    while op.parent_op() is not module:
        parent = op.parent_op()
        assert parent is not None
        op = parent
    return op


def named(op: Operation, name: str) -> SSAValue:
    """`op`'s single result, named `%name`."""
    result = op.results[0]
    result.name_hint = name
    return result


def constant(value: int, type_: Attribute, name: str) -> SSAValue:
    """An integer `arith.constant` of `type_`, named `%name`."""
    assert isinstance(type_, IntegerType)
    return named(arith.ConstantOp(IntegerAttr(value, type_)), name)


def index(value: SSAValue) -> SSAValue:
    """`value` (an i32) as an `index`, for memref accesses."""
    return named(arith.IndexCastOp(value, IndexType()), f"{value.name_hint or 'i'}_index")


def store_if(condition: SSAValue, value: SSAValue, buffer: SSAValue, position: SSAValue) -> None:
    """`buffer[position] = value` where `condition` holds."""
    then = Block()
    with ImplicitBuilder(then):
        memref.StoreOp.get(value, buffer, [index(position)])
        scf.YieldOp()
    scf.IfOp(condition, [], Region(then))


def name_args(block: Block, *names: str) -> None:
    """Names `block`'s arguments `%names[0]`, `%names[1]`, ... (one name each)."""
    for arg, name in zip(block.args, names, strict=True):
        arg.name_hint = name
