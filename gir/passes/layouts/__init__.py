"""The topology-layout axis (GRAssembler's): how device code reads edges.

A layout is a class in its own module of this package, registered with one
`register_layout(...)` line in `gir/passes/__init__.py` under its
`frontier.Layout` value. `frontier-lower-device-ops` lowers `frontier.edge_range`,
`frontier.neighbor` and `frontier.edge_weight` through it, and load-balance
strategies read a vertex's edge range through it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

from xdsl.builder import Builder
from xdsl.ir import Attribute, SSAValue

from gir.dialects.frontier import Layout
from gir.passes.registry import StrategyRegistry

if TYPE_CHECKING:
    from gir.passes.gpu_kernels import GpuContext


class LayoutStrategy(ABC):
    """How one topology layout is read in device code."""

    value: ClassVar[Layout]

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


LAYOUTS: StrategyRegistry[Layout, LayoutStrategy] = StrategyRegistry(
    "gir.passes.layouts", lambda value: f"error: layout {value.value} has no GPU lowering yet"
)
"""Registered layouts by value."""


def register_layout(value: Layout, module: str, cls: str) -> None:
    """Registers `gir.passes.layouts.<module>.<cls>` for `value`."""
    LAYOUTS.register(value, module, cls)


def layout(value: Layout) -> LayoutStrategy:
    """The strategy registered for `value`."""
    return LAYOUTS.get(value)
