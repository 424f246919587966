"""`gpu-expand-reduce`: device-wide reductions become a kernel, two launches and a read."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder, ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType, ModuleOp, i32
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from gir.diagnostics import UserError
from gir.dialects import host
from gir.dialects.gir_gpu import (
    AtomicKind,
    BarrierOp,
    Dimension,
    IdOp,
    KernelOp,
    ReturnOp,
    SharedAllocOp,
    VectorReduceOp,
    buffer_type,
    element_type,
)
from gir.passes.gpu_parallel_primitives import (
    check_block_size,
    constant,
    index,
    name_args,
    named,
    store_if,
    top_level_op,
)


@dataclass(frozen=True)
class GpuExpandReduce(ModulePass):
    """Expand each gir_gpu.vector_reduce into a block-reduction kernel launched twice.

    `reduce_<kind>_<T>_b<B>(input, output, count)` has each thread fold the
    elements `gid, gid + stride, ...` below `count` (a grid-stride loop, starting
    from the operator's identity), then the block combines its threads' values in
    a work-group array (log2(B) halving rounds, a barrier after each, reached by
    every thread) and thread 0 writes the block's value to `output[block]`. The
    host launches it on `clamp(ceil(count / B), 1, B)` blocks into a scratch
    buffer of partial results, then on one block over those partials (in place),
    and reads element 0: two passes, no atomics, so float sums need no
    compare-and-swap loops and every element type works alike. The kernel is
    made once per operator, element type and block size and reused by name; the
    option `block-size` (default 256) picks B.

    Before:
    ```mlir
    func.func @main() {
      ...
      %total = gir_gpu.vector_reduce add %deg, %n : memref<?xi32>, i32 -> i32
    }
    ```
    After:
    ```mlir
    gir_gpu.kernel @reduce_add_i32_b256(%input: memref<?xi32>, %output: memref<?xi32>,
                                        %count: i32) { ... }
    func.func @main() {
      ...
      %blocks = arith.maxsi %wanted, %c1 : i32
      %partials = host.alloc %blocks : i32 -> memref<?xi32>
      host.launch @reduce_add_i32_b256 grid %blocks block %block_size (%deg, %partials, %n) : ...
      host.launch @reduce_add_i32_b256 grid %c1 block %block_size (%partials, %partials, %blocks) : ...
      %total = host.read %partials[%c0] : memref<?xi32>, i32 -> i32
      host.free %partials : memref<?xi32>
    }
    ```
    """

    name = "gpu-expand-reduce"

    block_size: int = 256

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_block_size(self.name, self.block_size)
        PatternRewriteWalker(
            ExpandVectorReduce(op, self.block_size), apply_recursively=False
        ).rewrite_module(op)


@dataclass
class ExpandVectorReduce(RewritePattern):
    """Replaces a `gir_gpu.vector_reduce` by its launches and read, adding the
    kernel to `module` when it lacks it."""

    module: ModuleOp
    block_size: int

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VectorReduceOp, rewriter: PatternRewriter) -> None:
        kernel = ReduceKernel(op.kind.data, element_type(op.input), self.block_size)
        name = kernel.install(self.module, rewriter, InsertPoint.before(top_level_op(op, self.module)))
        b = Builder(InsertPoint.before(op))
        with ImplicitBuilder(b):
            block_size = constant(self.block_size, i32, "block_size")
            one = constant(1, i32, "c1")
            wanted = named(arith.CeilDivSIOp(op.count, block_size), "wanted")
            capped = named(arith.MinSIOp(wanted, block_size), "capped")
            blocks = named(arith.MaxSIOp(capped, one), "blocks")
            partials = named(host.AllocOp(blocks, kernel.element), "partials")
            host.LaunchOp(name, blocks, block_size, [op.input, partials, op.count])
            host.LaunchOp(name, one, block_size, [partials, partials, blocks])
            read = host.ReadOp(partials, constant(0, i32, "c0"))
            result = named(read, op.result.name_hint or "reduced")
            host.FreeOp(partials)
        rewriter.replace(op, [], [result])


@dataclass(frozen=True)
class ReduceKernel:
    """Builds the reduction kernel of `element`s by `kind` for blocks of
    `block_size` threads."""

    kind: AtomicKind
    element: Attribute
    block_size: int

    @property
    def name(self) -> str:
        """`reduce_<kind>_<element>_b<block size>`."""
        return f"reduce_{self.kind}_{self.element}_b{self.block_size}"

    def install(self, module: ModuleOp, rewriter: PatternRewriter, point: InsertPoint) -> str:
        """Adds the kernel unless `module` has it, at `point`; a UserError when a
        symbol of its name is something else."""
        buffer = buffer_type(self.element)
        arg_types: list[Attribute] = [buffer, buffer, i32]
        existing = SymbolTable.lookup_symbol(module, self.name)
        if existing is None:
            body = Block(arg_types=arg_types)
            self._build(body)
            rewriter.insert(KernelOp(self.name, arg_types, Region(body)), point)
        elif not (
            isinstance(existing, KernelOp)
            and list(existing.function_type.inputs.data) == arg_types
        ):
            raise UserError(
                f"error: gpu-expand-reduce needs the kernel @{self.name} and the module has "
                f"another '{existing.name}' of that name"
            )
        return self.name

    def _build(self, body: Block) -> None:
        """`(input, output, count)`: the block's reduction into `output[block]`."""
        input_, output, count = body.args
        name_args(body, "input", "output", "count")
        with ImplicitBuilder(body):
            tile = named(SharedAllocOp(self.element, self.block_size), "tile")
            thread = named(IdOp(Dimension.THREAD), "thread")
            block = named(IdOp(Dimension.BLOCK), "block")
            gid = named(IdOp(Dimension.GLOBAL), "gid")
            grid = named(IdOp(Dimension.GRID_DIM), "grid")
            threads = constant(self.block_size, i32, "block_size")
            stride = named(arith.MuliOp(grid, threads), "stride")
            fold = Block(arg_types=[i32, self.element])
            name_args(fold, "position", "partial")
            with ImplicitBuilder(fold):
                position, partial = fold.args
                value = named(memref.LoadOp.get(input_, [index(position)]), "value")
                scf.YieldOp(self._combine(partial, value))
            own = named(scf.ForOp(gid, count, stride, [self._identity()], Region(fold)), "own")
            t = index(thread)
            memref.StoreOp.get(own, tile, [t])
            BarrierOp()
            self._halving_rounds(tile, thread, t)
            zero = constant(0, i32, "c0")
            first = named(arith.CmpiOp(thread, zero, "eq"), "first")
            total = named(memref.LoadOp.get(tile, [index(zero)]), "total")
            store_if(first, total, output, block)
            ReturnOp()

    def _halving_rounds(self, tile: SSAValue, thread: SSAValue, t: SSAValue) -> None:
        """`tile[thread] <kind>= tile[thread + offset]` for the threads below
        `offset`, with `offset` halving from B/2 to 1 and a barrier after each."""
        zero = constant(0, i32, "c0")
        one = constant(1, i32, "c1")
        half = constant(self.block_size // 2, i32, "half")
        rounds = constant((self.block_size - 1).bit_length(), i32, "rounds")
        round_ = Block(arg_types=[i32])
        name_args(round_, "round")
        with ImplicitBuilder(round_):
            offset = named(arith.ShRSIOp(half, round_.args[0]), "offset")
            active = named(arith.CmpiOp(thread, offset, "slt"), "active")
            then = Block()
            with ImplicitBuilder(then):
                other = index(named(arith.AddiOp(thread, offset), "other"))
                mine = named(memref.LoadOp.get(tile, [t]), "mine")
                theirs = named(memref.LoadOp.get(tile, [other]), "theirs")
                memref.StoreOp.get(self._combine(mine, theirs), tile, [t])
                scf.YieldOp()
            scf.IfOp(active, [], Region(then))
            BarrierOp()
            scf.YieldOp()
        scf.ForOp(zero, rounds, one, [], Region(round_))

    def _combine(self, left: SSAValue, right: SSAValue) -> SSAValue:
        """`left <kind> right`."""
        floating = not isinstance(self.element, IntegerType)
        ops = {
            AtomicKind.ADD: arith.AddfOp if floating else arith.AddiOp,
            AtomicKind.MIN: arith.MinimumfOp if floating else arith.MinSIOp,
            AtomicKind.MAX: arith.MaximumfOp if floating else arith.MaxSIOp,
            AtomicKind.UMIN: arith.MinUIOp,
            AtomicKind.UMAX: arith.MaxUIOp,
        }
        return named(ops[self.kind](left, right), "combined")

    def _identity(self) -> SSAValue:
        """The value that leaves any element unchanged under `kind`."""
        if isinstance(self.element, IntegerType):
            bits = self.element.width.data
            values = {
                AtomicKind.ADD: 0,
                AtomicKind.MIN: (1 << (bits - 1)) - 1,
                AtomicKind.MAX: -(1 << (bits - 1)),
                AtomicKind.UMIN: -1,  # all ones: the largest unsigned value
                AtomicKind.UMAX: 0,
            }
            value = arith.ConstantOp(IntegerAttr(values[self.kind], self.element))
        else:
            floats = {AtomicKind.ADD: 0.0, AtomicKind.MIN: float("inf"), AtomicKind.MAX: float("-inf")}
            value = arith.ConstantOp(FloatAttr(floats[self.kind], self.element))  # type: ignore[arg-type]
        return named(value, "identity")
