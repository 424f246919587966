"""`frontier-to-host-values`: every frontier value of `main` becomes the host
values of its representation."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import SourceError, UserError
from gir.dialects import frontier
from gir.ir_walk import walk
from gir.passes.gpu_kernels import GpuContext, as_i32, replace, resize
from gir.passes.kernel_builder import fold_casts, frontier_value, host_values
from gir.passes.ir_utils import main_function
from gir.passes.representations import is_frontier, representation


@dataclass(frozen=True)
class FrontierToHostValues(ModulePass):
    """Replaces each frontier value of main by its representation's host values (1:N).

    Every host op on frontiers (`frontier.new`, `all_vertices`, `convert`, `size`,
    `add`, `clear`, `dedup`, `free`, and the device-side `contains` in map bodies) is
    lowered by the registered representation of its frontier type, and every `scf.while` / `scf.for` / `scf.if` that carries
    frontiers carries their host values instead (a queue: its items buffer and
    its size). Map ops keep frontier-typed operands and results, bridged to the
    host values by `builtin.unrealized_conversion_cast`s that
    `frontier-maps-to-kernels` removes.

    Before:
    ```mlir
    %f = frontier.new %z : i32 -> !frontier.queue
    %r = scf.while (%fr = %f) : (!frontier.queue) -> !frontier.queue {
      %n = frontier.size %fr : !frontier.queue -> i32
      ...
    }
    ```
    After:
    ```mlir
    %queue = host.alloc %queue_capacity : i32 -> memref<?xi32>
    %r:2 = scf.while (%fr_items = %queue, %fr_size = %z) : (memref<?xi32>, i32) -> (memref<?xi32>, i32) {
      ...   // frontier.size %fr is %fr_size
    }
    ```
    """

    name = "frontier-to-host-values"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        main = main_function(op)
        _lower_block(GpuContext.of(op), main.body.block)
        fold_casts(main)


def _lower_block(gpu: GpuContext, block: Block) -> None:
    for op in list(block.ops):
        if isinstance(op, frontier.MapOps):
            _lower_membership_tests(gpu, op)
            continue
        if isinstance(op, scf.WhileOp | scf.ForOp | scf.IfOp) and _carries_frontiers(op):
            op = _expand_scf(op)
        if isinstance(op, scf.YieldOp | scf.ConditionOp):
            _expand_terminator(op)
            continue
        for region in op.regions:
            for inner in region.blocks:
                _lower_block(gpu, inner)
        try:
            _lower_frontier_op(gpu, op)
        except SourceError:
            raise
        except UserError as error:
            # what the context says without a position (a program without a
            # graph that makes a vertex set) is about this statement
            raise UserError.at(op, str(error)) from error


def _lower_frontier_op(gpu: GpuContext, op: Operation) -> None:
    b = Builder(InsertPoint.before(op))
    if isinstance(op, frontier.NewOp):
        values = representation(op.result.type).new(gpu, b, op.count)
        replace(op, [frontier_value(b, values, op.result.type)])
    elif isinstance(op, frontier.AllVerticesOp):
        replace(op, [frontier_value(b, [], op.result.type)])
    elif isinstance(op, frontier.ConvertOp):
        source = representation(op.input.type)
        target = representation(op.result.type)
        values = target.convert_from(source, gpu, b, host_values(op.input))
        replace(op, [frontier_value(b, values, op.result.type)])
    elif isinstance(op, frontier.SizeOp):
        size = representation(op.frontier.type).size(gpu, b, host_values(op.frontier))
        replace(op, [resize(b, size, op.result.type)])
    elif isinstance(op, frontier.AddOp):
        rep = representation(op.frontier.type)
        values = rep.add(gpu, b, host_values(op.frontier), op.vertex)
        replace(op, [frontier_value(b, values, op.result.type)])
    elif isinstance(op, frontier.ClearOp):
        rep = representation(op.frontier.type)
        values = rep.clear(gpu, b, host_values(op.frontier))
        replace(op, [frontier_value(b, values, op.result.type)])
    elif isinstance(op, frontier.DedupOp):
        rep = representation(op.frontier.type)
        values = rep.deduplicate(gpu, b, host_values(op.frontier))
        replace(op, [frontier_value(b, values, op.result.type)])
    elif isinstance(op, frontier.FreeOp):
        representation(op.frontier.type).free(gpu, b, host_values(op.frontier))
        Rewriter.erase_op(op)


def _lower_membership_tests(gpu: GpuContext, map_op: Operation) -> None:
    """`frontier.contains` in a map body becomes its representation's device test
    of the frontier's host values (kernel arguments once the map is outlined)."""
    for op in [child for child in walk(map_op) if isinstance(child, frontier.ContainsOp)]:
        b = Builder(InsertPoint.before(op))
        rep = representation(op.frontier.type)
        held = rep.contains(gpu, b, host_values(op.frontier), as_i32(b, op.vertex))
        replace(op, [held])


def _carries_frontiers(op: Operation) -> bool:
    return any(is_frontier(t) for t in op.result_types) or any(
        is_frontier(arg.type) for region in op.regions for block in region.blocks for arg in block.args
    )


def _expand_types(types: list[Attribute] | tuple[Attribute, ...]) -> list[Attribute]:
    expanded: list[Attribute] = []
    for value_type in types:
        if is_frontier(value_type):
            expanded.extend(representation(value_type).host_types())
        else:
            expanded.append(value_type)
    return expanded


def _expand(values: list[SSAValue] | tuple[SSAValue, ...]) -> list[SSAValue]:
    expanded: list[SSAValue] = []
    for value in values:
        expanded.extend(host_values(value) if is_frontier(value.type) else [value])
    return expanded


def _expand_scf(op: scf.WhileOp | scf.ForOp | scf.IfOp) -> Operation:
    """The same loop or branch carrying host values where `op` carries frontiers."""
    result_types = _expand_types(op.result_types)
    moved = [Rewriter.move_region_contents_to_new_regions(region) for region in op.regions]
    if isinstance(op, scf.WhileOp):
        new: Operation = scf.WhileOp(_expand(op.arguments), result_types, *moved)
    elif isinstance(op, scf.ForOp):
        new = scf.ForOp(op.lb, op.ub, op.step, _expand(op.iter_args), moved[0])
    else:
        new = scf.IfOp(op.cond, result_types, *moved)
    new.attributes.update(op.attributes)
    Rewriter.insert_op(new, InsertPoint.before(op))
    for region in new.regions:
        for block in region.blocks:
            _expand_block_args(block)
    after = Builder(InsertPoint.after(new))
    index = 0
    for old in op.results:
        if is_frontier(old.type):
            count = len(representation(old.type).host_types())
            values = list(new.results[index : index + count])
            old.replace_all_uses_with(frontier_value(after, values, old.type))
            index += count
        else:
            old.replace_all_uses_with(new.results[index])
            index += 1
    Rewriter.erase_op(op)
    return new


def _expand_block_args(block: Block) -> None:
    start = Builder(InsertPoint.at_start(block))
    for arg in list(block.args):
        if not is_frontier(arg.type):
            continue
        at = arg.index
        new_args = []
        rep = representation(arg.type)
        names = rep.host_names
        for offset, host_type in enumerate(rep.host_types()):
            new_arg = block.insert_arg(host_type, at + offset)
            if arg.name_hint:
                suffix = names[offset] if offset < len(names) else str(offset)
                new_arg.name_hint = f"{arg.name_hint}_{suffix}"
            new_args.append(new_arg)
        arg.replace_all_uses_with(frontier_value(start, new_args, arg.type))
        block.erase_arg(arg)


def _expand_terminator(op: scf.YieldOp | scf.ConditionOp) -> None:
    if not any(is_frontier(value.type) for value in op.operands):
        return
    if isinstance(op, scf.ConditionOp):
        new: Operation = scf.ConditionOp(op.condition, *_expand(op.args))
    else:
        new = scf.YieldOp(*_expand(op.arguments))
    Rewriter.replace_op(op, new)
