"""`frontier-edge-blocking`: G2's EdgeBlocking, the traversal of the BLOCKED layout
(block after block, or in one sweep)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp, UnitAttr, i32
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from gir.diagnostics import UserError
from gir.dialects import frontier, gir_gpu
from gir.dialects.schedule import SimpleScheduleAttr
from gir.ir_walk import walk
from gir.passes.gpu_kernels import GpuContext, as_index, ceil_div, constant
from gir.passes.kernel_builder import KernelBuilder, MapBody
from gir.passes.ir_utils import main_function, statement
from gir.passes.layouts import layout
from gir.passes.layouts.blocked import SWEEP_ATTR, Blocked, block_count, blocked_array, is_blocked
from gir.passes.traversal_regions import drop_early_exit_marks

RESIDENT_THREADS = 132 * gir_gpu.RESIDENT_THREADS_PER_SM
"""The threads an H100 or H200 keeps resident (132 SMs x 2048)."""

BLOCKED_THREADS = 4 * RESIDENT_THREADS
"""The most threads a blocked traversal walking block after block launches: four
times as many as are resident, so that they work on about one block at a time.
On an H100 (PageRank's gather, rmat:22 and road:2048:2048, blocks of 0x42000)
this grid beat the resident-sized one by 6% on rmat and matched it on road, where
16 times as many threads lost 20%."""

SWEEP_THREADS = RESIDENT_THREADS
"""The most threads a blocked traversal in one sweep launches: as many as are
resident, so that the edges in flight are one window moving through the tiles
in order. On an H200 (PageRank's gather on rmat:22 after a degree ordering,
tiles of 0x4000, blocks of 256 threads, streaming index loads) this grid took
0.541 ms where four times as many threads took 0.583 (docs/performance.md)."""

SWEEP_CHUNKS_PER_BLOCK = 4
"""The chunks each thread block of the sweep takes: the edges are cut into
`SWEEP_CHUNKS_PER_BLOCK` chunks a block (each a whole number of the block's
strides), so that no block is left with a last chunk while the others wait.
(On an H200, PageRank's gather after a degree ordering, tiles of 0x4000,
264 x 1024 threads: 0.464-0.469 ms on rmat:22 and 0.407 on rmat:21:32,seed=7
where chunks of 65,536 edges, about 7.4 a block, took 0.461-0.500 and 0.430;
2 to 8 chunks a block were within the launches' noise on rmat:22.)"""


def blocking_unsupported(schedule: SimpleScheduleAttr, over_all_vertices: bool) -> str | None:
    """Why a traversal with `schedule` cannot be edge-blocked (None: it can, or it
    asks for no blocking). `over_all_vertices`: it has no input frontier. (Its
    load balance composes with blocking: the schedule's verifier asks it.)"""
    if not schedule.edge_blocking.data.blocked:
        return None
    if not over_all_vertices:
        return (
            "walks every edge of the graph, so it needs a traversal over all vertices "
            "(edges.apply), not one from a frontier"
        )
    return None


@dataclass(frozen=True)
class FrontierEdgeBlocking(ModulePass):
    """Forms the kernel of each edge map over the BLOCKED layout: every thread walks block after block (G2's EdgeBlocking), or all edges in one sweep.

    The graph's edges were tiled at load by the range of the endpoint read at
    random (`host.graph_array ... blocked_*`, one program-wide blocking size):
    PUSH (BLOCKED) by destination, so the destinations a block writes fit in
    L2; PULL (BLOCKED_CSC, G2's PageRank schedule) the transpose by source, each
    tile in destination order, so the sources a block reads fit in L2. The
    kernel is G2's Algorithm 2: a fixed grid of min(E, BLOCKED_THREADS) threads
    loops over the blocks; within a block the threads stride over its edges
    (thread `gid` takes edges begin+gid, begin+gid+width, ...), the iterated
    vertex of an edge is read from the layout (`blocked_src`; pulling
    `csc_blocked_dst`), and a block barrier ends each block, which keeps a
    block's threads on one tile. An edge map marked `blocked_sweep`
    (`configLoadBalance(EDGE_ONLY, BLOCKED_SWEEP, N)`) walks the same layout
    in one sweep over all its edges, [block_offsets[0], block_offsets[blocks]),
    with no block loop and no barrier: the edges are cut into chunks dealt to
    the thread blocks in turn (block k takes chunks k, k + grid, ...), and a
    block's threads stride over one chunk at a time, so the grid moves through
    the tiles in order while each block stays a while on a run of edges and
    every block meets dense and sparse tiles alike. A chunk is as many
    strides of a block as give each block `SWEEP_CHUNKS_PER_BLOCK` chunks,
    at least one. The sweep is latency bound, so its kernel asks for full
    occupancy (`gir_gpu.RESIDENT_BLOCKS`). (On an H200, PageRank on rmat:22
    after a degree ordering: one sweep over tiles of 0x4000 took 0.578 ms
    against 0.667-0.712 ms with the barriers; chunks took a whole iteration
    of `pr_best_social.gt` from 0.533 ms, the grid's stride over all edges,
    to 0.496 ms, and four chunks a block to 0.495; docs/performance.md.) The sweep
    launches at most `SWEEP_THREADS`, the walk with barriers
    `BLOCKED_THREADS`. Neither walk has a `gid < threads` guard: each covers
    its edges whatever the grid. Only edge maps over all vertices are
    blocked (each edge is visited once, whatever its source), as
    `graph-default-schedule` checks. In both walks each edge is read by one
    thread, once: the loads of its own elements of arrays the body does not
    write (`array[edge]`: the layout's endpoints, its weights) are marked
    `gir_gpu.STREAMING`, so that they do not evict the vertex data read at
    random (CUDA's `__ldcs`: PageRank's gather above in tiles of 0x8000 on
    four times the resident threads, 0.682 ms with plain loads, 0.622 streamed).

    Before (after `frontier-to-host-values`):
    ```mlir
    frontier.edge_map EDGE_ONLY BLOCKED %e : !graph.edgeset from %all : !frontier.all
        attributes {blocking_size = 1024 : i64} {
    ^bb0(%src : !graph.vertex, %edge : index):
      %dst = ... memref.load %blocked_dst[%edge] ...
      frontier.yield
    }
    ```
    After:
    ```mlir
    gir_gpu.kernel @map_s1(%blocks : i32, %block_offsets : memref<?xi32>, ...) {
      %gid = gir_gpu.id global
      scf.for %k = %c0 to %blocks step %c1 {
        %begin = memref.load %block_offsets[%k] ...
        scf.for %edge = %begin + %gid to %end step %width {
          %src = memref.load %blocked_src[%edge] {gir_gpu.streaming} ...   // then the body
        }
        gir_gpu.barrier
      }
    }
    %threads = arith.minsi %num_edges, %c1081344 : i32   // the sweep: %c270336
    host.launch @map_s1 ...
    ```
    After, with `blocked_sweep` on the edge map (the host side as above):
    ```mlir
    gir_gpu.kernel @map_s1(%block_offsets : memref<?xi32>, %blocks : i32, ...)
        attributes {gir_gpu.resident_blocks = 256 : i64} {
      %begin = memref.load %block_offsets[%c0] ...
      %end = memref.load %block_offsets[%blocks] ...
      %chunk = ...   // block_dim * ((end - begin - 1) / (4 * grid threads) + 1)
      scf.for %number = %block to %chunks step %grid_dim {
        %first = %begin + %number * %chunk ...
        %last = %first + min(%chunk, %end - %first) ...
        scf.for %edge = %first + %thread to %last step %block_dim {
          %src = memref.load %blocked_src[%edge] {gir_gpu.streaming} ...   // then the body
        }
      }
    }
    ```
    """

    name = "frontier-edge-blocking"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        maps = [
            child
            for child in walk(main_function(op))
            if isinstance(child, frontier.EdgeMapOp) and is_blocked(child.layout.data)
        ]
        if maps:
            kernels = KernelBuilder(GpuContext.of(op))
            for edge_map in maps:
                _form_kernel(edge_map, kernels)
            for kernel in op.ops:
                if isinstance(kernel, gir_gpu.KernelOp):  # blocked walks cross destinations
                    drop_early_exit_marks(kernel)


def _form_kernel(edge_map: frontier.EdgeMapOp, kernels: KernelBuilder) -> None:
    """Replaces `edge_map` by its blocked kernel (block after block, or one sweep)
    and launch."""
    if not isinstance(edge_map.input.type, frontier.AllVerticesType):
        raise UserError.at(edge_map,
            f"error: edge blocking of {statement(edge_map)} needs a traversal over all "
            f"vertices, not over a {edge_map.input.type}"
        )
    ctx = kernels.ctx
    b = Builder(InsertPoint.before(edge_map))
    blocks = ctx.shared("edge_blocking_blocks", lambda setup: block_count(ctx, setup))
    tiling = layout(edge_map.layout.data)
    assert isinstance(tiling, Blocked)
    offsets = tiling.block_offsets(ctx)
    owners = blocked_array(ctx, tiling.owners)
    sweep = isinstance(edge_map.attributes.get(SWEEP_ATTR), UnitAttr)
    most = SWEEP_THREADS if sweep else BLOCKED_THREADS
    threads = ctx.shared(f"edge_blocking_threads_{most}", _thread_count(ctx, most))

    def build(at: Builder, body: MapBody) -> None:
        if not sweep:
            gid = at.insert(gir_gpu.IdOp(gir_gpu.Dimension.GLOBAL)).result
            gid.name_hint = "gid"
        grid = at.insert(gir_gpu.IdOp(gir_gpu.Dimension.GRID_DIM)).result
        per_block = at.insert(gir_gpu.IdOp(gir_gpu.Dimension.BLOCK_DIM)).result
        width = as_index(at, at.insert(arith.MuliOp(grid, per_block)).result)
        zero = at.insert(arith.ConstantOp(IntegerAttr(0, IndexType()))).result

        def walk_edges(b: Builder, begin: SSAValue, end: SSAValue, offset: SSAValue, stride: SSAValue) -> None:
            """The thread's edges of [begin, end): begin+offset, then every `stride`."""
            first = b.insert(arith.AddiOp(begin, as_index(b, offset))).result
            edges = Block(arg_types=[IndexType()])
            (edge,) = edges.args
            edge.name_hint = "edge"
            edges.add_op(scf.YieldOp())
            at_edge = Builder(InsertPoint.before(edges.last_op))
            vertex = at_edge.insert(memref.LoadOp.get(owners, [edge])).res
            vertex.name_hint = tiling.owner_name
            body(at_edge, [vertex, edge])
            _mark_streamed_loads(edges, edge)
            b.insert(scf.ForOp(first, end, stride, [], Region(edges)))

        if sweep:
            begin = _load_index(at, offsets, zero)
            end = _load_index(at, offsets, as_index(at, blocks))
            _walk_chunks(at, begin, end, (grid, per_block, width), walk_edges)
            return
        one = at.insert(arith.ConstantOp(IntegerAttr(1, IndexType()))).result
        block = Block(arg_types=[IndexType()])
        (index,) = block.args
        index.name_hint = "block"
        inner = Builder(InsertPoint.at_end(block))
        begin = _load_index(inner, offsets, index)
        end = _load_index(inner, offsets, inner.insert(arith.AddiOp(index, one)).result)
        walk_edges(inner, begin, end, gid, width)  # the grid's threads stride over the block
        inner.insert(gir_gpu.BarrierOp())
        inner.insert(scf.YieldOp())
        at.insert(scf.ForOp(zero, as_index(at, blocks), one, [], Region(block)))

    # No `gid < threads` guard (launch_blocks) for either walk: each covers its
    # edges whatever the grid (the barrier walk by the whole grid's stride, the
    # sweep by chunks dealt to the blocks), so every launched thread takes its
    # share; the barrier version also needs whole blocks to reach its barrier.
    # The sweep is latency bound: an SM must keep both of its 1024-thread blocks
    # (40 registers a thread let it keep one); at 32 nvcc spills nothing.
    kernels.map_kernel(edge_map, threads, build, b, cooperative=True, resident=sweep)


def _walk_chunks(
    b: Builder,
    begin: SSAValue,
    end: SSAValue,
    launch: tuple[SSAValue, SSAValue, SSAValue],
    walk_edges: Callable[..., None],
) -> None:
    """The sweep over [begin, end): chunks of `chunk` edges dealt to the thread
    blocks in turn (block k takes chunks k, k + grid, ...), each block's threads
    striding over one chunk at a time (`walk_edges` with the thread's index and
    the block's width). `launch`: the grid's blocks and a block's threads (i32)
    and the grid's threads (an index). A chunk is `rounds` strides of a block,
    ceil(edges / (SWEEP_CHUNKS_PER_BLOCK x the grid's threads)), at least one:
    every block takes SWEEP_CHUNKS_PER_BLOCK chunks, or fewer on a graph with
    fewer edges than that many strides. The loop counts chunks, not edges, so
    that no index passes the end by a grid's worth of edges."""
    block = as_index(b, b.insert(gir_gpu.IdOp(gir_gpu.Dimension.BLOCK)).result)
    thread = b.insert(gir_gpu.IdOp(gir_gpu.Dimension.THREAD)).result
    grid, per_block, width = as_index(b, launch[0]), as_index(b, launch[1]), launch[2]
    total = b.insert(arith.SubiOp(end, begin)).result
    share = b.insert(arith.MuliOp(width, constant(b, SWEEP_CHUNKS_PER_BLOCK, IndexType()))).result
    rounds = ceil_div(b, total, share)  # at least 1
    chunk = b.insert(arith.MuliOp(rounds, per_block)).result
    chunk.name_hint = "chunk"
    count = ceil_div(b, total, chunk)
    count.name_hint = "chunks"
    chunks = Block(arg_types=[IndexType()])
    (number,) = chunks.args
    number.name_hint = "number"
    inner = Builder(InsertPoint.at_end(chunks))
    first = inner.insert(arith.AddiOp(begin, inner.insert(arith.MuliOp(number, chunk)).result)).result
    left = inner.insert(arith.SubiOp(end, first)).result
    last = inner.insert(arith.AddiOp(first, inner.insert(arith.MinSIOp(chunk, left)).result)).result
    walk_edges(inner, first, last, thread, per_block)
    inner.insert(scf.YieldOp())
    b.insert(scf.ForOp(block, count, grid, [], Region(chunks)))


def _mark_streamed_loads(edge_loop: Block, edge: SSAValue) -> None:
    """Marks the loads of `edge_loop`'s body that read the edge's own element
    (`array[edge]`) of an array the body never writes as `gir_gpu.STREAMING`:
    each edge is walked once, by one thread, so no other load in the launch
    reads that element again."""
    written = {
        operand
        for op in walk(edge_loop)
        if not isinstance(op, memref.LoadOp)
        for operand in op.operands
        if isinstance(operand.type, MemRefType)
    }
    for op in walk(edge_loop):
        if isinstance(op, memref.LoadOp) and tuple(op.indices) == (edge,) and op.memref not in written:
            op.attributes[gir_gpu.STREAMING] = UnitAttr()


def _thread_count(ctx: GpuContext, most: int) -> Callable[[Builder], SSAValue]:
    """Makes the threads of a blocked traversal at setup: min(E, most)."""

    def make(b: Builder) -> SSAValue:
        bound = constant(b, most, ctx.edge_type)
        threads = b.insert(arith.MinSIOp(ctx.edges, bound)).result
        if ctx.edge_type != i32:  # at most `most`: an i32
            threads = b.insert(arith.TruncIOp(threads, i32)).result
        threads.name_hint = "threads"
        return threads

    return make


def _load_index(b: Builder, buffer: SSAValue, index: SSAValue) -> SSAValue:
    """Device code: `buffer[index]` (an i32) as an index."""
    return as_index(b, b.insert(memref.LoadOp.get(buffer, [index])).res)
