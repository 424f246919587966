"""Lowers the graph level to the frontier/traversal level."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import frontier, graph
from gir.dialects.frontier import AllVerticesType, SparseQueueType
from gir.dialects.schedule import (
    ArgvAttr,
    DedupStrategy,
    G2_DEFAULTS,
    EdgeBlocking,
    HybridScheduleAttr,
    SimpleScheduleAttr,
    Toggle,
)
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
from gir.passes.layouts import layout as layout_strategy
from gir.passes.layouts import layout_for
from gir.passes.layouts.blocked import BLOCKING_SIZE_ATTR

BUCKET_CREATION_ATTR = "bucket_creation"
"""Set on a priority-queue traversal whose schedule creates its output frontier as
a map (G2's UNFUSED_BOOLMAP / UNFUSED_BITMAP); `frontier-lower-priority-queues`
fills the bucket's next round through such a map."""

@dataclass(frozen=True)
class GraphToFrontier(ModulePass):
    """Lowers applies to frontier traversals and vertex maps with the functions inlined.

    - `graph.edgeset_apply` becomes `frontier.edge_traverse` carrying its schedule's
      direction and load balance, the layout its direction reads (CSR for PUSH;
      under edge blocking the BLOCKED edge list, with a `blocking_size`), its
      `to` filter and edge function as regions (source and destination filters
      folded into the edge function as a guard), and, for `apply_modified`, a fresh
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
        for child in op.walk():
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
        delta = _queue_delta(op)
        fusion = _queue_fusion_threshold(op)
        schedules: dict[frontier.EdgeTraverseOp, SimpleScheduleAttr] = {}
        for child in list(main.walk()):
            if isinstance(child, graph.EdgeSetApplyOp):
                traverse, schedule = _traversal(child, table)
                schedules[traverse] = schedule
            elif isinstance(child, graph.VertexSetApplyOp):
                _vertex_apply(child, table)
            elif isinstance(child, graph.VertexSetFilterOp):
                _vertex_filter(child, table)
        _promote_queue_globals(op, main)
        _promote_globals(op, main)
        _priority_queues(main, delta, fusion)
        _frontier_values(main)
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
    )
    if schedule.edge_blocking.data == EdgeBlocking.BLOCKED:
        traverse.attributes[BLOCKING_SIZE_ATTR] = schedule.blocking_size
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
    for op in list(main.walk()):
        if isinstance(op, graph.TransposeOp):
            if op.result.uses:
                raise UserError.at(op,
                    "error: a transposed edgeset used other than by edgeset applies "
                    "is not supported yet"
                )
            Rewriter.erase_op(op)


# ---------------------------------------------------------------------------
# Globals
# ---------------------------------------------------------------------------


def _zero_of(value_type: Attribute) -> Operation | None:
    if isinstance(value_type, IntegerType):
        return arith.ConstantOp(IntegerAttr(0, value_type))
    try:
        return arith.ConstantOp(FloatAttr(0.0, value_type))  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001
        return None


@dataclass
class _Globals:
    """The non-vector globals of a module, promoted to SSA values in `main`."""

    declared: dict[str, graph.GlobalOp]
    entry: Block
    """`main`'s entry block, where the zero of a global read before any store goes."""
    zeros: dict[str, SSAValue] = field(default_factory=dict)

    def name(self, op: Operation) -> str | None:
        """The promoted global that a `graph.global_load`/`global_store` names, else None."""
        if not isinstance(op, graph.GlobalLoadOp | graph.GlobalStoreOp):
            return None
        name = op.global_name.root_reference.data
        return name if name in self.declared else None

    def current(self, name: str, values: dict[str, SSAValue], user: Operation) -> SSAValue:
        """The value of global `name` where `values` holds: the last value stored,
        else its zero (an error for a type without one)."""
        if name in values:
            return values[name]
        if name not in self.zeros:
            zero = _zero_of(self.declared[name].global_type)
            if zero is None:
                raise UserError.at(user, f"error: global '@{name}' is read before it is set")
            zero.results[0].name_hint = name
            Rewriter.insert_op(zero, InsertPoint.at_start(self.entry))
            self.zeros[name] = zero.results[0]
        return self.zeros[name]

    def stored(self, op: Operation) -> list[str]:
        """The promoted globals stored anywhere inside `op`'s regions, in order."""
        names: list[str] = []
        for child in op.walk():
            name = self.name(child)
            if isinstance(child, graph.GlobalStoreOp) and name is not None and name not in names:
                names.append(name)
        return names


def _promote_globals(module: ModuleOp, main: func.FuncOp) -> None:
    """Replaces the loads and stores of non-vector globals in `main` by SSA values:
    a load reads the value last stored before it, and the `scf.if`, `scf.while`
    and `scf.for` ops whose bodies store a global carry its value (as results,
    and as loop arguments), the way the frontend carries the locals they set."""
    declared = {
        child.sym_name.data: child
        for child in module.ops
        if isinstance(child, graph.GlobalOp)
        and not isinstance(child.global_type, graph.VectorType)
    }
    globals_ = _Globals(declared, main.body.block)
    _promote_block(main.body.block, {}, globals_)
    for child in main.walk():
        if (name := globals_.name(child)) is not None:
            raise UserError.at(child, f"error: global '@{name}' could not be promoted")


def _promote_block(block: Block, values: dict[str, SSAValue], globals_: _Globals) -> None:
    """Promotes the globals in `block`'s ops, in order, from `values` (each
    global's value on entry), which ends up holding their values at its end."""
    for op in list(block.ops):
        name = globals_.name(op)
        if isinstance(op, graph.GlobalLoadOp) and name is not None:
            op.result.replace_all_uses_with(globals_.current(name, values, op))
            Rewriter.erase_op(op)
        elif isinstance(op, graph.GlobalStoreOp) and name is not None:
            if op.value.name_hint is None:
                op.value.name_hint = name
            values[name] = op.value
            Rewriter.erase_op(op)
        elif isinstance(op, scf.IfOp):
            _promote_if(op, values, globals_)
        elif isinstance(op, scf.WhileOp):
            _promote_while(op, values, globals_)
        elif isinstance(op, scf.ForOp):
            _promote_for(op, values, globals_)
        elif op.regions:
            _promote_device(op, values, globals_)


def _promote_device(op: Operation, values: dict[str, SSAValue], globals_: _Globals) -> None:
    """Promotes the globals read by the functions a traversal or vertex map runs
    on the GPU: they read the host's current values (kernel arguments, later)."""
    for child in list(op.walk()):
        name = globals_.name(child)
        if isinstance(child, graph.GlobalStoreOp) and name is not None:
            raise UserError.at(child,
                f"error: global '@{name}' is set in a function that runs on the GPU "
                f"({statement(op)}), which is not supported yet"
            )
        if isinstance(child, graph.GlobalLoadOp) and name is not None:
            child.result.replace_all_uses_with(globals_.current(name, values, op))
            Rewriter.erase_op(child)


def _carry(block: Block, carried: list[str], inits: list[SSAValue]) -> dict[str, SSAValue]:
    """Appends an argument to `block` per carried global; returns them by name."""
    args: dict[str, SSAValue] = {}
    for name, init in zip(carried, inits, strict=True):
        args[name] = block.insert_arg(init.type, len(block.args))
        args[name].name_hint = name
    return args


def _extend_terminator(block: Block, extra: list[SSAValue]) -> None:
    """Appends `extra` to the operands of `block`'s `scf.yield`/`scf.condition`."""
    terminator = block.last_op
    assert isinstance(terminator, scf.YieldOp | scf.ConditionOp)
    terminator.operands = (*terminator.operands, *extra)


def _detach_regions(op: Operation) -> list[Region]:
    """Takes all of `op`'s regions out of it, in order, for the op replacing it."""
    return [op.detach_region(region) for region in list(op.regions)]


def _replace_carrying(
    op: Operation, new: Operation, carried: list[str], values: dict[str, SSAValue]
) -> None:
    """Replaces `op` by `new`, which has `op`'s results then one per carried
    global: those become the globals' values after it."""
    new.attributes.update(op.attributes)
    new.location = op.location
    kept = len(op.results)
    for name, result in zip(carried, new.results[kept:], strict=True):
        result.name_hint = name
        values[name] = result
    Rewriter.replace_op(op, new, new.results[:kept])


def _promote_if(op: scf.IfOp, values: dict[str, SSAValue], globals_: _Globals) -> None:
    """An `scf.if` yields the globals either branch stores (an `else` that
    does not exist yet yields their values before the `if`)."""
    carried = globals_.stored(op)
    inits = [globals_.current(name, values, op) for name in carried]
    for region in op.regions:
        if region.blocks:
            branch = dict(values)
            _promote_block(region.block, branch, globals_)
            if carried:
                _extend_terminator(region.block, [branch[name] for name in carried])
    if not carried:
        return
    then_region, else_region = _detach_regions(op)
    if not else_region.blocks:
        else_region.add_block(Block([scf.YieldOp(*inits)]))
    types = [*op.result_types, *(init.type for init in inits)]
    _replace_carrying(op, scf.IfOp(op.cond, types, then_region, else_region), carried, values)


def _promote_while(op: scf.WhileOp, values: dict[str, SSAValue], globals_: _Globals) -> None:
    """An `scf.while` carries the globals its condition or body stores: after
    its own arguments, through `scf.condition` and `scf.yield`."""
    carried = globals_.stored(op)
    inits = [globals_.current(name, values, op) for name in carried]
    before, after = op.before_region.block, op.after_region.block
    testing = values | _carry(before, carried, inits)
    _promote_block(before, testing, globals_)
    _extend_terminator(before, [testing[name] for name in carried])
    looping = values | _carry(after, carried, inits)
    _promote_block(after, looping, globals_)
    _extend_terminator(after, [looping[name] for name in carried])
    if not carried:
        return
    before_region, after_region = _detach_regions(op)
    types = [*op.result_types, *(init.type for init in inits)]
    new = scf.WhileOp([*op.arguments, *inits], types, before_region, after_region)
    _replace_carrying(op, new, carried, values)


def _promote_for(op: scf.ForOp, values: dict[str, SSAValue], globals_: _Globals) -> None:
    """An `scf.for` carries the globals its body stores, after its own `iter_args`."""
    carried = globals_.stored(op)
    inits = [globals_.current(name, values, op) for name in carried]
    body = op.body.block
    looping = values | _carry(body, carried, inits)
    _promote_block(body, looping, globals_)
    _extend_terminator(body, [looping[name] for name in carried])
    if not carried:
        return
    (body_region,) = _detach_regions(op)
    new = scf.ForOp(op.lb, op.ub, op.step, [*op.iter_args, *inits], body_region)
    _replace_carrying(op, new, carried, values)


# ---------------------------------------------------------------------------
# Priority queues
# ---------------------------------------------------------------------------


def _queue_delta(module: ModuleOp) -> IntegerAttr | ArgvAttr:
    """The bucket width of the program's priority queues: the `delta` of the
    schedules of its `applyUpdatePriority` traversals, which must agree (G2's
    default of 1 where there is none)."""
    deltas = {
        child.schedule.delta: child
        for child in module.walk()
        if isinstance(child, graph.EdgeSetApplyOp)
        and child.kind.data == graph.ApplyKind.APPLY_UPDATE_PRIORITY
        and isinstance(child.schedule, SimpleScheduleAttr)
    }
    if len(deltas) > 1:
        raise UserError.at(list(deltas.values())[-1],
            "error: the applyUpdatePriority traversals have different deltas "
            f"({', '.join(str(d) for d in deltas)}), which is not supported yet"
        )
    return next(iter(deltas), IntegerAttr(1, 64))


def _queue_fusion_threshold(module: ModuleOp) -> int | None:
    """The bucket-fusion threshold of the program's priority queues: that of the
    `applyUpdatePriority` traversals scheduled with `configBucketFusion(ENABLED)`
    (None when none is), which must agree."""
    thresholds = {
        child.schedule.bucket_fusion_threshold.value.data
        for child in module.walk()
        if isinstance(child, graph.EdgeSetApplyOp)
        and child.kind.data == graph.ApplyKind.APPLY_UPDATE_PRIORITY
        and isinstance(child.schedule, SimpleScheduleAttr)
        and child.schedule.bucket_fusion.data == Toggle.ENABLED
    }
    if len(thresholds) > 1:
        raise UserError(
            "error: the applyUpdatePriority traversals have different bucket fusion "
            f"thresholds ({', '.join(map(str, sorted(thresholds)))}), which is not supported yet"
        )
    return next(iter(thresholds), None)


def _promote_queue_globals(module: ModuleOp, main: func.FuncOp) -> None:
    """Replaces reads of priority-queue globals by the value of the store that
    dominates them (a queue may be made anew inside a loop of `main`)."""
    names = {
        child.sym_name.data
        for child in module.ops
        if isinstance(child, graph.GlobalOp)
        and isinstance(child.global_type, graph.PriorityQueueType)
    }
    stores: dict[str, list[graph.GlobalStoreOp]] = {name: [] for name in names}
    for child in list(main.walk()):
        if isinstance(child, graph.GlobalStoreOp):
            name = child.global_name.root_reference.data
            if name in names:
                stores[name].append(child)
        elif isinstance(child, graph.GlobalLoadOp):
            name = child.global_name.root_reference.data
            if name not in names:
                continue
            store = next(
                (s for s in reversed(stores[name]) if _dominates(s, child)), None
            )
            if store is None:
                raise UserError.at(child, f"error: priority queue '@{name}' is used before it is made")
            child.result.replace_all_uses_with(store.value)
            Rewriter.erase_op(child)
    for found in stores.values():
        for store in found:
            Rewriter.erase_op(store)


def _dominates(store: Operation, user: Operation) -> bool:
    """Whether `store` runs before `user` on every path (structured control flow)."""
    block = store.parent_block()
    assert block is not None
    ancestor = block.find_ancestor_op_in_block(user)
    return ancestor is not None and store.is_before_in_block(ancestor)


def _priority_queues(
    main: func.FuncOp, delta: IntegerAttr | ArgvAttr, fusion: int | None
) -> None:
    """The graph's priority-queue ops as frontier ones; `delta` becomes an operand
    of each new queue, `fusion` its bucket-fusion threshold."""
    for op in list(main.walk()):
        if isinstance(op, graph.PriorityQueueNewOp):
            _new_queue(op, delta, fusion)
        elif isinstance(op, graph.UpdatePriorityOp | graph.UpdatePrioritySumOp):
            _priority_update(op)
        elif isinstance(op, graph.DequeueReadySetOp):
            Rewriter.replace_op(op, frontier.PriorityQueueDequeueOp(op.queue))
        elif isinstance(op, graph.PriorityQueueFinishedOp):
            Rewriter.replace_op(op, frontier.PriorityQueueFinishedOp(op.queue))
        elif isinstance(op, graph.PriorityQueueFinishedNodeOp):
            Rewriter.replace_op(op, frontier.PriorityQueueFinishedNodeOp(op.queue, op.vertex))
        elif isinstance(op, graph.GetCurrentPriorityOp):
            Rewriter.replace_op(op, frontier.PriorityQueueCurrentPriorityOp(op.queue))
        elif isinstance(op, graph.DeleteOp) and isinstance(
            op.value.type, graph.PriorityQueueType | frontier.PriorityQueueType
        ):
            Rewriter.replace_op(op, frontier.PriorityQueueFreeOp(op.value))


def _priority_update(op: graph.UpdatePriorityOp | graph.UpdatePrioritySumOp) -> None:
    """`updatePriorityMin/Max/Sum` as the frontier op of the same name."""
    if not isinstance(op.vertex.type, graph.VertexType):
        raise UserError.at(op, "error: updating the priority of a vertex id is not supported yet")
    update: Operation
    if isinstance(op, graph.UpdatePrioritySumOp):
        update = frontier.PriorityQueueUpdateSumOp(op.queue, op.vertex, op.diff, op.threshold)
    elif op.kind.data == graph.ReduceKind.MIN:
        update = frontier.PriorityQueueUpdateMinOp(op.queue, op.vertex, op.new)
    else:
        update = frontier.PriorityQueueUpdateMaxOp(op.queue, op.vertex, op.new)
    Rewriter.replace_op(op, update)


def _new_queue(
    op: graph.PriorityQueueNewOp, delta: IntegerAttr | ArgvAttr, fusion: int | None
) -> None:
    """`pq_new` as the frontier op, over priorities of 32 bits (int, uint) or 64
    (int64, uint_64); `delta` becomes a value of the priority type."""
    assert isinstance(op.result.type, graph.PriorityQueueType)
    priority = op.result.type.priority_type
    if priority not in (i32, i64):
        raise UserError.at(op,
            f"error: priority queues of {priority} priorities are not supported yet "
            "(only integer ones: int, uint, int64 and uint_64)"
        )
    assert isinstance(priority, IntegerType)
    width: Operation = (
        graph.ArgvIntOp(delta.index.value.data, priority)
        if isinstance(delta, ArgvAttr)
        else arith.ConstantOp(IntegerAttr(delta.value.data, priority))
    )
    width.results[0].name_hint = "delta"
    start: SSAValue | None = op.start
    new_ops = [width]
    if op.starts_with_every_vertex:
        # every vertex starts in the bucket of its priority: no start vertex
        start = None
    elif isinstance(start.type, graph.VertexType):
        to_id = graph.VertexIdOp(start)
        new_ops.append(to_id)
        start = to_id.result
    Rewriter.insert_op(new_ops, InsertPoint.before(op))
    queue = frontier.PriorityQueueNewOp(
        op.priorities.root_reference.data, width.results[0], start, fusion
    )
    Rewriter.replace_op(op, queue)


# ---------------------------------------------------------------------------
# Vertexsets -> frontier values
# ---------------------------------------------------------------------------


def _queue() -> SparseQueueType:
    return SparseQueueType()


def _materialize(value: SSAValue, before: Operation) -> SSAValue:
    """A queue of every vertex, where an `!frontier.all` must become a queue."""
    convert = frontier.ConvertOp(value, _queue())
    Rewriter.insert_op(convert, InsertPoint.before(before))
    return convert.result


def _as_queues(op: Operation) -> None:
    """Makes the operands of `op` that are `!frontier.all` queues."""
    for index, operand in enumerate(op.operands):
        if isinstance(operand.type, AllVerticesType):
            op.operands[index] = _materialize(operand, op)


def _frontier_values(main: func.FuncOp) -> None:
    for op in list(main.walk()):
        if isinstance(op, graph.VertexSetNewOp):
            Rewriter.replace_op(op, frontier.NewOp(op.count))
        elif isinstance(op, graph.GetVerticesOp):
            Rewriter.replace_op(op, frontier.AllVerticesOp())
        elif isinstance(op, graph.VertexSetSizeOp):
            Rewriter.replace_op(op, frontier.SizeOp(op.set, op.result.type))
        elif isinstance(op, graph.DeleteOp):
            if isinstance(op.value.type, AllVerticesType):
                Rewriter.erase_op(op)
            else:
                Rewriter.replace_op(op, frontier.FreeOp(op.value))
        elif isinstance(op, graph.AddVertexOp):
            _add_vertex(op)
        elif isinstance(op, graph.ListNewOp | graph.ListInsertOp | graph.ListRetrieveOp):
            _list_op(op)
        elif isinstance(op, scf.WhileOp | scf.ForOp | scf.IfOp):
            for result in list(op.results):
                if isinstance(result.type, graph.VertexSetType | graph.ListType):
                    Rewriter.replace_value_with_new_type(result, _frontier_type(result.type))
            for region in op.regions:
                for block in region.blocks:
                    for arg in list(block.args):
                        if isinstance(arg.type, graph.VertexSetType | graph.ListType):
                            Rewriter.replace_value_with_new_type(arg, _frontier_type(arg.type))
            if not isinstance(op, scf.IfOp):
                _as_queues(op)
        elif isinstance(op, scf.YieldOp | scf.ConditionOp):
            _as_queues(op)
    for op in main.walk():
        for value in [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]:
            if isinstance(value.type, graph.VertexSetType):
                raise UserError.at(op,
                    f"error: a vertexset made by '{op.name}' has no frontier lowering yet"
                )


def _frontier_type(value_type: Attribute) -> Attribute:
    """What a vertexset or list carried by a loop or branch becomes."""
    return frontier.ListType() if isinstance(value_type, graph.ListType) else _queue()


def _list_op(op: graph.ListNewOp | graph.ListInsertOp | graph.ListRetrieveOp) -> None:
    """A list op as its frontier-level twin over queues."""
    if isinstance(op, graph.ListNewOp):
        Rewriter.replace_op(op, frontier.ListNewOp())
        return
    if isinstance(op, graph.ListInsertOp):
        pushed = op.set
        if not isinstance(pushed.type, SparseQueueType):
            convert = frontier.ConvertOp(pushed, _queue())
            Rewriter.insert_op(convert, InsertPoint.before(op))
            Rewriter.insert_op(frontier.FreeOp(convert.result), InsertPoint.after(op))
            pushed = convert.result
        Rewriter.replace_op(op, frontier.ListInsertOp(op.list, pushed))
        return
    into = op.set
    if into is not None and not isinstance(into.type, SparseQueueType):
        if not isinstance(into.type, AllVerticesType):
            Rewriter.insert_op(frontier.FreeOp(into), InsertPoint.before(op))
        into = None
    retrieve = frontier.ListRetrieveOp(op.list, into)
    retrieve.result.name_hint = op.result.name_hint
    Rewriter.replace_op(op, retrieve)


def _add_vertex(op: graph.AddVertexOp) -> None:
    """`set.addVertex(v)`: the changed queue replaces `set` after this statement."""
    vertex = op.vertex
    if isinstance(vertex.type, graph.VertexType):
        to_id = graph.VertexIdOp(vertex)
        Rewriter.insert_op(to_id, InsertPoint.before(op))
        vertex = to_id.result
    target = op.set
    if isinstance(target.type, AllVerticesType):
        target = _materialize(target, op)
    add = frontier.AddOp(vertex, target)
    add.result.name_hint = op.set.name_hint
    block = op.parent_block()
    assert block is not None
    for use in list(op.set.uses):
        user = use.operation
        if user is op:
            continue
        ancestor = block.find_ancestor_op_in_block(user)
        if ancestor is None:
            if _after(user, op):
                raise UserError.at(user,
                    "error: a vertexset changed inside control flow and used after "
                    "it is not supported yet"
                )
            continue
        if op.is_before_in_block(ancestor):
            user.operands[use.index] = add.result
    Rewriter.replace_op(op, add, new_results=[])


def _after(user: Operation, op: Operation) -> bool:
    """Whether `user` comes after `op` in `op`'s function (conservatively)."""
    node: Operation | None = op
    while node is not None:
        block = node.parent_block()
        if block is None:
            return False
        ancestor = block.find_ancestor_op_in_block(user)
        if ancestor is not None:
            return node.is_before_in_block(ancestor)
        node = node.parent_op()
    return False

