"""`graph-map-vertex-ids`: in a program whose graph is reordered, marks the values
that cross between the user's vertex ids and the reordered graph's.

A reordered program (`graph.load_edges {reorder = "DEGREE"}`,
`program->configReorder(DEGREE)`) runs on the graph relabelled at load time, so
inside it every vertex has its new id. Its results stay those of the user's
graph because the ids are mapped where they enter and leave the program, and
this pass finds those places:

- a command-line integer used as a vertex (the index of a vertex vector's
  element, a vertex added to a set, a priority queue's start vertex) is a user's
  vertex: its `graph.argv_int` gets `vertex`, and the runtime reads it as the
  vertex's new id;
- a vertex vector whose elements are vertex ids gets `vertex_values`: a vector
  written with a vertex's id (`graph.vertex_id`), a vertex argument, or an
  element of another such vector. The runtime maps those values back to the
  user's ids (BFS's parents, CC's labels); every vertex vector comes back in the
  user's vertex order in any case.

Ids the program computes otherwise (a literal vertex number, arithmetic on ids)
are the reordered graph's: a program that needs them in the user's numbering
should not be reordered. Without `reorder` the pass changes nothing.

Before:
```mlir
graph.global @parent : !graph.vector<i32>
func.func @claim(%u: !graph.vertex, %w: !graph.vertex) {
  %0 = graph.vertex_id %u : i32
  graph.store %0, @parent[%w] : !graph.vertex, i32
  func.return
}
func.func @main() {
  %links = graph.load_edges {argv = 1 : i64, reorder = "DEGREE"} : !graph.edgeset
  %root = graph.argv_int argv[2] : i32
  graph.store %root, @parent[%root] : i32, i32
  ...
}
```
After:
```mlir
graph.global @parent : !graph.vector<i32> vertex_values
...
  %root = graph.argv_int argv[2] vertex : i32
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, ModuleOp, UnitAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from gir.dialects import graph
from gir.ir_walk import walk

_WRITES = (graph.StoreOp, graph.ReduceOp, graph.CompareAndSwapOp)
"""The ops that write a vector element."""
_ACCESSES = (graph.LoadOp, *_WRITES)
"""The ops that address a vector element `@vector[index]`."""
_VertexAccess = graph.LoadOp | graph.StoreOp | graph.ReduceOp | graph.CompareAndSwapOp


@dataclass(frozen=True)
class GraphMapVertexIds(ModulePass):
    """Marks vertex arguments and vectors of vertex ids of a reordered program."""

    name = "graph-map-vertex-ids"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not any(
            isinstance(load, graph.LoadEdgesOp) and load.reorder is not None for load in walk(op)
        ):
            return
        vertex_vectors = _vertex_vectors(op)
        for argv in [a for a in walk(op) if isinstance(a, graph.ArgvIntOp)]:
            if isinstance(argv.result.type, IntegerType) and _used_as_vertex(
                argv.result, vertex_vectors
            ):
                argv.vertex = UnitAttr()
        holding_ids = _vectors_of_ids(op, vertex_vectors)
        for global_op in op.ops:
            if isinstance(global_op, graph.GlobalOp) and global_op.sym_name.data in holding_ids:
                global_op.vertex_values = UnitAttr()


def _vertex_vectors(module: ModuleOp) -> set[str]:
    """The names of the vectors indexed by vertex."""
    return {
        op.sym_name.data
        for op in module.ops
        if isinstance(op, graph.GlobalOp)
        and isinstance(op.global_type, graph.VectorType)
        and op.global_type.per_vertex
    }


def _vector_name(access: _VertexAccess) -> str:
    return access.vector.root_reference.data


def _used_as_vertex(value: SSAValue, vertex_vectors: set[str]) -> bool:
    """Whether `value` names a vertex somewhere: it indexes a vertex vector, is
    added to a vertex set, becomes a vertex, or starts a priority queue."""
    return any(_names_vertex(use.operation, value, vertex_vectors) for use in value.uses)


def _names_vertex(user: Operation, value: SSAValue, vertex_vectors: set[str]) -> bool:
    """Whether `user` takes `value` as a vertex."""
    if isinstance(user, _ACCESSES):
        return user.index is value and _vector_name(user) in vertex_vectors
    if isinstance(user, graph.AddVertexOp):
        return user.vertex is value
    if isinstance(user, graph.PriorityQueueNewOp):
        return user.start is value
    return isinstance(user, graph.ToVertexOp)


def _written_values(op: Operation) -> list[SSAValue]:
    """The values a vector write stores (a CAS: its desired value)."""
    if isinstance(op, graph.CompareAndSwapOp):
        return [op.desired]
    assert isinstance(op, graph.StoreOp | graph.ReduceOp)
    return [op.value]


def _vectors_of_ids(module: ModuleOp, vertex_vectors: set[str]) -> set[str]:
    """The vertex vectors some write of which stores a vertex id (a fixpoint:
    an element of such a vector is an id too)."""
    writes = [op for op in walk(module) if isinstance(op, _WRITES)]
    copies = [op for op in walk(module) if isinstance(op, graph.VectorCopyOp)]
    holding: set[str] = set()
    changed = True
    while changed:
        changed = False
        for write in writes:
            name = _vector_name(write)
            if name in holding or name not in vertex_vectors:
                continue
            if any(_is_vertex_id(value, holding) for value in _written_values(write)):
                holding.add(name)
                changed = True
        for copy in copies:
            target = copy.target.root_reference.data
            if target not in holding and copy.source.root_reference.data in holding:
                holding.add(target)
                changed = True
    return holding


def _is_vertex_id(value: SSAValue, holding: set[str]) -> bool:
    """Whether `value` is a vertex's id: of a vertex, a vertex argument, or read
    from a vector of ids."""
    if isinstance(value.type, graph.VertexType):
        return True
    owner = value.owner
    if isinstance(owner, graph.VertexIdOp):
        return True
    if isinstance(owner, graph.ArgvIntOp):
        return owner.vertex is not None
    if isinstance(owner, graph.LoadOp):
        return _vector_name(owner) in holding
    return False
