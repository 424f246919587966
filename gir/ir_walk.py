"""Walking nested IR in time linear in its size.

xDSL's `Operation.walk` (and `Region.walk`, `Block.walk`) is a recursive
generator: it `yield from`s one generator per operation, region and block it
enters, so every operation it yields passes up through three frames for each
level it is nested in, and a walk over n operations nested d deep takes
O(n · d). gir's passes walk whole modules, several times each, and GraphIt
programs nest: 256 nested ifs took 6.5 s to print as host Python, most of it in
walks. `walk` yields the same operations in the same order with one explicit
stack of iterators, O(n), and is as lazy as xDSL's: an operation's regions are
entered after it is yielded (pre-order), so what the caller changes in them
before asking for the next operation is what is walked, and a block's
operations are followed one `next_op` at a time.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Block, Operation, Region


def walk(root: Operation | Region | Block, *, reverse: bool = False, region_first: bool = False) -> Iterator[Operation]:
    """The operations in `root` (with `root` itself, if an operation), as
    `root.walk(reverse=reverse, region_first=region_first)` yields them:
    pre-order, or post-order with `region_first`; with `reverse`, regions,
    blocks and operations each in reverse order."""
    if isinstance(root, Operation) and not root.regions:  # most walks: no stack needed
        yield root
        return
    # Each entry: the operation whose nested operations the iterator yields
    # (None for the root's), to be yielded after them in post-order.
    stack: list[tuple[Operation | None, Iterator[Operation]]] = [(None, _top_level(root, reverse))]
    while stack:
        parent, children = stack[-1]
        op = next(children, None)
        if op is None:
            stack.pop()
            if region_first and parent is not None:
                yield parent
            continue
        if not region_first:
            yield op
        if op.regions:
            stack.append((op, _nested(op.regions, reverse)))
        elif region_first:
            yield op


def _top_level(root: Operation | Region | Block, reverse: bool) -> Iterator[Operation]:
    """The outermost operations of a walk of `root`."""
    if isinstance(root, Operation):
        return iter((root,))
    if isinstance(root, Region):
        return _nested((root,), reverse)
    return iter(reversed(root.ops) if reverse else root.ops)


def _nested(regions: tuple[Region, ...], reverse: bool) -> Iterator[Operation]:
    """The operations directly in the blocks of `regions`, in walk order."""
    for region in reversed(regions) if reverse else regions:
        for block in reversed(region.blocks) if reverse else region.blocks:
            yield from reversed(block.ops) if reverse else block.ops
