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
protocol `gir.protocol.HostRuntime`, one method per host op, keyed by the
host dialect's enums (`GraphArray`, `GraphSize`) and the buffers' `DType`.

Kernels: `gir_gpu.kernel` (ended by `gir_gpu.return`), launched by `host.launch`.
Device-side ops: `gir_gpu.id`, `gir_gpu.barrier`, `gir_gpu.atomic_rmw`, `gir_gpu.atomic_cas`,
`gir_gpu.shared_alloc` (work-group arrays in the `#gir_gpu.workgroup` memory space),
and the sub-group (warp) ops `gir_gpu.subgroup_ballot`,
`gir_gpu.subgroup_exclusive_sum`, `gir_gpu.subgroup_broadcast`. A sub-group is
32 consecutive threads of a work-group on every target (see `SUBGROUP_SIZE`).
Ops that need their whole work-group (barriers, sub-group ops) must not be under
control flow that depends on the thread (`WorkgroupUniform`).

Host-side parallel primitives: `gir_gpu.exclusive_scan` is called from `@main` and
expanded into kernels and launches by the `gpu-expand-scan` pass before printing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    AnyFloatConstr,
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    SymbolNameConstraint,
    i32,
)
from xdsl.dialects import scf
from xdsl.dialects.utils import EnumAttribute, parse_func_op_like, print_func_op_like
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
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
    OpTrait,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from gir.dialects.printing import PrintOpBase, StringType
from gir.diagnostics import UserError
from gir.ir_walk import walk
from gir.verifier import per_verification

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
# Names
# ---------------------------------------------------------------------------

VECTOR_TYPES = frozenset(
    f"{base}{lanes}"
    for base in ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong", "ulonglong", "float", "double", "half")
    for lanes in (1, 2, 3, 4, 8, 16)
)
"""CUDA's and OpenCL's vector type names (`int2`, `float4`, ...)."""

C_KEYWORDS = frozenset(
    """
    auto break case char const continue default do double else enum extern float for
    goto if inline int long register restrict return short signed sizeof static struct
    switch typedef union unsigned void volatile while bool true false class delete new
    operator private protected public template this throw try catch namespace using
    virtual friend typename asm explicit mutable export nullptr constexpr decltype
    static_assert alignas alignof noexcept thread_local char16_t char32_t wchar_t and
    or not xor bitand bitor compl and_eq or_eq xor_eq not_eq half main NULL
    typeid static_cast dynamic_cast const_cast reinterpret_cast concept requires
    co_await co_return co_yield char8_t consteval constinit typeof
    """.split()
)
"""C's and C++'s (C++20) keywords and the names C programs may not redefine."""

LIBRARY_NAMES = frozenset(
    """
    std printf malloc memcpy exit NAN INFINITY min max abs
    fabs fmin fmax sqrt exp exp2 log log2 log10 sin cos tan tanh floor ceil trunc
    round erf cbrt pow atan2 copysign fma log1p expm1 select clamp
    """.split()
)
"""Names declared at file scope where kernels are printed: C++'s `std` namespace
(nvcc: "'std' has already been declared in the current scope"), the C library
functions CUDA declares and OpenCL's printf, and the math builtins the printed
kernels call (a kernel or extern function of such a name collides with them or
captures the printer's calls)."""

TARGET_BUILTINS = frozenset(
    """
    kernel global local constant read_only write_only read_write uchar ushort uint
    ulong size_t ptrdiff_t intptr_t uintptr_t event_t sampler_t image1d_t image2d_t
    image3d_t get_global_id get_local_id get_group_id get_local_size get_num_groups
    barrier atomic_add atomic_min atomic_max atomic_xchg atomic_or atomic_cmpxchg
    atom_add atom_min atom_max atom_xchg atom_or atom_cmpxchg as_int as_float as_long
    as_double sub_group_ballot sub_group_broadcast sub_group_scan_exclusive_add
    threadIdx blockIdx blockDim gridDim warpSize atomicAdd atomicMin atomicMax
    atomicExch atomicOr atomicCAS dim3
    """.split()
)
"""OpenCL C's and CUDA's qualifiers, types and the builtins gir's kernels call."""

C_FAMILY_RESERVED = C_KEYWORDS | VECTOR_TYPES | TARGET_BUILTINS | LIBRARY_NAMES
"""Identifiers no kernel may be called in CUDA or OpenCL C."""

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def check_kernel_name(name: str) -> str | None:
    """Why `name` cannot name a kernel in CUDA and OpenCL C, or None when it can: a
    kernel name is a C identifier that is not reserved by C (`__x`, `_X`), by the
    targets (`C_FAMILY_RESERVED`: C/C++ keywords, `std`, the builtins) or by gir's
    device helpers (`gir_...`)."""
    if not _IDENTIFIER.fullmatch(name):
        return f"kernel name '{name}' is not a C identifier ([A-Za-z_][A-Za-z0-9_]*)"
    if name in LIBRARY_NAMES:
        return (
            f"kernel name '{name}' is declared by CUDA's or OpenCL's headers "
            "(C++'s std namespace, the C library, the math builtins)"
        )
    if name in C_FAMILY_RESERVED:
        return f"kernel name '{name}' is reserved in CUDA or OpenCL C"
    if name.startswith("__") or (name.startswith("_") and name[1:2].isupper()):
        return f"kernel name '{name}' is reserved by C (leading '__' or '_' and a capital)"
    if name.startswith("gir_"):
        return f"kernel name '{name}' is in the 'gir_' namespace of gir's device helpers"
    return None


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
        start = parser.pos
        name, inputs, outputs, region, extra, _, _ = parse_func_op_like(
            parser, reserved_attr_names=("sym_name", "function_type")
        )
        problem = check_kernel_name(name)
        if problem is not None:
            parser.raise_error(problem, start, start + len(name) + 1)
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
        problem = check_kernel_name(self.sym_name.data)
        if problem is not None:
            raise VerifyException(problem)
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
            if is_shared_array(arg_type):
                raise VerifyException(
                    "kernel arguments are device buffers; work-group arrays are made "
                    "inside the kernel with gir_gpu.shared_alloc"
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


def thread_varying_values(kernel: KernelOp) -> set[SSAValue]:
    """The values of `kernel` that may differ between the threads of one block.

    Sources are the thread-dependent `gir_gpu.id` coordinates, atomics' old values
    and sub-group results; a value computed from a varying one varies (a
    `memref.load` varies when its index does: loads at a uniform index read the
    same element, which race-free kernels see alike); structured control flow
    merges them: results and loop-carried values vary when a yielded value, an
    initial value or the condition or bounds deciding which values flow vary.
    """
    varying: set[SSAValue] = set()
    newly: list[SSAValue] = []  # varying values whose uses are not yet followed

    def mark(values: Iterable[SSAValue]) -> bool:
        new = [value for value in values if value not in varying]
        varying.update(new)
        newly.extend(new)
        return bool(new)

    for op in walk(kernel.body):
        if _is_varying_source(op):
            mark(op.results)
    # Every rule's premise is that some operand of an op varies, so following
    # each value's uses once when it starts to vary reaches the same fixpoint
    # as sweeping the kernel until nothing changes, in one visit a use.
    while newly:
        for use in newly.pop().uses:
            user = use.operation
            mark(user.results)
            _propagate_control_flow(user, varying, mark)
    return varying


def _is_varying_source(op: Operation) -> bool:
    if isinstance(op, IdOp):
        return op.dimension.data in THREAD_VARYING_DIMENSIONS
    return isinstance(op, AtomicRMWOp | AtomicCASOp | SubgroupOp)


def _propagate_control_flow(
    op: Operation, varying: set[SSAValue], mark: Callable[[Iterable[SSAValue]], bool]
) -> bool:
    """Marks what `op` (a structured control-flow op or terminator) makes vary."""
    changed = False
    parent = op.parent_op()
    if isinstance(op, scf.YieldOp) and isinstance(parent, scf.IfOp | scf.ForOp | scf.WhileOp):
        for index, value in enumerate(op.operands):
            if value in varying:
                if isinstance(parent, scf.WhileOp):
                    changed |= mark([parent.before_region.block.args[index]])
                else:
                    changed |= mark([parent.results[index]])
                if isinstance(parent, scf.ForOp):
                    changed |= mark([parent.body.block.args[index + 1]])
    if isinstance(op, scf.ConditionOp) and isinstance(parent, scf.WhileOp):
        after = parent.after_region.block.args
        if op.condition in varying:
            changed |= mark([*parent.results, *after])
        for index, value in enumerate(op.args):
            if value in varying:
                changed |= mark([parent.results[index], after[index]])
    if isinstance(op, scf.IfOp) and op.cond in varying:
        changed |= mark(op.results)
    if isinstance(op, scf.ForOp):
        if any(bound in varying for bound in (op.lb, op.ub, op.step)):
            changed |= mark([*op.results, *op.body.block.args])
        for init, argument in zip(op.iter_args, op.body.block.args[1:], strict=True):
            if init in varying:
                changed |= mark([argument])
    if isinstance(op, scf.WhileOp):
        for init, argument in zip(op.arguments, op.before_region.block.args, strict=True):
            if init in varying:
                changed |= mark([argument])
    return changed


def divergent_ancestor(op: Operation, varying: set[SSAValue]) -> Operation | None:
    """The innermost op around `op` whose thread-varying condition or bounds decide
    whether (or how often) `op` runs, or None when every thread of a block reaches
    it alike."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, KernelOp):
        if isinstance(parent, scf.IfOp) and parent.cond in varying:
            return parent
        if isinstance(parent, scf.ForOp) and any(
            bound in varying for bound in (parent.lb, parent.ub, parent.step)
        ):
            return parent
        if isinstance(parent, scf.WhileOp):
            condition = parent.before_region.block.last_op
            if isinstance(condition, scf.ConditionOp) and condition.condition in varying:
                return parent
        if not isinstance(parent, scf.IfOp | scf.ForOp | scf.WhileOp):
            raise VerifyException(
                f"{op.name} needs its whole work-group and cannot be inside '{parent.name}'"
            )
        parent = parent.parent_op()
    return None


@dataclass(frozen=True)
class WorkgroupUniform(OpTrait):
    """The op needs every thread of its block to reach it together (a barrier, or
    an op printed with barriers on some target): the verifier rejects it under
    control flow whose condition or bounds vary between the block's threads
    (`thread_varying_values`), the rule OpenCL states for `barrier` and CUDA for
    `__syncthreads`."""

    def verify(self, op: Operation) -> None:
        kernel = op.parent_op()
        while kernel is not None and not isinstance(kernel, KernelOp):
            kernel = kernel.parent_op()
        if kernel is None:
            raise VerifyException(f"{op.name} is only valid inside a gir_gpu.kernel")
        varying = per_verification((kernel, thread_varying_values), lambda: thread_varying_values(kernel))
        culprit = divergent_ancestor(op, varying)
        if culprit is not None:
            what = "bounds depend" if isinstance(culprit, scf.ForOp) else "condition depends"
            message = (
                f"{op.name} in kernel @{kernel.sym_name.data} must be reached by every "
                f"thread of the work-group, but it is under an '{culprit.name}' whose "
                f"{what} on the thread id"
            )
            op.emit_error(message, VerifyException(message))


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
    LANE = "lane"
    """The thread's index in its sub-group, 0 to SUBGROUP_SIZE - 1."""
    SUBGROUP = "subgroup"
    """The sub-group's index in its block."""
    SUBGROUP_SIZE = "subgroup_size"
    """Threads per sub-group: SUBGROUP_SIZE on every target."""


SUBGROUP_SIZE = 32
"""Threads per sub-group (a CUDA warp) on every target. The last sub-group of a
block whose size is not a multiple of it has fewer threads."""

THREAD_VARYING_DIMENSIONS = frozenset({Dimension.THREAD, Dimension.GLOBAL, Dimension.LANE, Dimension.SUBGROUP})
"""The coordinates that differ between the threads of one block."""


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
    """Waits until every thread of the block reached it, and makes the memory
    writes before it visible to the block's threads after it. Every thread of the
    block must reach it, so it is never under thread-dependent control flow
    (`WorkgroupUniform`)."""

    name = "gir_gpu.barrier"

    traits = traits_def(WorkgroupUniform())

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


PERSISTENT = "gir_gpu.persistent"
"""The unit attribute that marks a kernel as persistent: launched once on a grid of
co-resident blocks (`host.resident_blocks`), it may synchronize the whole grid
with `gir_gpu.grid_barrier`."""


RESIDENT_BLOCKS = "gir_gpu.resident_blocks"
"""The integer attribute (a block's threads, B) that marks a kernel launched in
blocks of B threads whose speed depends on every multiprocessor keeping as many
of its blocks as its threads allow (2048 / B, at most 32): a latency-bound
sweep. CUDA prints it `__launch_bounds__(B, that many)`, so that the compiler
holds the kernel to the registers that occupancy leaves (32 a thread); OpenCL
has no such bound and prints nothing."""

RESIDENT_THREADS_PER_SM = 2048
"""The threads a multiprocessor of sm_80 and sm_90 keeps resident."""

RESIDENT_BLOCKS_PER_SM = 32
"""The blocks a multiprocessor of sm_80 and sm_90 keeps resident, whatever their size."""


def blocks_per_sm(block_size: int) -> int:
    """The blocks of `block_size` threads a multiprocessor keeps resident at most."""
    return max(min(RESIDENT_THREADS_PER_SM // block_size, RESIDENT_BLOCKS_PER_SM), 1)


def resident_blocks(kernel: KernelOp) -> int | None:
    """The block size `RESIDENT_BLOCKS` asks for, if it marks `kernel`."""
    mark = kernel.attributes.get(RESIDENT_BLOCKS)
    return mark.value.data if isinstance(mark, IntegerAttr) else None


SPREAD_ITEMS = "gir_gpu.spread_items"
"""The unit attribute that marks a kernel whose blocks share its items evenly,
`ceil(count / grid_dim)` each but at most a block's threads, instead of a block's
threads' worth each: any grid of at least the blocks it is launched on runs it
whole. A fused loop (`gpu-fuse-loops`) runs it on every block of its persistent
grid, so a small frontier's edges spread over the whole device, not over the
few blocks that `count / block_dim` would fill."""


def spreads_items(kernel: KernelOp) -> bool:
    """Whether `kernel` shares its items evenly over whatever grid it runs on."""
    return SPREAD_ITEMS in kernel.attributes


AGGREGATED = "gir_gpu.aggregated"
"""The unit attribute that marks a `gir_gpu.atomic_rmw add` whose buffer, index and
value every thread of a block sees alike (`gpu-aggregate-atomics`): a printer may
let one thread of each group of threads arriving together add for all of them,
handing each its share of the old value, as if they had added one after another."""


COMBINE_RUNS = "gir_gpu.combine_runs"
"""The unit attribute that marks a `gir_gpu.atomic_rmw add` whose old value is
unused and whose index neighbouring threads usually share (a `clustered`
reduction: the iterated vertex's element, its edges spread over neighbouring
threads): a printer may let each run of neighbouring lanes that add at one
address add once, with the run's sum."""


STREAMING = "gir_gpu.streaming"
"""The unit attribute that marks a `memref.load` of a kernel whose element is read
once in a launch, by one thread: an edge's own element of a layout array in a
walk over every edge (`frontier-edge-blocking`). A printer may load it with a
cache hint that evicts it first (CUDA's `__ldcs`), so that the stream of such
elements does not push the arrays a kernel reads at random out of the cache."""


def is_streaming(load: Operation) -> bool:
    """Whether `load` reads an element that its kernel reads only once."""
    return STREAMING in load.attributes


def is_persistent(kernel: KernelOp) -> bool:
    """Whether `kernel` is a persistent kernel (a fused loop)."""
    return PERSISTENT in kernel.attributes


@irdl_op_definition
class GridBarrierOp(IRDLOperation):
    """Waits until every thread of the grid reached it, and makes the memory writes
    before it visible to every thread after it. `sync` is two zeroed words of
    global memory the barrier counts arrivals and generations in.

    Only a persistent kernel may hold one (its grid is sized so that every block is
    resident at once, which the barrier needs to make progress), and every thread
    must reach it: it is never under thread-dependent control flow
    (`WorkgroupUniform`), nor under control flow depending on the block id.

    ```mlir
    gir_gpu.grid_barrier %sync : memref<?xi32>
    ```
    """

    name = "gir_gpu.grid_barrier"

    sync = operand_def(MemRefType)

    traits = traits_def(WorkgroupUniform())

    assembly_format = "$sync attr-dict `:` type($sync)"

    def __init__(self, sync: SSAValue | Operation):
        super().__init__(operands=[sync])

    def verify_(self) -> None:
        sync_type = self.sync.type
        assert isinstance(sync_type, MemRefType)
        if sync_type.element_type != IntegerType(32) or is_shared_array(sync_type):
            raise VerifyException("a grid barrier counts in a device buffer of i32")
        kernel = self.parent_op()
        while kernel is not None and not isinstance(kernel, KernelOp):
            kernel = kernel.parent_op()
        if kernel is None or not is_persistent(kernel):
            raise VerifyException(
                "gir_gpu.grid_barrier is only valid in a persistent kernel "
                f"(a gir_gpu.kernel with the {PERSISTENT} attribute)"
            )
        block_ids = {
            op.result
            for op in walk(kernel)
            if isinstance(op, IdOp) and op.dimension.data == Dimension.BLOCK
        }
        culprit = divergent_ancestor(self, _dependents(kernel, block_ids))
        if culprit is not None:
            raise VerifyException(
                f"gir_gpu.grid_barrier must be reached by every block, but it is under "
                f"an '{culprit.name}' that depends on the block id"
            )


def _dependents(kernel: KernelOp, sources: set[SSAValue]) -> set[SSAValue]:
    """`sources` and the values of `kernel` computed from them."""
    found = set(sources)
    changed = True
    while changed:
        changed = False
        for op in walk(kernel.body):
            if any(operand in found for operand in op.operands):
                new = [result for result in op.results if result not in found]
                found.update(new)
                changed |= bool(new)
    return found


class AtomicKind(StrEnum):
    """Read-modify-write operators every target provides (float add and 64-bit
    operations may be emulated with compare-and-swap loops by a printer).
    `umin` and `umax` compare integers as unsigned (`uint`, `uint_64`)."""

    ADD = "add"
    MIN = "min"
    MAX = "max"
    UMIN = "umin"
    UMAX = "umax"
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
        if self.kind.data in (AtomicKind.UMIN, AtomicKind.UMAX) and not isinstance(self.value.type, IntegerType):
            raise VerifyException(f"{self.name}: {self.kind.data} compares integers, not {self.value.type}")


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


@irdl_attr_definition
class WorkgroupMemoryAttr(ParametrizedAttribute):
    """The memory space of arrays shared by the threads of one block (CUDA
    `__shared__`, OpenCL `__local`): `memref<256xi32, #gir_gpu.workgroup>`."""

    name = "gir_gpu.workgroup"


def shared_array_type(element: Attribute, size: int) -> MemRefType:
    """The type of a work-group array of `size` `element`s."""
    return MemRefType(element, [size], NoneAttr(), WorkgroupMemoryAttr())


def is_shared_array(type_: Attribute) -> bool:
    """Whether `type_` is a work-group array's type."""
    return isinstance(type_, MemRefType) and isinstance(type_.memory_space, WorkgroupMemoryAttr)


@irdl_op_definition
class SharedAllocOp(IRDLOperation):
    """A statically sized array shared by the threads of one block, alive for the
    kernel's run, contents undefined at its start; read and written with
    `memref.load` / `memref.store` (and `gir_gpu.atomic_rmw`). Declared at the
    kernel's top level, as OpenCL requires of `__local` variables; threads see each
    other's writes after a `gir_gpu.barrier`.

    ```mlir
    %partial = gir_gpu.shared_alloc : memref<256xi32, #gir_gpu.workgroup>
    ```
    """

    name = "gir_gpu.shared_alloc"

    result = result_def(MemRefType)

    traits = traits_def(HasParent(KernelOp))

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, element: Attribute, size: int):
        super().__init__(result_types=[shared_array_type(element, size)])

    def verify_(self) -> None:
        type_ = self.result.type
        assert isinstance(type_, MemRefType)
        if not isinstance(type_.memory_space, WorkgroupMemoryAttr):
            raise VerifyException(
                "a shared array is in the #gir_gpu.workgroup memory space"
            )
        if not isinstance(type_.layout, NoneAttr):
            raise VerifyException("a shared array has no layout")
        shape = type_.get_shape()
        if len(shape) != 1 or shape[0] <= 0:
            sizes = "x".join("?" if size == DYNAMIC_INDEX else str(size) for size in shape)
            raise VerifyException(f"a shared array has one static, positive size, not {sizes}")
        if not isinstance(type_.element_type, IntegerType | AnyFloat):
            raise VerifyException(f"a shared array holds scalars, not {type_.element_type}")


SubgroupValue = base(IntegerType) | AnyFloatConstr


class SubgroupOp(IRDLOperation):
    """The ops that combine the values of one sub-group's threads. Every thread of
    the block must reach them (`WorkgroupUniform`): a target may print them with
    barriers (OpenCL's local-memory emulation)."""


@irdl_op_definition
class SubgroupBallotOp(SubgroupOp):
    """The mask of the lanes of the thread's sub-group whose `predicate` is true:
    bit `i` of the i32 result is lane `i`'s predicate.

    ```mlir
    %mask = gir_gpu.subgroup_ballot %active
    ```

    CUDA prints `__ballot_sync` over the full warp; OpenCL `sub_group_ballot` where
    the device has `cl_khr_subgroup_ballot` and 32-wide sub-groups (decided when the
    kernel runs), else a local-memory emulation (`gir.targets.opencl`).
    """

    name = "gir_gpu.subgroup_ballot"

    predicate = operand_def(IntegerType(1))
    result = result_def(i32)

    traits = traits_def(WorkgroupUniform())

    assembly_format = "$predicate attr-dict"

    def __init__(self, predicate: SSAValue | Operation):
        super().__init__(operands=[predicate], result_types=[i32])


@irdl_op_definition
class SubgroupExclusiveSumOp(SubgroupOp):
    """The sum of `value` over the lanes of the thread's sub-group below the
    thread's own (0 on lane 0): an exclusive prefix sum, wrapping on overflow for
    integers.

    ```mlir
    %offset = gir_gpu.subgroup_exclusive_sum %count : i32
    ```

    CUDA prints a `__shfl_up_sync` ladder; OpenCL `sub_group_scan_exclusive_add`
    where the device has sub-groups as for `gir_gpu.subgroup_ballot`, else the
    local-memory emulation.
    """

    name = "gir_gpu.subgroup_exclusive_sum"

    T: ClassVar = VarConstraint("T", SubgroupValue)
    value = operand_def(T)
    result = result_def(T)

    traits = traits_def(WorkgroupUniform())

    assembly_format = "$value attr-dict `:` type($value)"

    def __init__(self, value: SSAValue | Operation):
        value = SSAValue.get(value)
        super().__init__(operands=[value], result_types=[value.type])

    def verify_(self) -> None:
        _verify_subgroup_scalar(self, self.value.type)


@irdl_op_definition
class SubgroupBroadcastOp(SubgroupOp):
    """`value` as lane `lane` of the thread's sub-group holds it. `lane` is the
    same for every thread of a sub-group and names an existing thread.

    ```mlir
    %first = gir_gpu.subgroup_broadcast %vertex, %c0 : i32
    ```

    CUDA prints `__shfl_sync` over the full warp; OpenCL `sub_group_broadcast` where
    the device has sub-groups as for `gir_gpu.subgroup_ballot`, else the local-memory
    emulation.
    """

    name = "gir_gpu.subgroup_broadcast"

    T: ClassVar = VarConstraint("T", SubgroupValue)
    value = operand_def(T)
    lane = operand_def(i32)
    result = result_def(T)

    traits = traits_def(WorkgroupUniform())

    assembly_format = "$value `,` $lane attr-dict `:` type($value)"

    def __init__(self, value: SSAValue | Operation, lane: SSAValue | Operation):
        value = SSAValue.get(value)
        super().__init__(operands=[value, lane], result_types=[value.type])

    def verify_(self) -> None:
        _verify_subgroup_scalar(self, self.value.type)


def _verify_subgroup_scalar(op: Operation, type_: Attribute) -> None:
    if isinstance(type_, IntegerType) and type_.width.data not in (32, 64):
        raise VerifyException(f"{op.name} combines 32- or 64-bit values, not {type_}")


# ---------------------------------------------------------------------------
# Host-side parallel primitives
# ---------------------------------------------------------------------------

SCAN_ELEMENTS = (IntegerType(32), IntegerType(64))
"""The element types `gir_gpu.exclusive_scan` adds."""


def is_device_buffer(type_: Attribute) -> bool:
    """Whether `type_` is a device buffer's type, `memref<?xT>` in global memory."""
    return (
        isinstance(type_, MemRefType)
        and type_.get_shape() == (DYNAMIC_INDEX,)
        and isinstance(type_.layout, NoneAttr)
        and isinstance(type_.memory_space, NoneAttr)
    )


def _verify_called_by_host(op: Operation) -> None:
    """A host primitive must not be inside a kernel."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, KernelOp):
            raise VerifyException(
                f"{op.name} is called by the host, not inside kernel @{parent.sym_name.data}"
            )
        parent = parent.parent_op()


@irdl_op_definition
class ExclusiveScanOp(IRDLOperation):
    """A device-wide exclusive prefix sum, called by the host: for `i < count`,
    `out[i] = in[0] + ... + in[i - 1]` (`out[0] = 0`), wrapping on overflow;
    elements from `count` on are left alone and a `count` of 0 or less scans
    nothing. `in` and `out` may be the same buffer (an in-place scan). It runs
    after the launches before it and before those after it, like `host.launch`.

    ```mlir
    gir_gpu.exclusive_scan %degrees, %offsets, %n : memref<?xi32>, memref<?xi32>, i32
    ```

    The printers do not print it: `gpu-expand-scan` (part of `lower-to-gpu`)
    replaces it by kernels built from work-group arrays and barriers and their
    `host.launch`es.
    """

    name = "gir_gpu.exclusive_scan"

    input = operand_def(MemRefType)
    output = operand_def(MemRefType)
    count = operand_def(i32)

    assembly_format = (
        "$input `,` $output `,` $count attr-dict `:` type($input) `,` type($output) `,` type($count)"
    )

    def __init__(
        self,
        input: SSAValue | Operation,
        output: SSAValue | Operation,
        count: SSAValue | Operation,
    ):
        super().__init__(operands=[input, output, count])

    def verify_(self) -> None:
        for buffer in (self.input, self.output):
            if not is_device_buffer(buffer.type):
                raise VerifyException(
                    f"{self.name} scans device buffers memref<?xT>, not {buffer.type}"
                )
        element = element_type(self.input)
        if element_type(self.output) != element:
            raise VerifyException(
                f"{self.name}: input holds {element}, output holds {element_type(self.output)}"
            )
        if element not in SCAN_ELEMENTS:
            raise VerifyException(f"{self.name} adds i32 or i64 elements, not {element}")
        _verify_called_by_host(self)


@irdl_op_definition
class PrintOp(PrintOpBase):
    """`print x` in device code: the thread writes a scalar, or the string `text`,
    and a newline to the host's stdout (`printf`). Lines of one kernel come in an
    unspecified order and reach stdout once the kernel has finished.

    ```mlir
    gir_gpu.print %v : i32
    gir_gpu.print "reached"
    ```
    """

    name = "gir_gpu.print"

    def verify_(self) -> None:
        super().verify_()
        if self.value is not None and isinstance(self.value.type, StringType):
            raise VerifyException("gir_gpu.print: strings live on the host, not in kernels")


REDUCE_KINDS = (AtomicKind.ADD, AtomicKind.MIN, AtomicKind.MAX, AtomicKind.UMIN, AtomicKind.UMAX)
"""The operators `gir_gpu.vector_reduce` combines elements with."""


@irdl_op_definition
class VectorReduceOp(IRDLOperation):
    """A device-wide reduction, called by the host: `in[0] <kind> ... <kind>
    in[count - 1]` (`add`, `min`, `max`, or `umin`/`umax` of integers read as
    unsigned; integers wrap on overflow, floats are added in an unspecified
    order) as a host value; a `count` of 0 or less gives the operator's identity
    (0, the largest or the smallest value). It runs
    after the launches before it, like `host.read`.

    ```mlir
    %total = gir_gpu.vector_reduce add %degrees, %n : memref<?xi32>, i32 -> i32
    ```

    The printers do not print it: `gpu-expand-reduce` (part of `lower-to-gpu`)
    replaces it by a block-reduction kernel launched twice (once over the
    input, once over the blocks' partial results) and a `host.read`.
    """

    name = "gir_gpu.vector_reduce"

    kind = prop_def(AtomicKindAttr)
    input = operand_def(MemRefType)
    count = operand_def(i32)
    result = result_def(Scalar)

    assembly_format = (
        "$kind $input `,` $count attr-dict `:` type($input) `,` type($count) `->` type($result)"
    )

    def __init__(
        self, kind: AtomicKind, input: SSAValue | Operation, count: SSAValue | Operation
    ):
        super().__init__(
            operands=[input, count],
            properties={"kind": AtomicKindAttr(kind)},
            result_types=[element_type(SSAValue.get(input))],
        )

    def verify_(self) -> None:
        if not is_device_buffer(self.input.type):
            raise VerifyException(
                f"{self.name} reduces a device buffer memref<?xT>, not {self.input.type}"
            )
        if self.kind.data not in REDUCE_KINDS:
            raise VerifyException(f"{self.name} adds, takes the min or the max, not {self.kind.data}")
        if self.kind.data in (AtomicKind.UMIN, AtomicKind.UMAX) and not isinstance(self.result.type, IntegerType):
            raise VerifyException(f"{self.name}: {self.kind.data} compares integers, not {self.result.type}")
        element = element_type(self.input)
        if self.result.type != element:
            raise VerifyException(f"{self.name}: the input holds {element}, not {self.result.type}")
        if element == IntegerType(1):
            raise VerifyException(f"{self.name} reduces numbers, not i1")
        _verify_called_by_host(self)


# ---------------------------------------------------------------------------
# Bounds checking
# ---------------------------------------------------------------------------

BOUNDS_RECORD = "gir.bounds"
"""The global name under which `gpu-check-bounds` binds the program's bounds
record, three i32s: the first out-of-range access's site + 1 (0: none yet), its
index, and the element count of the buffer it missed."""

BOUNDS_SITES = "gir_gpu.bounds_sites"
"""The module attribute in which `gpu-check-bounds` lists the accesses it guarded:
site `i` is entry `i`, a `BoundsSite` as a dictionary."""


@dataclass(frozen=True)
class BoundsSite:
    """One device-side buffer access guarded by `gpu-check-bounds`: enough to say
    which access of which kernel missed which buffer."""

    kernel: str
    access: str
    """What the access does: "loads", "stores", "atomically updates"."""
    buffer: str
    """What the buffer holds for the user: "vector 'x'", "graph array 'col_idx'",
    "frontier storage", "a work-group array"."""
    label: str = ""
    """The labels of the statements around the kernel's launches, or ""."""
    location: str = ""
    """The source position (`file:line:col`) of the access's statement, or ""."""

    def to_attribute(self) -> DictionaryAttr:
        """The site as an entry of the `BOUNDS_SITES` attribute."""
        fields = {"kernel": self.kernel, "access": self.access, "buffer": self.buffer}
        if self.label:
            fields["label"] = self.label
        if self.location:
            fields["location"] = self.location
        return DictionaryAttr({key: StringAttr(value) for key, value in fields.items()})

    @staticmethod
    def from_attribute(attribute: Attribute) -> BoundsSite | None:
        """The site an entry of `BOUNDS_SITES` describes, or None if it is malformed."""
        if not isinstance(attribute, DictionaryAttr):
            return None
        fields = {key: value.data for key, value in attribute.data.items() if isinstance(value, StringAttr)}
        if not {"kernel", "access", "buffer"} <= fields.keys():
            return None
        return BoundsSite(
            fields["kernel"],
            fields["access"],
            fields["buffer"],
            fields.get("label", ""),
            fields.get("location", ""),
        )

    def describe(self, index: int, size: int) -> str:
        """The one-line report of an access at `index` into a buffer of `size` elements."""
        where = f" (statement '{self.label}')" if self.label else ""
        located = f"{self.location}: " if self.location else ""
        return (
            f"{located}error: out-of-bounds access: kernel @{self.kernel}{where} {self.access} "
            f"element {index} of {self.buffer}, which has {size} elements; "
            "the access was skipped and the run stopped"
        )


def bounds_sites(module: ModuleOp) -> tuple[BoundsSite, ...] | None:
    """The guarded sites of a module `gpu-check-bounds` ran on, or None if it did
    not; a module whose `BOUNDS_SITES` attribute is malformed is a UserError."""
    attribute = module.attributes.get(BOUNDS_SITES)
    if attribute is None:
        return None
    entries = attribute.data if isinstance(attribute, ArrayAttr) else (None,)
    sites = tuple(BoundsSite.from_attribute(entry) for entry in entries)
    if any(site is None for site in sites):
        raise UserError(
            f"error: the module's {BOUNDS_SITES} attribute is not a list of "
            "{kernel, access, buffer[, label]} dictionaries of strings"
        )
    return sites  # type: ignore[return-value]


HOST_PRIMITIVES: tuple[type[Operation], ...] = (ExclusiveScanOp, VectorReduceOp)
"""The GPU parallel primitives that the host calls (outside kernels); the other
gir_gpu ops are device code."""


GirGpu = Dialect(
    "gir_gpu",
    [
        KernelOp,
        ReturnOp,
        IdOp,
        BarrierOp,
        GridBarrierOp,
        AtomicRMWOp,
        AtomicCASOp,
        SharedAllocOp,
        SubgroupBallotOp,
        SubgroupExclusiveSumOp,
        SubgroupBroadcastOp,
        ExclusiveScanOp,
        VectorReduceOp,
        PrintOp,
    ],
    [DimensionAttr, AtomicKindAttr, WorkgroupMemoryAttr],
)
"""gir's extension of xDSL's GPU level: kernels, thread coordinates, atomics,
work-group arrays and barriers, sub-group ops, and the host-side device-wide scan
and reduction."""
