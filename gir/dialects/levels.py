"""gir's levels and which ops each one holds.

A module is at a level when every op in it is one the level allows and sits
where the level allows it. The levels are closed: lowering from one to the next
leaves nothing of the one above.

| level      | ops                                                                |
|------------|--------------------------------------------------------------------|
| `graph`    | builtin, func, arith, math, scf, graph                             |
| `frontier` | the graph level's, frontier, host (command line, strings, lists of |
|            | numbers, print, timers)                                            |
| `gpu`      | builtin, func.func @main / func.return, arith, math, scf, memref, |
|            | gir_gpu (inside kernels), host (outside kernels)                   |

At the GPU level `gir_gpu.kernel`s and the one `func.func @main` are the module's
ops; device code (`memref` accesses and the kernel-side `gir_gpu` ops) is inside a
kernel and host ops are not (the host dialect's own verifier also says so); kernel
names are C identifiers (gir_gpu.kernel's verifier), as every printer needs.

```python
check_level(module, Level.GPU)     # raises a UserError naming the first op that is not
level_of(module)                   # Level.GRAPH, Level.FRONTIER, Level.GPU or None
```
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from xdsl.dialects import func
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.math import Math
from xdsl.dialects.memref import MemRef
from xdsl.dialects.scf import Scf
from xdsl.ir import Dialect, Operation
from xdsl.utils.str_enum import StrEnum

from gir.diagnostics import UserError
from gir.dialects.frontier import Frontier
from gir.dialects.gir_gpu import HOST_PRIMITIVES, GirGpu, KernelOp
from gir.dialects.graph import Graph
from gir.dialects.host import (
    ArgvIntOp,
    ArgvStringOp,
    Host,
    NumberListAppendOp,
    NumberListNewOp,
    NumberListPopOp,
    NumberListSizeOp,
    PrintOp,
    StartTimerOp,
    StopTimerOp,
    StringConstantOp,
    StringEqOp,
    StringToIntOp,
)
from gir.ir_walk import walk


class Level(StrEnum):
    """gir's IR levels, from the source program down to what the printers take."""

    GRAPH = "graph"
    """GraphIt's algorithm language with its schedules (`graph` dialect)."""
    FRONTIER = "frontier"
    """Explicit frontier representations and traversals (`frontier` dialect)."""
    GPU = "gpu"
    """Kernels (`gir_gpu`) and a host function `@main` (`host`)."""

    @property
    def title(self) -> str:
        """The level's name in messages ("GPU", "frontier")."""
        return "GPU" if self == Level.GPU else self.value


def _ops(dialects: Iterable[Dialect]) -> frozenset[type[Operation]]:
    return frozenset(op for dialect in dialects for op in dialect.operations)


_COMMON = _ops([Builtin, Arith, Math, Scf])
_GRAPH_OPS = _COMMON | _ops([func.Func, Graph])

LEVEL_OPS: dict[Level, frozenset[type[Operation]]] = {
    Level.GRAPH: _GRAPH_OPS,
    Level.FRONTIER: _GRAPH_OPS
    | _ops([Frontier])
    | {
        ArgvIntOp,
        ArgvStringOp,
        StringConstantOp,
        StringEqOp,
        StringToIntOp,
        NumberListNewOp,
        NumberListAppendOp,
        NumberListPopOp,
        NumberListSizeOp,
        PrintOp,
        StartTimerOp,
        StopTimerOp,
    },
    Level.GPU: _COMMON
    | _ops([MemRef, GirGpu, Host])
    | {func.FuncOp, func.ReturnOp, func.CallOp},
}
"""The op classes each level allows (placement rules aside)."""

_DEVICE_OPS = _ops([MemRef, GirGpu]) - {KernelOp, *HOST_PRIMITIVES}
"""GPU-level ops that only kernels may hold."""


def _misplaced_at_gpu_level(op: Operation, inside_kernel: bool) -> str | None:
    """Why `op` (an op the GPU level allows; `inside_kernel`: nested in a
    gir_gpu.kernel) is in the wrong place, or None."""
    if type(op) in _DEVICE_OPS and not inside_kernel:
        return f"'{op.name}' is device code: it belongs inside a gir_gpu.kernel"
    if (type(op) in Host.operations or type(op) in HOST_PRIMITIVES) and inside_kernel:
        return f"'{op.name}' is a host op: it cannot be inside a gir_gpu.kernel"
    if isinstance(op, KernelOp | func.FuncOp) and not isinstance(op.parent_op(), ModuleOp):
        return f"'{op.name}' belongs at the top level of the module"
    if isinstance(op, func.CallOp) and not inside_kernel:
        return f"'{op.name}' calls an extern function: device code, inside a gir_gpu.kernel"
    if isinstance(op, func.FuncOp) and op.sym_name.data != "main" and not op.is_declaration:
        return f"the GPU level has one host function @main, not {_symbol(op.sym_name.data)}"
    return None


_C_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _symbol(name: str) -> str:
    """`@name` on one line, escaped as MLIR prints it when it is no identifier."""
    return f"@{name}" if _C_IDENTIFIER.fullmatch(name) else f"@{json.dumps(name)}"


def _ops_in_kernels(module: ModuleOp) -> set[Operation]:
    """The ops nested in some gir_gpu.kernel of `module` (one walk of each
    kernel, rather than a scan of every op's ancestors)."""
    inside: set[Operation] = set()
    for op in walk(module):
        if isinstance(op, KernelOp) and op not in inside:
            inside.update(inner for inner in walk(op) if inner is not op)
    return inside


def level_violation(module: ModuleOp, level: Level) -> tuple[Operation, str] | None:
    """The first op of `module` that is not at `level`, with the reason, or None."""
    allowed = LEVEL_OPS[level]
    in_kernels = _ops_in_kernels(module) if level == Level.GPU else set()
    for op in walk(module):
        if op is module:
            continue
        if type(op) not in allowed:
            return op, f"'{op.name}' is not an op of the {level.title} level"
        if level == Level.GPU:
            reason = _misplaced_at_gpu_level(op, op in in_kernels)
            if reason is not None:
                return op, reason
    return None


def is_at_level(module: ModuleOp, level: Level) -> bool:
    """Whether every op of `module` is one `level` allows, where it allows it."""
    return level_violation(module, level) is None


def level_of(module: ModuleOp) -> Level | None:
    """The highest level `module` is at, or None when it mixes levels (a module
    that only holds ops every level has is at the graph level)."""
    for level in Level:
        if is_at_level(module, level):
            return level
    return None


def check_level(module: ModuleOp, level: Level) -> None:
    """Raises a UserError unless `module` is at `level`; at the GPU level it must
    also have its host function `@main`."""
    violation = level_violation(module, level)
    if violation is not None:
        op, reason = violation
        hint = (
            "; lower it first with gir-opt --pass-pipeline=lower-to-gpu"
            if level == Level.GPU and type(op) not in LEVEL_OPS[Level.GPU]
            else ""
        )
        raise UserError(f"error: the module is not at the {level.title} level: {reason}{hint}")
    if level == Level.GPU and not any(
        isinstance(op, func.FuncOp) and op.sym_name.data == "main" for op in module.ops
    ):
        raise UserError("error: the module has no host function 'func.func @main'")
