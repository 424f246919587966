"""Where a fused loop needs grid barriers (not a pass: `gpu-fuse-loops` asks it).

In a fused kernel every thread runs every step of the loop (a launch, a read or
a write of a buffer) one after the other, and no thread waits for another unless
a grid barrier says so. A step needs a barrier before it when it touches a buffer
that a step since the last barrier touched, and one of the two writes it: the
pending steps may still be running in other threads. Around the loop, the steps
after the body's last barrier are pending when the next iteration starts.

Buffers are told apart by where they come from: two `host.alloc`s are two
buffers, the graph's arrays are none of them, and the loop's carried buffers are
distinct from each other and from every allocation but their initial values when
the loop starts them on distinct allocations and passes them around unchanged
(the condition forwards them, the body's yield permutes them: a frontier's
double buffer, `gpu-rotate-counters`' three counters). A list of frontiers is
a buffer of its own: a push writes its storage and ends; a pop reads them and,
where the loop keeps the list's count in the device array, writes it after a
barrier of its own (where the loop carries the count in registers, the count
thread 0 writes is for the host alone); no other buffer, not even one of
unknown origin, is a list's. Anything else may alias anything.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field

from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from gir.dialects import gir_gpu, host

Access = tuple[Hashable, bool]
"""A buffer (its key) and whether the step writes it."""

Pending = frozenset[Access] | None
"""What ran since the last barrier; None when unknown (conflicts with every step)."""

ROUNDS = 8
"""How many times the analysis goes around the loop before it settles for a
barrier at the loop's head."""


def plan_barriers(
    buffers: CarriedBuffers, kernels: Mapping[str, gir_gpu.KernelOp], counts_in_registers: bool = False
) -> set[Operation]:
    """The device steps of `buffers.loop` (host ops of its regions) that need a
    grid barrier before them in the fused kernel; `counts_in_registers`: the
    fused loop carries its lists' counts in registers."""
    loop = buffers.loop
    walker = _Walker(buffers, kernels, counts_in_registers)
    head: Pending = None
    for _ in range(ROUNDS):
        barriers: set[Operation] = set()
        end = walker.block(loop.after_region.block, walker.block(loop.before_region.block, head, barriers), barriers)
        around = buffers.around(end)
        if head is not None and around is not None and around <= head:
            return barriers
        if around is None:
            break
        head = around if head is None else head | around
    barriers = set()
    walker.block(loop.after_region.block, walker.block(loop.before_region.block, None, barriers), barriers)
    return barriers


@dataclass
class CarriedBuffers:
    """Keys of the buffers that a fused loop's steps touch, and which buffers
    each of its carried positions may hold."""

    loop: scf.WhileOp
    positions: dict[SSAValue, int] = field(default_factory=dict)
    """Each carried buffer (block argument of either region) by position, when
    the loop's carried buffers are known to be distinct."""
    initial: set[Operation] = field(default_factory=set)
    """The allocations the carried buffers start on."""
    next_position: dict[int, int] = field(default_factory=dict)
    """Where the body's yield passes the buffer at each position."""

    @staticmethod
    def of(loop: scf.WhileOp) -> CarriedBuffers:
        buffers = CarriedBuffers(loop)
        places = [i for i, v in enumerate(loop.arguments) if isinstance(v.type, MemRefType)]
        owners = [loop.arguments[i].owner for i in places]
        if not all(isinstance(o, host.AllocOp) for o in owners) or len(set(owners)) != len(owners):
            return buffers
        before, after = loop.before_region.block, loop.after_region.block
        condition, yield_ = before.last_op, after.last_op
        assert isinstance(condition, scf.ConditionOp) and isinstance(yield_, scf.YieldOp)
        if any(resolve(condition.args[i]) is not before.args[i] for i in places):
            return buffers
        moves: dict[int, int] = {}
        for i in places:
            source = resolve(yield_.arguments[i])
            if not isinstance(source, BlockArgument) or source.block is not after:
                return buffers
            moves[source.index] = i
        if sorted(moves) != places:
            return buffers
        buffers.positions = {block.args[i]: i for i in places for block in (before, after)}
        buffers.initial = {o for o in owners if isinstance(o, Operation)}
        buffers.next_position = moves
        return buffers

    def orbit(self, position: int) -> list[int] | None:
        """The positions whose initial buffers the loop's carried buffer at
        `position` may be (its orbit under the body's permutation), in order;
        None when the carried buffers are not known apart."""
        if position not in self.next_position:
            return None
        seen = [position]
        while (following := self.next_position[seen[-1]]) != position:
            seen.append(following)
        return sorted(seen)

    def key(self, value: SSAValue) -> Hashable:
        value = resolve(value)
        if value in self.positions:
            return ("carried", self.positions[value])
        if isinstance(value.type, host.ListType):
            return ("list", value)
        owner = value.owner
        if isinstance(owner, host.AllocOp):
            return ("alloc", owner)
        if isinstance(owner, host.GraphArrayOp):
            return ("graph",)
        return ("unknown", value)

    def may_alias(self, a: Hashable, b: Hashable) -> bool:
        if a == b:
            return True
        kinds = {a[0], b[0]}  # type: ignore[index]
        if "list" in kinds:
            # A list's storage and ends are the fused kernel's own (the list's
            # export), so nothing else, not even an unknown buffer, is them.
            return False
        if "unknown" in kinds:
            return True
        if kinds == {"carried", "alloc"}:
            alloc = a if a[0] == "alloc" else b  # type: ignore[index]
            return alloc[1] in self.initial  # type: ignore[index]
        return False

    def around(self, pending: Pending) -> Pending:
        """`pending` at the body's end, as the next iteration names its buffers."""
        if pending is None:
            return None
        moved: set[Access] = set()
        for key, writes in pending:
            if key[0] == "carried":  # type: ignore[index]
                key = ("carried", self.next_position[key[1]])  # type: ignore[index]
            moved.add((key, writes))
        return frozenset(moved)


def resolve(value: SSAValue) -> SSAValue:
    """`value`, seen through `scf.if` results that every branch yields alike."""
    while isinstance(value.owner, scf.IfOp):
        branch = value.owner
        index = list(branch.results).index(value)
        yielded = {
            resolve(region.block.last_op.operands[index])  # type: ignore[union-attr]
            for region in branch.regions
            if region.blocks
        }
        if len(yielded) != 1 or len(branch.regions[1].blocks) == 0:
            return value
        value = yielded.pop()
    return value


@dataclass
class _Walker:
    """Walks a region's steps, placing barriers where the pending steps conflict."""

    buffers: CarriedBuffers
    kernels: Mapping[str, gir_gpu.KernelOp]
    counts_in_registers: bool = False
    """Whether the loop carries its lists' counts in registers: a pop then only
    reads the list (the count thread 0 writes is for the host), and neither
    step ends with a barrier of its own."""

    def block(self, block: Block, pending: Pending, barriers: set[Operation]) -> Pending:
        for op in block.ops:
            if isinstance(op, host.LaunchOp | host.ReadOp | host.WriteOp | host.ListPushOp | host.ListPopOp):
                accesses = self.accesses(op)
                if self.conflicts(accesses, pending):
                    barriers.add(op)
                    pending = frozenset()
                assert pending is not None
                pending = pending | accesses
                if isinstance(op, host.ListPushOp | host.ListPopOp) and not self.counts_in_registers:
                    # Its copy ends with a barrier of its own; then thread 0
                    # records the list's new end.
                    pending = frozenset({(self.buffers.key(op.list), True)})
            elif isinstance(op, scf.IfOp):
                exits = [self.block(r.block, pending, barriers) for r in op.regions if r.blocks]
                if len(exits) == 1:
                    exits.append(pending)
                pending = None if None in exits else frozenset().union(*exits)  # type: ignore[arg-type]
        return pending

    def conflicts(self, accesses: frozenset[Access], pending: Pending) -> bool:
        if pending is None:
            return True
        return any(
            (writes or earlier_writes) and self.buffers.may_alias(key, earlier)
            for key, writes in accesses
            for earlier, earlier_writes in pending
        )

    def accesses(self, op: Operation) -> frozenset[Access]:
        if isinstance(op, host.ReadOp):
            return frozenset({(self.buffers.key(op.buffer), False)})
        if isinstance(op, host.WriteOp):
            return frozenset({(self.buffers.key(op.buffer), True)})
        if isinstance(op, host.ListPushOp | host.ListPopOp):
            pops = isinstance(op, host.ListPopOp)
            list_writes = not (pops and self.counts_in_registers)
            return frozenset({(self.buffers.key(op.buffer), pops), (self.buffers.key(op.list), list_writes)})
        assert isinstance(op, host.LaunchOp)
        kernel = self.kernels[op.kernel.root_reference.data]
        return frozenset(
            (self.buffers.key(value), _writes(param))
            for param, value in zip(kernel.body.block.args, op.args, strict=True)
            if isinstance(value.type, MemRefType)
        )


def _writes(param: SSAValue) -> bool:
    """Whether a kernel may write its buffer parameter `param`: any use but as the
    buffer of a `memref.load`."""
    return any(not (isinstance(use.operation, memref.LoadOp) and use.index == 0) for use in param.uses)
