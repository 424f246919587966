"""G2's STRICT load balance: exactly the same number of frontier edges per thread."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerType, i32
from xdsl.ir import Block, SSAValue
from xdsl.rewriter import InsertPoint

from gir.dialects import frontier, gir_gpu
from gir.passes.gpu_kernels import as_index, ceil_div, constant, resize
from gir.passes.kernel_builder import KernelBuilder, MapBody, strided_threads
from gir.passes.load_balance.edge_offsets import EdgeOffsetsStrategy, FrontierEdges, when

EDGES_PER_THREAD = 4
"""How many frontier edges each thread walks (the last block's threads: at most this)."""


class Strict(EdgeOffsetsStrategy):
    """STRICT load balance: every thread walks exactly EDGES_PER_THREAD frontier edges, its block's item range found once.

    G2 defines STRICT per thread ("each thread in the GPU processes the same
    number of edges"); here the frontier's edges (numbered by the degree scan
    that EDGE_ONLY also builds) are cut into equal chunks of `block_size *
    EDGES_PER_THREAD` consecutive edges, one per block, and thread `t` of a
    block walks the chunk's edges `t`, `t + block_size`, ... (a sub-group reads
    consecutive edges). As in Gunrock's output-frontier load balance, the block
    first finds the frontier items its chunk spans (thread 0: two binary searches
    over the offsets, shared through a work-group array and one barrier); each
    thread then finds the item of each of its edges by a binary search within
    that range only. A hub's edges are spread over many threads, so an element
    indexed by the source is shared (atomics included).

    With 64-bit edge indices the chunks' starts and the targets are i64, and
    the grid has at most `kernel_builder.STRIDED_THREADS` threads: each block
    takes chunks `block`, `block + grid`, ..., with a barrier after each, before
    its thread 0 writes the next chunk's items.

    The kernel uses a work-group array and a barrier, no sub-group operation: CUDA
    prints `__shared__` and `__syncthreads()`, OpenCL `__local` and
    `barrier(...)`, the same code on every device. The barrier is
    at the kernel's top level, reached by every thread.

    `frontier-lower-load-balance` makes its traversal a `frontier.edge_map`
    whose body is the work of one edge (the default rewrite, shown in that pass's
    docstring).

    After `frontier-maps-to-kernels`: the degree kernel, scan and read-back of
    EDGE_ONLY, then `ceil(%frontier_edges / EDGES_PER_THREAD)` threads of
    ```mlir
    gir_gpu.kernel @map_s1(%frontier_edges : i32, %offsets : memref<?xi32>, ...) {
      %span = gir_gpu.shared_alloc : memref<2xi32, #gir_gpu.workgroup>
      %chunk_start = arith.muli %block, %c1024 : i32   // block_size * EDGES_PER_THREAD
      scf.if %thread_is_0 {                             // the chunk's first and last items
        ...  memref.store %first, %span[%c0]  ...  memref.store %stop, %span[%c1]
      }
      gir_gpu.barrier
      scf.if %chunk_start_in_range {
        scf.for %k = %c0 to %c4 step %c1 : i32 {
          %target = ...                                 // chunk_start + thread + k * block_size
          scf.if %target_in_range {
            %item, %hi = scf.while ... // binary search in [%first, %stop)
            ...                        // the edge's vertex and position, the map's body
    ```
    """

    value = "STRICT"
    kernel_prefix = "strict"
    wide_edges = True

    def form_map_kernel(
        self, edge_map: frontier.EdgeMapOp, kernels: KernelBuilder, b: Builder, edges: FrontierEdges
    ) -> None:
        block_size = frontier.block_size_of(edge_map)
        chunk = block_size * EDGES_PER_THREAD
        edge_type = edges.total.type
        assert isinstance(edge_type, IntegerType)

        def build(k: Builder, body: MapBody) -> None:
            span = k.insert(gir_gpu.SharedAllocOp(i32, 2)).result
            span.name_hint = "span"
            thread = k.insert(gir_gpu.IdOp(gir_gpu.Dimension.THREAD)).result
            thread.name_hint = "thread"
            block = k.insert(gir_gpu.IdOp(gir_gpu.Dimension.BLOCK)).result
            block.name_hint = "block"
            if edge_type == i32:
                start = k.insert(arith.MuliOp(block, constant(k, chunk))).result
                start.name_hint = "chunk_start"
                _walk_chunk(k, body, edges, span, thread, start, block_size)
                return
            in_loop, number = _chunk_loop(k, edges.total, block, chunk)
            start = in_loop.insert(arith.MuliOp(number, constant(in_loop, chunk, edge_type))).result
            start.name_hint = "chunk_start"
            _walk_chunk(in_loop, body, edges, span, thread, start, block_size)
            in_loop.insert(gir_gpu.BarrierOp())  # the next chunk's leader rewrites the span

        per_thread = constant(b, EDGES_PER_THREAD, edge_type)
        threads = b.insert(
            arith.DivSIOp(
                b.insert(arith.AddiOp(edges.total, constant(b, EDGES_PER_THREAD - 1, edge_type))).result,
                per_thread,
            )
        ).result
        if edge_type != i32:
            threads = strided_threads(b, threads)
        kernels.map_kernel(edge_map, threads, build, b)


def _chunk_loop(k: Builder, total: SSAValue, block: SSAValue, chunk: int) -> tuple[Builder, SSAValue]:
    """Device code at the kernel's top level: `for c = block; c < ceil(total /
    chunk); c += grid_dim` (block-uniform, so the barriers inside are reached
    by whole blocks); a builder inside the loop and `c` as `total`'s type."""
    count = ceil_div(k, total, constant(k, chunk, total.type))
    count.name_hint = "chunks"
    grid = k.insert(gir_gpu.IdOp(gir_gpu.Dimension.GRID_DIM)).result
    end = scf.YieldOp()
    chunks = Block([end], arg_types=[IndexType()])
    chunks.args[0].name_hint = "chunk"
    k.insert(scf.ForOp(as_index(k, block), as_index(k, count), as_index(k, grid), [], chunks))
    inner = Builder(InsertPoint.before(end))
    number = inner.insert(arith.IndexCastOp(chunks.args[0], total.type)).result
    return inner, number


def _walk_chunk(
    k: Builder,
    body: MapBody,
    edges: FrontierEdges,
    span: SSAValue,
    thread: SSAValue,
    start: SSAValue,
    block_size: int,
) -> None:
    """Device code: the block's walk of the chunk of frontier edges from `start`
    (of the edge index type): thread 0 finds the chunk's items into `span`, a
    barrier, then each thread takes EDGES_PER_THREAD edges `block_size` apart."""
    edge_type = start.type
    chunk = block_size * EDGES_PER_THREAD
    in_range = k.insert(arith.CmpiOp(start, edges.total, "slt")).result
    is_first = k.insert(arith.CmpiOp(thread, constant(k, 0), "eq")).result
    leader = when(k, k.insert(arith.AndIOp(is_first, in_range)).result)
    end = leader.insert(arith.AddiOp(start, constant(leader, chunk, edge_type))).result
    last_edge = leader.insert(arith.MinSIOp(end, edges.total)).result
    last_edge = leader.insert(arith.SubiOp(last_edge, constant(leader, 1, edge_type))).result
    first = edges.item_of(leader, start)
    last = edges.item_of(leader, last_edge, low=first)
    stop = leader.insert(arith.AddiOp(last, constant(leader, 1))).result
    for slot, value in enumerate((first, stop)):
        leader.insert(memref.StoreOp.get(value, span, [constant(leader, slot, IndexType())]))
    k.insert(gir_gpu.BarrierOp())
    walk = when(k, in_range)
    first, stop = (
        walk.insert(memref.LoadOp.get(span, [constant(walk, slot, IndexType())])).res
        for slot in (0, 1)
    )
    first.name_hint, stop.name_hint = "first", "stop"
    own = walk.insert(arith.AddiOp(start, resize(walk, thread, edge_type))).result
    step_end = scf.YieldOp()
    step_body = Block([step_end], arg_types=[i32])
    bounds = (constant(walk, 0), constant(walk, EDGES_PER_THREAD), constant(walk, 1))
    walk.insert(scf.ForOp(*bounds, [], step_body))
    step = step_body.args[0]
    step.name_hint = "step"
    s = Builder(InsertPoint.before(step_end))
    stride = s.insert(arith.MuliOp(step, constant(s, block_size))).result
    target = s.insert(arith.AddiOp(own, resize(s, stride, edge_type))).result
    target.name_hint = "target"
    each = when(s, s.insert(arith.CmpiOp(target, edges.total, "slt")).result)
    item = edges.item_of(each, target, low=first, high=stop)
    body(each, edges.edge_of(each, item, target))
