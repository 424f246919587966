"""The topology-layout axis (GRAssembler's): how device code reads edges.

A layout is a class in its own module of this package, registered with one
`register_layout(...)` line in `gir/passes/__init__.py` under its
name (`gir.axes.LAYOUTS`). `frontier-lower-device-ops` lowers `frontier.edge_range`,
`frontier.neighbor` and `frontier.edge_weight` through it, and load-balance
strategies read a vertex's edge range through it. A layout declares the
traversals it serves (`direction`, `blocked`: `serves(schedule)`), so
`graph-to-frontier` picks a traversal's layout from its schedule's fields
(`layout_for`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

from xdsl.builder import Builder
from xdsl.ir import Attribute, SSAValue

from gir.axes import LAYOUTS
from gir.diagnostics import UserError
from gir.dialects.schedule import SimpleScheduleAttr

if TYPE_CHECKING:
    from gir.passes.gpu_kernels import GpuContext


class LayoutStrategy(ABC):
    """How one topology layout is read in device code."""

    value: ClassVar[str]
    """The layout's name (the key of its registration line)."""
    direction: ClassVar[str]
    """The direction whose traversals read it: a thread iterates the endpoint
    it groups edges by."""
    blocked: ClassVar[bool] = False
    """Whether it is an edge-blocked layout (`configLoadBalance(L, BLOCKED, N)`,
    or `BLOCKED_SWEEP`: the same layout, walked in one sweep)."""
    transposed: ClassVar[str | None] = None
    """The layout that reads the transpose's edges the way this one reads the
    graph's (a traversal over `edges.transpose()` reads the graph in it; None:
    not supported)."""

    def serves(self, schedule: SimpleScheduleAttr) -> bool:
        """Whether a traversal with `schedule` reads this layout (its direction
        and edge blocking say which)."""
        blocked = schedule.edge_blocking.data.blocked
        return schedule.direction.data == self.direction and blocked == self.blocked

    @abstractmethod
    def edge_range(
        self, ctx: GpuContext, b: Builder, vertex: SSAValue
    ) -> tuple[SSAValue, SSAValue]:
        """The [begin, end) edge positions (index) of `vertex` (i32)."""

    @abstractmethod
    def neighbor(self, ctx: GpuContext, b: Builder, position: SSAValue) -> SSAValue:
        """The other endpoint (i32) of the edge at `position` (index)."""

    @abstractmethod
    def weight(
        self, ctx: GpuContext, b: Builder, position: SSAValue, weight_type: Attribute
    ) -> SSAValue:
        """The weight of the edge at `position` (index)."""

    @abstractmethod
    def owner(self, ctx: GpuContext, b: Builder, position: SSAValue) -> SSAValue:
        """The vertex (i32) a thread walking the edge at `position` (index) iterates:
        the endpoint the layout groups edges by, read from an array made at load."""


def register_layout(name: str, module: str, cls: str) -> None:
    """Registers `gir.passes.layouts.<module>.<cls>` for the layout `name`."""
    LAYOUTS.register(name, module, cls)


def layout(name: str) -> LayoutStrategy:
    """The strategy registered for `name`."""
    return LAYOUTS.get(name)


def layout_for(schedule: SimpleScheduleAttr) -> str:
    """The layout a traversal with `schedule` reads: the first registered one that
    serves its direction and edge blocking (a UserError if none does)."""
    for name in LAYOUTS:
        if LAYOUTS.get(name).serves(schedule):
            return name
    raise UserError(
        f"error: no registered layout serves direction {schedule.direction.data} "
        f"with edge blocking {schedule.edge_blocking.data.value}"
    )
