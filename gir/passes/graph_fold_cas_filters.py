"""Drops a `to` filter that the edge function's compare-and-swap repeats, where
each level of a fused loop waits on the filter's load."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, math
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from gir.dialects import graph
from gir.dialects.schedule import SimpleScheduleAttr
from gir.ir_walk import walk
from gir.passes.directions import direction
from gir.passes.gpu_fuse_loops import is_fused_loop
from gir.passes.graph_insert_atomics import to_filter_guard
from gir.passes.ir_utils import constant_value, functions, parameter_index

_READ_ONLY = (graph.LoadOp, graph.VertexIdOp, graph.ToVertexOp, graph.GlobalLoadOp, func.ReturnOp)
"""Ops that neither write memory nor branch: an edge function made of these and
one compare-and-swap has no effect once the swap fails."""


@dataclass(frozen=True)
class GraphFoldCasFilters(ModulePass):
    """Drops the `to` filter `v[dst] == C` of a PUSH traversal in a fused loop
    when the edge function's only effect is `compare_and_swap(v[dst], C, x)`.

    The swap tests the filter's condition itself, atomically, so the filter's
    plain load only decides whether to try it. In an unfused traversal that test
    saves atomics on destinations already claimed (many, on social graphs). In a
    loop fused into one kernel (`configKernelFusion`), a level's time is the chain
    of dependent memory accesses between two grid barriers, and the load is one
    more link of it: fused BFS on road:2048:2048 takes 33.8 ms with the filter
    dropped against 36.4 ms with it (H200). Runs after `graph-insert-atomics`,
    which makes the swap.

    Before:
    ```mlir
    scf.while ... {
      %next = graph.edgeset_apply %edges from %frontier apply_modified @claim
          {to_filter = @unseen, tracked = @parent, schedule = #graph.simple_schedule<direction = PUSH, ...>} ...
    } attributes {graph.schedule = #graph.simple_schedule<..., kernel_fusion = ENABLED, ...>}
    // @unseen returns parent[v] == -1; @claim is
    //   %2 = graph.compare_and_swap @parent[%dst], %1, %0 with %1 = -1
    ```
    After:
    ```mlir
    %next = graph.edgeset_apply %edges from %frontier apply_modified @claim
        {tracked = @parent, schedule = ...} ...
    ```
    """

    name = "graph-fold-cas-filters"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        table = functions(op)
        for site in walk(op):
            if (
                isinstance(site, graph.EdgeSetApplyOp)
                and _pushes(site)
                and _in_fused_loop(site)
                and _swap_repeats_filter(site, table)
            ):
                site.to_filter = None


def _pushes(site: graph.EdgeSetApplyOp) -> bool:
    """Whether the traversal has one direction and its threads iterate sources,
    so the `to` filter checks the neighbor (PUSH; a direction iterating the
    destination, PULL, filters the vertex it iterates, and skips its in-edges
    with it)."""
    schedule = site.schedule
    return (
        isinstance(schedule, SimpleScheduleAttr)
        and direction(schedule.direction.data).iterated == 0
    )


def _in_fused_loop(site: Operation) -> bool:
    parent = site.parent_op()
    while parent is not None:
        if is_fused_loop(parent):
            return True
        parent = parent.parent_op()
    return False


def _swap_repeats_filter(site: graph.EdgeSetApplyOp, table: dict[str, func.FuncOp]) -> bool:
    """Whether the edge function's one effect is a compare-and-swap of the
    destination's element of the filter's vector, from the filter's constant."""
    guard = to_filter_guard(site, table)
    if guard is None or not _read_only(table[site.to_filter.root_reference.data], allowed=()):
        return False
    vector, expected = guard
    function = table[site.udf.root_reference.data]
    swaps = [child for child in walk(function) if isinstance(child, graph.CompareAndSwapOp)]
    if len(swaps) != 1 or not _read_only(function, allowed=(graph.CompareAndSwapOp,)):
        return False
    swap = swaps[0]
    return (
        swap.vector.root_reference.data == vector
        and swap.lane is None
        and parameter_index(swap.index, function.body.block) == 1
        and constant_value(swap.expected) == expected
        and not swap.success.uses
    )


def _read_only(function: func.FuncOp, allowed: tuple[type[Operation], ...]) -> bool:
    """Whether every op of `function` is pure arithmetic, a read, or of `allowed`."""
    return all(
        isinstance(child, _READ_ONLY + allowed)
        or child.dialect_name() in (arith.Arith.name, math.Math.name)
        for child in walk(function.body)
    )
