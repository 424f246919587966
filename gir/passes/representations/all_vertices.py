"""Every vertex (`!frontier.all`) on the GPU: no storage; a vertex map over it runs
one thread per vertex id 0..V-1."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.ir import Attribute, SSAValue

from gir.dialects.frontier import AllVerticesType
from gir.passes.gpu_kernels import GpuContext
from gir.passes.representations import FrontierRepresentation


class AllVertices(FrontierRepresentation):
    """`!frontier.all`: no host values; its size is V."""

    type = AllVerticesType
    membership_testable = True

    def capacity(self, ctx: GpuContext) -> SSAValue:
        return ctx.vertices

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
