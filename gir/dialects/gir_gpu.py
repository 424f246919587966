"""The `gir_gpu` dialect: what gir's target-neutral GPU level needs beyond xDSL's
`gpu`, `scf`, `arith`, `math` and `memref`.

The GPU level is a `builtin.module` holding `gir_gpu.kernel` functions (xDSL's
`gpu.module`/`gpu.func` have no readable syntax in 0.74, so kernels are gir's own
symbol ops, as are the thread coordinates `gir_gpu.id` and `gir_gpu.barrier`) and
one host function `func.func @main` (no
arguments; it reads the command line with `graph.argv_int` and prints with
`graph.print`). Device buffers are `memref<?xT>` values; kernels read and write them
with `memref.load` / `memref.store` (index operands) and update them atomically with
the ops below. The host launches kernels with `gir_gpu.launch` (i32 grid/block
sizes) and uses the host ops below for the graph, buffers and single-element
transfers. Printers in `gir/targets` turn this level into CUDA or OpenCL kernels
plus a host program.

Kernels: `gir_gpu.kernel` (ended by `gir_gpu.return`), launched by `gir_gpu.launch`.
Device-side ops: `gir_gpu.id`, `gir_gpu.barrier`, `gir_gpu.atomic_rmw`, `gir_gpu.atomic_cas`.
Host-side ops: `gir_gpu.load_graph`, `gir_gpu.graph_array`, `gir_gpu.graph_size`,
`gir_gpu.alloc`, `gir_gpu.fill`, `gir_gpu.copy`, `gir_gpu.read`, `gir_gpu.write`,
`gir_gpu.bind_global`, `gir_gpu.free`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    AnyFloat,
    AnyFloatConstr,
    FlatSymbolRefAttrConstr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute, parse_func_op_like, print_func_op_like
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

Scalar = base(IntegerType) | AnyFloatConstr
Index = base(IndexType) | base(IntegerType)


def buffer_type(element: Attribute) -> MemRefType:
    """The type of a one-dimensional device buffer of `element`s."""
    return MemRefType(element, [DYNAMIC_INDEX])


def _element_type(buffer: SSAValue) -> Attribute:
    assert isinstance(buffer.type, MemRefType)
    return buffer.type.element_type


def _verify_element(op: Operation, buffer: SSAValue, *values: SSAValue) -> None:
    element = _element_type(buffer)
    for value in values:
        if value.type != element:
            raise VerifyException(
                f"{op.name}: buffer holds {element}, value is {value.type}"
            )


# ---------------------------------------------------------------------------
# Kernels and launches
# ---------------------------------------------------------------------------


@irdl_op_definition
class KernelOp(IRDLOperation):
    """A GPU kernel: its body runs once per thread of a launch. Arguments are
    device buffers (`memref<?xT>`) and scalars; it returns nothing.

    ```mlir
    gir_gpu.kernel @apply_s1(%row_ptr: memref<?xi32>, %size: i32) {
      ...
      gir_gpu.return
    }
    ```
    """

    name = "gir_gpu.kernel"

    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    body = region_def("single_block")

    traits = traits_def(SymbolOpInterface(), IsolatedFromAbove())

    def __init__(self, name: str, arg_types: Sequence[Attribute], body: Region):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "function_type": FunctionType.from_lists(list(arg_types), []),
            },
            regions=[body],
        )

    @classmethod
    def parse(cls, parser: Parser) -> KernelOp:
        name, inputs, outputs, region, extra, _, _ = parse_func_op_like(
            parser, reserved_attr_names=("sym_name", "function_type")
        )
        if outputs:
            parser.raise_error("a kernel returns nothing")
        kernel = KernelOp(name, inputs, region)
        if extra is not None:
            kernel.attributes |= extra.data
        return kernel

    def print(self, printer: Printer) -> None:
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            self.attributes,
            reserved_attr_names=("sym_name", "function_type"),
        )

    def verify_(self) -> None:
        if self.function_type.outputs.data:
            raise VerifyException("a kernel returns nothing")
        block_types = tuple(arg.type for arg in self.body.block.args)
        if block_types != tuple(self.function_type.inputs.data):
            raise VerifyException("kernel arguments do not match its type")
        for arg_type in block_types:
            if not isinstance(arg_type, MemRefType | IntegerType | AnyFloat):
                raise VerifyException(
                    f"kernel arguments are buffers or scalars, not {arg_type}"
                )


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Ends a kernel's body."""

    name = "gir_gpu.return"

    traits = traits_def(IsTerminator(), HasParent(KernelOp))

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_op_definition
class LaunchOp(IRDLOperation):
    """Runs `kernel` on a one-dimensional grid of `grid` blocks of `block` threads
    (host side). Kernel launches are ordered; host reads wait for them.

    ```mlir
    gir_gpu.launch @apply_s1 grid %g block %b (%row_ptr, %size) : memref<?xi32>, i32
    ```
    """

    name = "gir_gpu.launch"

    kernel = prop_def(FlatSymbolRefAttrConstr)
    grid = operand_def(i32)
    block = operand_def(i32)
    args = var_operand_def()

    assembly_format = (
        "$kernel `grid` $grid `block` $block ` ` `(` $args `)` attr-dict (`:` type($args)^)?"
    )

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        kernel: str,
        grid: SSAValue | Operation,
        block: SSAValue | Operation,
        args: Sequence[SSAValue | Operation],
    ):
        super().__init__(
            operands=[grid, block, args], properties={"kernel": SymbolRefAttr(kernel)}
        )

    def verify_(self) -> None:
        kernel = SymbolTable.lookup_symbol(self, self.kernel)
        if not isinstance(kernel, KernelOp):
            raise VerifyException(
                f"'@{self.kernel.root_reference.data}' is not a gir_gpu.kernel"
            )
        expected = tuple(kernel.function_type.inputs.data)
        actual = tuple(arg.type for arg in self.args)
        if expected != actual:
            raise VerifyException(
                f"launch of '@{kernel.sym_name.data}' passes ({', '.join(map(str, actual))}), "
                f"kernel takes ({', '.join(map(str, expected))})"
            )


# ---------------------------------------------------------------------------
# Device side
# ---------------------------------------------------------------------------


class Dimension(StrEnum):
    """Thread-hierarchy coordinates of a one-dimensional launch."""

    THREAD = "thread"
    """The thread's index in its block."""
    BLOCK = "block"
    """The block's index in the grid."""
    BLOCK_DIM = "block_dim"
    """Threads per block."""
    GRID_DIM = "grid_dim"
    """Blocks in the grid."""
    GLOBAL = "global"
    """block * block_dim + thread."""


@irdl_attr_definition
class DimensionAttr(EnumAttribute[Dimension], SpacedOpaqueSyntaxAttribute):
    """Which coordinate a `gir_gpu.id` reads."""

    name = "gir_gpu.dimension"


@irdl_op_definition
class IdOp(IRDLOperation):
    """A coordinate of the executing thread, as an i32 (xDSL's `gpu.thread_id` and
    friends are `index`-typed and have no readable syntax in xDSL 0.74)."""

    name = "gir_gpu.id"

    dimension = prop_def(DimensionAttr)
    result = result_def(i32)

    assembly_format = "$dimension attr-dict"

    def __init__(self, dimension: Dimension):
        super().__init__(
            properties={"dimension": DimensionAttr(dimension)}, result_types=[i32]
        )


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """Waits until every thread of the block reached it (every thread must)."""

    name = "gir_gpu.barrier"

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


class AtomicKind(StrEnum):
    """Read-modify-write operators every target provides (float add and 64-bit
    operations may be emulated with compare-and-swap loops by a printer)."""

    ADD = "add"
    MIN = "min"
    MAX = "max"
    EXCH = "exch"
    OR = "or"


@irdl_attr_definition
class AtomicKindAttr(EnumAttribute[AtomicKind], SpacedOpaqueSyntaxAttribute):
    """The operator of a `gir_gpu.atomic_rmw`."""

    name = "gir_gpu.atomic_kind"


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """`old = buffer[index]; buffer[index] = old <kind> value`, indivisibly, in
    device code. Returns the old value (so `min` reports a change as old > value)."""

    name = "gir_gpu.atomic_rmw"

    T: ClassVar = VarConstraint("T", Scalar)
    kind = prop_def(AtomicKindAttr)
    buffer = operand_def(MemRefType)
    index = operand_def(Index)
    value = operand_def(T)
    old = result_def(T)

    assembly_format = (
        "$kind $value `,` $buffer `[` $index `]` attr-dict "
        "`:` type($value) `,` type($buffer) `,` type($index)"
    )

    def __init__(
        self,
        kind: AtomicKind,
        value: SSAValue | Operation,
        buffer: SSAValue | Operation,
        index: SSAValue | Operation,
    ):
        value = SSAValue.get(value)
        super().__init__(
            operands=[buffer, index, value],
            properties={"kind": AtomicKindAttr(kind)},
            result_types=[value.type],
        )

    def verify_(self) -> None:
        _verify_element(self, self.buffer, self.value)


@irdl_op_definition
class AtomicCASOp(IRDLOperation):
    """Compare-and-swap in device code: if `buffer[index] == expected` store
    `desired`; indivisibly. Returns the old value (success iff old == expected)."""

    name = "gir_gpu.atomic_cas"

    T: ClassVar = VarConstraint("T", Scalar)
    buffer = operand_def(MemRefType)
    index = operand_def(Index)
    expected = operand_def(T)
    desired = operand_def(T)
    old = result_def(T)

    assembly_format = (
        "$buffer `[` $index `]` `,` $expected `,` $desired attr-dict "
        "`:` type($buffer) `,` type($index) `,` type($desired)"
    )

    def __init__(
        self,
        buffer: SSAValue | Operation,
        index: SSAValue | Operation,
        expected: SSAValue | Operation,
        desired: SSAValue | Operation,
    ):
        expected = SSAValue.get(expected)
        super().__init__(
            operands=[buffer, index, expected, desired], result_types=[expected.type]
        )

    def verify_(self) -> None:
        _verify_element(self, self.buffer, self.expected, self.desired)


# ---------------------------------------------------------------------------
# Host side
# ---------------------------------------------------------------------------


@irdl_attr_definition
class GraphType(ParametrizedAttribute, TypeAttribute):
    """The program's graph, loaded and resident on the device (host handle)."""

    name = "gir_gpu.graph"


class GraphArray(StrEnum):
    """Device arrays of a loaded graph (int32 unless noted)."""

    ROW_PTR = "row_ptr"
    """CSR offsets, V+1 entries."""
    COL_IDX = "col_idx"
    """CSR destinations, E entries."""
    WEIGHTS = "weights"
    """CSR-ordered edge weights, E entries."""
    CSC_PTR = "csc_ptr"
    """CSC (in-edge) offsets, V+1 entries."""
    CSC_IDX = "csc_idx"
    """CSC sources, E entries."""
    CSC_WEIGHTS = "csc_weights"
    """CSC-ordered edge weights, E entries."""
    COO_SRC = "coo_src"
    """Sources of the CSR-ordered edges (COO), E entries."""
    OUT_DEGREES = "out_degrees"
    """Out-degree of each vertex, V entries."""


@irdl_attr_definition
class GraphArrayAttr(EnumAttribute[GraphArray], SpacedOpaqueSyntaxAttribute):
    """Which array of the graph a `gir_gpu.graph_array` returns."""

    name = "gir_gpu.graph_array_kind"


@irdl_op_definition
class LoadGraphOp(IRDLOperation):
    """Loads the graph named by the program's `argv[N]` (or a literal `path`),
    as GraphIt's `load` does, and copies it to the device. `transposed` makes the
    loaded edgeset the reverse graph (for `edges.transpose()`)."""

    name = "gir_gpu.load_graph"

    argv = opt_prop_def(IntegerAttr[I64])
    path = opt_prop_def(StringAttr)
    weighted = opt_prop_def(UnitAttr)
    result = result_def(GraphType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(
        self, *, argv: int | None = None, path: str | None = None, weighted: bool = False
    ):
        super().__init__(
            properties={
                "argv": None if argv is None else IntegerAttr(argv, i64),
                "path": None if path is None else StringAttr(path),
                "weighted": UnitAttr() if weighted else None,
            },
            result_types=[GraphType()],
        )

    def verify_(self) -> None:
        if (self.argv is None) == (self.path is None):
            raise VerifyException("gir_gpu.load_graph needs exactly one of argv or path")


@irdl_op_definition
class GraphArrayOp(IRDLOperation):
    """One device array of the loaded graph (see `GraphArray`)."""

    name = "gir_gpu.graph_array"

    graph = operand_def(GraphType)
    array = prop_def(GraphArrayAttr)
    result = result_def(MemRefType)

    assembly_format = "$graph $array attr-dict `:` type($result)"

    def __init__(self, graph: SSAValue | Operation, array: GraphArray):
        super().__init__(
            operands=[graph],
            properties={"array": GraphArrayAttr(array)},
            result_types=[buffer_type(i32)],
        )


class GraphSize(StrEnum):
    """Counts of a loaded graph."""

    VERTICES = "vertices"
    EDGES = "edges"


@irdl_attr_definition
class GraphSizeAttr(EnumAttribute[GraphSize], SpacedOpaqueSyntaxAttribute):
    """What a `gir_gpu.graph_size` counts."""

    name = "gir_gpu.graph_size_kind"


@irdl_op_definition
class GraphSizeOp(IRDLOperation):
    """The number of vertices or edges of the loaded graph."""

    name = "gir_gpu.graph_size"

    graph = operand_def(GraphType)
    what = prop_def(GraphSizeAttr)
    result = result_def(IntegerType)

    assembly_format = "$graph $what attr-dict `:` type($result)"

    def __init__(self, graph: SSAValue | Operation, what: GraphSize):
        super().__init__(
            operands=[graph],
            properties={"what": GraphSizeAttr(what)},
            result_types=[i32],
        )


@irdl_op_definition
class AllocOp(IRDLOperation):
    """Allocates a device buffer of `count` elements (contents undefined)."""

    name = "gir_gpu.alloc"

    count = operand_def(IntegerType)
    result = result_def(MemRefType)

    assembly_format = "$count attr-dict `:` type($count) `->` type($result)"

    def __init__(self, count: SSAValue | Operation, element: Attribute):
        super().__init__(operands=[count], result_types=[buffer_type(element)])


@irdl_op_definition
class FreeOp(IRDLOperation):
    """Releases a device buffer; it is not used afterwards."""

    name = "gir_gpu.free"

    buffer = operand_def(MemRefType)

    assembly_format = "$buffer attr-dict `:` type($buffer)"

    def __init__(self, buffer: SSAValue | Operation):
        super().__init__(operands=[buffer])


@irdl_op_definition
class FillOp(IRDLOperation):
    """Sets the first `count` elements of a device buffer to `value`."""

    name = "gir_gpu.fill"

    buffer = operand_def(MemRefType)
    value = operand_def(Scalar)
    count = operand_def(IntegerType)

    assembly_format = (
        "$buffer `,` $value `,` $count attr-dict "
        "`:` type($buffer) `,` type($value) `,` type($count)"
    )

    def __init__(
        self,
        buffer: SSAValue | Operation,
        value: SSAValue | Operation,
        count: SSAValue | Operation,
    ):
        super().__init__(operands=[buffer, value, count])

    def verify_(self) -> None:
        _verify_element(self, self.buffer, self.value)


@irdl_op_definition
class CopyOp(IRDLOperation):
    """Copies the first `count` elements of one device buffer into another."""

    name = "gir_gpu.copy"

    T: ClassVar = VarConstraint("T", base(MemRefType))
    source = operand_def(T)
    target = operand_def(T)
    count = operand_def(IntegerType)

    assembly_format = "$source `,` $target `,` $count attr-dict `:` type($source) `,` type($count)"

    def __init__(
        self,
        source: SSAValue | Operation,
        target: SSAValue | Operation,
        count: SSAValue | Operation,
    ):
        super().__init__(operands=[source, target, count])


@irdl_op_definition
class ReadOp(IRDLOperation):
    """Copies one element of a device buffer to the host (waits for the device)."""

    name = "gir_gpu.read"

    buffer = operand_def(MemRefType)
    index = operand_def(IntegerType)
    result = result_def(Scalar)

    assembly_format = (
        "$buffer `[` $index `]` attr-dict `:` type($buffer) `,` type($index) "
        "`->` type($result)"
    )

    def __init__(self, buffer: SSAValue | Operation, index: SSAValue | Operation):
        super().__init__(
            operands=[buffer, index],
            result_types=[_element_type(SSAValue.get(buffer))],
        )

    def verify_(self) -> None:
        _verify_element(self, self.buffer, self.result)


@irdl_op_definition
class WriteOp(IRDLOperation):
    """Copies one host value into an element of a device buffer."""

    name = "gir_gpu.write"

    value = operand_def(Scalar)
    buffer = operand_def(MemRefType)
    index = operand_def(IntegerType)

    assembly_format = (
        "$value `,` $buffer `[` $index `]` attr-dict "
        "`:` type($value) `,` type($buffer) `,` type($index)"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        buffer: SSAValue | Operation,
        index: SSAValue | Operation,
    ):
        super().__init__(operands=[value, buffer, index])

    def verify_(self) -> None:
        _verify_element(self, self.buffer, self.value)


@irdl_op_definition
class BindGlobalOp(IRDLOperation):
    """Names a device buffer as the program's global vector `name`, so that tools
    can read it after the run (`gir-run --dump`)."""

    name = "gir_gpu.bind_global"

    buffer = operand_def(MemRefType)
    global_name = prop_def(StringAttr, prop_name="name")

    assembly_format = "$buffer `as` $name attr-dict `:` type($buffer)"

    def __init__(self, buffer: SSAValue | Operation, name: str):
        super().__init__(operands=[buffer], properties={"name": StringAttr(name)})


GirGpu = Dialect(
    "gir_gpu",
    [
        KernelOp,
        ReturnOp,
        LaunchOp,
        IdOp,
        BarrierOp,
        AtomicRMWOp,
        AtomicCASOp,
        LoadGraphOp,
        GraphArrayOp,
        GraphSizeOp,
        AllocOp,
        FreeOp,
        FillOp,
        CopyOp,
        ReadOp,
        WriteOp,
        BindGlobalOp,
    ],
    [DimensionAttr, AtomicKindAttr, GraphType, GraphArrayAttr, GraphSizeAttr],
)
"""gir's extension of xDSL's GPU level: atomics and host-side graph/buffer ops."""
