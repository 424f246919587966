"""The `frontier` dialect: gir's frontier/traversal level.

Between the algorithm (`graph`) and the GPU (`gir_gpu`) level. Here every set of
vertices has an explicit *representation* (a type), every `edgeset.apply` is a
traversal op that carries its schedule's axes as properties (direction, load
balance, layout, output-frontier creation, deduplication), and the UDFs are
inlined as regions. Globals other than vectors are gone: scalars are SSA values of
`main`, edgesets are the `graph.load_edges` value, vectors stay symbols
(`graph.load` / `graph.store` / `graph.reduce` / `graph.compare_and_swap`, which
the regions use unchanged).

Frontiers are *values*: an op that changes a frontier (`frontier.add`,
`frontier.clear`, `frontier.dedup`, a traversal filling its output) returns the
changed frontier, and the operand it was given is not used afterwards. A value
and the values made from it share one storage, released by `frontier.free`.

Representations (one subclass of `FrontierType` each; a bitmap or boolmap is one
more type here and one more lowering in `gir/passes/representations/`):
- `!frontier.queue`: a sparse queue of vertex ids with a size (G2's FUSED output).
- `!frontier.all`: every vertex of the graph (`edges.getVertices()`); no storage.
- `!frontier.boolmap` / `!frontier.bitmap`: one byte / one bit per vertex (G2's
  UNFUSED_BOOLMAP / UNFUSED_BITMAP outputs and PULL inputs).

Ops, from the highest to the lowest within this level:
- traversal: `frontier.edge_traverse` (one `edgeset.apply`, schedule axes as
  properties); its load-balance strategy (`frontier-lower-load-balance`) rewrites it into
- `frontier.vertex_map` (one thread per vertex of a frontier, optionally filling an
  output frontier with `frontier.enqueue`; VERTEX_BASED, vertex applies and
  filters) or `frontier.edge_map` (the work of one edge, threads mapped to edges
  by the strategy that forms its kernels; EDGE_ONLY), and the layout ops
  `frontier.edge_range`, `frontier.neighbor`, `frontier.edge_weight`;
- host ops on frontiers: `frontier.new`, `frontier.all_vertices`,
  `frontier.convert`, `frontier.size`, `frontier.add`, `frontier.clear`,
  `frontier.dedup` (unfused deduplication), `frontier.free`;
- priority queues (`!frontier.priority_queue<i32>` or `<i64>`, by the priority
  type; a handle whose state the ops change):
  `frontier.pq_new`, `pq_finished`, `pq_finished_node`, `pq_dequeue`,
  `pq_update_min` (in a traversal), `pq_current_priority`, `pq_free`; `frontier-lower-priority-queues`
  lowers them to the ops above.
- lists of queues (`!frontier.list`, a handle): `frontier.list_new`,
  `list_insert` (pushes a copy), `list_retrieve` (pops into a queue);
  `frontier-lower-lists` lowers them to host lists.
- device-side membership: `frontier.contains` (a PULL traversal asking whether a
  source is in its input).

```mlir
%out = frontier.edge_traverse PUSH VERTEX_BASED CSR %edges : !graph.edgeset
    from %in : !frontier.queue into %empty : !frontier.queue dedup
    {label = "s1"} to {
^bb0(%v : !graph.vertex):
  ...
  frontier.yield %unvisited : i1
} apply {
^bb0(%src : !graph.vertex, %dst : !graph.vertex):
  ...
  %won = graph.compare_and_swap @parent[%dst], %m1, %id : !graph.vertex, i32
  scf.if %won {
    frontier.enqueue %dst
  }
  frontier.yield
} -> !frontier.queue
```
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    FlatSymbolRefAttrConstr,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i1,
    i32,
    i64,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    EqAttrConstraint,
    IRDLOperation,
    ParamAttrConstraint,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_region_def,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

from gir.dialects.graph import EdgeSetType, VertexType
from gir.dialects.schedule import (
    DEFAULT_BLOCK_SIZE,
    AxisValueAttr,
    DirectionAttr,
    LoadBalanceAttr,
    block_size_error,
)
from gir.ir_walk import walk

# ---------------------------------------------------------------------------
# Types: frontier representations
# ---------------------------------------------------------------------------


class FrontierType(ParametrizedAttribute, TypeAttribute):
    """Base of every frontier representation type: a set of vertices that a
    traversal or a vertex map can iterate. A new representation is one more
    subclass here (registered in `Frontier` below) and one lowering registered in
    `gir/passes/__init__.py`; no constraint of this dialect names the subclasses."""


class MutableFrontierType(FrontierType):
    """Base of the representations a traversal or vertex map can fill (an output
    frontier) and that `frontier.add` / `frontier.clear` change."""


@irdl_attr_definition
class SparseQueueType(MutableFrontierType):
    """A sparse queue: the ids of its vertices, in no particular order, and their
    number. Its storage holds as many vertices as one traversal can enqueue."""

    name = "frontier.queue"


@irdl_attr_definition
class AllVerticesType(FrontierType):
    """Every vertex of the graph, 0..V-1 (`edges.getVertices()`): iterated without
    any storage. It is never changed; `frontier.new %n` makes a queue of them."""

    name = "frontier.all"


@irdl_attr_definition
class LayoutAttr(AxisValueAttr):
    """The topology layout (GRAssembler's axis) a traversal or a layout op reads
    edges from: CSR (out-edges by source), CSC (in-edges by destination), the
    edge-blocked BLOCKED and BLOCKED_CSC, ... as `gir.axes.LAYOUTS` registers
    them (each layout's strategy documents its arrays)."""

    name = "frontier.layout"
    axis = "layout"


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def _yield_types(region: Region) -> tuple[Attribute, ...]:
    terminator = region.block.last_op
    if not isinstance(terminator, YieldOp):
        raise VerifyException("a frontier region ends with frontier.yield")
    return tuple(value.type for value in terminator.arguments)


def _arg_types(region: Region) -> tuple[Attribute, ...]:
    return tuple(arg.type for arg in region.block.args)


def _block_size_attr(size: int | None) -> IntegerAttr | None:
    if size is None or size == DEFAULT_BLOCK_SIZE:
        return None
    return IntegerAttr(size, i32)


def block_size_of(op: EdgeTraverseOp | VertexMapOp | EdgeMapOp) -> int:
    """The threads per block of the kernels `op` becomes: its `block_size` property
    (the schedule's `configBlockSize`), else the default."""
    return DEFAULT_BLOCK_SIZE if op.block_size is None else op.block_size.value.data


def _verify_map_op(op: Operation, output: SSAValue | None, result: SSAValue | None):
    """What traversals and map ops share: a valid `block_size`, and a result exactly
    when there is an output frontier, of its type."""
    if isinstance(size := op.properties.get("block_size"), IntegerAttr):
        reason = block_size_error(size.value.data)
        if reason is not None:
            raise VerifyException(reason)
    if (output is None) != (result is None):
        raise VerifyException(f"{op.name} returns a frontier exactly when it has an output")
    if output is not None and result is not None and output.type != result.type:
        raise VerifyException(
            f"{op.name} returns its output frontier: {result.type} is not {output.type}"
        )


# ---------------------------------------------------------------------------
# Host ops on frontiers
# ---------------------------------------------------------------------------


@irdl_op_definition
class NewOp(IRDLOperation):
    """`new vertexset{Vertex}(n)`: a fresh queue holding vertices 0..n-1 (empty for
    0), with storage for as many vertices as a traversal can enqueue."""

    name = "frontier.new"

    count = operand_def(IntegerType)
    result = result_def(MutableFrontierType)

    assembly_format = "$count attr-dict `:` type($count) `->` type($result)"

    def __init__(self, count: SSAValue | Operation, result_type: Attribute | None = None):
        super().__init__(
            operands=[count], result_types=[result_type or SparseQueueType()]
        )


@irdl_op_definition
class AllVerticesOp(IRDLOperation):
    """`edges.getVertices()`: the frontier of every vertex of the graph."""

    name = "frontier.all_vertices"

    result = result_def(AllVerticesType)

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self):
        super().__init__(result_types=[AllVerticesType()])


@irdl_op_definition
class ConvertOp(IRDLOperation):
    """A new frontier of another representation holding the same vertices (e.g.
    every vertex as a queue, to be changed). The operand is not changed; each
    representation's lowering says which conversions it has."""

    name = "frontier.convert"

    input = operand_def(FrontierType)
    result = result_def(FrontierType)

    assembly_format = "$input attr-dict `:` type($input) `->` type($result)"

    def __init__(self, input: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[input], result_types=[result_type])

    def verify_(self) -> None:
        if self.input.type == self.result.type:
            raise VerifyException(f"frontier.convert from {self.input.type} to itself")


@irdl_op_definition
class SizeOp(IRDLOperation):
    """`set.getVertexSetSize()`: the number of vertices of a frontier (on the host)."""

    name = "frontier.size"

    frontier = operand_def(FrontierType)
    result = result_def(IntegerType)

    assembly_format = "$frontier attr-dict `:` type($frontier) `->` type($result)"

    def __init__(self, frontier: SSAValue | Operation, result_type: Attribute = i32):
        super().__init__(operands=[frontier], result_types=[result_type])


@irdl_op_definition
class AddOp(IRDLOperation):
    """`set.addVertex(v)` on the host: the frontier with `v` appended. The operand
    frontier is not used afterwards (the result shares its storage)."""

    name = "frontier.add"

    T: ClassVar = VarConstraint("T", base(MutableFrontierType))
    vertex = operand_def(IntegerType)
    frontier = operand_def(T)
    result = result_def(T)

    assembly_format = "$vertex `,` $frontier attr-dict `:` type($vertex) `,` type($frontier)"

    def __init__(self, vertex: SSAValue | Operation, frontier: SSAValue | Operation):
        super().__init__(
            operands=[vertex, frontier], result_types=[SSAValue.get(frontier).type]
        )


@irdl_op_definition
class ClearOp(IRDLOperation):
    """The frontier emptied, keeping its storage (for reuse as an output). The
    operand frontier is not used afterwards."""

    name = "frontier.clear"

    T: ClassVar = VarConstraint("T", base(MutableFrontierType))
    frontier = operand_def(T)
    result = result_def(T)

    assembly_format = "$frontier attr-dict `:` type($frontier)"

    def __init__(self, frontier: SSAValue | Operation):
        super().__init__(operands=[frontier], result_types=[SSAValue.get(frontier).type])


@irdl_op_definition
class DedupOp(IRDLOperation):
    """The frontier with each vertex kept once: G2's unfused deduplication, a
    separate step after the traversal that filled the frontier. The operand
    frontier is not used afterwards (the result shares its storage)."""

    name = "frontier.dedup"

    T: ClassVar = VarConstraint("T", base(MutableFrontierType))
    frontier = operand_def(T)
    result = result_def(T)

    assembly_format = "$frontier attr-dict `:` type($frontier)"

    def __init__(self, frontier: SSAValue | Operation):
        super().__init__(operands=[frontier], result_types=[SSAValue.get(frontier).type])


@irdl_op_definition
class FreeOp(IRDLOperation):
    """`delete set`: releases a frontier's storage; neither it nor any value sharing
    its storage is used afterwards."""

    name = "frontier.free"

    frontier = operand_def(FrontierType)

    assembly_format = "$frontier attr-dict `:` type($frontier)"

    def __init__(self, frontier: SSAValue | Operation):
        super().__init__(operands=[frontier])


# ---------------------------------------------------------------------------
# Traversals and vertex maps
# ---------------------------------------------------------------------------


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a region of a traversal or vertex map; a `to` filter yields its
    verdict (i1), the other regions yield nothing."""

    name = "frontier.yield"

    arguments = var_operand_def()

    traits = traits_def(IsTerminator())

    assembly_format = "attr-dict ($arguments^ `:` type($arguments))?"

    def __init__(self, *arguments: SSAValue | Operation):
        super().__init__(operands=[arguments])


@irdl_op_definition
class EdgeTraverseOp(IRDLOperation):
    """One `edgeset.apply` with its schedule: runs `apply(src, dst[, weight])` on
    every edge whose source is in `input` and whose destination passes the `to`
    filter (re-checked against the current state of the vectors).

    The schedule's axes are properties: `direction`, `load_balance` (which
    strategy `frontier-lower-load-balance` lowers it by), `layout` (where edges are read from),
    `block_size` (threads per block of its kernels; absent: 256), `edge_sample`
    (absent: every edge; N: each iterated vertex walks only its first N edges, as
    `configEdgeSample(N)` asks). Map ops keep the
    `block_size` of the traversal they come from. With an
    output frontier (G2's FUSED frontier creation, into a `!frontier.queue`),
    `frontier.enqueue` in `apply` adds vertices to it (`dedup`: each at most once)
    and the filled frontier is the result. `tracked = @v` says that the enqueues
    are still implicit: a vertex is added when `apply` changes its element of `@v`;
    the `frontier-track-changes` pass makes them explicit.
    """

    name = "frontier.edge_traverse"

    edges = operand_def(EdgeSetType)
    input = operand_def(FrontierType)
    output = opt_operand_def(MutableFrontierType)
    direction = prop_def(DirectionAttr)
    load_balance = prop_def(LoadBalanceAttr)
    layout = prop_def(LayoutAttr)
    tracked = opt_prop_def(FlatSymbolRefAttrConstr)
    dedup = opt_prop_def(UnitAttr)
    label = opt_prop_def(StringAttr)
    block_size = opt_prop_def(IntegerAttr)
    edge_sample = opt_prop_def(IntegerAttr)
    to_filter = opt_region_def("single_block")
    body = region_def("single_block")
    result = opt_result_def(MutableFrontierType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$direction $load_balance $layout $edges `:` type($edges) "
        "`from` $input `:` type($input) (`into` $output^ `:` type($output))? "
        "(`tracked` $tracked^)? (`dedup` $dedup^)? attr-dict "
        "(`to` $to_filter^)? `apply` $body (`->` type($result)^)?"
    )

    def __init__(
        self,
        edges: SSAValue | Operation,
        input: SSAValue | Operation,
        body: Region,
        *,
        output: SSAValue | Operation | None = None,
        to_filter: Region | None = None,
        direction: str,
        load_balance: str,
        layout: str,
        tracked: SymbolRefAttr | None = None,
        dedup: bool = False,
        label: str | None = None,
        block_size: int | None = None,
        edge_sample: int | None = None,
    ):
        super().__init__(
            operands=[edges, input, [] if output is None else [output]],
            properties={
                "direction": DirectionAttr(direction),
                "load_balance": LoadBalanceAttr(load_balance),
                "layout": LayoutAttr(layout),
                "tracked": tracked,
                "dedup": UnitAttr() if dedup else None,
                "label": None if label is None else StringAttr(label),
                "block_size": _block_size_attr(block_size),
                "edge_sample": None if not edge_sample else IntegerAttr(edge_sample, i64),
            },
            regions=[[] if to_filter is None else to_filter, body],
            result_types=[[] if output is None else [SSAValue.get(output).type]],
        )

    @property
    def edgeset_type(self) -> EdgeSetType:
        """The type of the traversed edgeset."""
        assert isinstance(self.edges.type, EdgeSetType)
        return self.edges.type

    def verify_(self) -> None:
        _verify_map_op(self, self.output, self.result)
        vertex = VertexType()
        expected = [vertex, vertex]
        if self.edgeset_type.is_weighted:
            expected.append(self.edgeset_type.weight)
        args = _arg_types(self.body)
        if args != tuple(expected) and args != (vertex, vertex):
            raise VerifyException(
                "the apply region takes (src, dst[, weight]) of types "
                f"({', '.join(map(str, expected))}), got ({', '.join(map(str, args))})"
            )
        if _yield_types(self.body):
            raise VerifyException("the apply region yields nothing")
        if self.output is None:
            if self.tracked is not None or self.dedup is not None:
                raise VerifyException("tracked and dedup need an output frontier")
            if any(isinstance(op, EnqueueOp) for op in walk(self.body)):
                raise VerifyException("frontier.enqueue in a traversal without output")
        if self.to_filter is not None and self.to_filter.blocks:
            if _arg_types(self.to_filter) != (vertex,):
                raise VerifyException("the to filter takes one !graph.vertex")
            if _yield_types(self.to_filter) != (i1,):
                raise VerifyException("the to filter yields an i1")
        if self.edge_sample is not None and self.edge_sample.value.data < 1:
            raise VerifyException("edge_sample takes at least one edge of each vertex")


@irdl_op_definition
class VertexMapOp(IRDLOperation):
    """Runs `body(v)` for every vertex `v` of `input`, one GPU thread each. With an
    output frontier, `frontier.enqueue` in the body adds vertices to it (`dedup`: each
    at most once) and the filled frontier is the result. This is what a vertexset
    apply or filter is, and what load-balance passes turn traversals into."""

    name = "frontier.vertex_map"

    input = operand_def(FrontierType)
    output = opt_operand_def(MutableFrontierType)
    dedup = opt_prop_def(UnitAttr)
    label = opt_prop_def(StringAttr)
    block_size = opt_prop_def(IntegerAttr)
    body = region_def("single_block")
    result = opt_result_def(MutableFrontierType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$input `:` type($input) (`into` $output^ `:` type($output))? "
        "(`dedup` $dedup^)? (`->` type($result)^)? attr-dict-with-keyword $body"
    )

    def __init__(
        self,
        input: SSAValue | Operation,
        body: Region,
        *,
        output: SSAValue | Operation | None = None,
        dedup: bool = False,
        label: str | None = None,
        block_size: int | None = None,
    ):
        super().__init__(
            operands=[input, [] if output is None else [output]],
            properties={
                "dedup": UnitAttr() if dedup else None,
                "label": None if label is None else StringAttr(label),
                "block_size": _block_size_attr(block_size),
            },
            regions=[body],
            result_types=[[] if output is None else [SSAValue.get(output).type]],
        )

    def verify_(self) -> None:
        _verify_map_op(self, self.output, self.result)
        if self.dedup is not None and self.output is None:
            raise VerifyException("dedup needs an output frontier")
        if _arg_types(self.body) != (VertexType(),):
            raise VerifyException("a vertex map's body takes one !graph.vertex")
        if _yield_types(self.body):
            raise VerifyException("a vertex map's body yields nothing")


@irdl_op_definition
class EdgeMapOp(IRDLOperation):
    """Runs `body(src, edge)` once for every edge position `edge` (in `layout`) of
    every vertex `src` of `input`: a traversal whose `to` filter and edge function
    are already inlined into the per-edge body, with the thread -> edge mapping
    left to its `load_balance` strategy, which forms the kernel(s). With an output
    frontier, `frontier.enqueue` in the body fills it (`dedup`: each vertex at most
    once) and the filled frontier is the result.

    ```mlir
    %o = frontier.edge_map EDGE_ONLY CSR %e : !graph.edgeset from %in : !frontier.queue
        into %empty : !frontier.queue -> !frontier.queue {
    ^bb0(%src : !graph.vertex, %edge : index):
      %dst = frontier.neighbor CSR %e[%edge] : !graph.edgeset
      ...
      frontier.yield
    }
    ```
    """

    name = "frontier.edge_map"

    edges = operand_def(EdgeSetType)
    input = operand_def(FrontierType)
    output = opt_operand_def(MutableFrontierType)
    load_balance = prop_def(LoadBalanceAttr)
    layout = prop_def(LayoutAttr)
    dedup = opt_prop_def(UnitAttr)
    label = opt_prop_def(StringAttr)
    block_size = opt_prop_def(IntegerAttr)
    body = region_def("single_block")
    result = opt_result_def(MutableFrontierType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$load_balance $layout $edges `:` type($edges) `from` $input `:` type($input) "
        "(`into` $output^ `:` type($output))? (`dedup` $dedup^)? "
        "(`->` type($result)^)? attr-dict-with-keyword $body"
    )

    def __init__(
        self,
        edges: SSAValue | Operation,
        input: SSAValue | Operation,
        body: Region,
        *,
        load_balance: str,
        layout: str,
        output: SSAValue | Operation | None = None,
        dedup: bool = False,
        label: str | None = None,
        block_size: int | None = None,
    ):
        super().__init__(
            operands=[edges, input, [] if output is None else [output]],
            properties={
                "load_balance": LoadBalanceAttr(load_balance),
                "layout": LayoutAttr(layout),
                "dedup": UnitAttr() if dedup else None,
                "label": None if label is None else StringAttr(label),
                "block_size": _block_size_attr(block_size),
            },
            regions=[body],
            result_types=[[] if output is None else [SSAValue.get(output).type]],
        )

    def verify_(self) -> None:
        _verify_map_op(self, self.output, self.result)
        if self.dedup is not None and self.output is None:
            raise VerifyException("dedup needs an output frontier")
        if _arg_types(self.body) != (VertexType(), IndexType()):
            raise VerifyException("an edge map's body takes (!graph.vertex, index)")
        if _yield_types(self.body):
            raise VerifyException("an edge map's body yields nothing")


@irdl_op_definition
class EnqueueOp(IRDLOperation):
    """Adds a vertex to the output frontier of the enclosing vertex map or traversal
    (device side; safe when many threads enqueue at once)."""

    name = "frontier.enqueue"

    vertex = operand_def(VertexType)

    assembly_format = "$vertex attr-dict"

    def __init__(self, vertex: SSAValue | Operation):
        super().__init__(operands=[vertex])

    def verify_(self) -> None:
        parent = self.parent_op()
        while parent is not None and not isinstance(parent, MapOps):
            parent = parent.parent_op()
        if parent is None:
            raise VerifyException(
                "frontier.enqueue must be inside a frontier.vertex_map, "
                "frontier.edge_map or frontier.edge_traverse"
            )
        if parent.output is None:
            raise VerifyException(f"frontier.enqueue in a {parent.name} without output")


MapOps = VertexMapOp | EdgeMapOp | EdgeTraverseOp
"""The ops whose bodies run on the device, one GPU thread per unit of work."""


# ---------------------------------------------------------------------------
# Dense representations (bitmap, boolmap) and membership
# ---------------------------------------------------------------------------


@irdl_attr_definition
class BoolmapType(MutableFrontierType):
    """A boolmap: one byte per vertex of the graph, nonzero for its members (G2's
    BOOLMAP). Any number of threads may add vertices at once; a vertex is never
    held twice."""

    name = "frontier.boolmap"


@irdl_attr_definition
class BitmapType(MutableFrontierType):
    """A bitmap: one bit per vertex of the graph in 32-bit words, vertex v at bit
    v % 32 of word v / 32 (G2's BITMAP). A vertex is never held twice."""

    name = "frontier.bitmap"


@irdl_op_definition
class ContainsOp(IRDLOperation):
    """Whether `vertex` is in `frontier`, in device code (the body of a map op):
    O(1) for the dense representations; a PULL traversal asks it of its input."""

    name = "frontier.contains"

    frontier = operand_def(FrontierType)
    vertex = operand_def(VertexType)
    result = result_def(i1)

    assembly_format = "$frontier `[` $vertex `]` attr-dict `:` type($frontier)"

    def __init__(self, frontier: SSAValue | Operation, vertex: SSAValue | Operation):
        super().__init__(operands=[frontier, vertex], result_types=[i1])

    def verify_(self) -> None:
        parent = self.parent_op()
        while parent is not None and not isinstance(parent, MapOps):
            parent = parent.parent_op()
        if parent is None:
            raise VerifyException(
                "frontier.contains must be inside a frontier.vertex_map, "
                "frontier.edge_map or frontier.edge_traverse"
            )


# ---------------------------------------------------------------------------
# Layout ops (device side)
# ---------------------------------------------------------------------------


@irdl_op_definition
class EdgeRangeOp(IRDLOperation):
    """The edges of `vertex` in `layout`, as a half-open range of edge positions:
    its out-edges for CSR, its in-edges for CSC."""

    name = "frontier.edge_range"

    layout = prop_def(LayoutAttr)
    edges = operand_def(EdgeSetType)
    vertex = operand_def(VertexType)
    begin = result_def(IndexType)
    end = result_def(IndexType)

    assembly_format = "$layout $edges `[` $vertex `]` attr-dict `:` type($edges)"

    def __init__(
        self, layout: str, edges: SSAValue | Operation, vertex: SSAValue | Operation
    ):
        super().__init__(
            operands=[edges, vertex],
            properties={"layout": LayoutAttr(layout)},
            result_types=[IndexType(), IndexType()],
        )


@irdl_op_definition
class NeighborOp(IRDLOperation):
    """The other endpoint of the edge at `position` in `layout`: its destination
    for CSR, its source for CSC."""

    name = "frontier.neighbor"

    layout = prop_def(LayoutAttr)
    edges = operand_def(EdgeSetType)
    position = operand_def(IndexType)
    result = result_def(VertexType)

    assembly_format = "$layout $edges `[` $position `]` attr-dict `:` type($edges)"

    def __init__(
        self, layout: str, edges: SSAValue | Operation, position: SSAValue | Operation
    ):
        super().__init__(
            operands=[edges, position],
            properties={"layout": LayoutAttr(layout)},
            result_types=[VertexType()],
        )


@irdl_op_definition
class EdgeWeightOp(IRDLOperation):
    """The weight of the edge at `position` in `layout` (weighted edgesets only)."""

    name = "frontier.edge_weight"

    layout = prop_def(LayoutAttr)
    edges = operand_def(EdgeSetType)
    position = operand_def(IndexType)
    result = result_def()

    assembly_format = (
        "$layout $edges `[` $position `]` attr-dict `:` type($edges) `->` type($result)"
    )

    def __init__(
        self, layout: str, edges: SSAValue | Operation, position: SSAValue | Operation
    ):
        edges_type = SSAValue.get(edges).type
        assert isinstance(edges_type, EdgeSetType)
        super().__init__(
            operands=[edges, position],
            properties={"layout": LayoutAttr(layout)},
            result_types=[edges_type.weight],
        )

    def verify_(self) -> None:
        assert isinstance(self.edges.type, EdgeSetType)
        if not self.edges.type.is_weighted:
            raise VerifyException("frontier.edge_weight of an unweighted edgeset")
        if self.result.type != self.edges.type.weight:
            raise VerifyException(
                f"edge weights are {self.edges.type.weight}, not {self.result.type}"
            )



# ---------------------------------------------------------------------------
# Priority queues (G2's bucketed queue for ordered algorithms)
# ---------------------------------------------------------------------------


PriorityConstr = EqAttrConstraint(i32) | EqAttrConstraint(i64)
"""The priority types a queue holds: int and uint (i32), int64 and uint_64 (i64);
whether they are signed is the priority vector's (`graph.global ... unsigned`)."""


@irdl_attr_definition
class PriorityQueueType(ParametrizedAttribute, TypeAttribute):
    """A bucketed priority queue of vertices ordered by a per-vertex priority
    vector of `priority_type` (i32 or i64), buckets `delta` wide (G2's lazy
    two-bucket queue). A handle: the ops below change its state in place;
    `frontier-lower-priority-queues` turns that state into values (the current
    bucket's end, a `priority_type` value, and the pending frontier)."""

    name = "frontier.priority_queue"

    priority_type: IntegerType

    def __init__(self, priority_type: IntegerType = i32):
        super().__init__(priority_type)


def _queue_of(priority: VarConstraint) -> ParamAttrConstraint:
    """A priority queue whose priorities are the constraint variable `priority`."""
    return ParamAttrConstraint(PriorityQueueType, [priority])


@irdl_op_definition
class PriorityQueueNewOp(IRDLOperation):
    """`new priority_queue{Vertex}(T)(..., priorities, ..., start)`: a queue over
    the vector `priorities` (of T, `delta`'s type) whose buckets are `delta` wide,
    holding `start` in its first bucket `[0, delta)`. Without `start` (GraphIt's
    `init_bucket`), every vertex starts in the bucket of its priority."""

    name = "frontier.pq_new"

    P: ClassVar = VarConstraint("P", PriorityConstr)
    priorities = prop_def(FlatSymbolRefAttrConstr)
    delta = operand_def(P)
    start = opt_operand_def(i32)
    fusion_threshold = opt_prop_def(IntegerAttr)
    """With bucket fusion: rounds whose bucket holds fewer vertices than this are
    run again without leaving the traversal (`frontier-bucket-fusion`)."""
    result = result_def(_queue_of(P))

    assembly_format = (
        "$priorities `,` $delta (`,` $start^)? (`fusion` `threshold` $fusion_threshold^)? "
        "attr-dict `:` type($result)"
    )

    def __init__(
        self,
        priorities: str,
        delta: SSAValue | Operation,
        start: SSAValue | Operation | None,
        fusion_threshold: int | None = None,
    ):
        super().__init__(
            operands=[delta, [] if start is None else [start]],
            properties={
                "priorities": SymbolRefAttr(priorities),
                "fusion_threshold": None
                if fusion_threshold is None
                else IntegerAttr(fusion_threshold, i64),
            },
            result_types=[PriorityQueueType(SSAValue.get(delta).type)],
        )


@irdl_op_definition
class PriorityQueueFinishedOp(IRDLOperation):
    """`pq.finished()`: true when no vertex is waiting in any bucket. When the
    current bucket is empty it first moves the queue to the next non-empty one."""

    name = "frontier.pq_finished"

    queue = operand_def(PriorityQueueType)
    result = result_def(i1)

    assembly_format = "$queue attr-dict `:` type($queue)"

    def __init__(self, queue: SSAValue | Operation):
        super().__init__(operands=[queue], result_types=[i1])


@irdl_op_definition
class PriorityQueueFinishedNodeOp(IRDLOperation):
    """`pq.finishedNode(v)`: true when `v`'s priority is final: the queue is
    finished, or the priority lies below the current bucket's lowest priority
    (the buckets below it are empty and an update never lowers a priority
    beneath the bucket being processed). Like `pq_finished`, it first moves an
    empty current bucket to the next non-empty one. `v` is a vertex or an id."""

    name = "frontier.pq_finished_node"

    queue = operand_def(PriorityQueueType)
    vertex = operand_def(VertexType | IntegerType)
    result = result_def(i1)

    assembly_format = "$queue `,` $vertex attr-dict `:` type($queue) `,` type($vertex)"

    def __init__(self, queue: SSAValue | Operation, vertex: SSAValue | Operation):
        super().__init__(operands=[queue, vertex], result_types=[i1])


@irdl_op_definition
class PriorityQueueDequeueOp(IRDLOperation):
    """`pq.dequeue_ready_set()`: the vertices waiting in the current bucket, as a
    fresh queue; the bucket is empty afterwards. An empty current bucket is first
    moved to the next non-empty one, unless `current` (then the result may be
    empty: the next round of the current bucket, as bucket fusion runs it)."""

    name = "frontier.pq_dequeue"

    queue = operand_def(PriorityQueueType)
    current = opt_prop_def(UnitAttr)
    result = result_def(SparseQueueType)

    assembly_format = (
        "$queue (`current` $current^)? attr-dict `:` type($queue) `->` type($result)"
    )

    def __init__(self, queue: SSAValue | Operation, current: bool = False):
        super().__init__(
            operands=[queue],
            properties={"current": UnitAttr() if current else None},
            result_types=[SparseQueueType()],
        )


@irdl_op_definition
class PriorityQueueBucketSizeOp(IRDLOperation):
    """The number of vertices waiting in the current bucket (never moving to the
    next one): what bucket fusion compares with its threshold."""

    name = "frontier.pq_bucket_size"

    queue = operand_def(PriorityQueueType)
    result = result_def(i32)

    assembly_format = "$queue attr-dict `:` type($queue)"

    def __init__(self, queue: SSAValue | Operation):
        super().__init__(operands=[queue], result_types=[i32])


class _PriorityUpdate(IRDLOperation):
    """An update of a vertex's priority; only inside a traversal's apply region."""

    def verify_(self) -> None:
        parent = self.parent_op()
        while parent is not None and not isinstance(parent, EdgeTraverseOp):
            parent = parent.parent_op()
        if parent is None:
            raise VerifyException(f"{self.name} must be inside a frontier.edge_traverse")


class _PriorityBound(_PriorityUpdate):
    """An update of a vertex's priority towards a bound `new` (min or max)."""

    P: ClassVar = VarConstraint("P", PriorityConstr)
    queue = operand_def(_queue_of(P))
    vertex = operand_def(VertexType)
    new = operand_def(P)
    changed = result_def(i1)

    assembly_format = "$queue `,` $vertex `,` $new attr-dict `:` type($queue)"

    def __init__(
        self, queue: SSAValue | Operation, vertex: SSAValue | Operation, new: SSAValue | Operation
    ):
        super().__init__(operands=[queue, vertex, new], result_types=[i1])


@irdl_op_definition
class PriorityQueueUpdateMinOp(_PriorityBound):
    """`pq.updatePriorityMin(v, old, new)` in a traversal's apply region: lowers
    `v`'s priority to `new` atomically if that is smaller, and queues `v` in the
    current bucket when `new` falls in it (later buckets are found lazily, from
    the priorities, once the current one is empty); true if the priority changed."""

    name = "frontier.pq_update_min"


@irdl_op_definition
class PriorityQueueUpdateMaxOp(_PriorityBound):
    """`pq.updatePriorityMax(v, old, new)` in a traversal's apply region: raises
    `v`'s priority to `new` atomically if that is larger, and queues `v` in the
    current round when the new priority lies below the current bucket's end (a
    vertex raised past it is found lazily with its bucket); true if it changed."""

    name = "frontier.pq_update_max"


@irdl_op_definition
class PriorityQueueUpdateSumOp(_PriorityUpdate):
    """`pq.updatePrioritySum(v, diff, threshold)` in a traversal's apply region
    (GraphIt's k-core): when `v`'s priority is above `threshold`, adds `diff` to it
    atomically, never going below `threshold`, and queues `v` in the current
    bucket when the update moves it into that bucket from a later one (so a vertex
    is queued once per bucket however many updates it gets); true if it changed."""

    name = "frontier.pq_update_sum"

    P: ClassVar = VarConstraint("P", PriorityConstr)
    queue = operand_def(_queue_of(P))
    vertex = operand_def(VertexType)
    diff = operand_def(P)
    threshold = operand_def(P)
    changed = result_def(i1)

    assembly_format = "$queue `,` $vertex `,` $diff `,` $threshold attr-dict `:` type($queue)"

    def __init__(
        self,
        queue: SSAValue | Operation,
        vertex: SSAValue | Operation,
        diff: SSAValue | Operation,
        threshold: SSAValue | Operation,
    ):
        super().__init__(operands=[queue, vertex, diff, threshold], result_types=[i1])


@irdl_op_definition
class PriorityQueueCurrentPriorityOp(IRDLOperation):
    """`pq.get_current_priority()`: the lowest priority of the current bucket."""

    name = "frontier.pq_current_priority"

    P: ClassVar = VarConstraint("P", PriorityConstr)
    queue = operand_def(_queue_of(P))
    result = result_def(P)

    assembly_format = "$queue attr-dict `:` type($queue)"

    def __init__(self, queue: SSAValue | Operation):
        queue_type = SSAValue.get(queue).type
        assert isinstance(queue_type, PriorityQueueType)
        super().__init__(operands=[queue], result_types=[queue_type.priority_type])


@irdl_op_definition
class PriorityQueueFreeOp(IRDLOperation):
    """`delete pq`: releases the queue's storage; it is not used afterwards."""

    name = "frontier.pq_free"

    queue = operand_def(PriorityQueueType)

    assembly_format = "$queue attr-dict `:` type($queue)"

    def __init__(self, queue: SSAValue | Operation):
        super().__init__(operands=[queue])


PriorityQueueOps = (
    PriorityQueueNewOp,
    PriorityQueueFinishedOp,
    PriorityQueueFinishedNodeOp,
    PriorityQueueDequeueOp,
    PriorityQueueBucketSizeOp,
    PriorityQueueUpdateMinOp,
    PriorityQueueUpdateMaxOp,
    PriorityQueueUpdateSumOp,
    PriorityQueueCurrentPriorityOp,
    PriorityQueueFreeOp,
)

PriorityQueueUpdates = (
    PriorityQueueUpdateMinOp,
    PriorityQueueUpdateMaxOp,
    PriorityQueueUpdateSumOp,
)
"""The priority updates of a traversal's apply region."""


# ---------------------------------------------------------------------------
# Lists of frontiers (G2's list{vertexset}: Brandes' levels, kept for a backward pass)
# ---------------------------------------------------------------------------


@irdl_attr_definition
class ListType(ParametrizedAttribute, TypeAttribute):
    """A stack of sparse queues (`list{vertexset{Vertex}}`). A handle: the list ops
    change it in place. It owns copies of what was inserted, so a frontier stays
    the caller's (to free or reuse) after `frontier.list_insert`;
    `frontier-lower-lists` lowers it."""

    name = "frontier.list"


@irdl_op_definition
class ListNewOp(IRDLOperation):
    """`new list{vertexset{Vertex}}()`: an empty list."""

    name = "frontier.list_new"

    result = result_def(ListType)

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self):
        super().__init__(result_types=[ListType()])


@irdl_op_definition
class ListInsertOp(IRDLOperation):
    """`list.insert(set)` / `list.append(set)`: pushes a copy of the queue's
    vertices; the queue itself is not changed and stays the caller's."""

    name = "frontier.list_insert"

    list = operand_def(ListType)
    frontier = operand_def(SparseQueueType)

    assembly_format = "$list `,` $frontier attr-dict `:` type($frontier)"

    def __init__(self, stack: SSAValue | Operation, frontier: SSAValue | Operation):
        super().__init__(operands=[stack, frontier])


@irdl_op_definition
class ListRetrieveOp(IRDLOperation):
    """`list.retrieve(set)`: pops the last inserted queue into the storage of
    `into` (which is not used afterwards: the result shares its storage), or,
    without `into` (`list.pop()`), into fresh storage. Popping an empty list is
    a run-time error."""

    name = "frontier.list_retrieve"

    list = operand_def(ListType)
    into = opt_operand_def(SparseQueueType)
    result = result_def(SparseQueueType)

    assembly_format = "$list (`into` $into^)? attr-dict `:` type($result)"

    def __init__(self, stack: SSAValue | Operation, into: SSAValue | Operation | None = None):
        super().__init__(
            operands=[stack, [] if into is None else [into]],
            result_types=[SparseQueueType()],
        )


ListOps = (ListNewOp, ListInsertOp, ListRetrieveOp)


Frontier = Dialect(
    "frontier",
    [
        NewOp,
        AllVerticesOp,
        ConvertOp,
        SizeOp,
        AddOp,
        ClearOp,
        DedupOp,
        FreeOp,
        YieldOp,
        EdgeTraverseOp,
        VertexMapOp,
        EdgeMapOp,
        EnqueueOp,
        EdgeRangeOp,
        NeighborOp,
        EdgeWeightOp,
        ContainsOp,
        *PriorityQueueOps,
        *ListOps,
    ],
    [
        SparseQueueType,
        AllVerticesType,
        BoolmapType,
        BitmapType,
        LayoutAttr,
        PriorityQueueType,
        ListType,
    ],
)
"""The frontier/traversal level: frontier representations, traversals, vertex maps."""
