"""How much device memory a program needs on a graph, known before it runs.

Read from the GPU level's host function (`@main`): the graph arrays it reads
(`host.graph_array`, each uploaded once) and the buffers it allocates
(`host.alloc`), whose sizes are expressions of the graph's vertex and edge
counts (`host.graph_size`) and constants. A one-device run compares the sum
with the device's memory before it uploads anything
(`CompiledProgram.for_run`), and says how many devices a partitioned run needs
instead of failing half-way through an upload.

The buffers are counted as if none were freed, along the most expensive branch
of each `scf.if`, and once however often a loop runs (a loop that allocates
and frees a buffer per iteration holds one at a time): an estimate, exact for
the graph arrays and close for the frontier queues that dominate the rest.
Sizes that depend on run-time values (`host.argv_int`, values carried by a
loop) are not counted.

```python
footprint = DeviceFootprint.of(module)
footprint.bytes(num_vertices, num_edges)   # (graph arrays, buffers) in bytes
```
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from gir.dialects import host
from gir.ir_walk import walk

SizeTerm = Callable[[int, int], int | None]
"""An allocation's element count as a function of (vertices, edges); None where
it depends on something else."""

_BINARY: dict[type[Operation], Callable[[int, int], int]] = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.DivSIOp: lambda a, b: a // b if b else 0,
    arith.DivUIOp: lambda a, b: a // b if b else 0,
    arith.CeilDivSIOp: lambda a, b: -(-a // b) if b else 0,
    arith.CeilDivUIOp: lambda a, b: -(-a // b) if b else 0,
    arith.MaxSIOp: max,
    arith.MaxUIOp: max,
    arith.MinSIOp: min,
    arith.MinUIOp: min,
    arith.ShLIOp: lambda a, b: a << b,
    arith.ShRSIOp: lambda a, b: a >> b,
    arith.ShRUIOp: lambda a, b: a >> b,
}
_CASTS = (arith.IndexCastOp, arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp)


def _value(value: SSAValue, num_vertices: int, num_edges: int) -> int | None:
    """The integer `value` holds on a graph of that size, where its definition is
    a graph size, a constant or integer arithmetic of those; else None."""
    if isinstance(value, BlockArgument):
        return None
    op = value.owner
    if isinstance(op, host.GraphSizeOp):
        return num_vertices if op.what.data == host.GraphSize.VERTICES else num_edges
    if isinstance(op, arith.ConstantOp):
        attribute = op.value
        return attribute.value.data if isinstance(attribute, IntegerAttr) else None
    if isinstance(op, _CASTS):
        return _value(op.operands[0], num_vertices, num_edges)
    combine = _BINARY.get(type(op))
    if combine is None:
        return None
    left = _value(op.operands[0], num_vertices, num_edges)
    right = _value(op.operands[1], num_vertices, num_edges)
    return None if left is None or right is None else combine(left, right)


@dataclass(frozen=True)
class _Allocation:
    """A `host.alloc`: its count and element size."""

    count: SSAValue
    element_bytes: int


@dataclass(frozen=True)
class _Allocations:
    """The buffers a block allocates: those of every op in turn, the larger
    branch of each `scf.if` (`choices`)."""

    allocations: tuple[_Allocation, ...]
    choices: tuple[tuple[_Allocations, ...], ...]

    def bytes(self, num_vertices: int, num_edges: int) -> int:
        own = 0
        for allocation in self.allocations:
            count = _value(allocation.count, num_vertices, num_edges)
            own += 0 if count is None else max(count, 0) * allocation.element_bytes
        for branches in self.choices:
            own += max((branch.bytes(num_vertices, num_edges) for branch in branches), default=0)
        return own

    @staticmethod
    def of(blocks: list[Block]) -> _Allocations:
        allocations: list[_Allocation] = []
        choices: list[tuple[_Allocations, ...]] = []
        for block in blocks:
            for op in block.ops:
                if isinstance(op, host.AllocOp):
                    allocations.append(_Allocation(op.count, _element_bytes(op.result.type)))
                elif isinstance(op, scf.IfOp):
                    choices.append(tuple(_Allocations.of(list(region.blocks)) for region in op.regions))
                elif op.regions:
                    nested = _Allocations.of([b for region in op.regions for b in region.blocks])
                    allocations.extend(nested.allocations)
                    choices.extend(nested.choices)
        return _Allocations(tuple(allocations), tuple(choices))


def _element_bytes(memref: object) -> int:
    """The bytes of one element of a buffer type (4 where the type says none)."""
    if isinstance(memref, MemRefType):
        width = getattr(memref.element_type, "bitwidth", None)
        if isinstance(width, int) and width > 0:
            return (width + 7) // 8
    return 4


@dataclass(frozen=True)
class _GraphArrayUse:
    """A graph array the program reads: its kind, element size and blocking size."""

    kind: host.GraphArray
    element_bytes: int
    blocking_size: int | None

    def count(self, num_vertices: int, num_edges: int) -> int:
        if self.kind in (host.GraphArray.ROW_PTR, host.GraphArray.CSC_PTR):
            return num_vertices + 1
        if self.kind == host.GraphArray.OUT_DEGREES:
            return num_vertices
        if self.kind in host.BLOCK_OFFSET_ARRAYS:
            size = self.blocking_size or 1
            return max(1, -(-num_vertices // size)) + 1
        return num_edges


@dataclass(frozen=True)
class DeviceFootprint:
    """The device memory a program's host function asks for, as a function of
    the graph's size (see the module docstring)."""

    graph_arrays: frozenset[_GraphArrayUse]
    buffers: _Allocations

    @staticmethod
    def of(module: ModuleOp) -> DeviceFootprint | None:
        """The footprint of `module`'s `@main` (None: it has none)."""
        main = next(
            (op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == "main"), None
        )
        if main is None:
            return None
        arrays = frozenset(
            _GraphArrayUse(
                host.GraphArray(op.array.data),
                _element_bytes(op.result.type),
                None if op.blocking_size is None else op.blocking_size.value.data,
            )
            for op in walk(main)
            if isinstance(op, host.GraphArrayOp)
        )
        return DeviceFootprint(arrays, _Allocations.of(list(main.body.blocks)))

    def bytes(self, num_vertices: int, num_edges: int) -> tuple[int, int]:
        """(graph array bytes, buffer bytes) on a graph of that size."""
        graph = sum(use.count(num_vertices, num_edges) * use.element_bytes for use in self.graph_arrays)
        return graph, self.buffers.bytes(num_vertices, num_edges)

    def total(self, num_vertices: int, num_edges: int) -> int:
        """All the bytes (`bytes`, summed)."""
        return sum(self.bytes(num_vertices, num_edges))
