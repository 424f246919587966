"""PULL: a thread iterates a destination and walks its in-edges (CSC), with
GraphIt's early exit."""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, i1
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from gir.dialects import frontier, graph
from gir.dialects.frontier import AllVerticesType
from gir.dialects.schedule import SimpleScheduleAttr
from gir.passes.directions import DirectionStrategy
from gir.passes.representations import pull_input_type, representation
from gir.passes.traversal_regions import inline_region, mark_early_exit


class Pull(DirectionStrategy):
    """PULL: one thread per destination vertex, walking its in-edges over the transpose.

    Every vertex is a destination (the map runs over `frontier.all_vertices`);
    the `to` filter is checked on it before each in-edge, so the loop stops as
    soon as the destination no longer passes it (GraphIt's pull early exit: once
    BFS has claimed a vertex, its other in-edges are skipped). The edge function
    runs on each in-edge whose source is in the input frontier
    (`frontier.contains`); with every vertex as input that test is void. An
    input that is neither every vertex nor a bitmap or boolmap is converted to
    the schedule's pull frontier (`configDirection(PULL, BITMAP|BOOLMAP)`) by
    `graph-to-frontier` (`input_type`).

    The strategies that spread edges over threads (`to_edge_map`: EDGE_ONLY,
    TWC, TWCE, WM, CM, STRICT, MERGE_PATH) get the same shape per in-edge
    (`edge_body`): the edge map iterates every vertex as a destination, checks
    the `to` filter on it first and only where it passes reads the source and
    tests its membership. The check is marked (`mark_early_exit`), and a
    strategy whose thread walks a stretch of one destination's in-edges (TWC,
    TWCE's block and warp tiers, WM, CM) ends that walk at the first failing
    check (`load_balance.exit_early`: each thread exits on its own, at every
    edge, no cross-thread vote). Where a thread's edges cross destinations
    (EDGE_ONLY: one edge a thread; STRICT, MERGE_PATH, TWCE's remainders) the
    check before each edge is the exit: a destination that no longer passes
    costs its remaining edges one read of the filter's data, no source read.
    Several threads share a destination there, so `graph-insert-atomics` keeps
    its updates atomic (a CAS for a filtered claim). Under edge blocking the
    traversal reads BLOCKED_CSC (the transpose tiled by source range).

    Before:
    ```mlir
    %o = frontier.edge_traverse PULL VERTEX_BASED CSC %e : !graph.edgeset
        from %in : !frontier.all into %empty : !frontier.queue to {...} apply {...}
    ```
    After:
    ```mlir
    %every = frontier.all_vertices : !frontier.all
    %o = frontier.vertex_map %every : !frontier.all into %empty : !frontier.queue {
    ^bb0(%dst : !graph.vertex):
      %begin, %end = frontier.edge_range CSC %e[%dst] : !graph.edgeset
      %last = scf.while (%edge = %begin) : (index) -> index {
        %more = arith.cmpi ult, %edge, %end : index
        %go = scf.if %more -> (i1) { ... scf.yield %to_dst : i1 } else { scf.yield %false : i1 }
        scf.condition(%go) %edge : index
      } do {
      ^bb1(%edge : index):
        %src = frontier.neighbor CSC %e[%edge] : !graph.edgeset
        ...  the edge function on %src, %dst
        scf.yield %next : index
      }
      frontier.yield
    }
    ```
    """

    value = "PULL"
    iterated = 1

    def input_type(
        self, input_type: Attribute, schedule: SimpleScheduleAttr
    ) -> Attribute | None:
        if representation(input_type).membership_testable:
            return None
        return pull_input_type(schedule.pull_frontier.data)

    def vertex_map(self, traverse: frontier.EdgeTraverseOp) -> frontier.VertexMapOp:
        body = Block(arg_types=[graph.VertexType()])
        dst = body.args[0]
        dst.name_hint = "dst"
        layout = traverse.layout.data
        edge_range = frontier.EdgeRangeOp(layout, traverse.edges, dst)
        edge_range.begin.name_hint, edge_range.end.name_hint = "begin", "end"
        body.add_op(edge_range)
        to_filter = traverse.to_filter
        if to_filter is not None and not to_filter.blocks:
            to_filter = None
        step = _in_edge_loop(body, edge_range, to_filter)
        position = step.args[0]
        position.name_hint = "edge"
        end_of_step = step.last_op
        assert end_of_step is not None
        _gather(traverse, dst, position, InsertPoint.before(end_of_step))
        body.add_op(frontier.YieldOp())
        return frontier.VertexMapOp(
            self.edge_map_input(traverse),
            Region(body),
            output=traverse.output,
            dedup=traverse.dedup is not None,
            label=None if traverse.label is None else traverse.label.data,
            block_size=frontier.block_size_of(traverse),
        )

    def edge_body(
        self,
        traverse: frontier.EdgeTraverseOp,
        vertex: SSAValue,
        position: SSAValue,
        point: InsertPoint,
    ) -> None:
        """Checks the `to` filter on the destination `vertex` first, and only
        where it passes reads the source of the in-edge at `position`, tests it
        against the input frontier and runs the edge function: a destination
        that no longer passes costs its remaining in-edges one read of the
        filter's data each, no read of a source."""
        to_filter = traverse.to_filter
        if to_filter is not None and to_filter.blocks:
            (passes,) = inline_region(to_filter, [vertex], point)
            then_end = scf.YieldOp()
            check = scf.IfOp(passes, [], Region(Block([then_end])))
            mark_early_exit(check)
            Rewriter.insert_op(check, point)
            point = InsertPoint.before(then_end)
        _gather(traverse, vertex, position, point)

    def edge_map_input(self, traverse: frontier.EdgeTraverseOp) -> SSAValue:
        """Every vertex is a destination: the input if it holds every vertex, else
        a `frontier.all_vertices`."""
        if isinstance(traverse.input.type, AllVerticesType):
            return traverse.input
        every = frontier.AllVerticesOp()
        Rewriter.insert_op(every, InsertPoint.before(traverse))
        every.result.name_hint = "every"
        return every.result


def _gather(
    traverse: frontier.EdgeTraverseOp, dst: SSAValue, position: SSAValue, point: InsertPoint
) -> None:
    """Inserts at `point` the work of the in-edge at `position` of `dst` past its
    `to` filter: read its source (and weight), and where the source is in the
    input frontier (always, over every vertex) run the edge function."""
    layout = traverse.layout.data
    src = frontier.NeighborOp(layout, traverse.edges, position)
    src.result.name_hint = "src"
    Rewriter.insert_op(src, point)
    if not isinstance(traverse.input.type, AllVerticesType):
        point = _if_member(traverse.input, src.result, point)
    edge_args: list[SSAValue] = [src.result, dst]
    if len(traverse.body.block.args) == 3:
        weight = frontier.EdgeWeightOp(layout, traverse.edges, position)
        weight.result.name_hint = "weight"
        Rewriter.insert_op(weight, point)
        edge_args.append(weight.result)
    inline_region(traverse.body, edge_args, point)


def _if_member(input: SSAValue, src: SSAValue, point: InsertPoint) -> InsertPoint:
    """Inserts at `point` an `scf.if` on `src` being in `input`; the point inside it."""
    member = frontier.ContainsOp(input, src)
    member.result.name_hint = "active"
    end = scf.YieldOp()
    Rewriter.insert_op([member, scf.IfOp(member.result, [], Region(Block([end])))], point)
    return InsertPoint.before(end)


def _in_edge_loop(
    body: Block, edge_range: frontier.EdgeRangeOp, to_filter: Region | None
) -> Block:
    """Appends to `body` the loop over the in-edges of `edge_range`, leaving while
    the `to` filter fails on the destination (`body`'s argument); the loop's step
    block, ending with its yield, into which the per-edge work goes."""
    dst = body.args[0]
    one = arith.ConstantOp(IntegerAttr(1, IndexType()))
    body.add_op(one)
    step = Block(arg_types=[IndexType()])
    if to_filter is None:
        step.add_op(scf.YieldOp())
        body.add_op(scf.ForOp(edge_range.begin, edge_range.end, one.result, [], step))
        return step
    before = Block(arg_types=[IndexType()])
    edge = before.args[0]
    edge.name_hint = "edge"
    more = arith.CmpiOp(edge, edge_range.end, "ult")
    more.result.name_hint = "more"
    check = Block([scf.YieldOp()])
    (passes,) = inline_region(to_filter, [dst], InsertPoint.before(check.first_op))
    Rewriter.replace_op(check.last_op, scf.YieldOp(passes))
    stop = arith.ConstantOp(IntegerAttr(0, i1))
    go = scf.IfOp(more.result, [i1], Region(check), Region(Block([stop, scf.YieldOp(stop)])))
    go.results[0].name_hint = "go"
    before.add_ops([more, go, scf.ConditionOp(go.results[0], edge)])
    next_edge = arith.AddiOp(step.args[0], one.result)
    step.add_ops([next_edge, scf.YieldOp(next_edge)])
    loop = scf.WhileOp([edge_range.begin], [IndexType()], Region(before), Region(step))
    body.add_op(loop)
    return step
