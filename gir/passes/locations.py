"""Source locations through lowering (not a pass).

The frontend locates every op at its statement (`loc("prog.gt":12:5)`), and IR
input keeps the `loc(...)` it was written with. A pass that lowers an op builds
new ops with no location; `LocationInheritance`, the callback of every pass
pipeline gir runs, gives each of them one after the pass, from the op it
replaced:

* a new op standing where ops were erased (or moved away) takes the location of
  the first of those: what a rewrite that replaces an op builds in its place;
* a new op inserted between older ops (older: made before the pass, possibly
  moved by it) takes the location of the op after it (the op it was built for,
  usually), else of the op before it;
* a new op in a new block takes the location of the op that holds the block;
* a new symbol at the top of the module (a kernel) takes the location of its
  first located user (its launch), then lends it to what it holds.

So a kernel, a launch and each access in a kernel name the statement they came
from, whichever way the pass inserted them, and a pass needs no code for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass, PassPipelineCallbackType

from gir.ir_walk import walk
from gir.passes.ir_utils import symbol_refs


def is_located(op: Operation) -> bool:
    """Whether `op` has a location (any but `loc(unknown)`)."""
    return not isinstance(op.location, UnknownLoc)


@dataclass(frozen=True)
class Snapshot:
    """The ops of a module before a pass: each block's ops in order.

    Keyed by `id`: xDSL ops and blocks hash and compare through Python methods,
    and this runs after every pass over every op (a fifth of lowering's time
    when it used them as keys). The ids stay unique while the snapshot lives,
    since it holds every op and block it names."""

    orders: dict[int, list[Operation]]
    """Each block's ops in order, by the block's id."""
    ops: set[int]
    """The ids of the ops."""
    blocks: list[Block]
    """The blocks, held so that no block made by the pass takes the id of one
    it dropped."""

    @staticmethod
    def of(module: ModuleOp) -> Snapshot:
        """The ops of `module` now (visited from a list rather than by `walk`,
        whose nested generators cost each op the depth it is nested at: a
        quadratic time on deeply nested control flow, after every pass)."""
        orders: dict[int, list[Operation]] = {}
        ops: set[int] = set()
        blocks: list[Block] = []
        pending: list[Operation] = [module]
        while pending:
            op = pending.pop()
            ops.add(id(op))
            for region in op.regions:
                for block in region.blocks:
                    order = list(block.ops)
                    orders[id(block)] = order
                    blocks.append(block)
                    pending.extend(child for child in order if child.regions)
                    ops.update(map(id, order))
        return Snapshot(orders, ops, blocks)


def _origins(
    block: Block, ops: Sequence[Operation], new: Sequence[bool], before: Snapshot
) -> list[Operation | None]:
    """For each op of `block` (now `ops`) that is `new`, the op whose location it
    inherits (see the module docstring), or None."""
    old = [id(op) in before.ops for op in ops]
    previous: list[Operation | None] = []
    last: Operation | None = None
    for op, is_old in zip(ops, old, strict=True):
        previous.append(last)
        if is_old:
            last = op
    following: list[Operation | None] = [None] * len(ops)
    last = None
    for index in range(len(ops) - 1, -1, -1):
        following[index] = last
        if old[index]:
            last = ops[index]
    present = set(map(id, ops))
    order = before.orders.get(id(block))
    positions = None if order is None else {id(op): index for index, op in enumerate(order)}
    return [
        next(iter(_replaced(order, positions, prev, nxt, present) + _located(nxt, prev)), None)
        if wanted
        else None
        for prev, nxt, wanted in zip(previous, following, new, strict=True)
    ]


def _replaced(
    order: list[Operation] | None,
    positions: dict[int, int] | None,
    prev: Operation | None,
    nxt: Operation | None,
    present: set[int],
) -> list[Operation]:
    """The located ops that stood between `prev` and `nxt` in the block before
    (its ops then: `order`, their positions by id: `positions`) and are gone
    from it (`present`: the ids of its ops now)."""
    if order is None or positions is None or any(op is not None and id(op) not in positions for op in (prev, nxt)):
        return []
    low = 0 if prev is None else positions[id(prev)] + 1
    high = len(order) if nxt is None else positions[id(nxt)]
    return [op for op in order[low:high] if id(op) not in present and is_located(op)]


def _located(*ops: Operation | None) -> list[Operation]:
    return [op for op in ops if op is not None and is_located(op)]


def _inherit_under(parent: Operation, before: Snapshot, deferred: list[Operation]) -> None:
    """Locates the new ops nested in `parent`; new top-level symbols of a module
    are put in `deferred` instead."""
    for region in parent.regions:
        for block in region.blocks:
            ops = list(block.ops)
            new = [id(op) not in before.ops and not is_located(op) for op in ops]
            origins = _origins(block, ops, new, before) if any(new) else [None] * len(ops)
            for op, is_new, origin in zip(ops, new, origins, strict=True):
                if is_new:
                    if isinstance(parent, ModuleOp) and "sym_name" in op.properties:
                        deferred.append(op)
                        continue
                    op.location = (parent if origin is None else origin).location
                if op.regions:
                    _inherit_under(op, before, deferred)


def _first_users(module: ModuleOp) -> dict[str, Operation]:
    """The first located op (in walk order) naming each symbol."""
    users: dict[str, Operation] = {}
    for op in walk(module):
        if is_located(op):
            for _, ref in symbol_refs(op):
                users.setdefault(ref.root_reference.data, op)
    return users


def inherit_locations(module: ModuleOp, before: Snapshot) -> None:
    """Locates the ops of `module` that were made since `before` and have no
    location (see the module docstring)."""
    deferred: list[Operation] = []
    _inherit_under(module, before, deferred)
    if not deferred:
        return
    users = _first_users(module)
    for op in deferred:
        name = op.properties["sym_name"]
        user = users.get(name.data) if isinstance(name, StringAttr) else None
        if user is not None:
            op.location = user.location
        _inherit_under(op, before, [])


class LocationInheritance:
    """A pass-pipeline callback that locates the ops each pass made (see the
    module docstring), then calls `then` (e.g. gir-opt's printing between passes)."""

    def __init__(self, then: PassPipelineCallbackType | None = None):
        self.then = then
        self.before: Snapshot | None = None

    def __call__(
        self, previous: ModulePass | None, module: ModuleOp, following: ModulePass | None
    ) -> None:
        if previous is not None and self.before is not None:
            inherit_locations(module, self.before)
        if self.then is not None:
            self.then(previous, module, following)
        self.before = Snapshot.of(module) if following is not None else None
