"""Labels for unlabelled edgeset applies, so that `auto` and `gir-tune` can
schedule every traversal of a program.

A schedule section names statements by label (`#expand#`); an apply without
one can only run at the default schedule. `label_applies` gives each unlabelled
`edgeset.apply` a generated label, `#apply_LINE_COL#`, and each unlabelled
`while` loop around only unlabelled ones `#loop_LINE_COL#` (kernel fusion
schedules labelled loops; a loop around a labelled apply stays unlabelled, as a
label would change the apply's label path that the program's own schedule names), inserted into the source text at the statement the frontend located it
at (every op carries its statement's `file:line:col`). The text is rebuilt to check it; a program the
insertion would break is returned unchanged. Tuned programs written by
`gir-tune -o` keep the generated labels, so their schedule sections apply.
"""

from __future__ import annotations

from functools import cache

from gir.diagnostics import UserError, file_position
from gir.ir_walk import walk

__all__ = ["label_applies"]


@cache
def label_applies(source: str) -> str:
    """`source` with a generated label before each unlabelled edgeset apply."""
    from xdsl.dialects import scf

    from gir.dialects import graph
    from gir.space import LOOP_LABEL, without_schedules

    try:
        module = without_schedules(source, "<program>")
    except UserError:
        return source  # the caller reports the program's own error
    positions: dict[tuple[int, int], str] = {}
    for op in walk(module):
        if isinstance(op, graph.EdgeSetApplyOp) and op.label is None:
            kind = "apply"
        elif (
            isinstance(op, scf.WhileOp)
            and LOOP_LABEL not in op.attributes
            and _applies_inside(op)
            and all(inner.label is None for inner in _applies_inside(op))
        ):
            kind = "loop"
        else:
            continue
        found = file_position(op.location)
        if found is not None:
            positions.setdefault((found.line.data, found.column.data), kind)
    if not positions:
        return source
    lines = source.split("\n")
    for (line, column), kind in sorted(positions.items(), reverse=True):
        text = lines[line - 1]
        lines[line - 1] = f"{text[: column - 1]}#{kind}_{line}_{column}# {text[column - 1 :]}"
    labelled = "\n".join(lines)
    try:
        without_schedules(labelled, "<program>")
    except UserError:
        return source
    return labelled


def _applies_inside(op: object) -> list:
    from gir.dialects import graph

    return [inner for inner in walk(op) if isinstance(inner, graph.EdgeSetApplyOp)]  # type: ignore[attr-defined]
