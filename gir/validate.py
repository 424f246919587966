"""Which CPU reference checks a program's result, found from its graph-level IR.

`gir-run --validate` needs to know what a program computes. Rather than trusting
its name, gir looks at the shape of its edge traversals:

- BFS: an `apply_modified` whose edge function stores the source's id into the
  tracked vector (`parent[dst] = src`), guarded by a `to` filter;
- SSSP: an `apply_modified` on a weighted edgeset whose edge function does
  `dist[dst] min= ...`;
- CC: an `apply_modified` on an unweighted edgeset whose edge function does
  `IDs[...] min= IDs[...]` (label propagation);
- PageRank: an `apply` whose edge function does a float `+=`, inside a counted
  `for` loop with constant bounds (the iteration count).

The start vertex of BFS/SSSP is the `graph.argv_int` added to the first frontier.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import AnyFloat, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue

from gir.dialects import graph
from gir.runtime import reference
from gir.runtime.graph import Graph


@dataclass(frozen=True)
class Validator:
    """How to check one run: `check(graph, argv, vectors)` returns None when the
    result matches the CPU reference, else a one-line explanation."""

    algorithm: str
    check: Callable[[Graph, list[str], dict[str, np.ndarray]], str | None]


def _functions(module: ModuleOp) -> dict[str, func.FuncOp]:
    return {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}


def _applies(module: ModuleOp) -> list[graph.EdgeSetApplyOp]:
    return [op for op in module.walk() if isinstance(op, graph.EdgeSetApplyOp)]


def _stores_source_id(udf: func.FuncOp, vector: str) -> bool:
    source = udf.body.block.args[0]
    for op in udf.walk():
        if isinstance(op, graph.StoreOp | graph.CompareAndSwapOp) and (
            op.vector.root_reference.data == vector
        ):
            value = op.value if isinstance(op, graph.StoreOp) else op.desired
            owner = value.owner
            if isinstance(owner, graph.VertexIdOp) and owner.vertex == source:
                return True
    return False


def _reduces(udf: func.FuncOp, vector: str, kind: graph.ReduceKind) -> bool:
    return any(
        isinstance(op, graph.ReduceOp)
        and op.vector.root_reference.data == vector
        and op.kind.data == kind
        for op in udf.walk()
    )


def _float_add_vector(udf: func.FuncOp) -> str | None:
    for op in udf.walk():
        if (
            isinstance(op, graph.ReduceOp)
            and op.kind.data == graph.ReduceKind.ADD
            and isinstance(op.value.type, AnyFloat)
        ):
            return op.vector.root_reference.data
    return None


def _start_argv(module: ModuleOp) -> int | None:
    for op in module.walk():
        if isinstance(op, graph.AddVertexOp):
            source = _through_casts(op.vertex)
            if isinstance(source.owner, graph.ArgvIntOp):
                return source.owner.index.value.data
    return None


def _through_casts(value: SSAValue) -> SSAValue:
    while isinstance(value.owner, graph.ToVertexOp | graph.VertexIdOp):
        value = value.owner.operands[0]
    return value


def _constant_int(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _enclosing_for_trip_count(op: Operation) -> int | None:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ForOp):
            bounds = [_constant_int(v) for v in (parent.lb, parent.ub, parent.step)]
            if None in bounds:
                return None
            lower, upper, step = bounds
            return max(0, -(-(upper - lower) // step))
        parent = parent.parent_op()
    return None


def _start_vertex(argv: list[str], index: int) -> int:
    return int(argv[index])


def find_validator(module: ModuleOp) -> Validator | None:
    """The check that applies to this graph-level program, or None."""
    functions = _functions(module)
    start_index = _start_argv(module)
    for apply in _applies(module):
        udf = functions.get(apply.udf.root_reference.data)
        if udf is None:
            continue
        weighted = apply.edgeset_type.is_weighted
        if apply.kind.data == graph.ApplyKind.APPLY_MODIFIED and apply.tracked:
            tracked = apply.tracked.root_reference.data
            if (
                start_index is not None
                and apply.to_filter is not None
                and _stores_source_id(udf, tracked)
            ):
                return _bfs_validator(tracked, start_index)
            if _reduces(udf, tracked, graph.ReduceKind.MIN):
                if weighted and start_index is not None:
                    return _sssp_validator(tracked, start_index)
                if not weighted:
                    return _cc_validator(tracked)
        if apply.kind.data == graph.ApplyKind.APPLY:
            if _float_add_vector(udf) is not None:
                iterations = _enclosing_for_trip_count(apply)
                float_vectors = [
                    op.sym_name.data
                    for op in module.ops
                    if isinstance(op, graph.GlobalOp)
                    and isinstance(op.global_type, graph.VectorType)
                    and isinstance(op.global_type.element_type, AnyFloat)
                ]
                if iterations is not None:
                    return _pagerank_validator(float_vectors, iterations)
    return None


def _bfs_validator(parent: str, start_index: int) -> Validator:
    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        return reference.check_bfs_parent(
            g, _start_vertex(argv, start_index), vectors[parent]
        )

    return Validator(f"BFS (parent tree in '{parent}')", check)


def _sssp_validator(dist: str, start_index: int) -> Validator:
    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        return reference.check_sssp(g, _start_vertex(argv, start_index), vectors[dist])

    return Validator(f"SSSP (distances in '{dist}')", check)


def _cc_validator(labels: str) -> Validator:
    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        return reference.check_cc(g, vectors[labels])

    return Validator(f"connected components (labels in '{labels}')", check)


def _pagerank_validator(candidates: list[str], iterations: int) -> Validator:
    def check(g: Graph, argv: list[str], vectors: dict[str, np.ndarray]) -> str | None:
        problems = []
        for name in candidates:
            problem = reference.check_pagerank(g, vectors[name], iterations=iterations)
            if problem is None:
                return None
            problems.append(f"'{name}': {problem}")
        return "no float vector holds the PageRank result: " + "; ".join(problems)

    return Validator(f"PageRank ({iterations} iterations)", check)
