"""G2's EDGE_ONLY load balance: one thread per edge of the input frontier."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import i32
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from gir.dialects import frontier, gir_gpu, host
from gir.dialects.schedule import LoadBalance
from gir.passes.gpu_kernels import GpuContext, KernelBuilder, as_i32, as_index, constant
from gir.passes.layouts import layout
from gir.passes.load_balance import LoadBalanceStrategy, to_edge_map
from gir.passes.representations import FrontierRepresentation


class EdgeOnly(LoadBalanceStrategy):
    """EDGE_ONLY load balance: one thread per edge of the frontier (degree scan, then a search per thread).

    The traversal becomes a `frontier.edge_map` whose body is the work of one
    edge. Its kernel former counts the degree of each frontier vertex (a kernel
    over the frontier; one more slot holds 0), turns the degrees into edge
    offsets with a device-wide exclusive scan (`gir_gpu.exclusive_scan`), reads
    back the total, and launches one thread per frontier edge: thread `t` finds
    its vertex by binary search (the last `i` with `offsets[i] <= t`) and takes
    edge `begin(vertex) + t - offsets[i]`. A hub's edges are spread over many
    threads, so an element indexed by the source is shared (atomics included).

    Before:
    ```mlir
    %o = frontier.edge_traverse PUSH EDGE_ONLY CSR %e : !graph.edgeset
        from %in : !frontier.queue into %empty : !frontier.queue to {...} apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      ...
    } -> !frontier.queue
    ```
    After `frontier-lb-edge-only`:
    ```mlir
    %o = frontier.edge_map EDGE_ONLY CSR %e : !graph.edgeset from %in : !frontier.queue
        into %empty : !frontier.queue -> !frontier.queue {
    ^bb0(%src : !graph.vertex, %edge : index):
      %dst = frontier.neighbor CSR %e[%edge] : !graph.edgeset
      ...                                   // the to filter, then the edge function
      frontier.yield
    }
    ```
    After `frontier-maps-to-kernels` (host side):
    ```mlir
    host.launch @edge_only_degrees_s1 ... (%in_size, %in_items, %row_ptr, %degrees)
    host.write %c0, %degrees[%in_size] : i32, memref<?xi32>, i32
    gir_gpu.exclusive_scan %degrees, %offsets, %slots : memref<?xi32>, memref<?xi32>, i32
    %total = host.read %offsets[%in_size] : memref<?xi32>, i32 -> i32
    host.launch @map_s1 ... // %total threads
    ```
    """

    value = LoadBalance.EDGE_ONLY

    def owns_iterated_vertex(self) -> bool:
        return False

    def rewrite(self, traverse: frontier.EdgeTraverseOp) -> None:
        to_edge_map(traverse)

    def form_kernel(self, edge_map: frontier.EdgeMapOp, kernels: KernelBuilder) -> None:
        ctx = kernels.ctx
        b = Builder(InsertPoint.before(edge_map))
        source, values = kernels.frontier(edge_map.input)
        edges = layout(edge_map.layout.data)
        count = source.thread_count(ctx, b, values)
        degrees = _scratch(ctx, source, "degrees")
        offsets = _scratch(ctx, source, "offsets")
        label = edge_map.label.data if edge_map.label is not None else "edges"

        def count_degree(inner: Builder, gid: SSAValue) -> None:
            vertex = source.thread_vertex(ctx, inner, values, gid)
            begin, end = edges.edge_range(ctx, inner, vertex)
            degree = as_i32(inner, inner.insert(arith.SubiOp(end, begin)).result)
            inner.insert(memref.StoreOp.get(degree, degrees, [as_index(inner, gid)]))

        kernels.launch_threads(
            f"edge_only_degrees_{label}",
            count,
            b,
            count_degree,
            frontier.block_size_of(edge_map),
        )
        b.insert(host.WriteOp(constant(b, 0), degrees, count))
        slots = b.insert(arith.AddiOp(count, constant(b, 1))).result
        b.insert(gir_gpu.ExclusiveScanOp(degrees, offsets, slots))
        total = b.insert(host.ReadOp(offsets, count)).result
        total.name_hint = "frontier_edges"

        def thread(inner: Builder, gid: SSAValue) -> list[SSAValue]:
            item = _last_at_most(inner, offsets, count, gid)
            vertex = source.thread_vertex(ctx, inner, values, item)
            begin, _ = edges.edge_range(ctx, inner, vertex)
            first = inner.insert(memref.LoadOp.get(offsets, [as_index(inner, item)])).res
            rank = inner.insert(arith.SubiOp(gid, first)).result
            edge = inner.insert(arith.AddiOp(begin, as_index(inner, rank))).result
            return [vertex, edge]

        kernels.thread_kernel(edge_map, total, thread, b)


def _scratch(ctx: GpuContext, source: FrontierRepresentation, what: str) -> SSAValue:
    """A program-wide i32 buffer with one slot per item of a `source` frontier, plus one."""

    def make(b: Builder) -> SSAValue:
        slots = b.insert(arith.AddiOp(source.capacity(ctx), constant(b, 1))).result
        buffer = b.insert(host.AllocOp(slots, i32)).result
        buffer.name_hint = what
        return buffer

    return ctx.shared(f"edge_only_{what}_{source.type.name}", make)


def _last_at_most(b: Builder, offsets: SSAValue, count: SSAValue, target: SSAValue) -> SSAValue:
    """Device code: the last i in [0, count) with offsets[i] <= target, by binary
    search over the nondecreasing offsets (offsets[0] <= target < offsets[count])."""
    low, high = constant(b, 0), count
    before = Block(arg_types=[i32, i32])
    lo, hi = before.args
    c = Builder(InsertPoint.at_end(before))
    width = c.insert(arith.SubiOp(hi, lo)).result
    wide = c.insert(arith.CmpiOp(width, constant(c, 1), "sgt")).result
    c.insert(scf.ConditionOp(wide, lo, hi))
    after = Block(arg_types=[i32, i32])
    a = Builder(InsertPoint.at_end(after))
    lo, hi = after.args
    middle = a.insert(arith.DivSIOp(a.insert(arith.AddiOp(lo, hi)).result, constant(a, 2))).result
    value = a.insert(memref.LoadOp.get(offsets, [as_index(a, middle)])).res
    at_most = a.insert(arith.CmpiOp(value, target, "sle")).result
    new_low = a.insert(arith.SelectOp(at_most, middle, lo)).result
    new_high = a.insert(arith.SelectOp(at_most, hi, middle)).result
    a.insert(scf.YieldOp(new_low, new_high))
    search = b.insert(scf.WhileOp([low, high], [i32, i32], Region(before), Region(after)))
    search.results[0].name_hint = "item"
    return search.results[0]
