"""`break` inside loops whose schedule the GPU lowering cannot combine with it.

A `break` becomes a flag carried by the host loop (see `irgen`): the loop
condition tests the flag and the statements after a breaking `if` run under
`scf.if`. A loop scheduled with `configKernelFusion(ENABLED)` runs as one
persistent kernel, and `gpu-fuse-loops` takes only loops whose condition passes
its arguments on unchanged and whose body is a straight line of launches, reads
and writes: a `break` gives neither. Rather than let the lowering fail far from
the source, the frontend rejects it at the `break`::

    #s0# while frontier.getVertexSetSize() != 0   % s0: configKernelFusion(ENABLED)
        ...
        break;       % error: 'break' inside the kernel-fused loop 's0'
    end
"""

from __future__ import annotations

from gir.diagnostics import SourceError
from gir.frontend import ast
from gir.frontend.schedule import ScheduleBinding


def check_fused_breaks(
    program: ast.Program, bindings: dict[ast.Stmt, ScheduleBinding], filename: str
) -> None:
    """Raises a `SourceError` at the first `break` of a kernel-fused `while`."""
    for function in program.functions:
        for stmt in ast.walk_stmts(function.body):
            binding = bindings.get(stmt)
            if not isinstance(stmt, ast.While) or binding is None:
                continue
            breaks = ast.loop_breaks(stmt.body)
            if breaks:
                pos = breaks[0].pos
                raise SourceError(
                    filename,
                    pos.line,
                    pos.col,
                    f"'break' inside the kernel-fused loop '{binding.path}' is not supported: "
                    "a fused loop runs as one kernel until its condition is false "
                    "(end it through the condition, or disable configKernelFusion)",
                )
