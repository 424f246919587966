"""Which CPU reference checks a program's result, found from its graph-level IR.

`gir-run --validate` needs to know what a program computes. Rather than trusting
its name, gir looks at the shape of its edge traversals:

- BFS: an `apply_modified` whose edge function stores the source's id into the
  tracked vector (`parent[dst] = src`), guarded by a `to` filter, or an `apply`
  of a bool edge function that does `compare_and_swap(parent[dst], C, src)`;
- SSSP: an `apply_modified` on a weighted edgeset whose edge function does
  `dist[dst] min= ...`;
- SSSP (delta-stepping): an `apply_update_priority` on a weighted edgeset whose
  edge function does `updatePriorityMin` on a queue over the distance vector,
  started from a `graph.argv_int`. Either SSSP is point-to-point when the
  condition of its `while` tests `pq.finishedNode(target)`: then only distances
  up to the target's are final (`reference.check_ppsp`). The source's distance
  is what the program stores there (`SP[14] = 14` offsets every distance);
- A*: such a point-to-point search whose edge function also min-reduces another
  vector (`writeMin(f_score, dst, ...)`), the queue ordering by that cost plus a
  heuristic: the cost vector is checked, exact at the target
  (`reference.check_astar`);
- k-core: an `apply_update_priority` whose edge function does
  `updatePrioritySum` on a queue that starts with every vertex bucketed
  (`init_bucket`, or start vertex -1); the queue's priority vector holds the core numbers;
- CC: an `apply_modified` on an unweighted edgeset whose edge function does
  `IDs[...] min= IDs[...]` (label propagation), or an `apply` on an unweighted
  edgeset whose edge function hooks a root, `compare_and_swap(IDs[r], r, ...)`
  (union-find linking, as Shiloach-Vishkin and Afforest do);
- PageRank-delta: an `apply` from a frontier whose edge function float-adds into
  an accumulator, in a counted loop, with vertex filters that add a vector into
  the rank (`rank[v] += delta[v]`), scale the accumulator by a constant (the
  damping) and compare `|delta|` with a constant times the rank (epsilon);
- collaborative filtering: an `apply` over every edge of a weighted edgeset whose
  edge function float-adds into lanes of an error vector of fixed-size vectors,
  in a counted loop, and a vertex function that adds `step * (c * latent[v][i] +
  error[v][i])` into the lanes of the latent vector (c = -lambda); the factors
  start at the constant a vertex function stores into them or the vector's fill;
- PageRank: an `apply` whose edge function does a float `+=` into an accumulator,
  inside a counted `for` loop with constant bounds (the iteration count). The rank
  vector is the per-vertex float vector that a vertex function stores from the
  accumulator and whose values flow back into it (through the shares the edge
  function adds up); vectors computed from the accumulator that do not feed it
  (e.g. the change of each rank) are not ranks;
- triangle counting: an `apply` over every edge whose edge function adds
  `intersectNeighbor(edges, src, dst)` into a vector where `dst < src` (GraphIt's
  tc app; `reference.check_triangles`);
- BC (Brandes): a list of vertexsets and a traversal of the transposed edges
  that float-adds into the dependencies; path counts kept in an `int` vector
  are checked for overflow first (G2's bc_power.gt counts in `int`).

The start vertex of BFS/SSSP/BC is the `graph.argv_int` or the literal added to
the first frontier (or given to the priority queue). The iteration count of
PageRank is the trip count of the loop right around the traversal: a `for` whose
bounds are literals, `const`s set from literals, or `argv[N]`; none when that loop
is a `while` (an outer `for` of trials does not count).

A program that clears the checked vector after computing it (GraphIt's
bc.gt resets its dependencies at the end of every trial) is checked on a copy
taken before the first clear, which `find_validator` adds to the module.

The reference is built from the graph the recognised traversal runs on
(`Validator.graph`): the fixed file of a `load("file")`, or the argv entry of a
`load(argv[N])`; of a program that loads several graphs (which gir's lowering
refuses today), the one that traversal reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Operation, SSAValue

from gir.diagnostics import source_position
from gir.dialects import graph
from gir.ir_walk import walk
from gir.program_inputs import GraphSource, graph_sources
from gir.protocol import parse_argv_int
from gir.runtime import reference
from gir.runtime.graph import Graph


@dataclass(frozen=True)
class Validator:
    """How to check one run: `check(graph, argv, vectors)` returns None when the
    result matches the CPU reference, else a one-line explanation. `weighted`: the
    program reads edge weights, so the reference graph must have them."""

    algorithm: str
    check: Callable[[Graph, list[str], dict[str, np.ndarray]], str | None]
    result: str
    """The vector the check reads (of the `vectors` a run leaves)."""
    weighted: bool = False
    graph: GraphSource = GraphSource(argv=1)
    """The graph the checked traversal runs on: the reference is built from it."""


def _functions(module: ModuleOp) -> dict[str, func.FuncOp]:
    return {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}


def _applies(module: ModuleOp) -> list[graph.EdgeSetApplyOp]:
    return [op for op in walk(module) if isinstance(op, graph.EdgeSetApplyOp)]


def _stores_source_id(udf: func.FuncOp, vector: str) -> bool:
    source = udf.body.block.args[0]
    for op in walk(udf):
        if isinstance(op, graph.StoreOp | graph.CompareAndSwapOp) and (
            op.vector.root_reference.data == vector
        ):
            value = op.value if isinstance(op, graph.StoreOp) else op.desired
            owner = value.owner
            if isinstance(owner, graph.VertexIdOp) and owner.vertex == source:
                return True
    return False


def _claimed_parent(apply: graph.EdgeSetApplyOp, udf: func.FuncOp) -> str | None:
    """The parent vector of a BFS written with a bool edge function: an `apply`
    that returns the destinations for which `udf` swapped the source's id in."""
    if apply.kind.data != graph.ApplyKind.APPLY or apply.result is None:
        return None
    source = udf.body.block.args[0]
    for op in walk(udf):
        if isinstance(op, graph.CompareAndSwapOp):
            owner = op.desired.owner
            if isinstance(owner, graph.VertexIdOp) and owner.vertex == source:
                return op.vector.root_reference.data
    return None


def _hooked_roots(apply: graph.EdgeSetApplyOp, udf: func.FuncOp) -> str | None:
    """The label vector of a union-find CC: an `apply` on an unweighted edgeset
    whose edge function hooks a root onto another label,
    `compare_and_swap(comp[r], r, other)` (r is its own label, so its slot is
    swapped only while r is a root)."""
    if apply.kind.data != graph.ApplyKind.APPLY or apply.edgeset_type.is_weighted:
        return None
    for op in walk(udf):
        if isinstance(op, graph.CompareAndSwapOp) and op.index == op.expected:
            return op.vector.root_reference.data
    return None


def _reduces(udf: func.FuncOp, vector: str, kind: graph.ReduceKind) -> bool:
    return any(
        isinstance(op, graph.ReduceOp)
        and op.vector.root_reference.data == vector
        and op.kind.data == kind
        for op in walk(udf)
    )


def _float_add_vector(udf: func.FuncOp) -> str | None:
    for op in walk(udf):
        if (
            isinstance(op, graph.ReduceOp)
            and op.kind.data == graph.ReduceKind.ADD
            and isinstance(op.value.type, AnyFloat)
        ):
            return op.vector.root_reference.data
    return None


@dataclass(frozen=True)
class IntArg:
    """An int the program takes: `argv[index]` (read as the runtime reads it,
    `parse_argv_int`: `0x1f` works too) or a literal `value`."""

    index: int | None = None
    value: int | None = None

    def read(self, argv: list[str]) -> int:
        """Its value in a run with `argv`."""
        if self.index is not None:
            value = parse_argv_int(argv[self.index])
            assert value is not None, "the run reads argv integers before validation"
            return value
        assert self.value is not None
        return self.value


def _int_arg(value: SSAValue) -> IntArg | None:
    """`value` as an `argv[N]` or a literal (through vertex casts and `const`s)."""
    value = _through_casts(value)
    if isinstance(value.owner, graph.ArgvIntOp):
        return IntArg(index=value.owner.index.value.data)
    literal = _constant_int(value)
    return None if literal is None else IntArg(value=literal)


def _last_argv_store(load: graph.GlobalLoadOp) -> SSAValue | None:
    """The `argv[N]` a global holds where `load` reads it (a search's target):
    its stores all sit in one block (main's `dst_vertex = 0; ...; dst_vertex =
    atoi(argv[3]);`), the last stores an `argv[N]`, and `load` does not come
    before that store there."""
    stores = [
        op
        for op in walk(_module_of(load))
        if isinstance(op, graph.GlobalStoreOp) and op.global_name == load.global_name
    ]
    if not stores or any(store.parent_block() is not stores[0].parent_block() for store in stores):
        return None
    block = stores[0].parent_block()
    assert block is not None
    order = {op: at for at, op in enumerate(block.ops)}
    last = max(stores, key=lambda store: order[store])
    if not isinstance(_through_casts(last.value).owner, graph.ArgvIntOp):
        return None
    reader = load
    while reader is not None and reader.parent_block() is not block:
        reader = reader.parent_op()
    if reader is not None and order[reader] < order[last]:
        return None
    return last.value


def _start(module: ModuleOp) -> IntArg | None:
    for op in walk(module):
        if isinstance(op, graph.AddVertexOp):
            return _int_arg(op.vertex)
    return None


def _min_queue_start(module: ModuleOp, udf: func.FuncOp) -> tuple[str, IntArg] | None:
    """(priority vector, start vertex) of the queue a program makes, when `udf`
    does `updatePriorityMin` on a queue."""
    if not any(
        isinstance(op, graph.UpdatePriorityOp) and op.kind.data == graph.ReduceKind.MIN
        for op in walk(udf)
    ):
        return None
    for op in walk(module):
        if isinstance(op, graph.PriorityQueueNewOp):
            start = _int_arg(op.start)
            if start is not None:
                return op.priorities.root_reference.data, start
    return None


def _start_distance(module: ModuleOp, dist: str, start: IntArg) -> IntArg:
    """What the program stores into `dist` at the start vertex (`dist[start] =
    0`, or GraphIt's `SP[14] = 14`): the last such store, else 0."""
    found = IntArg(value=0)
    for op in walk(module):
        if (
            isinstance(op, graph.StoreOp)
            and op.vector.root_reference.data == dist
            and _int_arg(op.index) == start
            and (value := _int_arg(op.value)) is not None
        ):
            found = value
    return found


def _fill(module: ModuleOp, vector: str) -> float | None:
    """The constant `vector` starts at: that of its first `vector_fill`
    (folded, as hypersssp's `2147483647 / 2`)."""
    for op in walk(module):
        if isinstance(op, graph.VectorFillOp) and op.vector.root_reference.data == vector:
            return _folded(op.value)
    return None


_FOLDS: dict[type[Operation], Callable[[float, float], float]] = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.DivSIOp: lambda a, b: float(int(a / b)),  # C's division truncates
    arith.AddfOp: lambda a, b: a + b,
    arith.SubfOp: lambda a, b: a - b,
    arith.MulfOp: lambda a, b: a * b,
    arith.DivfOp: lambda a, b: a / b,
}


def _folded(value: SSAValue) -> float | None:
    """`value` when it is computed from literals by + - * / (else None)."""
    constant = _constant_float(value)
    owner = value.owner
    if constant is not None or type(owner) not in _FOLDS:
        return constant
    assert isinstance(owner, Operation)
    lhs, rhs = (_folded(operand) for operand in owner.operands)
    if lhs is None or rhs is None or (rhs == 0 and isinstance(owner, arith.DivSIOp | arith.DivfOp)):
        return None
    return _FOLDS[type(owner)](lhs, rhs)


def _unreached_distances(module: ModuleOp, dist: str) -> tuple[int, ...]:
    """What an SSSP program leaves in `dist` at vertices it never reaches: the
    value it fills `dist` with (GraphIt's 2147483647, or closeness centrality's
    21474836), and whatever a vertex function then stores where that fill is
    still held (closeness centrality's `if dist[v] == 21474836: dist[v] = 0`)."""
    fill = _fill(module, dist)
    if fill is None:
        return (reference.UNREACHABLE_DISTANCE,)
    return tuple(sorted({int(fill), *(int(v) for v in _unreached_stores(module, dist, dist))}))


def _unreached_stores(module: ModuleOp, vector: str, tested: str) -> set[float]:
    """The constants a function stores into `vector[v]` in the branch of an `if`
    that runs when `tested[v]` still holds the constant `tested` is filled with
    (the vertices a traversal that writes `tested` never reached): `if tested[v]
    == fill` (then-branch) or `if tested[v] != fill` (else-branch), as bc.gt's
    `if num_paths[v] != 0 ... else dependences[v] = -1`."""
    fill = _fill(module, tested) if _fill(module, tested) is not None else 0.0
    found: set[float] = set()
    for op in walk(module):
        if not (isinstance(op, graph.StoreOp) and op.vector.root_reference.data == vector):
            continue
        value = _constant_float(op.value)
        if value is not None and _runs_where_unreached(op, tested, fill):
            found.add(value)
    return found


def _runs_where_unreached(store: graph.StoreOp, tested: str, fill: float) -> bool:
    """Whether `store` lies in the branch of an `if` taken when `tested[i]` (at
    the index `store` writes) equals `fill`."""
    child: Operation = store
    parent = store.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if isinstance(parent, scf.IfOp) and isinstance(test := parent.cond.owner, arith.CmpiOp | arith.CmpfOp):
            predicate = (
                arith.CMPI_COMPARISON_OPERATIONS
                if isinstance(test, arith.CmpiOp)
                else arith.CMPF_COMPARISON_OPERATIONS
            )[test.predicate.value.data]
            compared = {test.lhs, test.rhs}
            loads = [
                v for v in compared
                if isinstance(v.owner, graph.LoadOp)
                and v.owner.vector.root_reference.data == tested
                and v.owner.index == store.index
            ]
            constants = [_constant_float(v) for v in compared]
            if loads and fill in constants:
                in_then = child.parent_region() is parent.true_region
                if predicate in ("eq", "oeq", "ueq"):
                    return in_then
                if predicate in ("ne", "one", "une"):
                    return not in_then
        child, parent = parent, parent.parent_op()
    return False


def _stop_target(apply: graph.EdgeSetApplyOp) -> IntArg | None:
    """The target of a point-to-point search: the vertex `v` of the
    `pq.finishedNode(v)` that the condition of the `while` around `apply` tests."""
    loop = apply.parent_op()
    while loop is not None and not isinstance(loop, scf.WhileOp):
        loop = loop.parent_op()
    if loop is None:
        return None
    for op in walk(loop.before_region):
        if isinstance(op, graph.PriorityQueueFinishedNodeOp):
            target = _through_casts(op.vertex)
            if isinstance(target.owner, graph.GlobalLoadOp):  # `dst_vertex = atoi(argv[3]);`
                stored = _last_argv_store(target.owner)
                if stored is not None:
                    return _int_arg(stored)
            return _int_arg(op.vertex)
    return None


def _path_cost(udf: func.FuncOp, priorities: str) -> str | None:
    """The vector other than the queue's `priorities` that `udf` min-reduces
    (A*'s `writeMin(f_score, dst, ...)`): the path costs, when the queue orders
    vertices by an estimate built on them."""
    reduced = {
        op.vector.root_reference.data
        for op in walk(udf)
        if isinstance(op, graph.ReduceOp) and op.kind.data == graph.ReduceKind.MIN
    } - {priorities}
    return reduced.pop() if len(reduced) == 1 else None


def _peeled_priorities(module: ModuleOp, udf: func.FuncOp) -> str | None:
    """The priority vector of a k-core peeling: `udf` does `updatePrioritySum` and
    the program's queue starts with every vertex in its bucket."""
    if not any(isinstance(op, graph.UpdatePrioritySumOp) for op in walk(udf)):
        return None
    for op in walk(module):
        if isinstance(op, graph.PriorityQueueNewOp) and op.starts_with_every_vertex:
            return op.priorities.root_reference.data
    return None


NOT_DEGREE_PEELING = (
    "the peeling's priorities '{core}' start, at some vertices, from a value other than "
    "the vertex's out-degree (a hypergraph k-core, as GraphIt's hyperkcore.gt sets its "
    "hyperedges apart): gir's k-core reference peels the graph by out-degree"
)


def _stores_other_than_degrees(module: ModuleOp, core: str) -> bool:
    """Whether some store into the priority vector `core` (outside the queue's
    own updates) stores anything but an element of a vector of out-degrees, as a
    graph k-core's `D[v] = D_original[v]` does."""
    degrees = {op.vector.root_reference.data for op in walk(module) if isinstance(op, graph.OutDegreesOp)}
    for op in walk(module):
        if not (isinstance(op, graph.StoreOp) and op.vector.root_reference.data == core):
            continue
        loaded = op.value.owner
        if not (isinstance(loaded, graph.LoadOp) and loaded.vector.root_reference.data in degrees):
            return True
    return False


def _through_casts(value: SSAValue) -> SSAValue:
    while isinstance(value.owner, graph.ToVertexOp | graph.VertexIdOp):
        value = value.owner.operands[0]
    return value


def _constant_int(value: SSAValue) -> int | None:
    """A literal int, also through `arith.index_cast` and the `const` global that
    `main` sets once from a literal."""
    owner = value.owner
    if isinstance(owner, arith.IndexCastOp):
        return _constant_int(owner.input)
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    if isinstance(owner, graph.GlobalLoadOp):
        stored = _global_value(owner)
        return None if stored is None else _constant_int(stored)
    return None


def _global_value(load: graph.GlobalLoadOp) -> SSAValue | None:
    """The value a `const` global holds: what its only store sets."""
    stores = [
        op
        for op in walk(_module_of(load))
        if isinstance(op, graph.GlobalStoreOp) and op.global_name == load.global_name
    ]
    return stores[0].value if len(stores) == 1 else None


def _module_of(op: Operation) -> Operation:
    while (parent := op.parent_op()) is not None:
        op = parent
    return op


def _trip_count(op: Operation) -> Callable[[list[str]], int] | None:
    """The iteration count of the loop right around `op` as a function of argv:
    a `for` with literal or argv bounds; None for a `while` or other bounds."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, scf.ForOp | scf.WhileOp):
        parent = parent.parent_op()
    if not isinstance(parent, scf.ForOp):
        return None
    bounds = [_int_arg(v) for v in (parent.lb, parent.ub, parent.step)]
    if any(bound is None for bound in bounds):
        return None

    def count(argv: list[str]) -> int:
        lower, upper, step = (bound.read(argv) for bound in bounds)  # type: ignore[union-attr]
        return max(0, -(-(upper - lower) // step))

    return count


def find_validator(module: ModuleOp) -> Validator | None:
    """The check that applies to this graph-level program, or None.

    A program may clear the vector the check reads after computing it, as
    GraphIt's bc.gt and G2's bc_power.gt do (`vertices.apply(reset)` at the end
    of each trial): the run would end with nothing to check. `find_validator`
    then adds to `module` a copy of the vector taken just before the clear, the
    first time the program reaches it (the first trial: the one that starts
    from the program's initial values, as the reference does), and the check
    reads that copy. Lower `module` after calling it.
    """
    found = _recognise(module)
    if found is None:
        return None
    validator, apply = found
    loaded = graph_sources(module)
    source = _loaded_graph(apply.edges) or (loaded[0] if loaded else GraphSource(argv=1))
    validator = replace(validator, graph=source)
    clear = _clear_after(apply, validator.result, _functions(module))
    return validator if clear is None else _capture_before(module, clear, validator)


def _clear_after(
    apply: graph.EdgeSetApplyOp, vector: str, functions: dict[str, func.FuncOp]
) -> Operation | None:
    """The first op after `apply` that clears `vector` (in the block of `apply`,
    then in those of the loops and ifs around it, up to its function)."""
    op: Operation | None = apply
    while op is not None and not isinstance(op, func.FuncOp):
        following = op.next_op
        while following is not None:
            if _clears(following, vector, functions):
                return following
            following = following.next_op
        op = op.parent_op()
    return None


def _clears(op: Operation, vector: str, functions: dict[str, func.FuncOp]) -> bool:
    """Whether `op` resets every element of `vector` to a constant: a fill, or
    an apply over all vertices of a function that stores a constant into it
    unconditionally and never reads or updates it otherwise (GraphIt's `reset`;
    not PageRank's vertex update, which reads the rank it then zeroes)."""
    if isinstance(op, graph.VectorFillOp):
        return op.vector.root_reference.data == vector
    if not isinstance(op, graph.VertexSetApplyOp) or not _all_vertices(op.set):
        return False
    function = functions.get(op.udf.root_reference.data)
    if function is None:
        return False
    vertex = function.body.block.args[0]
    touches = [
        inner
        for inner in walk(function)
        if isinstance(inner, graph.LoadOp | graph.StoreOp | graph.ReduceOp | graph.CompareAndSwapOp)
        and inner.vector.root_reference.data == vector
    ]
    return bool(touches) and all(
        isinstance(store, graph.StoreOp)
        and store.parent_op() is function
        and store.index == vertex
        and isinstance(store.value.owner, arith.ConstantOp)
        for store in touches
    )


def _all_vertices(vertex_set: SSAValue) -> bool:
    """Whether `vertex_set` is `edges.getVertices()` (or the `const` holding it)."""
    owner = vertex_set.owner
    if isinstance(owner, graph.GlobalLoadOp) and (stored := _global_value(owner)) is not None:
        owner = stored.owner
    return isinstance(owner, graph.GetVerticesOp)


def _capture_before(module: ModuleOp, clear: Operation, validator: Validator) -> Validator:
    """`validator` reading a copy of its vector that `module` now takes right
    before `clear`, the first time the program reaches it."""
    result = validator.result
    declaration = next(
        op for op in module.ops if isinstance(op, graph.GlobalOp) and op.sym_name.data == result
    )
    taken = {op.sym_name.data for op in module.ops if isinstance(op, graph.GlobalOp | func.FuncOp)}
    copy = _fresh_name(f"{result}_validated", taken)
    pending = _fresh_name(f"{copy}_pending", taken | {copy})
    module.body.block.insert_ops_after(
        [
            graph.GlobalOp(copy, declaration.global_type, declaration.unsigned is not None),
            graph.GlobalOp(pending, IntegerType(1)),
        ],
        declaration,
    )
    main = _functions(module).get("main") or _enclosing_function(clear)
    yes = arith.ConstantOp.from_int_and_width(1, 1)
    main.body.block.insert_ops_before(
        [yes, graph.GlobalStoreOp(yes, pending)], main.body.block.first_op
    )
    first = graph.GlobalLoadOp(pending, IntegerType(1))
    no = arith.ConstantOp.from_int_and_width(0, 1)
    take = scf.IfOp(
        first,
        [],
        [graph.VectorCopyOp(copy, result), no, graph.GlobalStoreOp(no, pending), scf.YieldOp()],
    )
    assert clear.parent_block() is not None
    clear.parent_block().insert_ops_before([first, take], clear)

    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        return validator.check(g, argv, {**vectors, result: vectors[copy]})

    where = source_position(clear)
    at = "" if where is None else f" at {where[0]}:{where[1]}"
    return replace(
        validator,
        algorithm=f"{validator.algorithm}, copied before its first clear{at}",
        check=check,
        result=copy,
    )


def _fresh_name(name: str, taken: set[str]) -> str:
    """`name`, or `name_2`, `name_3`, ... whichever is not `taken`."""
    candidate, suffix = name, 2
    while candidate in taken:
        candidate, suffix = f"{name}_{suffix}", suffix + 1
    return candidate


def _enclosing_function(op: Operation) -> func.FuncOp:
    parent = op.parent_op()
    while not isinstance(parent, func.FuncOp):
        assert parent is not None, "a clear found from an apply lies in a function"
        parent = parent.parent_op()
    return parent


def _loaded_graph(edges: SSAValue) -> GraphSource | None:
    """Where the edgeset `edges` was loaded from: through `transpose()` and the
    `const` global it was stored in; None when it cannot be followed."""
    owner = edges.owner
    while True:
        if isinstance(owner, graph.LoadEdgesOp):
            return GraphSource.of(owner)
        if isinstance(owner, graph.TransposeOp):
            owner = owner.edges.owner
        elif isinstance(owner, graph.GlobalLoadOp) and (stored := _global_value(owner)) is not None:
            owner = stored.owner
        else:
            return None


def _recognise(module: ModuleOp) -> tuple[Validator, graph.EdgeSetApplyOp] | None:
    """The check that applies to this program and the traversal it was
    recognised from, or None."""
    functions = _functions(module)
    start = _start(module)
    brandes = _bc_dependencies(module, functions)
    if brandes is not None and start is not None:
        counts = _largest_count(module, brandes.counts)
        unreached = (
            ()
            if brandes.counts is None
            else tuple(_unreached_stores(module, brandes.dependencies, brandes.counts))
        )
        return _bc_validator(brandes, start, counts, unreached), brandes.backward
    for apply in _applies(module):
        udf = functions.get(apply.udf.root_reference.data)
        if udf is None:
            continue
        triangles = _triangle_counts(apply, udf)
        if triangles is not None:
            return _triangle_validator(triangles, _graph_ordering(module)), apply
        weighted = apply.edgeset_type.is_weighted
        if apply.kind.data == graph.ApplyKind.APPLY_MODIFIED and apply.tracked:
            tracked = apply.tracked.root_reference.data
            if (
                start is not None
                and apply.to_filter is not None
                and _stores_source_id(udf, tracked)
            ):
                return _bfs_validator(tracked, start), apply
            if _reduces(udf, tracked, graph.ReduceKind.MIN):
                if weighted and start is not None:
                    offset = _start_distance(module, tracked, start)
                    unreached = _unreached_distances(module, tracked)
                    return (
                        _sssp_validator(tracked, start, offset, _stop_target(apply), unreached),
                        apply,
                    )
                if not weighted:
                    return _cc_validator(tracked), apply
        labels = _hooked_roots(apply, udf)
        if labels is not None:
            return _cc_validator(labels), apply
        parent = _claimed_parent(apply, udf)
        if parent is not None and start is not None:
            return _bfs_validator(parent, start), apply
        if apply.kind.data == graph.ApplyKind.APPLY_UPDATE_PRIORITY and weighted:
            found = _min_queue_start(module, udf)
            if found is not None:
                dist, queue_start = found
                cost = _path_cost(udf, dist)
                target = _stop_target(apply)
                if cost is not None and target is not None:
                    offset = _start_distance(module, cost, queue_start)
                    unreached = _unreached_distances(module, cost)
                    return _astar_validator(cost, queue_start, offset, target, unreached), apply
                offset = _start_distance(module, dist, queue_start)
                unreached = _unreached_distances(module, dist)
                return (
                    _sssp_validator(dist, queue_start, offset, _stop_target(apply), unreached),
                    apply,
                )
        if apply.kind.data == graph.ApplyKind.APPLY_UPDATE_PRIORITY:
            core = _peeled_priorities(module, udf)
            if core is not None and not _stores_other_than_degrees(module, core):
                return _kcore_validator(core), apply
            if core is not None:
                return _not_checked(core, NOT_DEGREE_PEELING.format(core=core)), apply
        delta = _pagerank_delta(module, apply, udf)
        if delta is not None:
            return delta, apply
        factors = _collaborative_filtering(module, apply, udf)
        if factors is not None:
            return factors, apply
        if apply.kind.data == graph.ApplyKind.APPLY:
            accumulator = _float_add_vector(udf)
            iterations = _trip_count(apply)
            if accumulator is not None and iterations is not None:
                rank = _rank_vector(module, accumulator)
                if rank is not None and _adds_own_value(udf, accumulator, rank):
                    power = _power_iteration(module, apply, accumulator, rank, iterations)
                    return (power or _not_checked(rank, OWN_VALUE_ADDED)), apply
                if rank is not None:
                    return _pagerank_validator(rank, iterations), apply
    return None


def _adds_own_value(udf: func.FuncOp, accumulator: str, rank: str) -> bool:
    """Whether the edge function adds the source's `rank` itself into
    `accumulator` (`new[dst] += old[src]`): no share of it, so not PageRank."""
    source = udf.body.block.args[0]
    return any(
        isinstance(op, graph.ReduceOp)
        and op.vector.root_reference.data == accumulator
        and isinstance(load := op.value.owner, graph.LoadOp)
        and load.vector.root_reference.data == rank
        and load.index == source
        for op in walk(udf)
    )


def _power_iteration(
    module: ModuleOp,
    apply: graph.EdgeSetApplyOp,
    accumulator: str,
    rank: str,
    iterations: Callable[[list[str]], int],
) -> Validator | None:
    """Unnormalised power iteration (GraphIt's eigenvector_centrality test):
    over every edge `new[dst] += old[src]`, then a vertex function copies
    `old[v] = new[v]` and zeroes `new[v]`; `old` starts at a constant, or one
    computed from the vertex count. None when the update is anything else (a
    normalisation, a damping): no reference of gir's applies then."""
    if apply.frontier is not None or _fill(module, accumulator) not in (0.0, None):
        return None
    functions = _functions(module)
    updates = [
        functions[op.udf.root_reference.data]
        for op in walk(module)
        if isinstance(op, graph.VertexSetApplyOp) and _all_vertices(op.set)
    ]
    if not any(_copies_and_zeroes(update, accumulator, rank) for update in updates):
        return None
    fill = next(
        (op.value for op in walk(module) if isinstance(op, graph.VectorFillOp) and op.vector.root_reference.data == rank),
        None,
    )
    initial = None if fill is None else _of_vertex_count(fill)
    if initial is None:
        return None

    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        return reference.check_power_iteration(
            g, vectors[rank], iterations(argv), initial(g.num_vertices)
        )

    return Validator(
        f"power iteration without normalisation (values in '{rank}', iterations of its loop)",
        check,
        rank,
    )


OWN_VALUE_ADDED = (
    "the edge function adds the source's value itself (not a share of it, so this is "
    "not PageRank) and the update is not a plain copy of the sums (power iteration "
    "without normalisation): gir has no CPU reference for it"
)


def _not_checked(result: str, reason: str) -> Validator:
    """A validator for a program no reference of gir's applies to: its check
    raises `reference.NotChecked`, so the run says why rather than a verdict."""

    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        raise reference.NotChecked(reason)

    return Validator(f"the values in '{result}'", check, result)


def _copies_and_zeroes(function: func.FuncOp, accumulator: str, rank: str) -> bool:
    """Whether `function` does exactly `rank[v] = accumulator[v]` and
    `accumulator[v] = 0` to the two vectors (and nothing else to `rank`)."""
    vertex = function.body.block.args[0]
    writes = [
        op
        for op in walk(function)
        if isinstance(op, graph.StoreOp | graph.ReduceOp | graph.CompareAndSwapOp)
        and op.vector.root_reference.data in (rank, accumulator)
    ]
    copied = [
        op
        for op in writes
        if isinstance(op, graph.StoreOp)
        and op.vector.root_reference.data == rank
        and op.index == vertex
        and _loads(op.value, accumulator)
        and op.parent_op() is function
    ]
    zeroed = [
        op
        for op in writes
        if isinstance(op, graph.StoreOp)
        and op.vector.root_reference.data == accumulator
        and _constant_float(op.value) == 0.0
        and op.parent_op() is function
    ]
    return len(copied) == 1 and len(zeroed) == 1 and len(writes) == 2


def _of_vertex_count(value: SSAValue) -> Callable[[int], float] | None:
    """`value` as a function of the graph's vertex count: float constants and
    `vertices.size()` combined by + - * / (GraphIt's `1.0 / vertices.size()`)."""
    constant = _constant_float(value)
    if constant is not None:
        return lambda n: constant
    owner = value.owner
    if isinstance(owner, arith.SIToFPOp | arith.ExtFOp | arith.TruncFOp):
        return _of_vertex_count(owner.input)
    if isinstance(owner, graph.VertexSetSizeOp) and _all_vertices(owner.set):
        return float
    combine = {
        arith.AddfOp: lambda a, b: a + b,
        arith.SubfOp: lambda a, b: a - b,
        arith.MulfOp: lambda a, b: a * b,
        arith.DivfOp: lambda a, b: a / b,
    }.get(type(owner))
    if combine is None or not isinstance(owner, arith.FloatingPointLikeBinaryOperation):
        return None
    lhs, rhs = _of_vertex_count(owner.lhs), _of_vertex_count(owner.rhs)
    if lhs is None or rhs is None:
        return None
    return lambda n: combine(lhs(n), rhs(n))


def _triangle_counts(apply: graph.EdgeSetApplyOp, udf: func.FuncOp) -> str | None:
    """The vector of GraphIt's triangle counting (its tc app): an `apply` over
    every edge whose edge function, only where `dst < src`, adds
    `intersectNeighbor(edges, src, dst)` into it."""
    if apply.kind.data != graph.ApplyKind.APPLY or apply.frontier is not None:
        return None
    src, dst = udf.body.block.args[:2]
    for op in walk(udf):
        if not (isinstance(op, graph.ReduceOp) and op.kind.data == graph.ReduceKind.ADD):
            continue
        value = op.value
        while isinstance(value.owner, arith.ExtUIOp | arith.ExtSIOp | arith.TruncIOp):
            value = value.owner.input
        counted = value.owner
        if (
            isinstance(counted, graph.IntersectNeighborsOp)
            and counted.src == src
            and counted.dst == dst
            and _only_where_below(op, src, dst)
        ):
            return op.vector.root_reference.data
    return None


def _only_where_below(op: Operation, src: SSAValue, dst: SSAValue) -> bool:
    """Whether `op` runs inside an `if` that tests `dst < src` (or `src > dst`)."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if isinstance(parent, scf.IfOp) and isinstance(test := parent.cond.owner, arith.CmpiOp):
            predicate = arith.CMPI_COMPARISON_OPERATIONS[test.predicate.value.data]
            ordered = {"slt": (dst, src), "ult": (dst, src), "sgt": (src, dst), "ugt": (src, dst)}
            if predicate in ordered and op in walk(parent.true_region):
                low, high = ordered[predicate]
                if _is_id_of(test.lhs, low) and _is_id_of(test.rhs, high):
                    return True
        parent = parent.parent_op()
    return False


def _is_id_of(value: SSAValue, vertex: SSAValue) -> bool:
    owner = value.owner
    return isinstance(owner, graph.VertexIdOp) and owner.vertex == vertex


def _graph_ordering(module: ModuleOp) -> str | None:
    """The ordering the program's graph is reordered by when loaded (None: as given)."""
    for op in walk(module):
        if isinstance(op, graph.LoadEdgesOp) and op.reorder is not None:
            return op.reorder.data
    return None


def _triangle_validator(counts: str, ordering: str | None) -> Validator:
    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        return reference.check_triangles(g, vectors[counts], ordering)

    return Validator(f"triangle counting (counts in '{counts}')", check, counts)


def _pagerank_delta(
    module: ModuleOp, apply: graph.EdgeSetApplyOp, udf: func.FuncOp
) -> Validator | None:
    """PageRank-delta's shape: an `apply` from a frontier whose edge function
    float-adds into an accumulator, in a counted loop, and vertex filters that
    add a vector into the rank (`rank[v] += delta[v]`), scale the accumulator by
    a constant (damp) and keep `|delta| > epsilon * rank`; None if any is missing."""
    accumulator = _float_add_vector(udf)
    iterations = _trip_count(apply)
    if (
        apply.kind.data != graph.ApplyKind.APPLY
        or apply.result is not None
        or apply.frontier is None
        or accumulator is None
        or iterations is None
    ):
        return None
    filters = _functions(module)
    bodies = [
        filters[op.filter.root_reference.data]
        for op in walk(module)
        if isinstance(op, graph.VertexSetFilterOp)
    ]
    rank = next((r for body in bodies if (r := _added_vector(body)) is not None), None)
    if rank is None:
        return None
    damp = _scale_of(bodies, lambda v: _loads(v, accumulator))
    epsilon = _scale_of(bodies, lambda v: _loads(v, rank))
    if damp is None or epsilon is None:
        return None
    return _pagerank_delta_validator(rank, iterations, damp, epsilon)


def _collaborative_filtering(
    module: ModuleOp, apply: graph.EdgeSetApplyOp, udf: func.FuncOp
) -> Validator | None:
    """Collaborative filtering's shape (GraphIt's `cf` app): an `apply` over all
    edges of a weighted edgeset, in a counted loop, whose edge function float-adds
    into lanes of an error vector, and a vertex function that does `latent[v][i]
    += step * (c * latent[v][i] + error[v][i])`; None if any is missing."""
    iterations = _trip_count(apply)
    if (
        apply.kind.data != graph.ApplyKind.APPLY
        or apply.result is not None
        or apply.frontier is not None
        or not apply.edgeset_type.is_weighted
        or iterations is None
    ):
        return None
    errors = {
        op.vector.root_reference.data
        for op in walk(udf)
        if isinstance(op, graph.ReduceOp)
        and op.lane is not None
        and op.kind.data == graph.ReduceKind.ADD
        and isinstance(op.value.type, AnyFloat)
    }
    functions = _functions(module)
    vertex_functions = [
        functions[op.udf.root_reference.data]
        for op in walk(module)
        if isinstance(op, graph.VertexSetApplyOp)
    ]
    for function in vertex_functions:
        for op in walk(function):
            step = _gradient_step(op, errors)
            if step is None:
                continue
            latent, rate, decay = step
            vector = _vector_type(module, latent)
            initial = _initial_factor(module, vertex_functions, latent)
            if vector is None or initial is None:
                return None
            return _cf_validator(latent, iterations, vector.lane_count, rate, decay, initial)
    return None


def _gradient_step(op: Operation, errors: set[str]) -> tuple[str, float, float] | None:
    """(latent, step, c) when `op` is `latent[v][i] += step * (c * latent[v][i] +
    error[v][i])` for one of the `errors` vectors (operands in either order)."""
    if not (
        isinstance(op, graph.ReduceOp) and op.lane is not None and op.kind.data == graph.ReduceKind.ADD
    ):
        return None
    latent = op.vector.root_reference.data
    scaled = op.value.owner
    if not isinstance(scaled, arith.MulfOp):
        return None
    for rate_value, sum_value in ((scaled.lhs, scaled.rhs), (scaled.rhs, scaled.lhs)):
        rate, total = _constant_float(rate_value), sum_value.owner
        if rate is None or not isinstance(total, arith.AddfOp):
            continue
        for decayed, error in ((total.lhs, total.rhs), (total.rhs, total.lhs)):
            term = decayed.owner
            if not (isinstance(term, arith.MulfOp) and any(_loads(error, e) for e in errors)):
                continue
            for c, x in ((term.lhs, term.rhs), (term.rhs, term.lhs)):
                decay = _constant_float(c)
                if decay is not None and _loads(x, latent):
                    return latent, rate, decay
    return None


def _vector_type(module: ModuleOp, name: str) -> graph.VectorType | None:
    for op in module.ops:
        if isinstance(op, graph.GlobalOp) and op.sym_name.data == name:
            return op.global_type if isinstance(op.global_type, graph.VectorType) else None
    return None


def _initial_factor(
    module: ModuleOp, vertex_functions: list[func.FuncOp], latent: str
) -> float | None:
    """The constant that a vertex function stores into `latent`'s lanes, else
    the constant `latent` is filled with (0 when nothing sets it)."""
    for function in vertex_functions:
        for op in walk(function):
            if isinstance(op, graph.StoreOp) and op.vector.root_reference.data == latent:
                return _constant_float(op.value)
    fills = [
        op
        for op in walk(module)
        if isinstance(op, graph.VectorFillOp) and op.vector.root_reference.data == latent
    ]
    return _constant_float(fills[-1].value) if fills else 0.0


def _added_vector(function: func.FuncOp) -> str | None:
    """The vector `function` float-adds another vector's element into."""
    for op in walk(function):
        if (
            isinstance(op, graph.ReduceOp)
            and op.kind.data == graph.ReduceKind.ADD
            and isinstance(op.value.owner, graph.LoadOp)
            and isinstance(op.value.type, AnyFloat)
        ):
            return op.vector.root_reference.data
    return None


def _loads(value: SSAValue, vector: str) -> bool:
    owner = value.owner
    return isinstance(owner, graph.LoadOp) and owner.vector.root_reference.data == vector


def _scale_of(bodies: list[func.FuncOp], scaled: Callable[[SSAValue], bool]) -> float | None:
    """The constant `c` of a `c * x` (or `x * c`) in `bodies` whose `x` is `scaled`."""
    for body in bodies:
        for op in walk(body):
            if isinstance(op, arith.MulfOp):
                for x, c in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
                    constant = _constant_float(c)
                    if scaled(x) and constant is not None:
                        return constant
    return None


def _constant_float(value: SSAValue) -> float | None:
    """A literal float, also through float casts and the `const` global that
    `main` sets once from one."""
    owner = value.owner
    if isinstance(owner, arith.ExtFOp | arith.TruncFOp | arith.SIToFPOp):
        return _constant_float(owner.input)
    if isinstance(owner, arith.NegfOp):
        inner = _constant_float(owner.operand)
        return None if inner is None else -inner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, FloatAttr | IntegerAttr):
        return float(owner.value.value.data)
    if isinstance(owner, graph.GlobalLoadOp):
        stored = _global_value(owner)
        return None if stored is None else _constant_float(stored)
    return None


def _rank_vector(module: ModuleOp, accumulator: str) -> str | None:
    """The PageRank vector of a program whose edge function adds into `accumulator`.

    It is the only per-vertex float vector stored from a value that reads the
    accumulator and whose values reach the accumulator again; None when no vector,
    or more than one, is such.
    """
    flows = _vector_flows(module)
    per_vertex_floats = {
        op.sym_name.data
        for op in module.ops
        if isinstance(op, graph.GlobalOp)
        and isinstance(op.global_type, graph.VectorType)
        and op.global_type.per_vertex
        and isinstance(op.global_type.element_type, AnyFloat)
    }
    candidates = [
        vector
        for vector in sorted(per_vertex_floats - {accumulator})
        if accumulator in flows.get(vector, set())
        and accumulator in _downstream(flows, vector)
    ]
    return candidates[0] if len(candidates) == 1 else None


def _vector_flows(module: ModuleOp) -> dict[str, set[str]]:
    """For each vector, the vectors read by the values stored or added into it."""
    flows: dict[str, set[str]] = {}
    for op in walk(module):
        if isinstance(op, graph.StoreOp | graph.ReduceOp):
            target = op.vector.root_reference.data
            flows.setdefault(target, set()).update(_vectors_read(op.value))
    return flows


def _vectors_read(value: SSAValue) -> set[str]:
    """The vectors whose elements `value` is computed from (through regions too)."""
    read: set[str] = set()
    seen: set[Operation] = set()
    pending = [value.owner] if isinstance(value.owner, Operation) else []
    while pending:
        op = pending.pop()
        if op in seen:
            continue
        seen.add(op)
        for inner in walk(op):
            if isinstance(inner, graph.LoadOp):
                read.add(inner.vector.root_reference.data)
            pending.extend(
                operand.owner for operand in inner.operands if isinstance(operand.owner, Operation)
            )
    return read


def _downstream(flows: dict[str, set[str]], start: str) -> set[str]:
    """The vectors that values computed from `start` flow into, directly or not."""
    edges: dict[str, set[str]] = {}
    for target, sources in flows.items():
        for source in sources:
            edges.setdefault(source, set()).add(target)
    reached: set[str] = set()
    pending = [start]
    while pending:
        for following in edges.get(pending.pop(), set()) - reached:
            reached.add(following)
            pending.append(following)
    return reached


def _bfs_validator(parent: str, start: IntArg) -> Validator:
    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        return reference.check_bfs_parent(
            g, start.read(argv), vectors[parent]
        )

    return Validator(f"BFS (parent tree in '{parent}')", check, parent)


def _sssp_validator(
    dist: str,
    start: IntArg,
    start_distance: IntArg,
    target: IntArg | None = None,
    unreached: tuple[int, ...] = (reference.UNREACHABLE_DISTANCE,),
) -> Validator:
    """Distances from `start`, which the program sets to `start_distance`; with
    a `target`, of a search that stops once the target's distance is final.
    `unreached`: what the program leaves at vertices it never reaches."""

    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        source, offset = start.read(argv), start_distance.read(argv)
        if target is None:
            return reference.check_sssp(g, source, vectors[dist], offset, unreached)
        return reference.check_ppsp(
            g, source, target.read(argv), vectors[dist], offset, unreached
        )

    what = "SSSP" if target is None else "point-to-point SSSP"
    return Validator(f"{what} (distances in '{dist}')", check, dist, weighted=True)


def _astar_validator(
    cost: str,
    start: IntArg,
    start_distance: IntArg,
    target: IntArg,
    unreached: tuple[int, ...],
) -> Validator:
    """Path costs of an A* search from `start` to `target` (`reference.check_astar`)."""

    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        return reference.check_astar(
            g, start.read(argv), target.read(argv), vectors[cost], start_distance.read(argv), unreached
        )

    return Validator(f"A* search (path costs in '{cost}')", check, cost, weighted=True)


def _cf_validator(
    latent: str, iterations: Callable[[list[str]], int], lanes: int, step: float, decay: float, initial: float
) -> Validator:
    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        return reference.check_collaborative_filtering(
            g, vectors[latent], iterations(argv), lanes, step, decay, initial
        )

    return Validator(
        f"collaborative filtering (latent factors in '{latent}')", check, latent, weighted=True
    )


def _kcore_validator(core: str) -> Validator:
    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        return reference.check_kcore(g, vectors[core])

    return Validator(f"k-core (core numbers in '{core}')", check, core)


def _cc_validator(labels: str) -> Validator:
    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        return reference.check_cc(g, vectors[labels])

    return Validator(f"connected components (labels in '{labels}')", check, labels)


@dataclass(frozen=True)
class _Brandes:
    """What a Brandes BC program is made of: the vector its backward traversal
    float-adds the dependencies into, that traversal, and the vector of
    shortest-path counts its forward traversal adds up (None if not found)."""

    dependencies: str
    backward: graph.EdgeSetApplyOp
    counts: str | None


def _bc_dependencies(module: ModuleOp, functions: dict[str, func.FuncOp]) -> _Brandes | None:
    """Brandes BC's shape: a list of vertexsets (the levels), a traversal of the
    transposed edges that float-adds into a vector (the dependencies) and one of
    the edges that adds into the vector it tracks (the path counts)."""
    if not any(isinstance(op, graph.ListNewOp) for op in walk(module)):
        return None
    counts = None
    for apply in _applies(module):
        udf = functions.get(apply.udf.root_reference.data)
        if udf is None:
            continue
        tracked = apply.tracked.root_reference.data if apply.tracked else None
        if tracked is not None and _reduces(udf, tracked, graph.ReduceKind.ADD):
            counts = counts or tracked
    for apply in _applies(module):
        udf = functions.get(apply.udf.root_reference.data)
        if udf is not None and isinstance(apply.edges.owner, graph.TransposeOp):
            vector = _float_add_vector(udf)
            return None if vector is None else _Brandes(vector, apply, counts)
    return None


def _largest_count(module: ModuleOp, counts: str | None) -> tuple[str, int] | None:
    """(`counts`, the largest value it holds) when it is a vector of integers:
    a BC program that counts paths in `int` wraps them on many-path graphs."""
    if counts is None:
        return None
    for op in module.ops:
        if isinstance(op, graph.GlobalOp) and op.sym_name.data == counts:
            element = op.global_type.element_type if isinstance(op.global_type, graph.VectorType) else None
            if isinstance(element, IntegerType):
                bits = element.width.data if op.unsigned else element.width.data - 1
                return counts, 2**bits - 1
    return None


def _bc_validator(
    brandes: _Brandes, start: IntArg, counts: tuple[str, int] | None, unreached: tuple[float, ...]
) -> Validator:
    dependencies = brandes.dependencies

    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        return reference.check_bc(
            g, start.read(argv), vectors[dependencies], counts=counts, unreached=unreached
        )

    return Validator(
        f"betweenness centrality (dependencies in '{dependencies}')", check, dependencies
    )


def _pagerank_validator(rank: str, iterations: Callable[[list[str]], int]) -> Validator:
    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        return reference.check_pagerank(g, vectors[rank], iterations=iterations(argv))

    return Validator(f"PageRank (ranks in '{rank}', iterations of its loop)", check, rank)


def _pagerank_delta_validator(
    rank: str, iterations: Callable[[list[str]], int], damp: float, epsilon: float
) -> Validator:
    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        return reference.check_pagerank_delta(
            g, vectors[rank], iterations(argv), damp=damp, epsilon=epsilon
        )

    return Validator(
        f"PageRank-delta (ranks in '{rank}', damping {damp:g}, epsilon {epsilon:g}, "
        "iterations of its loop)",
        check,
        rank,
    )
