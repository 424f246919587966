"""The `host` dialect: the host function `@main` of gir's GPU level.

At the GPU level a `builtin.module` holds `gir_gpu.kernel`s (device code) and one
`func.func @main` that runs on the host: it reads the command line, loads the graph
onto the device, allocates, fills and copies device buffers, transfers single
elements, launches kernels, times and prints. Those host actions are this dialect's
ops; control flow and arithmetic on the host are `scf` and `arith`. Every host op
has a method of the runtime protocol that the printed host program calls.

```mlir
func.func @main() {
  %g = host.load_graph {argv = 1 : i64}
  %n = host.graph_size %g vertices : i32
  %row_ptr = host.graph_array %g row_ptr : memref<?xi32>
  %start = host.argv_int argv[2] : i32
  %parent = host.alloc %n : i32 -> memref<?xi32>
  host.bind_global %parent as "parent" : memref<?xi32>
  host.start_timer
  host.launch @bfs grid %grid block %block (%row_ptr, %parent, %n) : memref<?xi32>, memref<?xi32>, i32
  %t = host.stop_timer : f64
  host.print %t : f64
  func.return
}
```

Command line and output: `host.argv_int`, `host.print`, `host.start_timer`,
`host.stop_timer`; strings (`!host.string`): `host.argv_string`,
`host.string_constant`, `host.string_eq`, `host.string_to_int`. Graph: `host.load_graph`,
`host.graph_array`, `host.graph_size`.
Buffers: `host.alloc`, `host.free`, `host.fill`, `host.copy`, `host.read`,
`host.write`, `host.bind_global`. Kernels: `host.launch`. The user's host code:
`host.call_extern`. Lists of device arrays:
`host.list_new`, `host.list_push`, `host.list_pop`, and around a fused loop that
pushes or pops on the device, `host.list_export`, `host.list_import`. Partitioned
execution (docs/multi-gpu.md): `host.clone`, `host.allreduce`, `host.allgather`,
and `host.load_graph`'s `partitioned`.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import ClassVar

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    I64,
    AnyFloat,
    AnyFloatConstr,
    FlatSymbolRefAttrConstr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Block,
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
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import OpTrait, SymbolTable
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from gir.dialects.graph import (
    extern_declaration,
    verify_argv_index,
    verify_extern_apply,
    verify_reorder,
)
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
    StringType,
    NumberListType,
)
from gir.dialects.gir_gpu import (
    KernelOp,
    Scalar,
    buffer_type,
    element_type,
    is_persistent,
    verify_element,
)
from gir.ir_walk import walk
from gir.verifier import per_verification


class HostSide(OpTrait):
    """The op runs on the host: no `gir_gpu.kernel` may hold it."""

    def verify(self, op: Operation) -> None:
        parent = op.parent_op()
        while parent is not None:
            if isinstance(parent, KernelOp):
                raise VerifyException(
                    f"'{op.name}' is a host op: it cannot be inside a gir_gpu.kernel"
                )
            parent = parent.parent_op()


def _verify_buffer_type(op: Operation, buffer_value: SSAValue) -> None:
    """Raises unless `buffer_value` is a one-dimensional device buffer `memref<?xT>`
    of scalars."""
    type_ = buffer_value.type
    if not isinstance(type_, MemRefType) or type_ != buffer_type(type_.element_type):
        raise VerifyException(f"{op.name}: a device buffer is memref<?xT>, not {type_}")
    if not isinstance(type_.element_type, IntegerType | AnyFloat):
        raise VerifyException(
            f"{op.name}: device buffers hold integers or floats, not {type_.element_type}"
        )


# ---------------------------------------------------------------------------
# Command line, output and timing
# ---------------------------------------------------------------------------


@irdl_op_definition
class ArgvIntOp(IRDLOperation):
    """The program's N-th command-line argument as an integer (`atoi(argv[N])`), or
    as a float for a float result (`atof(argv[N])`)."""

    name = "host.argv_int"

    traits = traits_def(HostSide())

    index = prop_def(IntegerAttr[I64])
    vertex = opt_prop_def(UnitAttr)
    """The argument is a user's vertex id: read as its id in the loaded graph,
    which differs where the graph is reordered (`host.load_graph`'s `reorder`)."""
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
            raise VerifyException("host.argv_int: a vertex argument is an integer")


@irdl_op_definition
class StringConstantOp(StringConstantOpBase):
    """A string literal as a host value."""

    name = "host.string_constant"

    traits = traits_def(HostSide())


@irdl_op_definition
class ArgvStringOp(ArgvStringOpBase):
    """The program's N-th command-line argument as it was written."""

    name = "host.argv_string"

    traits = traits_def(HostSide())


@irdl_op_definition
class StringToIntOp(StringToIntOpBase):
    """A host string's text as an integer."""

    name = "host.string_to_int"

    traits = traits_def(HostSide())


@irdl_op_definition
class StringEqOp(StringEqOpBase):
    """Whether two host strings have the same text."""

    name = "host.string_eq"

    traits = traits_def(HostSide())


@irdl_op_definition
class NumberListNewOp(NumberListNewOpBase):
    """An empty host list of numbers."""

    name = "host.number_list_new"

    traits = traits_def(HostSide())


@irdl_op_definition
class NumberListAppendOp(NumberListAppendOpBase):
    """Appends a number to a host list."""

    name = "host.number_list_append"

    traits = traits_def(HostSide())


@irdl_op_definition
class NumberListPopOp(NumberListPopOpBase):
    """Removes and gives a host list's last number (a run-time error when empty)."""

    name = "host.number_list_pop"

    traits = traits_def(HostSide())


@irdl_op_definition
class NumberListSizeOp(NumberListSizeOpBase):
    """The number of items of a host list."""

    name = "host.number_list_size"

    traits = traits_def(HostSide())


@irdl_op_definition
class PrintOp(PrintOpBase):
    """Writes a host scalar, or the string `text`, and a newline to the program's
    output."""

    name = "host.print"

    traits = traits_def(HostSide())


@irdl_op_definition
class StartTimerOp(IRDLOperation):
    """Starts the program's timer (after the device finished all queued work)."""

    name = "host.start_timer"

    traits = traits_def(HostSide())

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_op_definition
class StopTimerOp(IRDLOperation):
    """Seconds since `host.start_timer`, measured after all queued device work
    finished."""

    name = "host.stop_timer"

    traits = traits_def(HostSide())

    result = result_def(AnyFloat)

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])


# ---------------------------------------------------------------------------
# Kernel launches
# ---------------------------------------------------------------------------


@irdl_op_definition
class CallExternOp(IRDLOperation):
    """Calls the user's host implementation of the `extern func` `callee`
    (`--host-extern FILE`) with `args`, in the declaration's order. A device
    buffer argument (a vertex vector) reaches the function as a host copy,
    copied back to the device after the call, whether or not it wrote it:

    ```mlir
    %r = host.call_extern @normalize(%rank, %n) : (memref<?xf32>, i32) -> f32
    ```
    """

    name = "host.call_extern"

    traits = traits_def(HostSide())

    callee = prop_def(FlatSymbolRefAttrConstr)
    args = var_operand_def()
    res = var_result_def()

    assembly_format = "$callee `(` $args `)` attr-dict `:` functional-type($args, $res)"

    def __init__(
        self, callee: str, args: Sequence[SSAValue | Operation], result_types: Sequence[Attribute]
    ):
        super().__init__(
            operands=[args], properties={"callee": SymbolRefAttr(callee)}, result_types=[result_types]
        )

    def declaration(self) -> func.FuncOp:
        """The `extern func` this op calls."""
        return extern_declaration(self, self.callee)

    def verify_(self) -> None:
        function_type = self.declaration().function_type
        actual = func.FunctionType.from_lists([a.type for a in self.args], [r.type for r in self.res])
        if actual != function_type:
            raise VerifyException(
                f"host.call_extern of '@{self.callee.root_reference.data}' is {actual}, "
                f"its declaration {function_type}"
            )


@irdl_op_definition
class ApplyExternOp(IRDLOperation):
    """Runs the user's host implementation of the `extern func` `callee` once
    per vertex (`over = "vertices"`, `args` = the vertex count) or once per edge
    in CSR order (`"edges"`, `args` = the vertex count and the loaded graph,
    whose host copy the edges are read from; a callee taking three parameters
    gets each edge's weight too), then the device buffers of the program's global vectors, one per name of `vectors`: each is
    copied to the host before the first call, visible to the function by that
    name while the apply runs, and copied back after the last call.

    ```mlir
    host.apply_extern @extern_src_add_one over "edges" (%n, %graph, %vector_a) vectors ["vector_a"] : i32, !host.graph, memref<?xf32>
    ```
    """

    name = "host.apply_extern"

    traits = traits_def(HostSide())

    callee = prop_def(FlatSymbolRefAttrConstr)
    over = prop_def(StringAttr)
    vectors = prop_def(ArrayAttr[StringAttr])
    args = var_operand_def()

    assembly_format = (
        "$callee `over` $over `(` $args `)` `vectors` $vectors attr-dict `:` type($args)"
    )

    def __init__(
        self,
        callee: str,
        over: str,
        args: Sequence[SSAValue | Operation],
        vectors: Sequence[str],
    ):
        super().__init__(
            operands=[args],
            properties={
                "callee": SymbolRefAttr(callee),
                "over": StringAttr(over),
                "vectors": ArrayAttr([StringAttr(name) for name in vectors]),
            },
        )

    def declaration(self) -> func.FuncOp:
        """The `extern func` this op applies."""
        return extern_declaration(self, self.callee)

    def graph_args(self) -> Sequence[SSAValue]:
        """The vertex count and, over edges, the graph."""
        return self.args[: len(self.args) - len(self.vectors.data)]

    def buffers(self) -> Sequence[SSAValue]:
        """The device buffers of the vectors, in the order of `vectors`."""
        return self.args[len(self.args) - len(self.vectors.data) :]

    def verify_(self) -> None:
        verify_extern_apply(self, self.callee, self.over.data)
        wanted = 1 if self.over.data == "vertices" else 2
        if len(self.args) != wanted + len(self.vectors.data):
            raise VerifyException(
                f"host.apply_extern over {self.over.data} takes {wanted} graph operand(s) "
                "and one buffer per vector"
            )
        if any(not isinstance(b.type, MemRefType) for b in self.buffers()):
            raise VerifyException("host.apply_extern: each vector is a device buffer")


@irdl_op_definition
class LaunchOp(IRDLOperation):
    """Runs `kernel` on a one-dimensional grid of `grid` blocks of `block` threads.
    Kernel launches are ordered; host reads wait for them.

    ```mlir
    host.launch @apply_s1 grid %g block %b (%row_ptr, %size) : memref<?xi32>, i32
    ```
    """

    name = "host.launch"

    traits = traits_def(HostSide())

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


PERSISTENT_THREADS_PER_SM = 1024
"""The most threads per multiprocessor a persistent kernel's grid takes. Every
grid barrier waits for every block, so a grid barrier costs more the more blocks
there are, while fused loops (high-diameter graphs) have little work per step: on
an H100 with 256-thread blocks, fused TWCE BFS on road:2048:2048 took 81.5 ms with
the 8 blocks per multiprocessor that fit and 62.3 ms with 4; fused CM
delta-stepping 83.2 and 79.6 ms (1 block: 54.0 and 133.9 ms)."""


@irdl_op_definition
class ResidentBlocksOp(IRDLOperation):
    """The grid of `block`-thread blocks a persistent `kernel` runs on: blocks per
    multiprocessor by occupancy, but at most `per_sm` (the schedule's
    `configBlocksPerSM`) or, without it, `PERSISTENT_THREADS_PER_SM` threads'
    worth, times the multiprocessors, queried when the program runs. Every block
    is resident at once, so the kernel can synchronize its grid without deadlock.
    0 where the target has no grid-wide synchronization (OpenCL).

    ```mlir
    %grid = host.resident_blocks @fused_s0 block %b
    %grid1 = host.resident_blocks @fused_s1 block %b per_sm 1
    ```
    """

    name = "host.resident_blocks"

    traits = traits_def(HostSide())

    kernel = prop_def(FlatSymbolRefAttrConstr)
    per_sm = opt_prop_def(IntegerAttr[I64])
    block = operand_def(i32)
    result = result_def(i32)

    assembly_format = "$kernel `block` $block (`per_sm` $per_sm^)? attr-dict"

    def __init__(self, kernel: str, block: SSAValue | Operation, per_sm: int | None = None):
        properties: dict[str, Attribute] = {"kernel": SymbolRefAttr(kernel)}
        if per_sm is not None:
            properties["per_sm"] = IntegerAttr(per_sm, i64)
        super().__init__(operands=[block], result_types=[i32], properties=properties)

    @property
    def blocks_per_sm(self) -> int:
        """The schedule's cap on blocks per multiprocessor; 0: gir's default
        (`PERSISTENT_THREADS_PER_SM` threads' worth)."""
        return 0 if self.per_sm is None else self.per_sm.value.data

    def verify_(self) -> None:
        kernel = SymbolTable.lookup_symbol(self, self.kernel)
        if not isinstance(kernel, KernelOp) or not is_persistent(kernel):
            raise VerifyException(
                f"'@{self.kernel.root_reference.data}' is not a persistent gir_gpu.kernel"
            )


# ---------------------------------------------------------------------------
# The graph
# ---------------------------------------------------------------------------


@irdl_attr_definition
class GraphType(ParametrizedAttribute, TypeAttribute):
    """The program's graph, loaded and resident on the device (host handle)."""

    name = "host.graph"


class GraphArray(StrEnum):
    """Device arrays of a loaded graph (int32 unless noted; the offsets have the
    module's edge index type, `edge_index_type`)."""

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
    CSC_DST = "csc_dst"
    """Destinations of the CSC-ordered edges (COO of the transpose), E entries."""
    OUT_DEGREES = "out_degrees"
    """Out-degree of each vertex, V entries."""
    # The edges tiled by destination range (G2's EdgeBlocking, the BLOCKED layout):
    # block k holds the edges into [k*size, (k+1)*size), in source order. These
    # arrays take the blocking size (`host.graph_array`'s `blocking_size`).
    BLOCK_OFFSETS = "block_offsets"
    """Where each block's edges begin, ceil(V/size)+1 entries (the last one E)."""
    BLOCKED_SRC = "blocked_src"
    """Sources of the blocked edges, E entries."""
    BLOCKED_DST = "blocked_dst"
    """Destinations of the blocked edges, E entries."""
    BLOCKED_WEIGHTS = "blocked_weights"
    """Weights of the blocked edges, E entries."""
    # The same tiling of the transpose (G2's EdgeBlocking pulling, the BLOCKED_CSC
    # layout): block k holds the edges out of [k*size, (k+1)*size), in
    # destination order.
    CSC_BLOCK_OFFSETS = "csc_block_offsets"
    """Where each block of the transpose's tiling begins, ceil(V/size)+1 entries."""
    CSC_BLOCKED_SRC = "csc_blocked_src"
    """Sources of the edges tiled by source, E entries."""
    CSC_BLOCKED_DST = "csc_blocked_dst"
    """Destinations of the edges tiled by source, E entries."""
    CSC_BLOCKED_WEIGHTS = "csc_blocked_weights"
    """Weights of the edges tiled by source, E entries."""


BY_DESTINATION_ARRAYS = (
    GraphArray.BLOCK_OFFSETS,
    GraphArray.BLOCKED_SRC,
    GraphArray.BLOCKED_DST,
    GraphArray.BLOCKED_WEIGHTS,
)
"""The edges tiled by destination range: offsets, sources, destinations, weights."""

BY_SOURCE_ARRAYS = (
    GraphArray.CSC_BLOCK_OFFSETS,
    GraphArray.CSC_BLOCKED_SRC,
    GraphArray.CSC_BLOCKED_DST,
    GraphArray.CSC_BLOCKED_WEIGHTS,
)
"""The edges tiled by source range: offsets, sources, destinations, weights."""

BLOCKED_ARRAYS = BY_DESTINATION_ARRAYS + BY_SOURCE_ARRAYS
"""The graph arrays that exist per blocking size."""

BLOCK_OFFSET_ARRAYS = (GraphArray.BLOCK_OFFSETS, GraphArray.CSC_BLOCK_OFFSETS)
"""The blocked arrays with one entry per block plus one (the others: per edge)."""

OFFSET_ARRAYS = (GraphArray.ROW_PTR, GraphArray.CSC_PTR, *BLOCK_OFFSET_ARRAYS)
"""The graph arrays of edge positions: their elements have the module's edge
index type (`edge_index_type`), the others are i32 (or the weight type)."""

EDGE_INDEX_WIDTH = "gir.edge_index_width"
"""The module attribute (an i64, 32 or 64; absent: 32) that says how wide the
program's edge indices are: the elements of `OFFSET_ARRAYS`, the graph's edge
count (`host.graph_size edges`), edge positions (`index` in kernels, printed
with this width) and the sums of degrees a load balance scans. Set once per
program before it is lowered (`gir.runtime.graph.memory.edge_index_width`
chooses it per graph, see docs/large-graphs.md); every pass and printer reads it
here."""


def edge_index_width(module: Operation) -> int:
    """The width (32 or 64) of the edge indices of `module` (see `EDGE_INDEX_WIDTH`)."""
    width = module.attributes.get(EDGE_INDEX_WIDTH)
    return width.value.data if isinstance(width, IntegerAttr) else 32


def set_edge_index_width(module: Operation, width: int) -> None:
    """Makes `module`'s edge indices `width` (32 or 64) bits wide, before lowering."""
    if width not in (32, 64):
        raise ValueError(f"edge indices are 32 or 64 bits wide, not {width}")
    if width == 32:
        module.attributes.pop(EDGE_INDEX_WIDTH, None)
    else:
        module.attributes[EDGE_INDEX_WIDTH] = IntegerAttr(width, i64)


def edge_index_type(module: Operation) -> IntegerType:
    """i32 or i64: the type of `module`'s edge offsets and edge counts."""
    return i64 if edge_index_width(module) == 64 else i32

WEIGHT_ARRAYS = (
    GraphArray.WEIGHTS,
    GraphArray.CSC_WEIGHTS,
    GraphArray.BLOCKED_WEIGHTS,
    GraphArray.CSC_BLOCKED_WEIGHTS,
)
"""The graph arrays of edge weights (of the edgeset's weight type, not always i32)."""


@irdl_attr_definition
class GraphArrayAttr(EnumAttribute[GraphArray], SpacedOpaqueSyntaxAttribute):
    """Which array of the graph a `host.graph_array` returns."""

    name = "host.graph_array_kind"


@irdl_op_definition
class LoadGraphOp(IRDLOperation):
    """Loads the graph named by the program's `argv[N]` (or a literal `path`),
    as GraphIt's `load` does, and copies it to the device. `reorder` names an
    ordering of `gir.reorder.ORDERINGS`: the device gets the graph relabelled by
    it (made once, cached with the graph), and the run maps vertex arguments
    (`host.argv_int ... vertex`) and returned vectors (`host.bind_global`'s
    `vertex_indexed`, `vertex_values`) between the user's ids and the new ones."""

    name = "host.load_graph"

    traits = traits_def(HostSide())

    argv = opt_prop_def(IntegerAttr[I64])
    path = opt_prop_def(StringAttr)
    weighted = opt_prop_def(UnitAttr)
    partitioned = opt_prop_def(UnitAttr)
    """Each device of a partitioned run gets its part of the edges
    (`gir.runtime.graph.partition`): set by `host-partition`."""
    reorder = opt_prop_def(StringAttr)
    result = result_def(GraphType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(
        self,
        *,
        argv: int | None = None,
        path: str | None = None,
        weighted: bool = False,
        partitioned: bool = False,
        reorder: str | None = None,
    ):
        super().__init__(
            properties={
                "argv": None if argv is None else IntegerAttr(argv, i64),
                "path": None if path is None else StringAttr(path),
                "weighted": UnitAttr() if weighted else None,
                "partitioned": UnitAttr() if partitioned else None,
                "reorder": None if reorder is None else StringAttr(reorder),
            },
            result_types=[GraphType()],
        )

    def verify_(self) -> None:
        if (self.argv is None) == (self.path is None):
            raise VerifyException("host.load_graph needs exactly one of argv or path")
        verify_argv_index(self, self.argv)
        verify_reorder(self, self.reorder)


@irdl_op_definition
class GraphArrayOp(IRDLOperation):
    """One device array of the loaded graph (see `GraphArray`). The blocked arrays
    (`BLOCKED_ARRAYS`) take the `blocking_size` they are tiled by, the others none.
    The offsets (`OFFSET_ARRAYS`) hold the module's edge index type (i64 in a
    module with `gir.edge_index_width = 64`), the others i32 or the weight type:

    ```mlir
    %src = host.graph_array %g blocked_src {blocking_size = 1024 : i64} : memref<?xi32>
    %row_ptr = host.graph_array %g row_ptr : memref<?xi64>   // 64-bit edge indices
    ```
    """

    name = "host.graph_array"

    traits = traits_def(HostSide())

    graph = operand_def(GraphType)
    array = prop_def(GraphArrayAttr)
    blocking_size = opt_prop_def(IntegerAttr[I64])
    result = result_def(MemRefType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$graph $array attr-dict `:` type($result)"

    def __init__(
        self,
        graph: SSAValue | Operation,
        array: GraphArray,
        blocking_size: int | None = None,
        element: Attribute = i32,
    ):
        super().__init__(
            operands=[graph],
            properties={
                "array": GraphArrayAttr(array),
                "blocking_size": None if blocking_size is None else IntegerAttr(blocking_size, i64),
            },
            result_types=[buffer_type(element)],
        )

    def verify_(self) -> None:
        _verify_buffer_type(self, self.result)
        blocked = self.array.data in BLOCKED_ARRAYS
        if blocked != (self.blocking_size is not None):
            raise VerifyException(
                f"host.graph_array: {self.array.data} "
                + ("needs a blocking_size" if blocked else "takes no blocking_size")
            )
        if self.blocking_size is not None and not 0 < self.blocking_size.value.data <= 2**31 - 1:
            raise VerifyException("host.graph_array: blocking_size must be in [1, 2^31-1]")
        if self.array.data in OFFSET_ARRAYS:
            module = self.get_toplevel_object()
            expected = buffer_type(edge_index_type(module))
            if self.result.type != expected:
                raise VerifyException(
                    f"host.graph_array: {self.array.data} is {expected} (the module's edge "
                    f"index type), not {self.result.type}"
                )
        elif self.array.data not in WEIGHT_ARRAYS and self.result.type != buffer_type(i32):
            raise VerifyException(
                f"host.graph_array: {self.array.data} is memref<?xi32>, not {self.result.type}"
            )


class GraphSize(StrEnum):
    """Counts of a loaded graph."""

    VERTICES = "vertices"
    EDGES = "edges"


@irdl_attr_definition
class GraphSizeAttr(EnumAttribute[GraphSize], SpacedOpaqueSyntaxAttribute):
    """What a `host.graph_size` counts."""

    name = "host.graph_size_kind"


@irdl_op_definition
class GraphSizeOp(IRDLOperation):
    """The number of vertices (i32) or edges (the module's edge index type, i32 or
    i64) of the loaded graph."""

    name = "host.graph_size"

    traits = traits_def(HostSide())

    graph = operand_def(GraphType)
    what = prop_def(GraphSizeAttr)
    result = result_def(IntegerType)

    assembly_format = "$graph $what attr-dict `:` type($result)"

    def __init__(self, graph: SSAValue | Operation, what: GraphSize, result_type: IntegerType = i32):
        """`result_type`: i32, or for the edges the module's edge index type."""
        super().__init__(
            operands=[graph],
            properties={"what": GraphSizeAttr(what)},
            result_types=[result_type],
        )

    def verify_(self) -> None:
        edges = self.what.data == GraphSize.EDGES
        expected = edge_index_type(self.get_toplevel_object()) if edges else i32
        if self.result.type != expected:
            what = "the module's edge index type" if edges else "the vertex count"
            raise VerifyException(
                f"host.graph_size: {self.what.data.value} is {expected} ({what}), not {self.result.type}"
            )


# ---------------------------------------------------------------------------
# Device buffers
# ---------------------------------------------------------------------------


@irdl_op_definition
class AllocOp(IRDLOperation):
    """Allocates a device buffer of `count` elements (contents undefined)."""

    name = "host.alloc"

    traits = traits_def(HostSide())

    count = operand_def(IntegerType)
    result = result_def(MemRefType)

    assembly_format = "$count attr-dict `:` type($count) `->` type($result)"

    def __init__(self, count: SSAValue | Operation, element: Attribute):
        super().__init__(operands=[count], result_types=[buffer_type(element)])

    def verify_(self) -> None:
        _verify_buffer_type(self, self.result)


@irdl_op_definition
class FreeOp(IRDLOperation):
    """Releases a device buffer; it is not used afterwards."""

    name = "host.free"

    traits = traits_def(HostSide())

    buffer = operand_def(MemRefType)

    assembly_format = "$buffer attr-dict `:` type($buffer)"

    def __init__(self, buffer: SSAValue | Operation):
        super().__init__(operands=[buffer])

    def verify_(self) -> None:
        _verify_buffer_type(self, self.buffer)


@irdl_op_definition
class FillOp(IRDLOperation):
    """Sets the first `count` elements of a device buffer to `value`."""

    name = "host.fill"

    traits = traits_def(HostSide())

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
        _verify_buffer_type(self, self.buffer)
        verify_element(self, self.buffer, self.value)


@irdl_op_definition
class CopyOp(IRDLOperation):
    """Copies the first `count` elements of one device buffer into another."""

    name = "host.copy"

    traits = traits_def(HostSide())

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

    def verify_(self) -> None:
        _verify_buffer_type(self, self.source)


@irdl_op_definition
class ReadOp(IRDLOperation):
    """Copies one element of a device buffer to the host (waits for the device)."""

    name = "host.read"

    traits = traits_def(HostSide())

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
            result_types=[element_type(SSAValue.get(buffer))],
        )

    def verify_(self) -> None:
        _verify_buffer_type(self, self.buffer)
        verify_element(self, self.buffer, self.result)


@irdl_op_definition
class WriteOp(IRDLOperation):
    """Copies one host value into an element of a device buffer."""

    name = "host.write"

    traits = traits_def(HostSide())

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
        _verify_buffer_type(self, self.buffer)
        verify_element(self, self.buffer, self.value)


@irdl_op_definition
class BindGlobalOp(IRDLOperation):
    """Names a device buffer as the program's global vector `name`, so that tools
    can read it after the run (`gir-run --dump`)."""

    name = "host.bind_global"

    traits = traits_def(HostSide())

    buffer = operand_def(MemRefType)
    global_name = prop_def(StringAttr, prop_name="name")
    unsigned = opt_prop_def(UnitAttr)
    """The vector holds `uint` or `uint_64` elements: read back as unsigned."""
    vertex_indexed = opt_prop_def(UnitAttr)
    """A vector with one element per vertex of a reordered graph: read back in
    the user's vertex order."""
    vertex_values = opt_prop_def(UnitAttr)
    """A vector of vertex ids of a reordered graph: read back as the user's ids."""

    assembly_format = (
        "$buffer `as` $name (`unsigned` $unsigned^)? (`vertex_indexed` $vertex_indexed^)? "
        "(`vertex_values` $vertex_values^)? attr-dict `:` type($buffer)"
    )

    def __init__(
        self,
        buffer: SSAValue | Operation,
        name: str,
        unsigned: bool = False,
        *,
        vertex_indexed: bool = False,
        vertex_values: bool = False,
    ):
        super().__init__(
            operands=[buffer],
            properties={
                "name": StringAttr(name),
                "unsigned": UnitAttr() if unsigned else None,
                "vertex_indexed": UnitAttr() if vertex_indexed else None,
                "vertex_values": UnitAttr() if vertex_values else None,
            },
        )

    def verify_(self) -> None:
        _verify_buffer_type(self, self.buffer)
        scope = self.get_toplevel_object()
        first = per_verification((scope, BindGlobalOp), lambda: _first_bindings(scope)).get(
            self.global_name.data
        )
        if first is not None and first is not self:
            raise VerifyException(
                f"host.bind_global: the name '{self.global_name.data}' is already bound to "
                "another buffer (a program's global vectors have distinct names)"
            )


def _first_bindings(scope: Operation | Block | Region) -> dict[str, BindGlobalOp]:
    """The first `host.bind_global` of each name under `scope`."""
    first: dict[str, BindGlobalOp] = {}
    for op in walk(scope):
        if isinstance(op, BindGlobalOp):
            first.setdefault(op.global_name.data, op)
    return first


# ---------------------------------------------------------------------------
# Lists of device arrays (`frontier.list`)
# ---------------------------------------------------------------------------


def _verify_list_buffer(op: Operation, buffer: SSAValue) -> None:
    """Raises unless `buffer` is an i32 device buffer (what lists hold)."""
    _verify_buffer_type(op, buffer)
    if buffer.type != buffer_type(i32):
        raise VerifyException(f"{op.name}: lists hold i32 arrays, not {buffer.type}")


@irdl_attr_definition
class ListType(ParametrizedAttribute, TypeAttribute):
    """A host-side stack of i32 device arrays: one device buffer holding every
    pushed array back to back (grown by doubling when full) and, on the host, the
    offset where each ends. A handle that the ops below change in place."""

    name = "host.list"


@irdl_op_definition
class ListNewOp(IRDLOperation):
    """An empty list."""

    name = "host.list_new"

    traits = traits_def(HostSide())

    result = result_def(ListType)

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self):
        super().__init__(result_types=[ListType()])


@irdl_op_definition
class ListPushOp(IRDLOperation):
    """Copies the first `count` elements of a device buffer onto the end of the
    list's storage (device to device, queued) as its new last entry."""

    name = "host.list_push"

    traits = traits_def(HostSide())

    list = operand_def(ListType)
    buffer = operand_def(MemRefType)
    count = operand_def(IntegerType)

    assembly_format = "$list `,` $buffer `,` $count attr-dict `:` type($buffer) `,` type($count)"

    def __init__(
        self,
        stack: SSAValue | Operation,
        buffer: SSAValue | Operation,
        count: SSAValue | Operation,
    ):
        super().__init__(operands=[stack, buffer, count])

    def verify_(self) -> None:
        _verify_list_buffer(self, self.buffer)


@irdl_op_definition
class ListPopOp(IRDLOperation):
    """Copies the list's last entry into the start of a device buffer (queued),
    drops it from the list and returns its element count (host i32)."""

    name = "host.list_pop"

    traits = traits_def(HostSide())

    list = operand_def(ListType)
    buffer = operand_def(MemRefType)
    result = result_def(i32)

    assembly_format = "$list `,` $buffer attr-dict `:` type($buffer)"

    def __init__(self, stack: SSAValue | Operation, buffer: SSAValue | Operation):
        super().__init__(operands=[stack, buffer], result_types=[i32])

    def verify_(self) -> None:
        _verify_list_buffer(self, self.buffer)


class ListSlot(IntEnum):
    """The header of a list's device view (`host.list_export`): an i32 array whose
    first slots hold the list's state and the rest where each entry ends."""

    COUNT = 0
    """The number of entries."""
    STATUS = 1
    """0, or why a device step failed: `OVERFLOWED` or `EMPTIED`."""
    ITEM_CAPACITY = 2
    """Items the storage holds in all."""
    ENTRY_CAPACITY = 3
    """Entries the ends hold in all."""
    ENDS = 4
    """`ends[ENDS + i]`: where entry `i` ends in the storage."""


class ListStatus(IntEnum):
    """The values of `ListSlot.STATUS`."""

    OK = 0
    OVERFLOWED = 1
    """A push did not fit in the room the export made (and was dropped)."""
    EMPTIED = 2
    """A pop found the list empty (and gave an empty entry)."""


@irdl_op_definition
class ListExportOp(IRDLOperation):
    """Gives a list's state to device code that pushes and pops on its own: grows
    the storage to hold `room` more items and returns it, with a new device
    array of the list's header and ends (`ListSlot`) that has room for
    `room + 1` more entries (a loop that pushes one frontier a turn and stops on
    an empty one pushes at most that many when its frontiers never share a
    vertex). Device code must not grow either: what does not fit sets the
    status, which `host.list_import` reports. The last two results are the
    element counts of the storage and of the device array."""

    name = "host.list_export"

    traits = traits_def(HostSide())

    list = operand_def(ListType)
    room = operand_def(i32)
    storage = result_def(MemRefType)
    ends = result_def(MemRefType)
    storage_count = result_def(i32)
    ends_count = result_def(i32)

    assembly_format = "$list `room` $room attr-dict `:` type($storage) `,` type($ends)"

    def __init__(self, stack: SSAValue | Operation, room: SSAValue | Operation):
        super().__init__(
            operands=[stack, room], result_types=[buffer_type(i32), buffer_type(i32), i32, i32]
        )

    def count_of(self, buffer: SSAValue) -> SSAValue:
        """The element count of `buffer`, one of this op's two arrays."""
        return self.storage_count if buffer == self.storage else self.ends_count

    def verify_(self) -> None:
        _verify_list_buffer(self, self.storage)
        _verify_list_buffer(self, self.ends)


@irdl_op_definition
class ListImportOp(IRDLOperation):
    """Takes a list's state back from the device array that `host.list_export`
    made (one read of its header and ends), frees that array, and fails with a
    run-time error if a device step set the status."""

    name = "host.list_import"

    traits = traits_def(HostSide())

    list = operand_def(ListType)
    ends = operand_def(MemRefType)

    assembly_format = "$list `,` $ends attr-dict `:` type($ends)"

    def __init__(self, stack: SSAValue | Operation, ends: SSAValue | Operation):
        super().__init__(operands=[stack, ends])

    def verify_(self) -> None:
        _verify_list_buffer(self, self.ends)


# ---------------------------------------------------------------------------
# Partitioned execution: every device runs this host function on its part of
# the edges, with replicated vertex buffers these ops keep equal
# ---------------------------------------------------------------------------


@irdl_op_definition
class CloneOp(IRDLOperation):
    """A new device buffer holding a copy of `buffer` (all its elements, queued):
    the values before a partitioned launch that `host.allreduce` combines the
    launch's writes against.

    ```mlir
    %before = host.clone %rank : memref<?xf32>
    ```
    """

    name = "host.clone"

    traits = traits_def(HostSide())

    T: ClassVar = VarConstraint("T", base(MemRefType))
    buffer = operand_def(T)
    result = result_def(T)

    assembly_format = "$buffer attr-dict `:` type($buffer)"

    def __init__(self, buffer: SSAValue | Operation):
        super().__init__(operands=[buffer], result_types=[SSAValue.get(buffer).type])

    def verify_(self) -> None:
        _verify_buffer_type(self, self.buffer)


class Combine(StrEnum):
    """How `host.allreduce` combines the devices' copies of a buffer."""

    SUM = "sum"
    """`base + sum(copy - base)`: each device's writes are added (`+=`)."""
    MIN = "min"
    MAX = "max"
    UMIN = "umin"
    """The minimum of the integers read as unsigned."""
    UMAX = "umax"
    OR = "or"
    """Bitwise or (integers): bitmaps, boolmaps and flags."""
    CLAIM = "claim"
    """Where some device's copy differs from `base`, the first such device's
    value; else `base`: stores and compare-and-swaps that claim an element."""


COMBINES_WITH_BASE = (Combine.SUM, Combine.CLAIM)
"""The combines that need the values before the writes. The others take them
optionally: with them, a run may exchange only the elements that changed."""


@irdl_attr_definition
class CombineAttr(EnumAttribute[Combine], SpacedOpaqueSyntaxAttribute):
    """The combine of a `host.allreduce`."""

    name = "host.combine"


class ExchangeFormat(StrEnum):
    """What a `host.allreduce` sends between the devices (docs/multi-gpu.md,
    "Exchange formats"). The result is the same in every format."""

    DENSE = "dense"
    """The whole vector, every element."""
    PAIRS = "pairs"
    """The elements each device changed (where its copy differs from the base)
    as (int32 index, value) pairs: for few changes."""
    BITMAP = "bitmap"
    """A bitmap of the changed elements (a bit an element, in 32-bit words)
    and their values in index order: for many changes, short of all."""
    AUTO = "auto"
    """Dense, pairs or bitmap, whichever the devices send the fewest bytes
    in, decided by the runtime at each exchange from the devices' counts of
    changed elements (which it gathers first)."""


@irdl_attr_definition
class ExchangeFormatAttr(EnumAttribute[ExchangeFormat], SpacedOpaqueSyntaxAttribute):
    """The exchange format of a `host.allreduce`."""

    name = "host.exchange_format"


EXCHANGE_FORMAT = "gir.exchange_format"
"""The module attribute (a string, an `ExchangeFormat`; absent: dense) that
`program->configExchange(NAME)` sets: the format `host-partition` gives every
all-reduce of the program when its pass option names none."""


def program_exchange_format(module: Operation) -> ExchangeFormat | None:
    """The exchange format the program's schedule asks for (`EXCHANGE_FORMAT`), if any."""
    chosen = module.attributes.get(EXCHANGE_FORMAT)
    return ExchangeFormat(chosen.data) if isinstance(chosen, StringAttr) else None


@irdl_op_definition
class AllReduceOp(IRDLOperation):
    """Makes every device's copy of `buffer` (all its elements) the `combine` of
    all the copies; `sum` and `claim` take the values every device held before
    its writes (`base`, equal on all devices). With one device: nothing.

    `exchange` (`ExchangeFormat`, dense when absent) says what the devices
    send: with a base (optional for the other combines), a device's writes are
    the elements where its copy differs from the base, so it may send those
    only (`pairs`, `bitmap`, or `auto`: whichever is fewer bytes) instead of
    the whole vector. `GIR_EXCHANGE_FORMAT` overrides it at run time.

    ```mlir
    host.allreduce %dist min : memref<?xi32>
    host.allreduce %pred claim base %before exchange auto : memref<?xi32>
    host.allreduce %rank sum base %before : memref<?xf32>
    ```
    """

    name = "host.allreduce"

    traits = traits_def(HostSide())

    T: ClassVar = VarConstraint("T", base(MemRefType))
    buffer = operand_def(T)
    base_values = opt_operand_def(T)
    combine = prop_def(CombineAttr)
    exchange = opt_prop_def(ExchangeFormatAttr)

    assembly_format = (
        "$buffer $combine (`base` $base_values^)? (`exchange` $exchange^)? attr-dict `:` type($buffer)"
    )

    def __init__(
        self,
        buffer: SSAValue | Operation,
        combine: Combine,
        base_values: SSAValue | Operation | None = None,
        exchange: ExchangeFormat = ExchangeFormat.DENSE,
    ):
        properties: dict[str, Attribute] = {"combine": CombineAttr(combine)}
        if exchange != ExchangeFormat.DENSE:
            properties["exchange"] = ExchangeFormatAttr(exchange)
        super().__init__(operands=[buffer, base_values], properties=properties)

    @property
    def format(self) -> ExchangeFormat:
        """The exchange format (dense when the op names none)."""
        return ExchangeFormat.DENSE if self.exchange is None else self.exchange.data

    def verify_(self) -> None:
        _verify_buffer_type(self, self.buffer)
        combine = self.combine.data
        if combine in COMBINES_WITH_BASE and self.base_values is None:
            raise VerifyException(f"host.allreduce: {combine} needs the values before the writes (base)")
        if self.format != ExchangeFormat.DENSE and self.base_values is None:
            raise VerifyException(
                f"host.allreduce: exchange {self.format} sends the changed elements and needs a base"
            )
        element = element_type(self.buffer)
        if combine in (Combine.OR, Combine.UMIN, Combine.UMAX) and not isinstance(element, IntegerType):
            raise VerifyException(f"host.allreduce: {combine} combines integers, not {element}")


@irdl_op_definition
class AllGatherOp(IRDLOperation):
    """Makes every device's queue the union of all devices' queues: `items`
    holds `count[0]` vertices on each device (the ones every device held before
    a partitioned launch appended, then its own); afterwards each holds the
    distinct vertices of all of them, ascending, at most as many as `items`
    has room for, and `count[0]` their number.

    With `claims`, each device's queue is the list of the vertices whose
    elements of each claimed buffer the launch changed on that device (the
    queue held nothing before it: `host-partition` proves both), and the
    claimed elements travel with the queue: each device sends its vertices
    with the buffers' values at them, and every device sets each buffer's
    element of each vertex of the union to the value of the lowest-numbered
    device whose queue holds it. That is what `host.allreduce claim` of the
    buffer gives (the first device that changed the element), in bytes
    proportional to the queues instead of the whole buffer, and without a
    clone.

    ```mlir
    host.allgather %next_items, %next_size : memref<?xi32>, memref<?xi32>
    host.allgather %next_items, %next_size claims(%pred : memref<?xi32>) : memref<?xi32>, memref<?xi32>
    ```
    """

    name = "host.allgather"

    traits = traits_def(HostSide())

    items = operand_def(MemRefType)
    count = operand_def(MemRefType)
    claims = var_operand_def(MemRefType)

    assembly_format = (
        "$items `,` $count (`claims` `(` $claims^ `:` type($claims) `)`)? attr-dict "
        "`:` type($items) `,` type($count)"
    )

    def __init__(
        self,
        items: SSAValue | Operation,
        count: SSAValue | Operation,
        claims: Sequence[SSAValue | Operation] = (),
    ):
        super().__init__(operands=[items, count, list(claims)])

    def verify_(self) -> None:
        _verify_list_buffer(self, self.items)
        _verify_list_buffer(self, self.count)
        for claimed in self.claims:
            _verify_buffer_type(self, claimed)
        if len(set(self.claims)) != len(self.claims):
            raise VerifyException("host.allgather: a buffer is claimed twice")
        if any(claimed in (self.items, self.count) for claimed in self.claims):
            raise VerifyException("host.allgather: the queue's own buffers cannot be claimed")


Host = Dialect(
    "host",
    [
        ArgvIntOp,
        ArgvStringOp,
        StringConstantOp,
        StringEqOp,
        StringToIntOp,
        PrintOp,
        StartTimerOp,
        StopTimerOp,
        CallExternOp,
        ApplyExternOp,
        LaunchOp,
        ResidentBlocksOp,
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
        ListNewOp,
        ListPushOp,
        ListPopOp,
        ListExportOp,
        ListImportOp,
        NumberListNewOp,
        NumberListAppendOp,
        NumberListPopOp,
        NumberListSizeOp,
        CloneOp,
        AllReduceOp,
        AllGatherOp,
    ],
    [
        GraphType,
        GraphArrayAttr,
        GraphSizeAttr,
        ListType,
        CombineAttr,
        ExchangeFormatAttr,
        StringType,
        NumberListType,
    ],
)
"""The host side of the GPU level: command line, output, timers, the graph, device
buffers and kernel launches."""
