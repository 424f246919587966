"""`binary_search`: look every neighbour `w <= dst` of `dst` up in `src`'s
sorted list (GraphIt's binary-search intersection, Gunrock's search-based
one), each search starting where the previous one ended since the `w` come in
increasing order. Logarithmic in `src`'s degree per lookup: the better choice
when `dst`'s bounded list is much shorter than `src`'s."""

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
    constant,
    guarded,
)


class BinarySearch(IntersectionStrategy):
    """Search-based intersection; see the module docstring."""

    value = "binary_search"
    graphit_names = ("BinarySearchIntersection",)

    def count(self, b: Builder, lists: Adjacency, result_type: IntegerType) -> SSAValue:
        types = [IndexType(), IndexType(), result_type]
        zero = constant(b, 0, result_type)

        test = Block(arg_types=types)
        t = Builder(InsertPoint.at_end(test))
        j, low, total = test.args
        go = lists.counted(t, below(t, j, lists.b_end), j)
        t.insert(scf.ConditionOp(go, j, low, total))

        step = Block(arg_types=types)
        s = Builder(InsertPoint.at_end(step))
        j, low, total = step.args
        wanted = lists.neighbour(s, j)
        first = _lower_bound(s, lists, wanted, low)
        found = guarded(
            s,
            below(s, first, lists.a_end),
            lambda g: g.insert(arith.CmpiOp(lists.neighbour(g, first), wanted, "eq")).result,
        )
        one = constant(s, 1, IndexType())
        s.insert(scf.YieldOp(s.insert(arith.AddiOp(j, one)).result, first, add_if(s, total, found)))

        loop = b.insert(
            scf.WhileOp([lists.b_begin, lists.a_begin, zero], types, Region(test), Region(step))
        )
        return loop.results[2]


def _lower_bound(b: Builder, lists: Adjacency, wanted: SSAValue, low: SSAValue) -> SSAValue:
    """The first position in [low, a_end) of `src`'s list whose neighbour is not
    below `wanted` (a_end if none)."""
    types = [IndexType(), IndexType()]
    test = Block(arg_types=types)
    t = Builder(InsertPoint.at_end(test))
    t.insert(scf.ConditionOp(below(t, *test.args), *test.args))

    step = Block(arg_types=types)
    s = Builder(InsertPoint.at_end(step))
    left, right = step.args
    half = s.insert(arith.ShRUIOp(s.insert(arith.SubiOp(right, left)).result, constant(s, 1, IndexType()))).result
    middle = s.insert(arith.AddiOp(left, half)).result
    smaller = s.insert(arith.CmpiOp(lists.neighbour(s, middle), wanted, "slt")).result
    past = s.insert(arith.AddiOp(middle, constant(s, 1, IndexType()))).result
    s.insert(
        scf.YieldOp(
            s.insert(arith.SelectOp(smaller, past, left)).result,
            s.insert(arith.SelectOp(smaller, right, middle)).result,
        )
    )
    search = b.insert(scf.WhileOp([low, lists.a_end], types, Region(test), Region(step)))
    return search.results[0]
