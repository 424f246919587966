"""Every vertex (`!frontier.all`) on the GPU: no storage; a vertex map over it runs
one thread per vertex id 0..V-1."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.ir import Attribute, SSAValue

from gir.passes.frontier_to_gpu.context import FrontierLowering, GpuContext


class AllVertices(FrontierLowering):
    """`!frontier.all`: no host values; its size is V."""

    def host_types(self) -> list[Attribute]:
        return []

    def size(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> SSAValue:
        return ctx.vertices

    def thread_count(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue]
    ) -> SSAValue:
        return ctx.vertices

    def thread_vertex(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], thread: SSAValue
    ) -> SSAValue:
        return thread
