"""Makes the racy vector updates of applied functions atomic, as the schedule needs."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ModuleOp, UnitAttr, i1
from xdsl.ir import Attribute, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from gir.dialects import graph
from gir.dialects.schedule import G2_DEFAULTS, SimpleScheduleAttr
from gir.ir_walk import walk
from gir.passes.directions import direction as direction_strategy
from gir.passes.load_balance import load_balance as load_balance_strategy
from gir.passes.ir_utils import constant_value, functions, parameter_index


@dataclass(frozen=True)
class GraphInsertAtomics(ModulePass):
    """Turns updates two GPU threads can make to one element into atomics (G2's rule).

    Which elements are shared depends on the schedule's load-balance strategy,
    which says how threads map to edges: an element indexed by the destination
    (PUSH), by a value loaded from memory (CC's `IDs[IDs[dst]]`), by a constant or
    by anything computed is shared; one indexed by the source is private only when
    the strategy gives every edge of a source to one thread (VERTEX_BASED, not
    EDGE_ONLY) and the traversal starts from every vertex (a frontier may hold a
    vertex twice). In a vertexset apply or filter the vertex's own element is
    private. Then:
    - a reduction (`min=`, `max=`, `+=`) of a shared element becomes atomic,
      and `clustered` when the element is the iterated vertex's (its edges are
      spread over neighbouring threads, whose updates the printer may combine);
    - a plain store `v[dst] = x` to a shared element whose statement has a `to`
      filter testing `v[dst] == C` becomes `compare_and_swap(v[dst], C, x)`, so
      exactly one thread wins (BFS's parent update; in PULL only where the
      strategy spreads a destination's in-edges over threads, as EDGE_ONLY does),
      except in a bool vector (hyperkcore's `removed[dst] = true`): GPUs have
      no byte-wide compare-and-swap, so the store stays plain (the last
      writer wins) and change tracking deduplicates the destinations it
      enqueues;
    - other plain stores stay plain (the last writer wins, as in GraphIt).
    Functions must be specialized per statement first (`graph-specialize-udfs`).

    Before:
    ```mlir
    func.func @updateEdge(%src : !graph.vertex, %dst : !graph.vertex) {
      %0 = graph.vertex_id %src : i32
      graph.store %0, @parent[%dst] : !graph.vertex, i32
      func.return
    }
    // used by: graph.edgeset_apply ... @updateEdge {to_filter = @toFilter, ...}
    // with @toFilter returning `parent[v] == -1`
    ```
    After:
    ```mlir
    func.func @updateEdge(%src : !graph.vertex, %dst : !graph.vertex) {
      %0 = graph.vertex_id %src : i32
      %1 = arith.constant -1 : i32
      %2 = graph.compare_and_swap @parent[%dst], %1, %0 : !graph.vertex, i32
      func.return
    }
    ```
    """

    name = "graph-insert-atomics"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        table = functions(op)
        for site in walk(op):
            if isinstance(site, graph.EdgeSetApplyOp):
                _edge_function(site, table)
            elif isinstance(site, graph.VertexSetApplyOp):
                _vertex_function(table[site.udf.root_reference.data])
            elif isinstance(site, graph.VertexSetFilterOp):
                _vertex_function(table[site.filter.root_reference.data])


def _edge_function(site: graph.EdgeSetApplyOp, table: dict[str, func.FuncOp]) -> None:
    function = table[site.udf.root_reference.data]
    schedule = site.schedule
    direction = (
        schedule.direction.data
        if isinstance(schedule, SimpleScheduleAttr)
        else G2_DEFAULTS["direction"]
    )
    # The vertex a thread iterates: the source in PUSH, the destination in PULL.
    own = direction_strategy(direction).iterated
    load_balance = (
        schedule.load_balance.data
        if isinstance(schedule, SimpleScheduleAttr)
        else G2_DEFAULTS["load_balance"]
    )
    spreads_edges = not load_balance_strategy(load_balance).owns_iterated_vertex()
    # A thread iterating destinations (PULL) takes every vertex once.
    own_is_private = not spreads_edges and (own == 1 or _starts_from_all(site))
    entry = function.body.block

    def shared(index: SSAValue) -> bool:
        return not (own_is_private and parameter_index(index, entry) == own)

    guard = to_filter_guard(site, table)
    stores: dict[str, list[graph.StoreOp]] = {}
    for child in walk(function):
        if isinstance(child, graph.StoreOp):
            stores.setdefault(child.vector.root_reference.data, []).append(child)
    for child in list(walk(function)):
        if isinstance(child, graph.ReduceOp) and shared(child.index):
            child.properties["atomic"] = UnitAttr()
            if spreads_edges and parameter_index(child.index, entry) == own:
                child.properties["clustered"] = UnitAttr()
        elif (
            isinstance(child, graph.StoreOp)
            and guard is not None
            and guard[0] == child.vector.root_reference.data
            and child.lane is None
            and len(stores[guard[0]]) == 1
            and parameter_index(child.index, entry) == 1
            and shared(child.index)
            and child.value.type != i1
        ):
            _store_to_cas(child, guard[1])


def _starts_from_all(site: graph.EdgeSetApplyOp) -> bool:
    """Whether the traversal's sources are every vertex, each exactly once."""
    if site.frontier is None:
        return True
    source = site.frontier.owner
    if isinstance(source, graph.GetVerticesOp):
        return True
    if isinstance(source, graph.GlobalLoadOp):
        module = site.get_toplevel_object()
        stores = [
            op
            for op in walk(module)
            if isinstance(op, graph.GlobalStoreOp) and op.global_name == source.global_name
        ]
        return bool(stores) and all(
            isinstance(store.value.owner, graph.GetVerticesOp) for store in stores
        )
    return False


def _vertex_function(function: func.FuncOp) -> None:
    entry = function.body.block
    for child in walk(function):
        if isinstance(child, graph.ReduceOp) and parameter_index(child.index, entry) != 0:
            child.properties["atomic"] = UnitAttr()


def to_filter_guard(
    site: graph.EdgeSetApplyOp, table: dict[str, func.FuncOp]
) -> tuple[str, Attribute] | None:
    """(vector, C) when the statement's `to` filter returns `vector[v] == C`."""
    if site.to_filter is None:
        return None
    function = table[site.to_filter.root_reference.data]
    terminator = function.body.block.last_op
    if not isinstance(terminator, func.ReturnOp) or len(terminator.arguments) != 1:
        return None
    test = terminator.arguments[0].owner
    if not isinstance(test, arith.CmpiOp | arith.CmpfOp):
        return None
    if test.predicate.value.data != (0 if isinstance(test, arith.CmpiOp) else 1):
        return None  # eq (cmpi) / oeq (cmpf)
    for load_side, constant_side in ((test.lhs, test.rhs), (test.rhs, test.lhs)):
        load = load_side.owner
        constant = constant_value(constant_side)
        if (
            isinstance(load, graph.LoadOp)
            and load.lane is None
            and constant is not None
            and parameter_index(load.index, function.body.block) == 0
        ):
            return load.vector.root_reference.data, constant
    return None


def _store_to_cas(store: graph.StoreOp, expected: Attribute) -> None:
    constant = arith.ConstantOp(expected)
    cas = graph.CompareAndSwapOp(
        store.vector.root_reference.data, store.index, constant, store.value
    )
    Rewriter.replace_op(store, [constant, cas], new_results=[])

