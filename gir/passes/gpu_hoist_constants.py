"""`gpu-hoist-constants`: one copy of each constant at the top of each kernel and of main."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.transforms.dead_code_elimination import dce

from gir.dialects import gir_gpu


@dataclass(frozen=True)
class GpuHoistConstants(ModulePass):
    """Puts each distinct constant once at the start of its kernel or of main, and drops dead code.

    Lowering builds constants where they are needed, often many times; the
    printers then declare each once, ahead of the code that uses it.

    Before:
    ```mlir
    gir_gpu.kernel @k(%n : i32) {
      %gid = gir_gpu.id global
      %c1 = arith.constant 1 : i32
      %a = arith.addi %gid, %c1 : i32
      %c1_2 = arith.constant 1 : i32
      %b = arith.addi %a, %c1_2 : i32
      ...
    }
    ```
    After:
    ```mlir
    gir_gpu.kernel @k(%n : i32) {
      %c1 = arith.constant 1 : i32
      %gid = gir_gpu.id global
      %a = arith.addi %gid, %c1 : i32
      %b = arith.addi %a, %c1 : i32
      ...
    }
    ```
    """

    name = "gpu-hoist-constants"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in op.ops:
            if isinstance(function, gir_gpu.KernelOp | func.FuncOp) and function.body.blocks:
                _hoist(function.body.block)
        dce(op)


def _hoist(entry: Block) -> None:
    first: dict[tuple[Attribute, Attribute], SSAValue] = {}
    hoisted: list[Operation] = []
    for op in list(entry.walk()):
        if not isinstance(op, arith.ConstantOp):
            continue
        key = (op.value, op.result.type)
        if not op.result.uses:
            Rewriter.erase_op(op)
        elif key in first:
            op.result.replace_all_uses_with(first[key])
            Rewriter.erase_op(op)
        else:
            first[key] = op.result
            op.detach()
            hoisted.append(op)
    if hoisted:
        start = entry.first_op
        if start is None:
            entry.add_ops(hoisted)
        else:
            entry.insert_ops_before(hoisted, start)
