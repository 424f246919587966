"""Lowers the graph level to the frontier/traversal level.

The pass and its applies (traversals and vertex maps) are here; the promotion of
globals to SSA values, the priority queues and the vertexsets' frontier values
are in `graph_to_frontier_globals`, `graph_to_frontier_queues` and
`graph_to_frontier_vertexsets`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, UnitAttr, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import frontier, graph
from gir.dialects.schedule import (
    DedupStrategy,
    G2_DEFAULTS,
    EdgeBlocking,
    HybridScheduleAttr,
    SimpleScheduleAttr,
    Toggle,
)
from gir.ir_walk import walk
from gir.passes import directions, representations
from gir.passes.directions import DirectionStrategy
from gir.passes.ir_utils import (
    body_region,
    functions,
    inline_calls_in,
    inline_function,
    main_function,
    statement,
)
from gir.passes.graph_to_frontier_globals import promote_globals
from gir.passes.graph_to_frontier_queues import (
    priority_queues_to_frontier,
    promote_queue_globals,
    queue_delta,
    queue_fusion_threshold,
)
from gir.passes.graph_to_frontier_vertexsets import frontier_values
from gir.passes.layouts import layout as layout_strategy
from gir.passes.layouts import layout_for
from gir.passes.layouts.blocked import BLOCKING_SIZE_ATTR, SWEEP_ATTR

BUCKET_CREATION_ATTR = "bucket_creation"
"""Set on a priority-queue traversal whose schedule creates its output frontier as
a map (G2's UNFUSED_BOOLMAP / UNFUSED_BITMAP); `frontier-lower-priority-queues`
fills the bucket's next round through such a map."""

@dataclass(frozen=True)
class GraphToFrontier(ModulePass):
    """Lowers applies to frontier traversals and vertex maps with the functions inlined.

    - `graph.edgeset_apply` becomes `frontier.edge_traverse` carrying its schedule's
      direction and load balance, the layout its direction reads (CSR for PUSH;
      under edge blocking the BLOCKED edge list, with a `blocking_size`, and
      `blocked_sweep` for BLOCKED_SWEEP's walk), its `to` filter and edge
      function as regions (source and destination filters folded into the edge
      function as a guard), and, for `apply_modified`, a fresh
      empty queue to fill, the tracked vector and `dedup` (from the statement or
      from the schedule's deduplication; with `dedup_strategy = UNFUSED` a
      separate `frontier.dedup` of the traversal's result instead);
    - an `apply` of a bool edge function fills a fresh frontier too: the
      destination is enqueued where the function returned true, deduplicated
      (true may come back on several edges into one destination);
    - `graph.vertexset_apply` / `graph.vertexset_filter` become `frontier.vertex_map`
      (a filter enqueues the vertices it keeps);
    - a traversal over `edges.transpose()` reads `edges` in the opposite layout
      (PUSH: CSC, PULL: CSR), and the transpose goes;
    - a traversal's input is converted to the representation its direction needs
      (PULL from a frontier: the schedule's pull frontier, a bitmap or boolmap)
      and the converted copy freed after it;
    - an `apply_modified` fills a fresh frontier of the representation registered
      for the schedule's frontier creation (FUSED: `!frontier.queue`);
    - vertexsets become frontier values: `new vertexset(n)` a `!frontier.queue`,
      `getVertices()` `!frontier.all`; `addVertex` returns the changed queue, which
      replaces the set in what follows; `delete` is `frontier.free`;
    - lists of vertexsets become `!frontier.list`s of queues: `insert` pushes a
      queue (another representation is converted to a queue first, the copy
      freed after), `retrieve` pops into the set's queue (into fresh storage
      where the set has none of its own, a bitmap or `!frontier.all`: that one
      is freed);
    - globals other than vectors (scalars, the edgeset, vertexsets) become the SSA
      values `main` stores in them: a read is the value last stored before it
      (also in the functions a traversal runs), and an `scf.while`, `scf.for` or
      `scf.if` that stores one carries it, as the frontend carries locals; calls
      are inlined; the user functions go.

    Before:
    ```mlir
    %o = graph.edgeset_apply %e from %f apply_modified @updateEdge
        {to_filter = @toFilter, tracked = @parent, dedup, label = "s1",
         schedule = #graph.simple_schedule<...>} : !graph.edgeset -> !graph.vertexset
    ```
    After:
    ```mlir
    %c0 = arith.constant 0 : i32
    %empty = frontier.new %c0 : i32 -> !frontier.queue
    %o = frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset
        from %f : !frontier.queue into %empty : !frontier.queue tracked @parent dedup
        {label = "s1"} to {
    ^bb0(%v : !graph.vertex):
      ...                              // @toFilter's body
      frontier.yield %unvisited : i1
    } apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      ...                              // @updateEdge's body
      frontier.yield
    } -> !frontier.queue
    ```
    """

    name = "graph-to-frontier"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for child in walk(op):
            if isinstance(child, graph.EdgeSetApplyOp) and child.kind.data not in (
                graph.ApplyKind.APPLY,
                graph.ApplyKind.APPLY_MODIFIED,
                graph.ApplyKind.APPLY_UPDATE_PRIORITY,
            ):
                raise UserError.at(child,
                    f"error: {child.kind.data.value} of {statement(child)} is not "
                    "supported on the GPU yet"
                )
        main = main_function(op)
        inline_calls_in(main.body, op)
        table = functions(op)
        delta = queue_delta(op)
        fusion = queue_fusion_threshold(op)
        schedules: dict[frontier.EdgeTraverseOp, SimpleScheduleAttr] = {}
        for child in list(walk(main)):
            if isinstance(child, graph.EdgeSetApplyOp):
                traverse, schedule = _traversal(child, table)
                schedules[traverse] = schedule
            elif isinstance(child, graph.VertexSetApplyOp):
                _vertex_apply(child, table)
            elif isinstance(child, graph.VertexSetFilterOp):
                _vertex_filter(child, table)
        promote_queue_globals(op, main)
        promote_globals(op, main)
        priority_queues_to_frontier(main, delta, fusion)
        frontier_values(main)
        _direction_inputs(schedules)
        _drop_transposes(main)
        for child in list(op.ops):
            if isinstance(child, func.FuncOp) and child is not main and not child.is_declaration:
                op.body.block.erase_op(child)
            elif isinstance(child, graph.GlobalOp) and not isinstance(
                child.global_type, graph.VectorType
            ):
                op.body.block.erase_op(child)


# ---------------------------------------------------------------------------
# Applies
# ---------------------------------------------------------------------------


def _label(op: Operation, function: str) -> str:
    label = op.properties.get("label")
    return label.data if label is not None else function  # type: ignore[union-attr]


def _zero_i32(before: Operation) -> SSAValue:
    zero = arith.ConstantOp(IntegerAttr(0, i32))
    Rewriter.insert_op(zero, InsertPoint.before(before))
    return zero.result


def _empty_output(before: Operation, creation: str) -> SSAValue:
    """A fresh empty frontier of the representation that realizes `creation` (the
    schedule's frontier creation; a filter's output is FUSED)."""
    output_type = representations.output_type(creation)
    if output_type is None:
        raise UserError.at(before,
            f"error: frontier creation {creation} of {statement(before)} has no "
            "registered frontier representation"
        )
    new = frontier.NewOp(_zero_i32(before), output_type)
    new.result.name_hint = "empty"
    Rewriter.insert_op(new, InsertPoint.before(before))
    return new.result


def _traversal(
    op: graph.EdgeSetApplyOp, table: dict[str, func.FuncOp]
) -> tuple[frontier.EdgeTraverseOp, SimpleScheduleAttr]:
    schedule = op.schedule or SimpleScheduleAttr.default()
    if isinstance(schedule, HybridScheduleAttr):
        raise UserError.at(op,
            f"error: hybrid schedule of {statement(op)}: run graph-split-hybrid first"
        )
    udf_name = op.udf.root_reference.data
    body = body_region(table[udf_name], frontier.YieldOp)
    filtered = op.kind.data == graph.ApplyKind.APPLY and op.result is not None
    if filtered:
        _enqueue_if_verdict(body.block, 1)
    guards = [
        (table[ref.root_reference.data], index)
        for ref, index in ((op.src_filter, 0), (op.dst_filter, 1))
        if ref is not None
    ]
    if guards:
        body = _guarded(body, guards)
    to_filter = (
        None
        if op.to_filter is None
        else body_region(table[op.to_filter.root_reference.data], frontier.YieldOp)
    )
    source = op.frontier
    if source is None:
        every = frontier.AllVerticesOp()
        Rewriter.insert_op(every, InsertPoint.before(op))
        source = every.result
    modified = op.kind.data == graph.ApplyKind.APPLY_MODIFIED
    output = (
        _empty_output(op, schedule.frontier_creation.data) if op.result is not None else None
    )
    # a bool edge function can return true for a destination on each of its edges
    dedup = filtered or (
        modified and (op.dedup is not None or schedule.deduplication.data == Toggle.ENABLED)
    )
    unfused_dedup = dedup and schedule.dedup_strategy.data == DedupStrategy.UNFUSED
    direction = schedule.direction.data
    direction_strategy = directions.direction(direction)
    edges, layout = _edges_and_layout(op, schedule, direction_strategy)
    traverse = frontier.EdgeTraverseOp(
        edges,
        source,
        body,
        output=output,
        to_filter=to_filter,
        direction=direction,
        load_balance=schedule.load_balance.data,
        layout=layout,
        tracked=op.tracked,
        dedup=dedup and not unfused_dedup,
        label=_label(op, udf_name),
        block_size=schedule.block_size.value.data,
        edge_sample=schedule.edge_sample.value.data,
    )
    if schedule.edge_blocking.data.blocked:
        traverse.attributes[BLOCKING_SIZE_ATTR] = schedule.blocking_size
    if schedule.edge_blocking.data == EdgeBlocking.BLOCKED_SWEEP:
        traverse.attributes[SWEEP_ATTR] = UnitAttr()
    if (
        op.kind.data == graph.ApplyKind.APPLY_UPDATE_PRIORITY
        and schedule.frontier_creation.data != G2_DEFAULTS["frontier_creation"]
    ):
        traverse.attributes[BUCKET_CREATION_ATTR] = schedule.frontier_creation
    if unfused_dedup:
        deduplicated = frontier.DedupOp(traverse.results[0])
        Rewriter.insert_op(traverse, InsertPoint.before(op))
        Rewriter.replace_op(op, deduplicated)
        return traverse, schedule
    Rewriter.replace_op(op, traverse, new_results=list(traverse.results))
    return traverse, schedule


def _edges_and_layout(
    op: graph.EdgeSetApplyOp, schedule: SimpleScheduleAttr, direction: DirectionStrategy
) -> tuple[SSAValue, str]:
    """The edgeset a traversal reads and its layout: over `edges.transpose()`,
    the original edges in the opposite layout (a vertex's out-edges in the
    transpose are its in-edges, CSC, and the other way round)."""
    layout = _layout(schedule, direction)
    transpose = op.edges.owner
    if not isinstance(transpose, graph.TransposeOp):
        return op.edges, layout
    transposed = layout_strategy(layout).transposed
    if transposed is None:
        raise UserError.at(op,
            f"error: {layout} layout of {statement(op)} over a transposed "
            "edgeset is not supported yet"
        )
    return transpose.edges, transposed


def _layout(schedule: SimpleScheduleAttr, direction: DirectionStrategy) -> str:
    """The layout a traversal with `schedule` reads: the one its direction reads
    (CSR for PUSH, CSC for PULL), under edge blocking its blocked edge list
    (BLOCKED, BLOCKED_CSC; the size goes along as the `blocking_size` attribute)."""
    return layout_for(schedule)


def _guarded(body: Region, guards: list[tuple[func.FuncOp, int]]) -> Region:
    """`body` run only when every (filter, argument index) guard holds."""
    old = body.block
    block = Block(arg_types=old.arg_types)
    for arg, new_arg in zip(old.args, block.args, strict=True):
        new_arg.name_hint = arg.name_hint
    verdicts: list[SSAValue] = []
    for function, index in guards:
        anchor = frontier.YieldOp()
        block.add_op(anchor)
        (verdict,) = inline_function(function, [block.args[index]], InsertPoint.before(anchor))
        block.erase_op(anchor)
        verdicts.append(verdict)
    condition = verdicts[0]
    for other in verdicts[1:]:
        both = arith.AndIOp(condition, other)
        block.add_op(both)
        condition = both.result
    inner = Block()
    guarded = scf.IfOp(condition, [], Region(inner))
    block.add_op(guarded)
    terminator = old.last_op
    assert terminator is not None
    old.erase_op(terminator)
    for arg, new in zip(old.args, block.args, strict=True):
        arg.replace_all_uses_with(new)
    for child in list(old.ops):
        child.detach()
        inner.add_op(child)
    inner.add_op(scf.YieldOp())
    block.add_op(frontier.YieldOp())
    return Region(block)


def _vertex_apply(op: graph.VertexSetApplyOp, table: dict[str, func.FuncOp]) -> None:
    name = op.udf.root_reference.data
    body = body_region(table[name], frontier.YieldOp)
    vertex_map = frontier.VertexMapOp(op.set, body, label=_label(op, name))
    Rewriter.replace_op(op, vertex_map, new_results=[])


def _enqueue_if_verdict(block: Block, vertex: int) -> None:
    """Replaces `block`'s `frontier.yield %keep` by an enqueue of its argument
    `vertex` when `%keep` holds, and an empty yield."""
    verdict_yield = block.last_op
    assert isinstance(verdict_yield, frontier.YieldOp)
    (keep,) = verdict_yield.arguments
    enqueue = Block([frontier.EnqueueOp(block.args[vertex]), scf.YieldOp()])
    Rewriter.replace_op(
        verdict_yield, [scf.IfOp(keep, [], Region(enqueue)), frontier.YieldOp()]
    )


def _vertex_filter(op: graph.VertexSetFilterOp, table: dict[str, func.FuncOp]) -> None:
    name = op.filter.root_reference.data
    body = body_region(table[name], frontier.YieldOp)
    _enqueue_if_verdict(body.block, 0)
    vertex_map = frontier.VertexMapOp(
        op.set, body, output=_empty_output(op, G2_DEFAULTS["frontier_creation"]), label=_label(op, name)
    )
    Rewriter.replace_op(op, vertex_map)


def _direction_inputs(schedules: dict[frontier.EdgeTraverseOp, SimpleScheduleAttr]) -> None:
    """Converts each traversal's input to the representation its direction needs
    (PULL: the schedule's pull frontier), freed after the traversal."""
    for traverse, schedule in schedules.items():
        strategy = directions.direction(traverse.direction.data)
        needed = strategy.input_type(traverse.input.type, schedule)
        if needed is not None:
            convert = frontier.ConvertOp(traverse.input, needed)
            convert.result.name_hint = f"{traverse.direction.data.lower()}_input"
            Rewriter.insert_op(convert, InsertPoint.before(traverse))
            traverse.operands[1] = convert.result
            Rewriter.insert_op(frontier.FreeOp(convert.result), InsertPoint.after(traverse))


def _drop_transposes(main: func.FuncOp) -> None:
    """Erases the `edges.transpose()` values the traversals no longer read."""
    for op in list(walk(main)):
        if isinstance(op, graph.TransposeOp):
            if op.result.uses:
                raise UserError.at(op,
                    "error: a transposed edgeset used other than by edgeset applies "
                    "is not supported yet"
                )
            Rewriter.erase_op(op)
