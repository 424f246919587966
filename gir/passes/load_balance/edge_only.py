"""G2's EDGE_ONLY load balance: one thread per edge of the input frontier."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.ir import SSAValue
from xdsl.rewriter import InsertPoint

from gir.dialects import frontier
from gir.passes.gpu_kernels import as_index
from gir.passes.kernel_builder import KernelBuilder
from gir.passes.layouts import layout
from gir.passes.load_balance.edge_offsets import EdgeOffsetsStrategy, FrontierEdges


class EdgeOnly(EdgeOffsetsStrategy):
    """EDGE_ONLY load balance: one thread per edge of the frontier (degree scan, then a search per thread).

    The traversal becomes a `frontier.edge_map` whose body is the work of one
    edge. Its kernel former counts the degree of each frontier vertex (a kernel
    over the frontier; one more slot holds 0), turns the degrees into edge
    offsets with a device-wide exclusive scan (`gir_gpu.exclusive_scan`), reads
    back the total, and launches one thread per frontier edge: thread `t` finds
    its vertex by binary search (the last `i` with `offsets[i] <= t`) and takes
    edge `begin(vertex) + t - offsets[i]`. A hub's edges are spread over many
    threads, so an element indexed by the source is shared (atomics included).

    `frontier-lower-load-balance` makes its traversal a `frontier.edge_map`
    whose body is the work of one edge (the default rewrite, shown in that pass's
    docstring).

    After `frontier-maps-to-kernels` (host side):
    ```mlir
    host.launch @edge_only_degrees_s1 ... (%in_size, %in_items, %row_ptr, %degrees)
    host.write %c0, %degrees[%in_size] : i32, memref<?xi32>, i32
    gir_gpu.exclusive_scan %degrees, %offsets, %slots : memref<?xi32>, memref<?xi32>, i32
    %total = host.read %offsets[%in_size] : memref<?xi32>, i32 -> i32
    host.launch @map_s1 ... // %total threads
    ```

    Over all vertices (a `!frontier.all` input, e.g. PageRank's `edges.apply`)
    the frontier's edges are the layout's own edges in layout order, so there is
    no degree kernel, scan or read-back: thread `t` < E takes edge position `t`
    and reads the vertex it iterates from the layout's per-edge array made at
    load (`coo_src` for CSR, `csc_dst` for CSC) instead of searching for it:
    ```mlir
    %t = gir_gpu.id global
    scf.if %t < %num_edges {
      %src = memref.load %coo_src[%t] : memref<?xi32>
      ...                                   // the body on %src, edge %t
    }
    host.launch @map_s1 ...                 // %num_edges threads
    ```

    With 64-bit edge indices the degrees, offsets and total are i64, and the
    frontier's edges (or the graph's) may pass what one launch's thread ids
    hold: the map kernel runs on at most `kernel_builder.STRIDED_THREADS`
    threads, each taking frontier edges `gid`, `gid + threads`, ... (i64).
    """

    value = "EDGE_ONLY"
    composes_with_blocking = True
    wide_edges = True
    kernel_prefix = "edge_only"

    def form_kernel(self, edge_map: frontier.EdgeMapOp, kernels: KernelBuilder) -> None:
        if isinstance(edge_map.input.type, frontier.AllVerticesType):
            _form_every_edge_kernel(edge_map, kernels)
        else:
            super().form_kernel(edge_map, kernels)

    def form_map_kernel(
        self, edge_map: frontier.EdgeMapOp, kernels: KernelBuilder, b: Builder, edges: FrontierEdges
    ) -> None:
        def thread(inner: Builder, gid: SSAValue) -> list[SSAValue]:
            return edges.edge_of(inner, edges.item_of(inner, gid), gid)

        kernels.thread_kernel(edge_map, edges.total, thread, b)


def _form_every_edge_kernel(edge_map: frontier.EdgeMapOp, kernels: KernelBuilder) -> None:
    """Replaces `edge_map`, over all vertices, by a kernel of one thread per edge
    position of its layout, each reading its iterated vertex from the layout."""
    ctx = kernels.ctx
    edges = layout(edge_map.layout.data)

    def thread(inner: Builder, gid: SSAValue) -> list[SSAValue]:
        position = as_index(inner, gid)
        vertex = edges.owner(ctx, inner, position)
        vertex.name_hint = "vertex"
        return [vertex, position]

    kernels.thread_kernel(edge_map, ctx.edges, thread, Builder(InsertPoint.before(edge_map)))
