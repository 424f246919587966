"""The direction axis (G2's `configDirection`): which endpoint of an edge a GPU
thread iterates, and how it walks that vertex's edges.

A direction is a class in its own module of this package, registered with one
`register_direction(...)` line in `gir/passes/__init__.py`. The registry is the
single source of the directions `graph-default-schedule` accepts. A direction says

- which argument of the edge function is the vertex a thread iterates
  (`iterated`: `graph-insert-atomics` asks whether that vertex's elements are
  private to the thread);
- which representation its input frontier must have (`input_type`:
  `graph-to-frontier` converts the input to it);
- the per-vertex work of a one-thread-per-vertex traversal (`vertex_map`): the
  load-balance strategies that map a thread to a whole vertex call it; where
  `samples_edges`, it walks only a traversal's `edge_sample` first edges;
- the work of one edge (`edge_body`) and the frontier whose vertices an edge
  map iterates (`edge_map_input`): the strategies that spread edges over
  threads (`to_edge_map`) call them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from xdsl.ir import Attribute, SSAValue
from xdsl.rewriter import InsertPoint

from gir.dialects import frontier
from gir.axes import DIRECTIONS
from gir.dialects.schedule import SimpleScheduleAttr


class DirectionStrategy(ABC):
    """One value of G2's `configDirection`."""

    value: ClassVar[str]
    """The schedule name it realizes (the key of its registration line)."""
    iterated: ClassVar[int]
    """The edge-function argument a thread iterates: 0 the source, 1 the destination."""
    samples_edges: ClassVar[bool] = False
    """Whether its `vertex_map` walks only the first `edge_sample` edges of each
    vertex when the traversal has one (`configEdgeSample`)."""

    def input_type(
        self, input_type: Attribute, schedule: SimpleScheduleAttr
    ) -> Attribute | None:
        """The frontier type a traversal with `schedule` needs its input of
        `input_type` converted to (None: it traverses it as it is)."""
        return None

    @abstractmethod
    def vertex_map(self, traverse: frontier.EdgeTraverseOp) -> frontier.VertexMapOp:
        """A `frontier.vertex_map` (not inserted) doing the work of `traverse` with
        one thread per iterated vertex, each walking that vertex's edges. Moves the
        traversal's regions: call it once."""

    @abstractmethod
    def edge_body(
        self,
        traverse: frontier.EdgeTraverseOp,
        vertex: SSAValue,
        position: SSAValue,
        point: InsertPoint,
    ) -> None:
        """Inserts at `point` the work of one edge of `traverse`: the edge at
        `position` of the iterated `vertex`, its `to` filter, its edge function.
        Moves the traversal's regions: call it once."""

    def edge_map_input(self, traverse: frontier.EdgeTraverseOp) -> SSAValue:
        """The frontier whose vertices the edge map replacing `traverse` iterates
        (inserting what makes it before `traverse`): by default its input."""
        return traverse.input


def register_direction(name: str, module: str, cls: str) -> None:
    """Registers `gir.passes.directions.<module>.<cls>` as the strategy for `name`."""
    DIRECTIONS.register(name, module, cls)


def direction(name: str) -> DirectionStrategy:
    """The strategy registered for `name` (a UserError if there is none)."""
    return DIRECTIONS.get(name)
