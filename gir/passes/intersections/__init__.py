"""The set-intersection axis: how `graph.intersect_neighbors` counts the common
out-neighbours of two vertices over the sorted adjacency (CSR).

An intersection is a class in its own module of this package, registered with
one `register_intersection(...)` line in `gir/passes/__init__.py` under its name
(`gir.axes.INTERSECTIONS`); the op's verifier accepts exactly the registered
names and `frontier-lower-intersections` builds the one the op names. Every
strategy counts the same set: the out-neighbours `w` of `src` that are
out-neighbours of `dst` too, with `w <= dst` (GraphIt's bound, which makes a
sum over the edges with `dst < src` count each triangle once). A strategy
builds frontier-level device code, `frontier.edge_range` / `frontier.neighbor`
on the CSR layout, loops and arithmetic, which the rest of `lower-to-gpu`
lowers as it lowers any map body.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, i1, i32
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from gir.axes import INTERSECTIONS
from gir.dialects import frontier, graph


@dataclass(frozen=True)
class Adjacency:
    """The sorted out-neighbour lists a strategy intersects, in device code:
    `src`'s at positions [a_begin, a_end), `dst`'s at [b_begin, b_end), and the
    largest neighbour counted (`limit`, dst's id as i32)."""

    edges: SSAValue
    a_begin: SSAValue
    a_end: SSAValue
    b_begin: SSAValue
    b_end: SSAValue
    limit: SSAValue

    @staticmethod
    def of(b: Builder, edges: SSAValue, src: SSAValue, dst: SSAValue) -> Adjacency:
        """The lists of `src` and `dst` (vertices) in `edges`, read through CSR."""
        a_begin, a_end = b.insert(frontier.EdgeRangeOp("CSR", edges, src)).results
        b_begin, b_end = b.insert(frontier.EdgeRangeOp("CSR", edges, dst)).results
        limit = b.insert(graph.VertexIdOp(dst, i32)).result
        return Adjacency(edges, a_begin, a_end, b_begin, b_end, limit)

    def neighbour(self, b: Builder, position: SSAValue) -> SSAValue:
        """The id (i32) of the neighbour at `position`."""
        vertex = b.insert(frontier.NeighborOp("CSR", self.edges, position)).result
        return b.insert(graph.VertexIdOp(vertex, i32)).result

    def counted(self, b: Builder, open_lists: SSAValue, position: SSAValue) -> SSAValue:
        """Whether a loop over `dst`'s list goes on at `position`: `open_lists`
        (the positions are in their lists) and the neighbour there is at most
        the limit (read only where `open_lists` holds)."""
        return guarded(
            b,
            open_lists,
            lambda g: g.insert(arith.CmpiOp(self.neighbour(g, position), self.limit, "sle")).result,
        )


class IntersectionStrategy(ABC):
    """How one intersection method counts; see the package docstring."""

    value: ClassVar[str]
    """The method's name (the key of its registration line)."""
    graphit_names: ClassVar[tuple[str, ...]] = ()
    """GraphIt's `configIntersection` names this method realizes (the schedule
    section maps them to it)."""

    @abstractmethod
    def count(self, b: Builder, lists: Adjacency, result_type: IntegerType) -> SSAValue:
        """The number of common neighbours `w <= lists.limit`, as `result_type`."""


def register_intersection(name: str, module: str, cls: str) -> None:
    """Registers `gir.passes.intersections.<module>.<cls>` for the method `name`."""
    INTERSECTIONS.register(name, module, cls)


def intersection(name: str) -> IntersectionStrategy:
    """The strategy registered for `name`."""
    return INTERSECTIONS.get(name)


# -- builders the strategies share -----------------------------------------------------


def constant(b: Builder, value: int, value_type: IntegerType | IndexType) -> SSAValue:
    """An integer (or index) constant."""
    return b.insert(arith.ConstantOp(IntegerAttr(value, value_type))).result


def both(b: Builder, first: SSAValue, second: SSAValue) -> SSAValue:
    return b.insert(arith.AndIOp(first, second)).result


def below(b: Builder, position: SSAValue, end: SSAValue) -> SSAValue:
    """`position < end` (index)."""
    return b.insert(arith.CmpiOp(position, end, "ult")).result


def guarded(b: Builder, condition: SSAValue, then: Callable[[Builder], SSAValue]) -> SSAValue:
    """`condition && then(builder)`: `then` (building an i1) runs only where
    `condition` holds, so it may read a position that `condition` bounds."""
    taken, skipped = Block(), Block()
    inner = Builder(InsertPoint.at_end(taken))
    inner.insert(scf.YieldOp(then(inner)))
    otherwise = Builder(InsertPoint.at_end(skipped))
    otherwise.insert(scf.YieldOp(constant(otherwise, 0, i1)))
    return b.insert(scf.IfOp(condition, [i1], Region(taken), Region(skipped))).results[0]


def add_if(b: Builder, total: SSAValue, condition: SSAValue) -> SSAValue:
    """`total + (condition ? 1 : 0)`."""
    one = b.insert(arith.ExtUIOp(condition, total.type)).result
    return b.insert(arith.AddiOp(total, one)).result
