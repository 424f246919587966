"""`frontier-maps-to-kernels`: each map op becomes GPU kernels and their launches."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp, i32
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import frontier, graph
from gir.ir_walk import walk
from gir.passes.gpu_kernels import SETUP_ATTR, GpuContext, kernel_skeleton
from gir.passes.kernel_builder import KernelBuilder, MapBody, fold_casts
from gir.passes.ir_utils import main_function
from gir.passes.load_balance import LOAD_BALANCES, load_balance
from gir.passes.traversal_regions import drop_early_exit_marks
from gir.passes.representations.dense import guarded


def _vertex_map_kernel(op: frontier.VertexMapOp, kernels: KernelBuilder) -> None:
    """One thread per item of the input frontier; threads holding no vertex (a
    non-member of a bitmap or boolmap) skip the body."""
    b = Builder(InsertPoint.before(op))
    ctx = kernels.ctx
    source, values = kernels.frontier(op.input)
    count = source.thread_count(ctx, b, values)

    def build(at: Builder, body: MapBody) -> None:
        inner, gid = kernel_skeleton(at.insertion_point.block, count)
        member = source.thread_member(ctx, inner, values, gid)
        if member is not None:
            inner = guarded(inner, member)
        body(inner, [source.thread_vertex(ctx, inner, values, gid)])

    kernels.map_kernel(op, count, build, b, cooperative=False)


def _edge_map_kernel(op: frontier.EdgeMapOp, kernels: KernelBuilder) -> None:
    """As the map's load-balance strategy forms it; a located `UserError` when
    the program has 64-bit edge indices and the strategy keeps them in 32 bits."""
    strategy = load_balance(op.load_balance.data)
    if kernels.ctx.edge_type != i32 and not strategy.wide_edges:
        wide = ", ".join(name for name in LOAD_BALANCES if load_balance(name).wide_edges)
        raise UserError.at(
            op,
            f"error: load balance {strategy.value} keeps edge positions and sums of "
            "degrees in 32 bits: it does not run a graph with more than 2^31 edges "
            f"(64-bit edge indices) yet; use one of {wide} there",
        )
    strategy.form_kernel(op, kernels)


KERNEL_FORMERS: dict[type[Operation], Callable[[Operation, KernelBuilder], None]] = {
    frontier.VertexMapOp: _vertex_map_kernel,  # type: ignore[dict-item]
    frontier.EdgeMapOp: _edge_map_kernel,  # type: ignore[dict-item]
}
"""How each map op becomes kernels (a new kind of map op: one entry)."""


@dataclass(frozen=True)
class FrontierMapsToKernels(ModulePass):
    """Forms the GPU kernels of map ops (a registry of formers) and launches them from main.

    A `frontier.vertex_map` becomes one kernel with one thread per vertex of its
    input (the input's representation says how many threads and which vertex
    each one takes); a `frontier.edge_map` becomes what its load-balance strategy
    forms. The body is inlined into the kernel skeleton (`if gid < count`), its
    `frontier.enqueue`s become the output representation's device code, the host
    values it uses become kernel arguments (`outline`), and the output's host
    values after the launch replace the map's result. The casts between frontier
    and host values, and between vertices and i32 ids, are gone afterwards, and
    so are the `setup` markers of program-wide values (the last frontier pass)
    and the pull early-exit marks the strategies' kernels did not consume.

    Before:
    ```mlir
    %o = frontier.vertex_map %in : !frontier.queue into %e : !frontier.queue
        -> !frontier.queue {
    ^bb0(%v : !graph.vertex):
      ...
      frontier.enqueue %dst
      frontier.yield
    }
    ```
    After:
    ```mlir
    gir_gpu.kernel @map_s1(%queue : memref<?xi32>, %size : i32, ...) {
      %gid = gir_gpu.id global
      ...  // if gid < size: v = queue[gid]; body; enqueue = atomic add + store
      gir_gpu.return
    }
    func.func @main() {
      ...
      host.write %e_size, %queue_size[%c0] : i32, memref<?xi32>, i32
      host.launch @map_s1 grid %grid block %block (%queue, %size, ...) : ...
      %o_size = host.read %queue_size[%c0] : memref<?xi32>, i32 -> i32
      ...
    }
    ```
    """

    name = "frontier-maps-to-kernels"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels = KernelBuilder(GpuContext.of(op))
        main = main_function(op)
        for map_op in [child for child in walk(main) if type(child) in KERNEL_FORMERS]:
            KERNEL_FORMERS[type(map_op)](map_op, kernels)
        fold_casts(main)
        for child in list(main.body.block.ops):
            child.attributes.pop(SETUP_ATTR, None)
            if isinstance(child, graph.LoadEdgesOp) and not child.result.uses:
                Rewriter.erase_op(child)
        drop_early_exit_marks(op)  # every map is a kernel now: no walk is left to exit
        for child in walk(op):
            if isinstance(child, UnrealizedConversionCastOp):
                raise UserError.at(child,
                    f"error: a {child.results[0].type} value is left in '@main' "
                    "after kernel formation"
                )
