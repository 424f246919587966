"""`gpu-hoist-constants`: one copy of each constant at the top of each kernel and of main."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.transforms.dead_code_elimination import dce

from gir.dialects import gir_gpu
from gir.dialects.graph import UNSIGNED_LITERAL
from gir.ir_walk import walk


@dataclass(frozen=True)
class GpuHoistConstants(ModulePass):
    """Puts each distinct constant once at the start of its kernel or of main, and drops dead code.

    Lowering builds constants where they are needed, often many times; the
    printers then declare each once, ahead of the code that uses it (a literal
    the program spelled unsigned, `graph.unsigned_literal`, is distinct from
    the same bits spelled signed). Dead code includes the results of an
    `scf.if` that nothing reads (a reduction's "changed" flag where no frontier
    wants it), which C compilers would report as variables set but never used.

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
        while _drop_unused_if_results(op):
            dce(op)


def _hoist(entry: Block) -> None:
    # A literal the program spelled unsigned stays apart from the same bits
    # spelled signed, so that each prints as written.
    first: dict[tuple[Attribute, Attribute, bool], SSAValue] = {}
    hoisted: list[Operation] = []
    for op in list(walk(entry)):
        if not isinstance(op, arith.ConstantOp):
            continue
        key = (op.value, op.result.type, UNSIGNED_LITERAL in op.attributes)
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


def _drop_unused_if_results(root: Operation) -> bool:
    """Rebuilds each `scf.if` of `root` that has results nothing reads without
    them (its branches yield only the rest); whether any changed."""
    changed = False
    for op in list(walk(root)):
        if not isinstance(op, scf.IfOp) or all(result.uses for result in op.results):
            continue
        kept = [i for i, result in enumerate(op.results) if result.uses]
        regions = [op.detach_region(region) for region in list(op.regions)]
        for region in regions:
            for block in region.blocks:
                terminator = block.last_op
                assert isinstance(terminator, scf.YieldOp)
                Rewriter.replace_op(terminator, scf.YieldOp(*(terminator.operands[i] for i in kept)))
        otherwise = regions[1]
        if not kept and otherwise.blocks and isinstance(otherwise.block.first_op, scf.YieldOp):
            otherwise = Region()  # an else that only yielded the dropped results
        rebuilt = scf.IfOp(op.cond, [op.results[i].type for i in kept], regions[0], otherwise)
        new_results: list[SSAValue | None] = [None] * len(op.results)
        for position, i in enumerate(kept):
            new_results[i] = rebuilt.results[position]
            rebuilt.results[position].name_hint = op.results[i].name_hint
        Rewriter.replace_op(op, rebuilt, new_results=new_results)
        changed = True
    return changed
