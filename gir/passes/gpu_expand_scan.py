"""`gpu-expand-scan`: device-wide exclusive scans become kernels and host launches."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IntegerType, ModuleOp, i32
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
    BarrierOp,
    Dimension,
    ExclusiveScanOp,
    IdOp,
    KernelOp,
    ReturnOp,
    SharedAllocOp,
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
class GpuExpandScan(ModulePass):
    """Expand each gir_gpu.exclusive_scan into three kernels and their host launches.

    A scan of `count` elements runs on `blocks = ceil(count / block-size)` blocks:
    `scan_<T>_b<B>_blocks` scans each block's elements in a work-group array
    (Hillis-Steele: log2(B) rounds, two barriers each, reached by every thread:
    threads past `count` scan zeros) and writes each block's total to a scratch
    buffer of `blocks` sums; `scan_<T>_b<B>_sums`, one work-group, scans the sums in
    place chunk by chunk with a carry, so any number of blocks works;
    `scan_<T>_b<B>_add` adds each block's scanned sum to its elements. The last two
    run only when there are several blocks. The scratch buffer is allocated from
    the count where the scan runs and freed right after it. The kernels are made
    once per element type and block size in the module and reused by name; the
    option `block-size` (default 256) picks B.

    Before:
    ```mlir
    func.func @main() {
      ...
      gir_gpu.exclusive_scan %in, %out, %n : memref<?xi32>, memref<?xi32>, i32
    }
    ```
    After:
    ```mlir
    gir_gpu.kernel @scan_i32_b256_blocks(%input: memref<?xi32>, %output: memref<?xi32>,
                                         %sums: memref<?xi32>, %count: i32) { ... }
    gir_gpu.kernel @scan_i32_b256_sums(%sums: memref<?xi32>, %count: i32) { ... }
    gir_gpu.kernel @scan_i32_b256_add(%output: memref<?xi32>, %sums: memref<?xi32>,
                                      %count: i32) { ... }
    func.func @main() {
      ...
      %any = arith.cmpi sgt, %n, %c0 : i32
      scf.if %any {
        %blocks = arith.ceildivsi %n, %block_size : i32
        %sums = host.alloc %blocks : i32 -> memref<?xi32>
        host.launch @scan_i32_b256_blocks grid %blocks block %block_size (%in, %out, %sums, %n) : ...
        %several = arith.cmpi sgt, %blocks, %c1 : i32
        scf.if %several {
          host.launch @scan_i32_b256_sums grid %c1 block %block_size (%sums, %blocks) : ...
          host.launch @scan_i32_b256_add grid %blocks block %block_size (%out, %sums, %n) : ...
        }
        host.free %sums : memref<?xi32>
      }
    }
    ```
    """

    name = "gpu-expand-scan"

    block_size: int = 256

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_block_size(self.name, self.block_size)
        PatternRewriteWalker(
            ExpandExclusiveScan(op, self.block_size), apply_recursively=False
        ).rewrite_module(op)


@dataclass
class ExpandExclusiveScan(RewritePattern):
    """Replaces a `gir_gpu.exclusive_scan` by the launches of its kernels, adding
    the kernels to `module` when it lacks them."""

    module: ModuleOp
    block_size: int

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ExclusiveScanOp, rewriter: PatternRewriter) -> None:
        kernels = ScanKernels(element_type(op.input), self.block_size)
        names = kernels.install(self.module, rewriter, InsertPoint.before(top_level_op(op, self.module)))
        then = Block()
        with ImplicitBuilder(then):
            block_size = constant(self.block_size, i32, "block_size")
            blocks = named(arith.CeilDivSIOp(op.count, block_size), "blocks")
            sums = named(host.AllocOp(blocks, kernels.element), "sums")
            host.LaunchOp(names.blocks, blocks, block_size, [op.input, op.output, sums, op.count])
            one = constant(1, i32, "c1")
            several = named(arith.CmpiOp(blocks, one, "sgt"), "several")
            spread = Block()
            with ImplicitBuilder(spread):
                host.LaunchOp(names.sums, one, block_size, [sums, blocks])
                host.LaunchOp(names.add, blocks, block_size, [op.output, sums, op.count])
                scf.YieldOp()
            scf.IfOp(several, [], Region(spread))
            host.FreeOp(sums)
            scf.YieldOp()
        zero = constant(0, i32, "c0").owner
        any_ = named(arith.CmpiOp(op.count, zero, "sgt"), "any").owner
        rewriter.replace(op, [zero, any_, scf.IfOp(any_, [], Region(then))], [])


# ---------------------------------------------------------------------------
# The kernels
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ScanNames:
    """The names of one element type's and block size's three scan kernels."""

    blocks: str
    sums: str
    add: str


@dataclass(frozen=True)
class ScanKernels:
    """Builds the scan kernels of `element`s for blocks of `block_size` threads."""

    element: Attribute
    block_size: int

    @property
    def names(self) -> ScanNames:
        """`scan_<element>_b<block size>_{blocks,sums,add}`."""
        prefix = f"scan_{self.element}_b{self.block_size}"
        return ScanNames(f"{prefix}_blocks", f"{prefix}_sums", f"{prefix}_add")

    def install(self, module: ModuleOp, rewriter: PatternRewriter, point: InsertPoint) -> ScanNames:
        """Adds the kernels `module` does not have yet at `point`; a UserError when
        a symbol of the same name is something else."""
        names = self.names
        buffer = buffer_type(self.element)
        builders: list[tuple[str, list[Attribute], Callable[[Block], None]]] = [
            (names.blocks, [buffer, buffer, buffer, i32], self._scan_blocks),
            (names.sums, [buffer, i32], self._scan_sums),
            (names.add, [buffer, buffer, i32], self._add_sums),
        ]
        for name, arg_types, build in builders:
            existing = SymbolTable.lookup_symbol(module, name)
            if existing is None:
                body = Block(arg_types=arg_types)
                build(body)
                rewriter.insert(KernelOp(name, arg_types, Region(body)), point)
            elif not (
                isinstance(existing, KernelOp)
                and list(existing.function_type.inputs.data) == arg_types
            ):
                raise UserError(
                    f"error: gpu-expand-scan needs the kernel @{name} and the module has "
                    f"another '{existing.name}' of that name"
                )
        return names

    def _scan_blocks(self, body: Block) -> None:
        """`(input, output, sums, count)`: each block's exclusive scan into
        `output`, its total into `sums[block]`."""
        input_, output, sums, count = body.args
        name_args(body, "input", "output", "sums", "count")
        with ImplicitBuilder(body):
            tile = self._tile()
            thread = named(IdOp(Dimension.THREAD), "thread")
            block = named(IdOp(Dimension.BLOCK), "block")
            gid = named(IdOp(Dimension.GLOBAL), "gid")
            inside = named(arith.CmpiOp(gid, count, "slt"), "inside")
            value = self._load_or_zero(inside, input_, gid)
            inclusive = self._block_scan(tile, thread, value)
            exclusive = named(arith.SubiOp(inclusive, value), "exclusive")
            store_if(inside, exclusive, output, gid)
            last = constant(self.block_size - 1, i32, "last")
            is_last = named(arith.CmpiOp(thread, last, "eq"), "is_last")
            store_if(is_last, inclusive, sums, block)
            ReturnOp()

    def _scan_sums(self, body: Block) -> None:
        """`(sums, count)` on one block: scans `sums[0:count]` in place, a chunk of
        block-size elements at a time, adding the totals of the chunks before."""
        sums, count = body.args
        name_args(body, "sums", "count")
        with ImplicitBuilder(body):
            tile = self._tile()
            thread = named(IdOp(Dimension.THREAD), "thread")
            zero = constant(0, i32, "c0")
            step = constant(self.block_size, i32, "block_size")
            last = index(constant(self.block_size - 1, i32, "last"))
            chunk = self._loop_body("start", "carry")
            start, carry = chunk.args
            with ImplicitBuilder(chunk):
                position = named(arith.AddiOp(start, thread), "position")
                inside = named(arith.CmpiOp(position, count, "slt"), "inside")
                value = self._load_or_zero(inside, sums, position)
                inclusive = self._block_scan(tile, thread, value)
                total = named(memref.LoadOp.get(tile, [last]), "total")
                exclusive = named(arith.SubiOp(inclusive, value), "exclusive")
                scanned = named(arith.AddiOp(exclusive, carry), "scanned")
                store_if(inside, scanned, sums, position)
                BarrierOp()  # every thread has read `total` before the next chunk's stores
                scf.YieldOp(named(arith.AddiOp(carry, total), "next_carry"))
            scf.ForOp(zero, count, step, [self._zero()], Region(chunk))
            ReturnOp()

    def _add_sums(self, body: Block) -> None:
        """`(output, sums, count)`: adds `sums[block]` to the block's elements."""
        output, sums, count = body.args
        name_args(body, "output", "sums", "count")
        with ImplicitBuilder(body):
            block = index(named(IdOp(Dimension.BLOCK), "block"))
            gid = named(IdOp(Dimension.GLOBAL), "gid")
            inside = named(arith.CmpiOp(gid, count, "slt"), "inside")
            then = Block()
            with ImplicitBuilder(then):
                g = index(gid)
                offset = named(memref.LoadOp.get(sums, [block]), "offset")
                partial = named(memref.LoadOp.get(output, [g]), "partial")
                memref.StoreOp.get(named(arith.AddiOp(partial, offset), "sum"), output, [g])
                scf.YieldOp()
            scf.IfOp(inside, [], Region(then))
            ReturnOp()

    # -- pieces ---------------------------------------------------------------

    def _tile(self) -> SSAValue:
        return named(SharedAllocOp(self.element, self.block_size), "tile")

    def _loop_body(self, induction: str, carried: str) -> Block:
        """The body of an `scf.for` over i32 carrying one element: `(%induction, %carried)`."""
        body = Block(arg_types=[i32, self.element])
        name_args(body, induction, carried)
        return body

    def _zero(self) -> SSAValue:
        assert isinstance(self.element, IntegerType)
        return constant(0, self.element, "zero")

    def _load_or_zero(
        self, inside: SSAValue, buffer: SSAValue, position: SSAValue, name: str = "value"
    ) -> SSAValue:
        """`buffer[position]` where `inside`, else 0, named `%name`."""
        then, otherwise = Block(), Block()
        with ImplicitBuilder(then):
            scf.YieldOp(named(memref.LoadOp.get(buffer, [index(position)]), "loaded"))
        with ImplicitBuilder(otherwise):
            scf.YieldOp(self._zero())
        return named(scf.IfOp(inside, [self.element], Region(then), Region(otherwise)), name)

    def _block_scan(self, tile: SSAValue, thread: SSAValue, value: SSAValue) -> SSAValue:
        """The inclusive scan of the block's `value`s (Hillis-Steele in `tile`): the
        thread's prefix, also left in `tile[thread]` for every thread to read."""
        t = index(thread)
        memref.StoreOp.get(value, tile, [t])
        BarrierOp()
        zero = constant(0, i32, "c0")
        one = constant(1, i32, "c1")
        rounds = constant((self.block_size - 1).bit_length(), i32, "rounds")
        round_ = self._loop_body("round", "partial")
        step, partial = round_.args
        with ImplicitBuilder(round_):
            offset = named(arith.ShLIOp(one, step), "offset")
            has_lower = named(arith.CmpiOp(thread, offset, "sge"), "has_lower")
            lower_thread = named(arith.SubiOp(thread, offset), "lower_thread")
            lower = self._load_or_zero(has_lower, tile, lower_thread, "lower")
            BarrierOp()  # every thread has read before any writes
            added = named(arith.AddiOp(partial, lower), "added")
            memref.StoreOp.get(added, tile, [t])
            BarrierOp()
            scf.YieldOp(added)
        return named(scf.ForOp(zero, rounds, one, [value], Region(round_)), "inclusive")
