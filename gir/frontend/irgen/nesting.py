"""The nesting of the built IR against `gir.frontend.limits`: the parser bounds
the source's nesting, but irgen nests deeper where a loop breaks (the statements
after an `if` that may break run under an `scf.if` on the loop's flag), so the
built functions are measured too, and the first op too deep is one located
error."""

from __future__ import annotations

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Operation

from gir.diagnostics import SourceError, UserError
from gir.frontend.limits import MAX_LOOP_NESTING, MAX_NESTING


def check_nesting(module: ModuleOp, filename: str) -> None:
    """Raises at the first op whose regions nest deeper than `MAX_NESTING` in
    its function, or whose loops nest deeper than `MAX_LOOP_NESTING`."""
    for function in module.ops:
        if not isinstance(function, func.FuncOp):
            continue
        pending: list[tuple[Operation, int, int]] = [
            (op, 0, 0) for block in function.body.blocks for op in block.ops if op.regions
        ]
        while pending:
            op, depth, loops = pending.pop()
            depth += 1
            loops += isinstance(op, scf.ForOp | scf.WhileOp)
            if depth > MAX_NESTING:
                raise nesting_error(
                    op,
                    filename,
                    f"nesting too deep (limit {MAX_NESTING}): the statements after an 'if' "
                    "that breaks out of a loop nest one level deeper than it",
                )
            if loops > MAX_LOOP_NESTING:
                raise nesting_error(op, filename, f"loops nested too deep (limit {MAX_LOOP_NESTING})")
            pending.extend(
                (inner, depth, loops)
                for region in op.regions
                for block in region.blocks
                for inner in block.ops
                if inner.regions
            )


def nesting_error(op: Operation, filename: str, message: str) -> UserError:
    """`message`, located at `op` where it has a source location."""
    location = op.location
    if isinstance(location, FileLineColLoc):
        return SourceError(filename, location.line.data, location.column.data, message)
    return UserError(f"{filename}: error: {message}")
