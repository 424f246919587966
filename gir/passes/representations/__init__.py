"""The frontier-representation axis: how a set of vertices lives on the GPU.

A representation is a class in its own module of this package, registered with one
`register_representation(...)` line in `gir/passes/__init__.py` under its frontier
type (a subclass of `frontier.FrontierType`). It declares its host values (what
one frontier value becomes in `main`), its capacity and whether its outputs must
be deduplicated to stay within it, which frontier creation of the schedule it
realizes as a traversal's output (`graph-to-frontier` chooses output types by
that), its conversions from other representations, and its host operations and
device-side iteration, membership and enqueueing. `frontier-to-host-values` and
`frontier-maps-to-kernels` call nothing else.

Iteration: a map over a frontier launches `thread_count` threads; thread t takes
`thread_vertex(t)` when `thread_member(t)` holds (a dense representation, a
bitmap or boolmap, launches a thread per vertex of the graph and skips the
non-members). A kernel that indexes the items of its input (an edge map's load
balance) needs `every_thread_holds_a_vertex`; `frontier-insert-conversions`
converts other inputs of edge maps to a queue.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

from xdsl.builder import Builder
from xdsl.ir import Attribute, SSAValue

from gir.axes import REPRESENTATIONS
from gir.diagnostics import UserError
from gir.dialects.frontier import FrontierType

if TYPE_CHECKING:
    from gir.passes.gpu_kernels import GpuContext


class FrontierRepresentation(ABC):
    """How one frontier type lives on the GPU.

    Capabilities (what it composes with; other passes ask, none names a type):
    - `creation`: the schedule's frontier creation it realizes as a traversal output;
    - `pull_frontier`: the `configDirection(PULL, F)` value that converts a pull
      traversal's input to it;
    - `membership_testable`: a pull traversal reads it as its input as it is;
    - `dedup_for_capacity`, `every_thread_holds_a_vertex`: below.
    """

    type: ClassVar[type[FrontierType]]
    """The frontier type it lowers."""
    creation: ClassVar[str | None] = None
    """The schedule's frontier creation (`configFrontierCreation`) it realizes as
    a traversal output (None: never an output)."""
    pull_frontier: ClassVar[str | None] = None
    """The value F of `configDirection(PULL, F)` that asks for it as the
    representation a pull traversal's input is converted to (None: not one;
    needs `membership_testable`)."""
    membership_testable: ClassVar[bool] = False
    """Whether device code tests membership in it in O(1) (`contains`; over every
    vertex the test is void): a pull traversal reads such an input as it is."""
    dedup_for_capacity: ClassVar[bool] = False
    """Whether an output whose updates can add one vertex twice must be
    deduplicated to stay within the capacity (a queue, not a bitmap)."""

    every_thread_holds_a_vertex: ClassVar[bool] = True
    """Whether every thread of a map over it holds a vertex (`thread_member` is
    None); False for the dense representations."""

    host_names: ClassVar[tuple[str, ...]] = ()
    """Suffixes naming its host values in printed IR (`%frontier_items`)."""

    @abstractmethod
    def host_types(self) -> list[Attribute]:
        """The types of the host values one frontier becomes."""

    @abstractmethod
    def capacity(self, ctx: GpuContext) -> SSAValue:
        """The most vertices (host i32) one frontier of this type holds, repeats
        included: a bound of its `thread_count`."""

    def convert_from(
        self, source: FrontierRepresentation, ctx: GpuContext, b: Builder, values: list[SSAValue]
    ) -> list[SSAValue]:
        """`frontier.convert`: a new frontier of this type holding the vertices of
        `values` (a frontier of `source`'s type)."""
        raise UserError(
            f"error: no conversion from {source.type.name} to {self.type.name} yet"
        )

    def new(self, ctx: GpuContext, b: Builder, count: SSAValue) -> list[SSAValue]:
        """`frontier.new`: fresh storage holding vertices 0..count-1."""
        raise UserError(f"error: a {self.type.name} cannot be created")

    @abstractmethod
    def size(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> SSAValue:
        """`frontier.size`: the number of vertices (host i32)."""

    def add(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], vertex: SSAValue
    ) -> list[SSAValue]:
        """`frontier.add` on the host."""
        raise UserError(f"error: a {self.type.name} cannot be added to")

    def clear(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> list[SSAValue]:
        """`frontier.clear`: empty, same storage."""
        raise UserError(f"error: a {self.type.name} cannot be cleared")

    def deduplicate(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue]
    ) -> list[SSAValue]:
        """`frontier.dedup` (unfused deduplication): each vertex kept once, same
        storage. The default suits a representation that never holds a vertex
        twice (a bitmap or boolmap)."""
        return values

    def free(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> None:
        """`frontier.free`: releases the storage."""

    @abstractmethod
    def thread_count(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> SSAValue:
        """How many threads a map over this frontier launches, one per item (host i32)."""

    @abstractmethod
    def thread_vertex(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], thread: SSAValue
    ) -> SSAValue:
        """Device code: the vertex (i32) of item `thread` (< thread_count)."""

    def thread_member(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], thread: SSAValue
    ) -> SSAValue | None:
        """Device code: whether thread `thread` (< thread_count) holds a vertex (an
        i1), or None when every thread does."""
        return None

    def contains(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], vertex: SSAValue
    ) -> SSAValue:
        """Device code: whether `vertex` (i32) is in the frontier (an i1;
        `frontier.contains`)."""
        raise UserError(
            f"error: a {self.type.name} has no membership test: use a bitmap or boolmap"
        )

    def begin_output(self, ctx: GpuContext, b: Builder, values: list[SSAValue]) -> None:
        """Host code before a map fills this frontier."""
        raise UserError(f"error: a {self.type.name} cannot be an output")

    def enqueue(
        self,
        ctx: GpuContext,
        b: Builder,
        values: list[SSAValue],
        vertex: SSAValue,
        dedup: bool,
    ) -> None:
        """Device code: adds `vertex` (i32), concurrently with other threads."""
        raise UserError(f"error: a {self.type.name} cannot be an output")

    def end_output(
        self, ctx: GpuContext, b: Builder, values: list[SSAValue], dedup: bool
    ) -> list[SSAValue]:
        """Host code after the map: the filled frontier's host values."""
        raise UserError(f"error: a {self.type.name} cannot be an output")


def register_representation(frontier_type: type[FrontierType], module: str, cls: str) -> None:
    """Registers `gir.passes.representations.<module>.<cls>` for `frontier_type`."""
    REPRESENTATIONS.register(frontier_type, module, cls)


def representation(frontier_type: Attribute | type[FrontierType]) -> FrontierRepresentation:
    """The representation of a frontier type (or of its class)."""
    cls = frontier_type if isinstance(frontier_type, type) else type(frontier_type)
    return REPRESENTATIONS.get(cls)  # type: ignore[arg-type]


def is_frontier(value_type: Attribute) -> bool:
    """Whether `value_type` is a frontier type (registered or not)."""
    return isinstance(value_type, FrontierType)


def output_type(creation: str) -> FrontierType | None:
    """The frontier type that realizes the frontier creation `creation` for a
    traversal's output."""
    for frontier_type in REPRESENTATIONS:
        if representation(frontier_type).creation == creation:
            return frontier_type()
    return None


def pull_input_type(pull_frontier: str) -> FrontierType:
    """The frontier type a pull traversal's input is converted to under
    `configDirection(PULL, pull_frontier)`."""
    for frontier_type in REPRESENTATIONS:
        if representation(frontier_type).pull_frontier == pull_frontier:
            return frontier_type()
    raise UserError(f"error: pull frontier {pull_frontier} has no registered representation")


def queue_type() -> FrontierType:
    """The representation every thread of whose maps holds a vertex and that a
    traversal fills as it goes (G2's FUSED creation: the sparse queue), to which
    `frontier-insert-conversions` converts the inputs of edge maps."""
    for frontier_type in REPRESENTATIONS:
        rep = representation(frontier_type)
        if rep.every_thread_holds_a_vertex and rep.creation is not None:
            return frontier_type()
    raise UserError("error: no registered frontier representation is a queue")
