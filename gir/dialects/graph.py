"""The `graph` dialect: GraphIt's algorithm language as IR.

This is gir's highest level. A GraphIt program becomes one `builtin.module` that
holds `graph.global` declarations (the program's `const` edgesets, vertexsets,
vertex-property vectors, scalars and priority queues), one `func.func` per GraphIt
function (user-defined functions, UDFs, and `main`), and nothing else. Scalars use
`arith` and `math`, control flow uses `scf`; everything graph-shaped is an op here.

Vertex-property vectors are only ever globals, named by symbol (`@parent`): every
read, write and reduction names the vector it touches, which is what the atomics
and change-tracking analyses need. Vertexsets, edgesets, priority queues and lists
are reference values: ops such as `graph.add_vertex` change the set they are given.

Schedules (`#graph.simple_schedule`, `#graph.hybrid_schedule`, see `schedule.py`)
are attached to labelled statements by the frontend; the verifier rejects options
that cannot apply to the op they are attached to.

```mlir
graph.global @parent : !graph.vector<i32>
func.func @updateEdge(%src : !graph.vertex, %dst : !graph.vertex) {
  %0 = graph.vertex_id %src
  graph.store %0, @parent[%dst] : i32
  func.return
}
...
%out = graph.edgeset_apply %edges from %frontier apply_modified @updateEdge
    {to_filter = @toFilter, tracked = @parent, dedup, label = "s0:s1"}
    : !graph.edgeset -> !graph.vertexset
```
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    AnyFloat,
    AnyFloatConstr,
    ArrayAttr,
    FlatSymbolRefAttrConstr,
    IntegerAttr,
    IntegerType,
    NoneType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    UnitAttr,
    VectorType as BuiltinVectorType,
    i1,
    i32,
    i64,
    I64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AnyAttr,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from gir.dialects.printing import (
    ArgvStringOpBase,
    NumberListAppendOpBase,
    NumberListNewOpBase,
    NumberListPopOpBase,
    NumberListSizeOpBase,
    PrintOpBase,
    StringConstantOpBase,
    StringEqOpBase,
    StringToIntOpBase,
)
from gir.dialects.schedule import (
    SCHEDULE_ATTRIBUTES,
    HybridScheduleAttr,
    SimpleScheduleAttr,
    Toggle,
)
from gir.ir_walk import walk

# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


@irdl_attr_definition
class VertexType(ParametrizedAttribute, TypeAttribute):
    """A vertex of the program's graph (GraphIt's `Vertex` element); its id is
    `graph.vertex_id`."""

    name = "graph.vertex"


@irdl_attr_definition
class EdgeSetType(ParametrizedAttribute, TypeAttribute):
    """An edgeset `edgeset{Edge}(Vertex, Vertex[, W])`: `!graph.edgeset` when
    unweighted, `!graph.edgeset<i32>` with weights of the given type."""

    name = "graph.edgeset"

    weight: Attribute

    def __init__(self, weight: Attribute | None = None):
        super().__init__(NoneType() if weight is None else weight)

    @property
    def is_weighted(self) -> bool:
        """Whether the edges carry a weight."""
        return not isinstance(self.weight, NoneType)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        if parser.parse_optional_punctuation("<") is None:
            return [NoneType()]
        weight = parser.parse_type()
        parser.parse_punctuation(">")
        return [weight]

    def print_parameters(self, printer: Printer) -> None:
        if self.is_weighted:
            printer.print_string("<")
            printer.print_attribute(self.weight)
            printer.print_string(">")

    def verify(self) -> None:
        if self.is_weighted and not isinstance(self.weight, IntegerType | AnyFloat):
            raise VerifyException("edge weights must be integers or floats")


@irdl_attr_definition
class VertexSetType(ParametrizedAttribute, TypeAttribute):
    """A set of vertices (`vertexset{Vertex}`), e.g. a frontier."""

    name = "graph.vertexset"


@irdl_attr_definition
class VectorType(ParametrizedAttribute, TypeAttribute):
    """A property vector: `!graph.vector<f32>` has one element per vertex
    (`vector{Vertex}(float)`); `!graph.vector<1 x i32>` has a fixed size
    (`vector[1](int)`). Each element may itself be a fixed-size vector of `lanes`
    scalars: `!graph.vector<vector<20xf32>>` is GraphIt's
    `vector{Vertex}(vector[20](float))` (collaborative filtering's latent
    factors), addressed one scalar at a time (`graph.load @v[%vertex][%lane]`).
    `element_type` is always the scalar; `lanes` is 0 for a scalar element.
    Buffers lay the lanes of one element out next to each other: element `i`,
    lane `l` is at `i * lanes + l` (`lane_count` scalars per element)."""

    name = "graph.vector"

    element_type: Attribute
    size: IntegerAttr
    lanes: IntegerAttr

    def __init__(self, element_type: Attribute, size: int = -1, lanes: int = 0):
        super().__init__(element_type, IntegerAttr(size, i64), IntegerAttr(lanes, i64))

    @property
    def per_vertex(self) -> bool:
        """Whether the vector is indexed by vertex (rather than fixed-size)."""
        return self.size.value.data < 0

    @property
    def lane_count(self) -> int:
        """Scalars per element: `K` for `vector[K](T)` elements, else 1."""
        return max(self.lanes.value.data, 1)

    @property
    def has_lanes(self) -> bool:
        """Whether each element is a fixed-size vector (accessed with a lane)."""
        return self.lanes.value.data > 0

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            size = parser.parse_optional_integer(allow_boolean=False)
            if size is not None:
                parser.parse_shape_delimiter()
            element = parser.parse_type()
        lanes = 0
        if isinstance(element, BuiltinVectorType):
            shape = element.get_shape()
            if len(shape) != 1 or element.get_num_scalable_dims():
                parser.raise_error("vector elements must be one-dimensional vector<KxT>")
            lanes, element = shape[0], element.element_type
        return [element, IntegerAttr(-1 if size is None else size, i64), IntegerAttr(lanes, i64)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        if not self.per_vertex:
            printer.print_string(f"{self.size.value.data} x ")
        if self.has_lanes:
            printer.print_string(f"vector<{self.lanes.value.data}x")
            printer.print_attribute(self.element_type)
            printer.print_string(">")
        else:
            printer.print_attribute(self.element_type)
        printer.print_string(">")

    def verify(self) -> None:
        if not isinstance(self.element_type, IntegerType | AnyFloat):
            raise VerifyException("vector elements must be integers or floats")
        if self.size.value.data == 0 or self.size.value.data < -1:
            raise VerifyException("a fixed-size vector needs a positive size")
        if self.lanes.value.data < 0:
            raise VerifyException("a vector element needs a positive number of lanes")


@irdl_attr_definition
class PriorityQueueType(ParametrizedAttribute, TypeAttribute):
    """A bucketed priority queue of vertices (`priority_queue{Vertex}(int)`),
    ordered by a per-vertex priority vector."""

    name = "graph.priority_queue"

    priority_type: Attribute

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            return [parser.parse_type()]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.priority_type)
        printer.print_string(">")


@irdl_attr_definition
class ListType(ParametrizedAttribute, TypeAttribute):
    """A stack of vertexsets (`list{vertexset{Vertex}}`), as Brandes' betweenness
    centrality keeps its frontiers."""

    name = "graph.list"


GlobalValueType = EdgeSetType | VertexSetType | PriorityQueueType | ListType
ScalarType = IntegerType | AnyFloat
IndexValue = VertexType | IntegerType

# ---------------------------------------------------------------------------
# Helpers for verifiers
# ---------------------------------------------------------------------------


def lookup(op: Operation, symbol: SymbolRefAttr) -> Operation | None:
    """The operation that `symbol` names, seen from `op` (None if undefined)."""
    return SymbolTable.lookup_symbol(op, symbol)


def lookup_function(op: Operation, symbol: SymbolRefAttr, role: str) -> func.FuncOp:
    """The function `symbol` names, or a verification error mentioning `role`."""
    target = lookup(op, symbol)
    if not isinstance(target, func.FuncOp):
        raise VerifyException(
            f"{role} '@{symbol.root_reference.data}' is not a function of the program"
        )
    return target


def extern_declaration(op: Operation, callee: SymbolRefAttr) -> func.FuncOp:
    """The `extern func` (a body-less `func.func`) `callee` names, or a
    verification error."""
    target = lookup(op, callee)
    if not isinstance(target, func.FuncOp) or not target.is_declaration:
        raise VerifyException(f"'@{callee.root_reference.data}' is not an extern function")
    return target


def verify_extern_apply(op: Operation, callee: SymbolRefAttr, over: str) -> None:
    """Raises unless `callee` is an extern function an apply over `over`
    ("vertices": one integer, a vertex id; "edges": two ids and optionally a
    weight) can run, with no output."""
    inputs = extern_declaration(op, callee).function_type
    params, outputs = inputs.inputs.data, inputs.outputs.data
    counts = (1,) if over == "vertices" else (2, 3) if over == "edges" else ()
    if not counts:
        raise VerifyException(f"{op.name}: applies over vertices or edges, not {over!r}")
    ids = params[:2] if over == "edges" else params
    if (
        len(params) not in counts
        or outputs
        or any(not isinstance(t, IntegerType) or t.width.data != 32 for t in ids)
    ):
        raise VerifyException(
            f"{op.name}: '@{callee.root_reference.data}' ({inputs}) cannot be applied over {over}"
        )


def lookup_vector(op: Operation, symbol: SymbolRefAttr) -> VectorType:
    """The type of the global vector `symbol` names, or a verification error."""
    target = lookup(op, symbol)
    if not isinstance(target, GlobalOp) or not isinstance(target.global_type, VectorType):
        raise VerifyException(
            f"'@{symbol.root_reference.data}' is not a global vector of the program"
        )
    return target.global_type


def _check_signature(
    function: func.FuncOp,
    role: str,
    inputs: Sequence[Attribute],
    outputs: Sequence[Attribute],
) -> None:
    actual = function.function_type
    if tuple(actual.inputs.data) != tuple(inputs) or tuple(actual.outputs.data) != tuple(
        outputs
    ):
        expected = f"({', '.join(map(str, inputs))}) -> ({', '.join(map(str, outputs))})"
        raise VerifyException(
            f"{role} '@{function.sym_name.data}' must have type {expected}, "
            f"got {actual}"
        )


def _writes_vector(function: func.FuncOp, vector: SymbolRefAttr) -> bool:
    return any(
        isinstance(op, StoreOp | ReduceOp | CompareAndSwapOp) and op.vector == vector
        for op in walk(function)
    )


def _lane(lane: SSAValue | Operation | None) -> list[SSAValue | Operation]:
    """The optional lane operand of a vector access, as its operand group."""
    return [] if lane is None else [lane]


def _verify_index(vector: VectorType, index: SSAValue, op_name: str) -> None:
    if vector.per_vertex and not isinstance(index.type, VertexType | IntegerType):
        raise VerifyException(f"{op_name} index must be a vertex or an integer")
    if not vector.per_vertex and not isinstance(index.type, IntegerType):
        raise VerifyException(f"{op_name} index into a fixed-size vector must be an integer")


# ---------------------------------------------------------------------------
# Globals and program inputs
# ---------------------------------------------------------------------------


VERTEX_COUNT = "graph.vertex_count"
"""An i32 attribute on `func.func @main` of a program that loads no graph: its
vertex count, from a program-level `const vertices : vertexset{Vertex} = new
vertexset{Vertex}(5);` (GraphIt's way of sizing the vertex vectors of such a
program). The vertex vectors and vertex sets of the program have that many
vertices; it has no edges."""


UNSIGNED_LITERAL = "graph.unsigned_literal"
"""A unit attribute on an integer `arith.constant` that the program wrote as an
unsigned value at or above 2^(width-1) (`18446744073709551615` as a `uint_64`,
`4294967295` as a `uint`): the IR's integers are signless, so the value is the
signed one of the same bits (-1); C printers spell it unsigned, `ULL`/`UL`/`u`,
cast back to the signless C type so that every use reads the same bits."""


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """A program-level `const` of GraphIt: an edgeset, vertexset, vector, scalar or
    priority queue. Vectors are allocated with one element per vertex of the
    program's graph; everything else is set by `graph.global_store` in `main`."""

    name = "graph.global"

    sym_name = prop_def(SymbolNameConstraint())
    global_type = prop_def(AnyAttr(), prop_name="type")
    unsigned = opt_prop_def(UnitAttr)
    """A vector of `uint` or `uint_64`: its elements are read as unsigned where
    the program's values leave the IR (`gir-run --dump`, `Program.run`)."""
    vertex_values = opt_prop_def(UnitAttr)
    """A vector whose elements are vertex ids (BFS's parents, CC's labels): in a
    reordered program they are mapped back to the user's ids where they leave it
    (set by `graph-map-vertex-ids`)."""
    supplied = opt_prop_def(UnitAttr)
    """A vector whose values the caller gives when the run starts (an export's
    vector parameter, or state an earlier export call left): bound, not zeroed."""

    traits = traits_def(SymbolOpInterface())

    assembly_format = (
        "$sym_name `:` $type (`unsigned` $unsigned^)? (`vertex_values` $vertex_values^)? "
        "(`supplied` $supplied^)? attr-dict"
    )

    def __init__(self, name: str, global_type: Attribute, unsigned: bool = False, supplied: bool = False):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "type": global_type,
                "unsigned": UnitAttr() if unsigned else None,
                "supplied": UnitAttr() if supplied else None,
            }
        )

    def verify_(self) -> None:
        if not isinstance(self.global_type, GlobalValueType | VectorType | ScalarType):
            raise VerifyException(
                f"global '@{self.sym_name.data}' has type {self.global_type}, "
                "which is not an edgeset, vertexset, vector, scalar, list or "
                "priority queue"
            )


@irdl_op_definition
class GlobalLoadOp(IRDLOperation):
    """Reads a non-vector global (an edgeset, vertexset, scalar or queue)."""

    name = "graph.global_load"

    global_name = prop_def(FlatSymbolRefAttrConstr, prop_name="global")
    result = result_def()

    assembly_format = "$global attr-dict `:` type($result)"

    def __init__(self, name: str | SymbolRefAttr, result_type: Attribute):
        ref = SymbolRefAttr(name) if isinstance(name, str) else name
        super().__init__(properties={"global": ref}, result_types=[result_type])

    def verify_(self) -> None:
        _verify_global_access(self, self.global_name, self.result.type)


@irdl_op_definition
class GlobalStoreOp(IRDLOperation):
    """Sets a non-vector global (initialization in `main`, or `pq = new ...`)."""

    name = "graph.global_store"

    value = operand_def()
    global_name = prop_def(FlatSymbolRefAttrConstr, prop_name="global")

    assembly_format = "$value `,` $global attr-dict `:` type($value)"

    def __init__(self, value: SSAValue | Operation, name: str | SymbolRefAttr):
        ref = SymbolRefAttr(name) if isinstance(name, str) else name
        super().__init__(operands=[value], properties={"global": ref})

    def verify_(self) -> None:
        _verify_global_access(self, self.global_name, self.value.type)


def _verify_global_access(
    op: Operation, symbol: SymbolRefAttr, value_type: Attribute
) -> None:
    target = lookup(op, symbol)
    name = symbol.root_reference.data
    if not isinstance(target, GlobalOp):
        raise VerifyException(f"'@{name}' is not a global of the program")
    if isinstance(target.global_type, VectorType):
        raise VerifyException(
            f"'@{name}' is a vector: use graph.load / graph.store on its elements"
        )
    if target.global_type != value_type:
        raise VerifyException(
            f"global '@{name}' has type {target.global_type}, not {value_type}"
        )


def verify_argv_index(op: Operation, index: IntegerAttr | None) -> None:
    """Raises unless the argv index of `op` (if it has one) is non-negative: a
    negative index would count from the end of the command line."""
    if index is not None and index.value.data < 0:
        raise VerifyException(f"{op.name}: argv index {index.value.data} is negative")


def verify_reorder(op: Operation, reorder: StringAttr | None) -> None:
    """Raises unless the reordering `op` names (if any) is a registered one."""
    if reorder is not None:
        # imported here: gir.reorder imports numpy, a sixth of every tool's start-up
        from gir.reorder import unknown_ordering

        refused = unknown_ordering(reorder.data)
        if refused is not None:
            raise VerifyException(f"{op.name}: {refused}")


@irdl_op_definition
class ArgvIntOp(IRDLOperation):
    """`atoi(argv[N])`: the program's N-th command-line argument as an integer
    (`atof` for a float result: a hybrid schedule's `"argv[N]"` threshold)."""

    name = "graph.argv_int"

    index = prop_def(IntegerAttr[I64])
    vertex = opt_prop_def(UnitAttr)
    """The argument is a vertex of the user's graph: in a program whose graph is
    reordered (`graph.load_edges`'s `reorder`), it is read as the vertex's id in
    the reordered graph (set by `graph-map-vertex-ids`)."""
    result = result_def(base(IntegerType) | AnyFloatConstr)

    assembly_format = "`argv` `[` $index `]` (`vertex` $vertex^)? attr-dict `:` type($result)"

    def __init__(self, index: int, result_type: Attribute = i32, vertex: bool = False):
        super().__init__(
            properties={"index": IntegerAttr(index, i64), "vertex": UnitAttr() if vertex else None},
            result_types=[result_type],
        )

    def verify_(self) -> None:
        verify_argv_index(self, self.index)
        if self.vertex is not None and not isinstance(self.result.type, IntegerType):
            raise VerifyException("graph.argv_int: a vertex argument is an integer")


@irdl_op_definition
class StringConstantOp(StringConstantOpBase):
    """A string literal as a value (`var name : string = "rmat";`)."""

    name = "graph.string_constant"


@irdl_op_definition
class NumberListNewOp(NumberListNewOpBase):
    """`new list{int}()`: an empty list of numbers."""

    name = "graph.number_list_new"


@irdl_op_definition
class NumberListAppendOp(NumberListAppendOpBase):
    """`l.append(x)`: `x` becomes the list's last item."""

    name = "graph.number_list_append"


@irdl_op_definition
class NumberListPopOp(NumberListPopOpBase):
    """`l.pop()`: removes and gives the list's last item."""

    name = "graph.number_list_pop"


@irdl_op_definition
class NumberListSizeOp(NumberListSizeOpBase):
    """`l.size()`: the number of items."""

    name = "graph.number_list_size"


@irdl_op_definition
class ArgvStringOp(ArgvStringOpBase):
    """The program's N-th command-line argument as it was written
    (`var name : string = argv[2];`)."""

    name = "graph.argv_string"


@irdl_op_definition
class CallExternOp(IRDLOperation):
    """A call from host code (`main`, or a function `main` calls) of an `extern
    func`, implemented by the user's host code (`--host-extern FILE`). The
    declaration's vector parameters take the vectors `vectors` names, in order,
    its other parameters the operands `args`, in order:

    ```mlir
    func.func private @normalize(!graph.vector<f32>, i32) -> f32
    %r = graph.call_extern @normalize(%n) vectors [@rank] : (i32) -> f32
    ```
    """

    name = "graph.call_extern"

    callee = prop_def(FlatSymbolRefAttrConstr)
    args = var_operand_def()
    vectors = prop_def(ArrayAttr[SymbolRefAttr])
    res = var_result_def()

    assembly_format = (
        "$callee `(` $args `)` `vectors` $vectors attr-dict `:` functional-type($args, $res)"
    )

    def __init__(
        self,
        callee: str,
        args: Sequence[SSAValue | Operation],
        vectors: Sequence[str],
        result_types: Sequence[Attribute],
    ):
        super().__init__(
            operands=[args],
            properties={
                "callee": SymbolRefAttr(callee),
                "vectors": ArrayAttr([SymbolRefAttr(name) for name in vectors]),
            },
            result_types=[result_types],
        )

    def declaration(self) -> func.FuncOp:
        """The `extern func` this op calls."""
        return extern_declaration(self, self.callee)

    def verify_(self) -> None:
        function_type = self.declaration().function_type
        inputs = function_type.inputs.data
        vectors = [t for t in inputs if isinstance(t, VectorType)]
        scalars = tuple(t for t in inputs if not isinstance(t, VectorType))
        if len(vectors) != len(self.vectors.data) or scalars != tuple(a.type for a in self.args):
            raise VerifyException(
                f"graph.call_extern of '@{self.callee.root_reference.data}' does not match its "
                f"declaration {function_type}"
            )
        for ref, wanted in zip(self.vectors.data, vectors, strict=True):
            if lookup_vector(self, ref) != wanted:
                raise VerifyException(f"vector '@{ref.root_reference.data}' is not {wanted}")
        if tuple(function_type.outputs.data) != tuple(r.type for r in self.res):
            raise VerifyException("graph.call_extern's results differ from the declaration's")


@irdl_op_definition
class ApplyExternOp(IRDLOperation):
    """`vertices.apply(f)` / `edges.apply(f)` of an `extern func` (GraphIt's
    `extern_vertexset_apply.gt`, `extern_simple_edgeset_apply.gt`): the user's
    host implementation of `callee` runs once per vertex of the graph (`over =
    "vertices"`: `f(v)`) or once per edge (`"edges"`: `f(src, dst[, weight])`,
    in CSR order), on the host, reading and writing the program's global
    vectors by their names, as GraphIt's C++ reads them (`extern float*
    vector_a;`):

    ```mlir
    graph.apply_extern @extern_src_add_one over "edges"
    ```
    """

    name = "graph.apply_extern"

    callee = prop_def(FlatSymbolRefAttrConstr)
    over = prop_def(StringAttr)

    assembly_format = "$callee `over` $over attr-dict"

    def __init__(self, callee: str, over: str):
        super().__init__(properties={"callee": SymbolRefAttr(callee), "over": StringAttr(over)})

    def verify_(self) -> None:
        verify_extern_apply(self, self.callee, self.over.data)


@irdl_op_definition
class StringToIntOp(StringToIntOpBase):
    """`atoi(s)` of a string value (`atoi(argv[N])` is `graph.argv_int`)."""

    name = "graph.string_to_int"


@irdl_op_definition
class StringEqOp(StringEqOpBase):
    """Whether two strings have the same text (`a == b`; `a != b` negates it)."""

    name = "graph.string_eq"


@irdl_op_definition
class LoadEdgesOp(IRDLOperation):
    """`load(argv[N])` or `load("file")`: reads the program's graph. The source is
    the command-line argument `argv` or the literal `path`. `reorder` names an
    ordering of `gir.reorder.ORDERINGS` (`program->configReorder(NAME)`): the
    program then runs on the graph relabelled by it, and `graph-map-vertex-ids`
    maps its vertex inputs and outputs between the user's ids and the new ones."""

    name = "graph.load_edges"

    argv = opt_prop_def(IntegerAttr)
    path = opt_prop_def(StringAttr)
    reorder = opt_prop_def(StringAttr)
    result = result_def(EdgeSetType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(
        self, result_type: EdgeSetType, *, argv: int | None = None, path: str | None = None
    ):
        super().__init__(
            properties={
                "argv": None if argv is None else IntegerAttr(argv, i64),
                "path": None if path is None else StringAttr(path),
            },
            result_types=[result_type],
        )

    def verify_(self) -> None:
        if (self.argv is None) == (self.path is None):
            raise VerifyException("graph.load_edges needs exactly one of argv or path")
        verify_argv_index(self, self.argv)
        verify_reorder(self, self.reorder)


# ---------------------------------------------------------------------------
# Vertices and vectors
# ---------------------------------------------------------------------------


@irdl_op_definition
class VertexIdOp(IRDLOperation):
    """The integer id of a vertex (GraphIt converts implicitly)."""

    name = "graph.vertex_id"

    vertex = operand_def(VertexType)
    result = result_def(IntegerType)

    assembly_format = "$vertex attr-dict `:` type($result)"

    def __init__(self, vertex: SSAValue | Operation, result_type: Attribute = i32):
        super().__init__(operands=[vertex], result_types=[result_type])


@irdl_op_definition
class ToVertexOp(IRDLOperation):
    """The vertex with the given integer id."""

    name = "graph.to_vertex"

    id = operand_def(IntegerType)
    result = result_def(VertexType)

    assembly_format = "$id attr-dict `:` type($id)"

    def __init__(self, vertex_id: SSAValue | Operation):
        super().__init__(operands=[vertex_id], result_types=[VertexType()])


class _VectorAccess(IRDLOperation):
    """Shared verification of ops that address `@vector[index]`, or
    `@vector[index][lane]` when the vector's elements are fixed-size vectors
    (the lane is an i32 in `[0, lanes)`)."""

    vector = prop_def(FlatSymbolRefAttrConstr)
    index = operand_def(IndexValue)
    lane = opt_operand_def(i32)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def element_type(self) -> Attribute:
        """The element type of the addressed vector."""
        return lookup_vector(self, self.vector).element_type

    def verify_(self) -> None:
        vector = lookup_vector(self, self.vector)
        _verify_index(vector, self.index, self.name)
        name = self.vector.root_reference.data
        if vector.has_lanes and self.lane is None:
            raise VerifyException(
                f"'@{name}' holds vector<{vector.lanes.value.data}x{vector.element_type}> "
                "elements: address one lane as @v[index][lane]"
            )
        if not vector.has_lanes and self.lane is not None:
            raise VerifyException(f"'@{name}' holds scalars: it has no lanes to address")
        for value in self._element_values():
            if value.type != vector.element_type:
                raise VerifyException(
                    f"'@{self.vector.root_reference.data}' holds "
                    f"{vector.element_type}, not {value.type}"
                )

    def _element_values(self) -> Sequence[SSAValue]:
        return ()


@irdl_op_definition
class LoadOp(_VectorAccess):
    """`vector[index]`: reads one element of a global vector."""

    name = "graph.load"

    result = result_def(ScalarType)

    assembly_format = (
        "$vector `[` $index `]` (`` `[` $lane^ `]`)? attr-dict `:` type($index) `->` type($result)"
    )

    def __init__(
        self,
        vector: str,
        index: SSAValue | Operation,
        result_type: Attribute,
        lane: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[index, _lane(lane)],
            properties={"vector": SymbolRefAttr(vector)},
            result_types=[result_type],
        )

    def _element_values(self) -> Sequence[SSAValue]:
        return (self.result,)


@irdl_op_definition
class StoreOp(_VectorAccess):
    """`vector[index] = value`: writes one element of a global vector. Plain and
    racy: the atomics pass decides where a GPU schedule needs an atomic instead."""

    name = "graph.store"

    value = operand_def(ScalarType)

    assembly_format = (
        "$value `,` $vector `[` $index `]` (`` `[` $lane^ `]`)? attr-dict "
        "`:` type($index) `,` type($value)"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        vector: str,
        index: SSAValue | Operation,
        lane: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[value, index, _lane(lane)],
            properties={"vector": SymbolRefAttr(vector)},
        )

    def _element_values(self) -> Sequence[SSAValue]:
        return (self.value,)


class ReduceKind(StrEnum):
    """GraphIt's reduction assignments: `min=`, `max=`, `+=`. Integers are
    signless, so `min=` and `max=` of `uint` and `uint_64` elements are their own
    kinds, `umin` and `umax`, which compare as unsigned (LLVM's `atomicrmw`
    names)."""

    MIN = "min"
    MAX = "max"
    ADD = "add"
    UMIN = "umin"
    UMAX = "umax"

    @property
    def is_unsigned(self) -> bool:
        """Whether the kind compares integers as unsigned."""
        return self in (ReduceKind.UMIN, ReduceKind.UMAX)

    @property
    def is_min(self) -> bool:
        """Whether the kind keeps the smaller value (`min` or `umin`)."""
        return self in (ReduceKind.MIN, ReduceKind.UMIN)


@irdl_attr_definition
class ReduceKindAttr(EnumAttribute[ReduceKind], SpacedOpaqueSyntaxAttribute):
    """The operator of a `graph.reduce`."""

    name = "graph.reduce_kind"


@irdl_op_definition
class ReduceOp(_VectorAccess):
    """`vector[index] min= value` (or `max=`, `+=`). The result is true when the
    element changed, which is what change tracking (`applyModified`) enqueues on.
    With `atomic`, the update is one indivisible read-modify-write. `clustered`
    (set by `graph-insert-atomics`) says that the threads updating one element
    usually run side by side: the index is the vertex a traversal iterates and
    its load balance spreads that vertex's edges over neighbouring threads."""

    name = "graph.reduce"

    kind = prop_def(ReduceKindAttr)
    value = operand_def(ScalarType)
    atomic = opt_prop_def(UnitAttr)
    clustered = opt_prop_def(UnitAttr)
    changed = result_def(i1)

    assembly_format = (
        "$kind $value `,` $vector `[` $index `]` (`` `[` $lane^ `]`)? (`atomic` $atomic^)? "
        "(`clustered` $clustered^)? attr-dict "
        "`:` type($index) `,` type($value)"
    )

    def __init__(
        self,
        kind: ReduceKind,
        value: SSAValue | Operation,
        vector: str,
        index: SSAValue | Operation,
        atomic: bool = False,
        lane: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[value, index, _lane(lane)],
            properties={
                "kind": ReduceKindAttr(kind),
                "vector": SymbolRefAttr(vector),
                "atomic": UnitAttr() if atomic else None,
            },
            result_types=[i1],
        )

    def _element_values(self) -> Sequence[SSAValue]:
        return (self.value,)


@irdl_op_definition
class CompareAndSwapOp(_VectorAccess):
    """GraphIt's `compare_and_swap(vector[index], expected, desired)`: stores
    `desired` if the element equals `expected`, atomically; true if it did."""

    name = "graph.compare_and_swap"

    T: ClassVar = VarConstraint("T", base(IntegerType) | AnyFloatConstr)
    expected = operand_def(T)
    desired = operand_def(T)
    success = result_def(i1)

    assembly_format = (
        "$vector `[` $index `]` (`` `[` $lane^ `]`)? `,` $expected `,` $desired attr-dict "
        "`:` type($index) `,` type($desired)"
    )

    def __init__(
        self,
        vector: str,
        index: SSAValue | Operation,
        expected: SSAValue | Operation,
        desired: SSAValue | Operation,
        lane: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[expected, desired, index, _lane(lane)],
            properties={"vector": SymbolRefAttr(vector)},
            result_types=[i1],
        )

    def _element_values(self) -> Sequence[SSAValue]:
        return (self.expected, self.desired)


@irdl_op_definition
class VectorFillOp(IRDLOperation):
    """`const v : vector{Vertex}(T) = value`: sets every element to `value`."""

    name = "graph.vector_fill"

    vector = prop_def(FlatSymbolRefAttrConstr)
    value = operand_def(ScalarType)

    assembly_format = "$vector `,` $value attr-dict `:` type($value)"

    def __init__(self, vector: str, value: SSAValue | Operation):
        super().__init__(operands=[value], properties={"vector": SymbolRefAttr(vector)})

    def verify_(self) -> None:
        element = lookup_vector(self, self.vector).element_type
        if element != self.value.type:
            raise VerifyException(
                f"cannot fill '@{self.vector.root_reference.data}' of {element} "
                f"with {self.value.type}"
            )


@irdl_op_definition
class OutDegreesOp(IRDLOperation):
    """`vector = edges.getOutDegrees()`: stores each vertex's out-degree."""

    name = "graph.out_degrees"

    edges = operand_def(EdgeSetType)
    vector = prop_def(FlatSymbolRefAttrConstr)

    assembly_format = "$edges `into` $vector attr-dict `:` type($edges)"

    def __init__(self, edges: SSAValue | Operation, vector: str):
        super().__init__(operands=[edges], properties={"vector": SymbolRefAttr(vector)})

    def verify_(self) -> None:
        vector = lookup_vector(self, self.vector)
        if not vector.per_vertex or not isinstance(vector.element_type, IntegerType):
            raise VerifyException(
                "getOutDegrees() needs a per-vertex integer vector, "
                f"'@{self.vector.root_reference.data}' is {vector}"
            )


@irdl_op_definition
class VectorReduceOp(IRDLOperation):
    """`v.sum()`, `v.max()`, `v.min()`: every element of a vector combined into
    one value, computed on the device (`gir_gpu.vector_reduce`). The sum of an
    empty vector is 0; its max and min are the operator's identity.

    ```mlir
    %total = graph.vector_reduce add @deg : i32
    ```
    """

    name = "graph.vector_reduce"

    kind = prop_def(ReduceKindAttr)
    vector = prop_def(FlatSymbolRefAttrConstr)
    result = result_def(ScalarType)

    assembly_format = "$kind $vector attr-dict `:` type($result)"

    def __init__(self, kind: ReduceKind, vector: str, result_type: Attribute):
        super().__init__(
            properties={"kind": ReduceKindAttr(kind), "vector": SymbolRefAttr(vector)},
            result_types=[result_type],
        )

    def verify_(self) -> None:
        element = lookup_vector(self, self.vector).element_type
        if element != self.result.type:
            raise VerifyException(
                f"'@{self.vector.root_reference.data}' holds {element}, not {self.result.type}"
            )
        if element == i1:
            raise VerifyException("bool vectors have no sum, max or min")
        if self.kind.data.is_unsigned and not isinstance(element, IntegerType):
            raise VerifyException(f"{self.kind.data.value} compares integers, not {element}")


@irdl_op_definition
class VectorCopyOp(IRDLOperation):
    """`target = source` of two vectors of one type: copies every element.

    ```mlir
    graph.vector_copy @old_rank, @new_rank
    ```
    """

    name = "graph.vector_copy"

    target = prop_def(FlatSymbolRefAttrConstr)
    source = prop_def(FlatSymbolRefAttrConstr)

    assembly_format = "$target `,` $source attr-dict"

    def __init__(self, target: str, source: str):
        super().__init__(
            properties={"target": SymbolRefAttr(target), "source": SymbolRefAttr(source)}
        )

    def verify_(self) -> None:
        target = lookup_vector(self, self.target)
        source = lookup_vector(self, self.source)
        if target != source:
            raise VerifyException(f"cannot copy a {source} into a {target}")


@irdl_op_definition
class IntersectNeighborsOp(IRDLOperation):
    """`intersectNeighbor(edges, src, dst)` (GraphIt's triangle counting): how
    many out-neighbours `w` of `src` in `edges` are out-neighbours of `dst`
    too, with `w <= dst`, as GraphIt's runtime counts them. On a symmetric
    graph without self loops, summed over the edges with `dst < src`, that is
    every triangle once (its vertices ordered src > dst > w).

    `method` names the registered set-intersection strategy
    (`gir.axes.INTERSECTIONS`: `merge`, `binary_search`); every one counts the
    same. `frontier-lower-intersections` lowers it over the sorted adjacency.

    ```mlir
    %n = graph.intersect_neighbors "merge" %edges[%src, %dst] : !graph.edgeset, !graph.vertex, !graph.vertex -> i64
    ```
    """

    name = "graph.intersect_neighbors"

    method = prop_def(StringAttr)
    edges = operand_def(EdgeSetType)
    src = operand_def(IndexValue)
    dst = operand_def(IndexValue)
    result = result_def(IntegerType)

    assembly_format = (
        "$method $edges `[` $src `,` $dst `]` attr-dict "
        "`:` type($edges) `,` type($src) `,` type($dst) `->` type($result)"
    )

    def __init__(
        self,
        edges: SSAValue | Operation,
        src: SSAValue | Operation,
        dst: SSAValue | Operation,
        method: str = "merge",
        result_type: Attribute = i64,
    ):
        super().__init__(
            operands=[edges, src, dst],
            properties={"method": StringAttr(method)},
            result_types=[result_type],
        )

    def verify_(self) -> None:
        from gir.axes import INTERSECTIONS

        method = self.method.data
        if method not in INTERSECTIONS:
            raise VerifyException(
                f"unknown intersection '{method}', expected one of {', '.join(INTERSECTIONS)}"
            )


# ---------------------------------------------------------------------------
# Edgesets and vertexsets
# ---------------------------------------------------------------------------


@irdl_op_definition
class GetVerticesOp(IRDLOperation):
    """`edges.getVertices()`: the set of all vertices of the graph."""

    name = "graph.get_vertices"

    edges = operand_def(EdgeSetType)
    result = result_def(VertexSetType)

    assembly_format = "$edges attr-dict `:` type($edges)"

    def __init__(self, edges: SSAValue | Operation):
        super().__init__(operands=[edges], result_types=[VertexSetType()])


@irdl_op_definition
class TransposeOp(IRDLOperation):
    """`edges.transpose()`: the edgeset with every edge reversed."""

    name = "graph.transpose"

    T: ClassVar = VarConstraint("T", base(EdgeSetType))
    edges = operand_def(T)
    result = result_def(T)

    assembly_format = "$edges attr-dict `:` type($edges)"

    def __init__(self, edges: SSAValue | Operation):
        super().__init__(operands=[edges], result_types=[edges_type(edges)])


def edges_type(value: SSAValue | Operation) -> Attribute:
    """The type of an SSA value or of an operation's single result."""
    return SSAValue.get(value).type


@irdl_op_definition
class VertexSetNewOp(IRDLOperation):
    """`new vertexset{Vertex}(n)`: a set holding vertices 0..n-1 (empty for 0).
    Its capacity is the graph's vertex count."""

    name = "graph.vertexset_new"

    count = operand_def(IntegerType)
    result = result_def(VertexSetType)

    assembly_format = "$count attr-dict `:` type($count)"

    def __init__(self, count: SSAValue | Operation):
        super().__init__(operands=[count], result_types=[VertexSetType()])


@irdl_op_definition
class VertexSetSizeOp(IRDLOperation):
    """`set.getVertexSetSize()` / `set.size()`: the number of vertices in a set."""

    name = "graph.vertexset_size"

    set = operand_def(VertexSetType)
    result = result_def(IntegerType)

    assembly_format = "$set attr-dict `:` type($result)"

    def __init__(self, vertex_set: SSAValue | Operation, result_type: Attribute = i32):
        super().__init__(operands=[vertex_set], result_types=[result_type])


@irdl_op_definition
class AddVertexOp(IRDLOperation):
    """`set.addVertex(v)`: inserts a vertex (by id) into a set."""

    name = "graph.add_vertex"

    set = operand_def(VertexSetType)
    vertex = operand_def(IndexValue)

    assembly_format = "$set `,` $vertex attr-dict `:` type($vertex)"

    def __init__(self, vertex_set: SSAValue | Operation, vertex: SSAValue | Operation):
        super().__init__(operands=[vertex_set, vertex])


@irdl_op_definition
class DeleteOp(IRDLOperation):
    """`delete x`: releases a vertexset or priority queue; it is not used after."""

    name = "graph.delete"

    value = operand_def(VertexSetType | PriorityQueueType)

    assembly_format = "$value attr-dict `:` type($value)"

    def __init__(self, value: SSAValue | Operation):
        super().__init__(operands=[value])


def _verify_vertex_udf(op: Operation, symbol: SymbolRefAttr, role: str, returns_bool: bool) -> None:
    function = lookup_function(op, symbol, role)
    _check_signature(function, role, [VertexType()], [i1] if returns_bool else [])


@irdl_op_definition
class VertexSetApplyOp(IRDLOperation):
    """`set.apply(f)`: calls `f(v)` for every vertex of the set, in parallel."""

    name = "graph.vertexset_apply"

    set = operand_def(VertexSetType)
    udf = prop_def(FlatSymbolRefAttrConstr)
    label = opt_prop_def(StringAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$set `,` $udf attr-dict"

    def __init__(self, vertex_set: SSAValue | Operation, udf: str, label: str | None = None):
        super().__init__(
            operands=[vertex_set],
            properties={
                "udf": SymbolRefAttr(udf),
                "label": None if label is None else StringAttr(label),
            },
        )

    def verify_(self) -> None:
        _verify_vertex_udf(self, self.udf, "vertex function", returns_bool=False)


@irdl_op_definition
class VertexSetFilterOp(IRDLOperation):
    """`set.filter(f)` (GraphIt's `where`): the vertices `v` of the set for which
    `f(v)` is true, as a new set."""

    name = "graph.vertexset_filter"

    set = operand_def(VertexSetType)
    filter = prop_def(FlatSymbolRefAttrConstr)
    label = opt_prop_def(StringAttr)
    result = result_def(VertexSetType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$set `,` $filter attr-dict"

    def __init__(self, vertex_set: SSAValue | Operation, filter_fn: str, label: str | None = None):
        super().__init__(
            operands=[vertex_set],
            properties={
                "filter": SymbolRefAttr(filter_fn),
                "label": None if label is None else StringAttr(label),
            },
            result_types=[VertexSetType()],
        )

    def verify_(self) -> None:
        _verify_vertex_udf(self, self.filter, "filter function", returns_bool=True)


class ApplyKind(StrEnum):
    """Which GraphIt apply an `edgeset_apply` is."""

    APPLY = "apply"
    APPLY_MODIFIED = "apply_modified"
    APPLY_UPDATE_PRIORITY = "apply_update_priority"


@irdl_attr_definition
class ApplyKindAttr(EnumAttribute[ApplyKind], SpacedOpaqueSyntaxAttribute):
    """`apply`, `applyModified` or `applyUpdatePriority`."""

    name = "graph.apply_kind"


@irdl_op_definition
class EdgeSetApplyOp(IRDLOperation):
    """`edges[.from(frontier)][.srcFilter(f)][.dstFilter(g)][.to(h)].apply*(udf)`.

    Calls `udf(src, dst[, weight])` for every edge whose source is in `from` (all
    sources if absent) and passes the filters. `to_filter` is re-checked against the
    current state; `src_filter`/`dst_filter` select edges statically.
    `apply_modified` returns the set of destinations whose element of the `tracked`
    vector the UDF changed (`dedup`: each at most once). `apply` with a UDF that
    returns an `i1` (GraphIt's bool edge function) returns the set of destinations
    for which it returned true, each once; with a UDF that returns nothing, nothing.
    `apply_update_priority` returns nothing: the UDF updates a priority queue.
    `schedule` is the G2 schedule of the statement labelled `label`.
    """

    name = "graph.edgeset_apply"

    edges = operand_def(EdgeSetType)
    frontier = opt_operand_def(VertexSetType)
    kind = prop_def(ApplyKindAttr)
    udf = prop_def(FlatSymbolRefAttrConstr)
    to_filter = opt_prop_def(FlatSymbolRefAttrConstr)
    src_filter = opt_prop_def(FlatSymbolRefAttrConstr)
    dst_filter = opt_prop_def(FlatSymbolRefAttrConstr)
    tracked = opt_prop_def(FlatSymbolRefAttrConstr)
    dedup = opt_prop_def(UnitAttr)
    label = opt_prop_def(StringAttr)
    schedule = opt_prop_def(SimpleScheduleAttr | HybridScheduleAttr)
    result = opt_result_def(VertexSetType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$edges (`from` $frontier^)? $kind $udf attr-dict `:` type($edges) "
        "(`->` type($result)^)?"
    )

    def __init__(
        self,
        edges: SSAValue | Operation,
        kind: ApplyKind,
        udf: str,
        *,
        frontier: SSAValue | Operation | None = None,
        to_filter: str | None = None,
        src_filter: str | None = None,
        dst_filter: str | None = None,
        tracked: str | None = None,
        dedup: bool = False,
        label: str | None = None,
        schedule: Attribute | None = None,
        returns_set: bool = False,
    ):
        """`returns_set`: an `apply` whose UDF returns an `i1` gives a vertexset
        (`apply_modified` always does)."""

        def ref(name: str | None) -> SymbolRefAttr | None:
            return None if name is None else SymbolRefAttr(name)

        super().__init__(
            operands=[edges, [] if frontier is None else [frontier]],
            properties={
                "kind": ApplyKindAttr(kind),
                "udf": SymbolRefAttr(udf),
                "to_filter": ref(to_filter),
                "src_filter": ref(src_filter),
                "dst_filter": ref(dst_filter),
                "tracked": ref(tracked),
                "dedup": UnitAttr() if dedup else None,
                "label": None if label is None else StringAttr(label),
                "schedule": schedule,
            },
            result_types=[
                [VertexSetType()] if kind == ApplyKind.APPLY_MODIFIED or returns_set else []
            ],
        )

    @property
    def edgeset_type(self) -> EdgeSetType:
        """The type of the traversed edgeset."""
        assert isinstance(self.edges.type, EdgeSetType)
        return self.edges.type

    def verify_(self) -> None:
        self._verify_udf()
        for role, symbol in (
            ("to filter", self.to_filter),
            ("source filter", self.src_filter),
            ("destination filter", self.dst_filter),
        ):
            if symbol is not None:
                _verify_vertex_udf(self, symbol, role, returns_bool=True)
        self._verify_kind()
        self._verify_schedule()

    def _verify_udf(self) -> None:
        function = lookup_function(self, self.udf, "edge function")
        vertex = VertexType()
        params = list(function.function_type.inputs.data)
        weighted = self.edgeset_type.is_weighted
        if len(params) == 3 and not weighted:
            raise VerifyException(
                f"edge function '@{function.sym_name.data}' takes a weight, but the "
                "edgeset is unweighted"
            )
        expected = [vertex, vertex] + ([self.edgeset_type.weight] if len(params) == 3 else [])
        filtered = self.kind.data == ApplyKind.APPLY and self.result is not None
        _check_signature(function, "edge function", expected, [i1] if filtered else [])

    def _verify_kind(self) -> None:
        modified = self.kind.data == ApplyKind.APPLY_MODIFIED
        if self.result is not None and self.kind.data == ApplyKind.APPLY_UPDATE_PRIORITY:
            raise VerifyException("apply_update_priority returns nothing")
        if modified and self.result is None:
            raise VerifyException("apply_modified returns a vertexset")
        if modified != (self.tracked is not None):
            raise VerifyException("apply_modified needs a tracked vector, and only it")
        if self.dedup is not None and not modified:
            raise VerifyException("dedup applies only to apply_modified")
        if self.tracked is not None:
            vector = lookup_vector(self, self.tracked)
            if not vector.per_vertex:
                raise VerifyException("the tracked vector must be a per-vertex vector")
            udf = lookup_function(self, self.udf, "edge function")
            if not _writes_vector(udf, self.tracked):
                raise VerifyException(
                    f"applyModified tracks '@{self.tracked.root_reference.data}', "
                    f"which edge function '@{udf.sym_name.data}' never writes"
                )

    def _verify_schedule(self) -> None:
        if self.schedule is None:
            return
        parts = (
            [self.schedule.first, self.schedule.second]
            if isinstance(self.schedule, HybridScheduleAttr)
            else [self.schedule]
        )
        priority = self.kind.data == ApplyKind.APPLY_UPDATE_PRIORITY
        for part in parts:
            if part.kernel_fusion.data == Toggle.ENABLED:
                raise VerifyException(
                    "kernel fusion applies to a while loop, not to an edgeset apply"
                )
            if not part.has_default_delta and not priority:
                raise VerifyException(
                    "delta applies only to applyUpdatePriority (a priority-queue apply)"
                )


# ---------------------------------------------------------------------------
# Priority queues and lists
# ---------------------------------------------------------------------------


@irdl_op_definition
class PriorityQueueNewOp(IRDLOperation):
    """`new priority_queue{Vertex}(T)(dup_within_bucket, dup_across_buckets,
    priorities, bucket_ordering, priority_ordering, init_bucket, start)`: a bucketed
    queue over the per-vertex `priorities` vector, holding `start` initially.
    GraphIt's constructor flags are kept as given."""

    name = "graph.pq_new"

    priorities = prop_def(FlatSymbolRefAttrConstr)
    dup_within_bucket = prop_def(IntegerAttr)
    dup_across_buckets = prop_def(IntegerAttr)
    bucket_ordering = prop_def(IntegerAttr)
    priority_ordering = prop_def(IntegerAttr)
    init_bucket = prop_def(IntegerAttr)
    start = operand_def(IndexValue)
    result = result_def(PriorityQueueType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$priorities `,` $start attr-dict `:` type($start) `->` type($result)"

    def __init__(
        self,
        priorities: str,
        start: SSAValue | Operation,
        priority_type: Attribute,
        flags: tuple[bool, bool, int, int, bool] = (False, False, 1, 2, False),
    ):
        within, across, bucket_order, priority_order, init_bucket = flags
        super().__init__(
            operands=[start],
            properties={
                "priorities": SymbolRefAttr(priorities),
                "dup_within_bucket": IntegerAttr(int(within), i1),
                "dup_across_buckets": IntegerAttr(int(across), i1),
                "bucket_ordering": IntegerAttr(bucket_order, i64),
                "priority_ordering": IntegerAttr(priority_order, i64),
                "init_bucket": IntegerAttr(int(init_bucket), i1),
            },
            result_types=[PriorityQueueType(priority_type)],
        )

    @property
    def starts_with_every_vertex(self) -> bool:
        """Whether every vertex starts in the bucket of its priority: with
        `init_bucket`, or with the start vertex -1 (GraphIt's "none", as its k-core
        app writes it, after Julienne's bucketing), rather than `start` alone."""
        if self.init_bucket.value.data:
            return True
        owner = self.start.owner
        if isinstance(owner, ToVertexOp):
            owner = owner.id.owner
        return (
            isinstance(owner, arith.ConstantOp)
            and isinstance(owner.value, IntegerAttr)
            and owner.value.value.data == -1
        )

    def verify_(self) -> None:
        vector = lookup_vector(self, self.priorities)
        assert isinstance(self.result.type, PriorityQueueType)
        if not vector.per_vertex or vector.element_type != self.result.type.priority_type:
            raise VerifyException(
                f"priority vector '@{self.priorities.root_reference.data}' must be a "
                f"per-vertex vector of {self.result.type.priority_type}"
            )


@irdl_op_definition
class UpdatePriorityOp(IRDLOperation):
    """`pq.updatePriorityMin(v, old, new)` (or `Max`): lowers `v`'s priority to
    `new` if that is smaller (larger) and moves it to its new bucket; true if the
    priority changed."""

    name = "graph.update_priority"

    queue = operand_def(PriorityQueueType)
    kind = prop_def(ReduceKindAttr)
    vertex = operand_def(IndexValue)
    T: ClassVar = VarConstraint("T", base(IntegerType) | AnyFloatConstr)
    old = operand_def(T)
    new = operand_def(T)
    changed = result_def(i1)

    assembly_format = (
        "$kind $queue `,` $vertex `,` $old `,` $new attr-dict "
        "`:` type($queue) `,` type($vertex) `,` type($new)"
    )

    def __init__(
        self,
        kind: ReduceKind,
        queue: SSAValue | Operation,
        vertex: SSAValue | Operation,
        old: SSAValue | Operation,
        new: SSAValue | Operation,
    ):
        super().__init__(
            operands=[queue, vertex, old, new],
            properties={"kind": ReduceKindAttr(kind)},
            result_types=[i1],
        )

    def verify_(self) -> None:
        if self.kind.data == ReduceKind.ADD:
            raise VerifyException("priorities are updated with min or max, not add")
        assert isinstance(self.queue.type, PriorityQueueType)
        for value in (self.old, self.new):
            if value.type != self.queue.type.priority_type:
                raise VerifyException(
                    f"priority values must be {self.queue.type.priority_type}, "
                    f"got {value.type}"
                )


@irdl_op_definition
class UpdatePrioritySumOp(IRDLOperation):
    """`pq.updatePrioritySum(v, diff, threshold)`: when `v`'s priority is above
    `threshold`, adds `diff` to it without going below `threshold` and moves `v`
    to its new bucket (GraphIt's k-core); true if the priority changed."""

    name = "graph.update_priority_sum"

    queue = operand_def(PriorityQueueType)
    vertex = operand_def(IndexValue)
    T: ClassVar = VarConstraint("T", base(IntegerType))
    diff = operand_def(T)
    threshold = operand_def(T)
    changed = result_def(i1)

    assembly_format = (
        "$queue `,` $vertex `,` $diff `,` $threshold attr-dict "
        "`:` type($queue) `,` type($vertex) `,` type($diff)"
    )

    def __init__(
        self,
        queue: SSAValue | Operation,
        vertex: SSAValue | Operation,
        diff: SSAValue | Operation,
        threshold: SSAValue | Operation,
    ):
        super().__init__(operands=[queue, vertex, diff, threshold], result_types=[i1])

    def verify_(self) -> None:
        assert isinstance(self.queue.type, PriorityQueueType)
        if self.diff.type != self.queue.type.priority_type:
            raise VerifyException(
                f"priority values must be {self.queue.type.priority_type}, "
                f"got {self.diff.type}"
            )


@irdl_op_definition
class DequeueReadySetOp(IRDLOperation):
    """`pq.dequeue_ready_set()`: removes and returns the vertices of the lowest
    non-empty bucket."""

    name = "graph.pq_dequeue_ready_set"

    queue = operand_def(PriorityQueueType)
    result = result_def(VertexSetType)

    assembly_format = "$queue attr-dict `:` type($queue)"

    def __init__(self, queue: SSAValue | Operation):
        super().__init__(operands=[queue], result_types=[VertexSetType()])


@irdl_op_definition
class PriorityQueueFinishedOp(IRDLOperation):
    """`pq.finished()`: true when no bucket holds a vertex."""

    name = "graph.pq_finished"

    queue = operand_def(PriorityQueueType)
    result = result_def(i1)

    assembly_format = "$queue attr-dict `:` type($queue)"

    def __init__(self, queue: SSAValue | Operation):
        super().__init__(operands=[queue], result_types=[i1])


@irdl_op_definition
class PriorityQueueFinishedNodeOp(IRDLOperation):
    """`pq.finishedNode(v)`: true when `v`'s priority is final, so no later
    round can change it: the queue is finished, or the priority lies below the
    bucket being processed (every lower bucket has been emptied). A vertex with
    no priority (the type's largest value) is final only once the queue is."""

    name = "graph.pq_finished_node"

    queue = operand_def(PriorityQueueType)
    vertex = operand_def(IndexValue)
    result = result_def(i1)

    assembly_format = "$queue `,` $vertex attr-dict `:` type($queue) `,` type($vertex)"

    def __init__(self, queue: SSAValue | Operation, vertex: SSAValue | Operation):
        super().__init__(operands=[queue, vertex], result_types=[i1])


@irdl_op_definition
class GetCurrentPriorityOp(IRDLOperation):
    """`pq.get_current_priority()`: the priority of the bucket last dequeued."""

    name = "graph.pq_current_priority"

    queue = operand_def(PriorityQueueType)
    result = result_def(ScalarType)

    assembly_format = "$queue attr-dict `:` type($queue) `->` type($result)"

    def __init__(self, queue: SSAValue | Operation):
        queue_type = SSAValue.get(queue).type
        assert isinstance(queue_type, PriorityQueueType)
        super().__init__(operands=[queue], result_types=[queue_type.priority_type])


@irdl_op_definition
class ListNewOp(IRDLOperation):
    """`new list{vertexset{Vertex}}()`: an empty stack of vertexsets."""

    name = "graph.list_new"

    result = result_def(ListType)

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[ListType()])


@irdl_op_definition
class ListInsertOp(IRDLOperation):
    """`list.insert(set)`: pushes a copy of the set's current contents."""

    name = "graph.list_insert"

    list = operand_def(ListType)
    set = operand_def(VertexSetType)

    assembly_format = "$list `,` $set attr-dict"

    def __init__(self, stack: SSAValue | Operation, vertex_set: SSAValue | Operation):
        super().__init__(operands=[stack, vertex_set])


@irdl_op_definition
class ListRetrieveOp(IRDLOperation):
    """`list.retrieve(set)`: pops the last inserted set into `set`'s storage, and
    `list.pop()` (no `set`): into a fresh set. The result is the popped set; the
    frontend makes it the variable's new value, so `set` is not used afterwards
    (a loop that retrieves carries the variable like any reassigned local)."""

    name = "graph.list_retrieve"

    list = operand_def(ListType)
    set = opt_operand_def(VertexSetType)
    result = result_def(VertexSetType)

    assembly_format = "$list (`into` $set^)? attr-dict"

    def __init__(
        self, stack: SSAValue | Operation, vertex_set: SSAValue | Operation | None = None
    ):
        super().__init__(
            operands=[stack, [] if vertex_set is None else [vertex_set]],
            result_types=[VertexSetType()],
        )


# ---------------------------------------------------------------------------
# Host utilities
# ---------------------------------------------------------------------------


@irdl_op_definition
class PrintOp(PrintOpBase):
    """`print x`: writes a scalar, or the string `text`, and a newline to stdout."""

    name = "graph.print"


@irdl_op_definition
class StartTimerOp(IRDLOperation):
    """`startTimer()`: starts the program's timer."""

    name = "graph.start_timer"

    assembly_format = "attr-dict"


@irdl_op_definition
class StopTimerOp(IRDLOperation):
    """`stopTimer()`: seconds since `startTimer()`, after all GPU work finished."""

    name = "graph.stop_timer"

    result = result_def(AnyFloat)

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])


Graph = Dialect(
    "graph",
    [
        GlobalOp,
        GlobalLoadOp,
        GlobalStoreOp,
        ArgvIntOp,
        ArgvStringOp,
        StringConstantOp,
        StringEqOp,
        StringToIntOp,
        NumberListNewOp,
        NumberListAppendOp,
        NumberListPopOp,
        NumberListSizeOp,
        CallExternOp,
        ApplyExternOp,
        LoadEdgesOp,
        VertexIdOp,
        ToVertexOp,
        LoadOp,
        StoreOp,
        ReduceOp,
        CompareAndSwapOp,
        VectorFillOp,
        OutDegreesOp,
        VectorReduceOp,
        VectorCopyOp,
        IntersectNeighborsOp,
        GetVerticesOp,
        TransposeOp,
        VertexSetNewOp,
        VertexSetSizeOp,
        AddVertexOp,
        DeleteOp,
        VertexSetApplyOp,
        VertexSetFilterOp,
        EdgeSetApplyOp,
        PriorityQueueNewOp,
        UpdatePriorityOp,
        UpdatePrioritySumOp,
        DequeueReadySetOp,
        PriorityQueueFinishedOp,
        PriorityQueueFinishedNodeOp,
        GetCurrentPriorityOp,
        ListNewOp,
        ListInsertOp,
        ListRetrieveOp,
        PrintOp,
        StartTimerOp,
        StopTimerOp,
    ],
    [
        VertexType,
        EdgeSetType,
        VertexSetType,
        VectorType,
        PriorityQueueType,
        ListType,
        ReduceKindAttr,
        ApplyKindAttr,
        *SCHEDULE_ATTRIBUTES,
    ],
)
"""The graph dialect: GraphIt's algorithm language plus G2 schedules."""
