"""Merge-path load balance (Gunrock, after Merrill and Garland): equal shares of
frontier items and edges per thread (a gir extension of G2's schedule language)."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, i32
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from gir.dialects import frontier
from gir.passes.gpu_kernels import as_index, constant, kernel_skeleton, resize
from gir.passes.kernel_builder import KernelBuilder, MapBody, strided_skeleton, strided_threads
from gir.passes.load_balance.edge_offsets import EdgeOffsetsStrategy, FrontierEdges

PATH_PER_THREAD = 8
"""How many steps of the merge path (items and edges together) each thread takes."""


class MergePath(EdgeOffsetsStrategy):
    """MERGE_PATH load balance: each thread takes an equal share of the merged sequence of frontier items and edges.

    Gunrock's merge-based load-balanced partitioning, per thread as in Merrill
    and Garland's merge-path CSR SpMV. The frontier's items and its edges
    (numbered by the degree scan that EDGE_ONLY also builds) are merged into one
    path: item `i` is passed after its edges `offsets[i]` to `offsets[i + 1] -
    1`. Thread `t` takes the steps `t * PATH_PER_THREAD` to `(t + 1) *
    PATH_PER_THREAD - 1` of the path: it finds its start, the item `i` and edge
    `j` with `i + j = t * PATH_PER_THREAD`, by a binary search along that
    diagonal (the first `i` whose item ends after edge `diagonal - i - 1`), then
    walks: the edges of item `i` up to its share's end, then the next item.
    Hubs and runs of edgeless items cost every thread the same, so no thread
    waits on a long adjacency list or a long stretch of empty ones. An element
    indexed by the source is shared (atomics included).

    With 64-bit edge indices the path's steps (diagonals, shares, edges) are
    i64, items stay i32, and the grid has at most
    `kernel_builder.STRIDED_THREADS` threads, each taking every share a grid
    apart.

    The kernel uses no work-group memory, barrier or sub-group operation: CUDA
    and OpenCL print the same loops, on every device.

    `frontier-lower-load-balance` makes its traversal a `frontier.edge_map`
    whose body is the work of one edge (the default rewrite, shown in that pass's
    docstring).

    After `frontier-maps-to-kernels`: the degree kernel, scan and read-back of
    EDGE_ONLY, then `ceil((items + %frontier_edges) / PATH_PER_THREAD)` threads of
    ```mlir
    gir_gpu.kernel @map_s1(%path_threads : i32, %path : i32, %frontier_edges : i32, ...) {
      ...                                     // if %gid < %path_threads:
      %diagonal = arith.muli %gid, %c8 : i32
      %share_end = arith.minsi %diagonal_plus_8, %path : i32
      %start_item, %hi = scf.while ...        // the search along the diagonal
      %start_edge = arith.subi %diagonal, %start_item : i32
      scf.while (%i = %start_item, %j = %start_edge) ... {
        ...                                   // while %i + %j < %share_end
      } do {
      ^bb0(%item : i32, %next_edge : i32):
        %item_end = memref.load %offsets[%item + 1] ...
        %vertex = memref.load %queue[%item] ...
        scf.for %edge = %from to %to step %c1 {   // its edges within the share
          ...                                     // the map's body
        }
        ...                                   // then the next item, if in the share
      }
    ```
    """

    value = "MERGE_PATH"
    kernel_prefix = "merge_path"
    wide_edges = True

    def form_map_kernel(
        self, edge_map: frontier.EdgeMapOp, kernels: KernelBuilder, b: Builder, edges: FrontierEdges
    ) -> None:
        steps = edges.total.type  # the path's steps: items and edges together
        assert isinstance(steps, IntegerType)
        path = b.insert(arith.AddiOp(resize(b, edges.count, steps), edges.total)).result
        path.name_hint = "path"
        padded = b.insert(arith.AddiOp(path, constant(b, PATH_PER_THREAD - 1, steps))).result
        threads = b.insert(arith.DivSIOp(padded, constant(b, PATH_PER_THREAD, steps))).result
        threads.name_hint = "path_threads"

        def share(inner: Builder, gid: SSAValue, body: MapBody) -> None:
            diagonal = inner.insert(arith.MuliOp(gid, constant(inner, PATH_PER_THREAD, steps))).result
            diagonal.name_hint = "diagonal"
            share_end = inner.insert(
                arith.MinSIOp(
                    inner.insert(arith.AddiOp(diagonal, constant(inner, PATH_PER_THREAD, steps))).result,
                    path,
                )
            ).result
            share_end.name_hint = "share_end"
            item = _diagonal_search(inner, edges, diagonal)
            edge = inner.insert(arith.SubiOp(diagonal, resize(inner, item, steps))).result
            edge.name_hint = "start_edge"
            _walk(inner, edges, item, edge, share_end, body)

        if steps == i32:

            def build(k: Builder, body: MapBody) -> None:
                inner, gid = kernel_skeleton(k.insertion_point.block, threads)
                share(inner, gid, body)

            kernels.map_kernel(edge_map, threads, build, b, cooperative=False)
            return

        def build_strided(k: Builder, body: MapBody) -> None:
            inner, unit = strided_skeleton(k, threads)
            share(inner, unit, body)

        kernels.map_kernel(edge_map, strided_threads(b, threads), build_strided, b, cooperative=False)


def _diagonal_search(b: Builder, edges: FrontierEdges, diagonal: SSAValue) -> SSAValue:
    """Device code: how many items the merge path passes in its first `diagonal`
    steps: the least `i` in [max(0, diagonal - total), min(diagonal, items)] whose
    item ends after edge `diagonal - i - 1` (offsets[i + 1] > diagonal - i - 1).
    Steps are of `diagonal`'s type (the edge index type), items i32: both
    bounds are at most the items."""
    steps = diagonal.type
    low = b.insert(
        arith.MaxSIOp(b.insert(arith.SubiOp(diagonal, edges.total)).result, constant(b, 0, steps))
    ).result
    low = resize(b, low, i32)
    high = resize(b, b.insert(arith.MinSIOp(diagonal, resize(b, edges.count, steps))).result, i32)
    before = Block(arg_types=[i32, i32])
    lo, hi = before.args
    c = Builder(InsertPoint.at_end(before))
    c.insert(scf.ConditionOp(c.insert(arith.CmpiOp(lo, hi, "slt")).result, lo, hi))
    after = Block(arg_types=[i32, i32])
    lo, hi = after.args
    a = Builder(InsertPoint.at_end(after))
    pivot = a.insert(arith.DivSIOp(a.insert(arith.AddiOp(lo, hi)).result, constant(a, 2))).result
    next_item = a.insert(arith.AddiOp(pivot, constant(a, 1))).result
    item_end = a.insert(memref.LoadOp.get(edges.offsets, [as_index(a, next_item)])).res
    edge = a.insert(
        arith.SubiOp(a.insert(arith.SubiOp(diagonal, resize(a, pivot, steps))).result, constant(a, 1, steps))
    )
    passed = a.insert(arith.CmpiOp(item_end, edge.result, "sle")).result
    new_low = a.insert(arith.SelectOp(passed, next_item, lo)).result
    new_high = a.insert(arith.SelectOp(passed, hi, pivot)).result
    a.insert(scf.YieldOp(new_low, new_high))
    search = b.insert(scf.WhileOp([low, high], [i32, i32], Region(before), Region(after)))
    search.results[0].name_hint = "start_item"
    return search.results[0]


def _walk(
    b: Builder,
    edges: FrontierEdges,
    item: SSAValue,
    edge: SSAValue,
    share_end: SSAValue,
    body: MapBody,
) -> None:
    """Device code: the walk along the merge path from item `item` (i32) and
    frontier edge `edge` to step `share_end` (both of the edge index type): the
    body on each edge met, item by item."""
    steps = share_end.type
    before = Block(arg_types=[i32, steps])
    i, j = before.args
    c = Builder(InsertPoint.at_end(before))
    step = c.insert(arith.AddiOp(resize(c, i, steps), j)).result
    c.insert(scf.ConditionOp(c.insert(arith.CmpiOp(step, share_end, "slt")).result, i, j))
    after = Block(arg_types=[i32, steps])
    i, j = after.args
    i.name_hint, j.name_hint = "item", "next_edge"
    a = Builder(InsertPoint.at_end(after))
    ctx = edges.ctx
    first = a.insert(memref.LoadOp.get(edges.offsets, [as_index(a, i)])).res
    next_item = a.insert(arith.AddiOp(i, constant(a, 1))).result
    end = a.insert(memref.LoadOp.get(edges.offsets, [as_index(a, next_item)])).res
    end.name_hint = "item_end"
    reach = a.insert(arith.SubiOp(share_end, resize(a, i, steps))).result
    stop = a.insert(arith.MinSIOp(end, reach)).result
    vertex = edges.source.thread_vertex(ctx, a, edges.values, i)
    begin, _ = edges.edges.edge_range(ctx, a, vertex)
    lower = a.insert(arith.AddiOp(begin, as_index(a, a.insert(arith.SubiOp(j, first)).result)))
    upper = a.insert(arith.AddiOp(begin, as_index(a, a.insert(arith.SubiOp(stop, first)).result)))
    one = a.insert(arith.ConstantOp(IntegerAttr(1, IndexType()))).result
    loop_end = scf.YieldOp()
    loop_body = Block([loop_end], arg_types=[IndexType()])
    loop_body.args[0].name_hint = "edge"
    a.insert(scf.ForOp(lower.result, upper.result, one, [], loop_body))
    body(Builder(InsertPoint.before(loop_end)), [vertex, loop_body.args[0]])
    # The item is passed only if its last edge was reached and the step past it
    # is still in this thread's share.
    finished = a.insert(arith.CmpiOp(stop, end, "eq")).result
    past = a.insert(arith.AddiOp(resize(a, i, steps), end)).result
    in_share = a.insert(arith.CmpiOp(past, share_end, "slt")).result
    passed = a.insert(arith.AndIOp(finished, in_share)).result
    a.insert(scf.YieldOp(a.insert(arith.SelectOp(passed, next_item, i)).result, stop))
    b.insert(scf.WhileOp([item, edge], [i32, steps], Region(before), Region(after)))
