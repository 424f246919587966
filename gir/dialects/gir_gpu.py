"""The `gir_gpu` dialect: the device side of gir's target-neutral GPU level, beyond
xDSL's `scf`, `arith`, `math` and `memref`.

The GPU level is a `builtin.module` holding `gir_gpu.kernel` functions (xDSL's
`gpu.module`/`gpu.func` have no readable syntax in 0.74, so kernels are gir's own
symbol ops, as are the thread coordinates `gir_gpu.id` and `gir_gpu.barrier`) and
one host function `func.func @main` written with the `host` dialect
(`gir.dialects.host`: command line, printing, timers, the graph, buffers, transfers
and `host.launch`). Device buffers are `memref<?xT>` values; kernels read and write
them with `memref.load` / `memref.store` (index operands) and update them atomically
with the ops below. Printers in `gir/targets` turn this level into CUDA or OpenCL
kernels plus a host program; the host program printed as Python calls the runtime
protocol `gir.runtime.protocol.HostRuntime`, one method per host op, keyed by the
host dialect's enums (`GraphArray`, `GraphSize`) and the buffers' `DType`.

Kernels: `gir_gpu.kernel` (ended by `gir_gpu.return`), launched by `host.launch`.
Device-side ops: `gir_gpu.id`, `gir_gpu.barrier`, `gir_gpu.atomic_rmw`, `gir_gpu.atomic_cas`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    AnyFloatConstr,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    StringAttr,
    SymbolNameConstraint,
    i32,
)
from xdsl.dialects.utils import EnumAttribute, parse_func_op_like, print_func_op_like
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    Region,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

Scalar = base(IntegerType) | AnyFloatConstr
Index = base(IndexType) | base(IntegerType)


def buffer_type(element: Attribute) -> MemRefType:
    """The type of a one-dimensional device buffer of `element`s."""
    return MemRefType(element, [DYNAMIC_INDEX])


def element_type(buffer: SSAValue) -> Attribute:
    """The element type of a device buffer value."""
    assert isinstance(buffer.type, MemRefType)
    return buffer.type.element_type


def verify_element(op: Operation, buffer: SSAValue, *values: SSAValue) -> None:
    """Raises unless every one of `values` has the element type of `buffer`."""
    element = element_type(buffer)
    for value in values:
        if value.type != element:
            raise VerifyException(
                f"{op.name}: buffer holds {element}, value is {value.type}"
            )


# ---------------------------------------------------------------------------
# Kernels
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
        verify_element(self, self.buffer, self.value)


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
        verify_element(self, self.buffer, self.expected, self.desired)


GirGpu = Dialect(
    "gir_gpu",
    [
        KernelOp,
        ReturnOp,
        IdOp,
        BarrierOp,
        AtomicRMWOp,
        AtomicCASOp,
    ],
    [DimensionAttr, AtomicKindAttr],
)
"""gir's extension of xDSL's GPU level: kernels, thread coordinates and atomics."""
