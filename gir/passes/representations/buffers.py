"""Program-wide device buffers that frontier lowerings share between kernels:
made once at the setup of `main` (`GpuContext.shared`), found again by key.

- `counter`: one i32, a device-side tally (a queue's size while it is filled,
  the members of a dense frontier being counted);
- `vertex_flags`: one i32 per vertex, all zero between uses (deduplication);
- `item_scratch`: one i32 (or wider integer) per item of a frontier of some
  representation, plus one (marks and their exclusive prefix sum, whose last
  slot is the total).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, i32
from xdsl.ir import SSAValue

from gir.dialects import host
from gir.passes.gpu_kernels import GpuContext, constant
from gir.passes.representations import FrontierRepresentation


def program_buffer(
    ctx: GpuContext,
    key: str,
    name: str,
    slots: Callable[[Builder], SSAValue],
    fill: int | None = None,
    element: IntegerType = i32,
) -> SSAValue:
    """A program-wide device buffer of `slots(b)` `element`s (i32 unless said),
    named `name` in printed IR and found again by `key`; filled with `fill`
    once when given."""

    def make(b: Builder) -> SSAValue:
        count = slots(b)
        buffer = b.insert(host.AllocOp(count, element)).result
        buffer.name_hint = name
        if fill is not None:
            b.insert(host.FillOp(buffer, constant(b, fill, element), count))
        return buffer

    return ctx.shared(key, make)


def counter(ctx: GpuContext, name: str) -> SSAValue:
    """A program-wide one-element i32 device buffer named `name` (and keyed by it)."""
    return program_buffer(ctx, name, name, lambda b: constant(b, 1))


def vertex_flags(ctx: GpuContext, name: str) -> SSAValue:
    """A program-wide i32 device buffer with one flag per vertex, zero at first;
    its users leave it all zero again."""
    return program_buffer(ctx, name, name, lambda b: ctx.vertices, fill=0)


def item_scratch(
    ctx: GpuContext,
    source: FrontierRepresentation,
    what: str,
    owner: str,
    element: IntegerType = i32,
) -> SSAValue:
    """A program-wide buffer of `element`s (i32 unless said) named `what` with
    one slot per item of a `source` frontier (its capacity) plus one; `owner`
    (the pass or representation using it) keeps different users' buffers apart."""

    def slots(b: Builder) -> SSAValue:
        return b.insert(arith.AddiOp(source.capacity(ctx), constant(b, 1))).result

    return program_buffer(ctx, f"{owner}_{what}_{source.type.name}", what, slots, element=element)
