"""`merge`: walk both sorted lists at once (GraphIt's naive intersection, and
the merge Gunrock's triangle counting runs per edge): one step advances the
list with the smaller head, or both on a match, until either list ends or
`dst`'s list passes the limit. Linear in the two degrees."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from gir.passes.intersections import (
    Adjacency,
    IntersectionStrategy,
    add_if,
    below,
    both,
    constant,
)


class Merge(IntersectionStrategy):
    """Merge-based intersection; see the module docstring."""

    value = "merge"
    graphit_names = (
        "NaiveIntersection", "HiroshiIntersection", "MultiskipIntersection", "CombinedIntersection"
    )
    """GraphIt's naive intersection is this merge; its Hiroshi (three at a time),
    multi-skip and combined variants are CPU refinements of it."""

    def count(self, b: Builder, lists: Adjacency, result_type: IntegerType) -> SSAValue:
        types = [IndexType(), IndexType(), result_type]
        zero = constant(b, 0, result_type)

        test = Block(arg_types=types)
        t = Builder(InsertPoint.at_end(test))
        i, j, total = test.args
        go = lists.counted(t, both(t, below(t, i, lists.a_end), below(t, j, lists.b_end)), j)
        t.insert(scf.ConditionOp(go, i, j, total))

        step = Block(arg_types=types)
        s = Builder(InsertPoint.at_end(step))
        i, j, total = step.args
        a, c = lists.neighbour(s, i), lists.neighbour(s, j)
        one = constant(s, 1, IndexType())
        a_ahead = s.insert(arith.CmpiOp(a, c, "sgt")).result
        c_ahead = s.insert(arith.CmpiOp(c, a, "sgt")).result
        next_i = s.insert(arith.SelectOp(a_ahead, i, s.insert(arith.AddiOp(i, one)).result)).result
        next_j = s.insert(arith.SelectOp(c_ahead, j, s.insert(arith.AddiOp(j, one)).result)).result
        same = s.insert(arith.CmpiOp(a, c, "eq")).result
        s.insert(scf.YieldOp(next_i, next_j, add_if(s, total, same)))

        loop = b.insert(
            scf.WhileOp([lists.a_begin, lists.b_begin, zero], types, Region(test), Region(step))
        )
        return loop.results[2]
