"""User-facing errors: what the tools print as one line, with no traceback."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the runtime imports this module without xDSL's IR
    from xdsl.dialects.builtin import FileLineColLoc
    from xdsl.ir import Attribute, Operation


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
"""Characters a terminal acts on instead of showing: C0 and C1 controls (ESC, BEL,
CSI, ...) but newline and tab, and Unicode's line separators."""


def printable(text: str) -> str:
    """`text` with every terminal control character written as its escape
    (`\\x1b`): what gir echoes of its inputs (a name, a line of a graph file, a
    character of a program) is shown, never obeyed by the terminal."""
    return _CONTROL.sub(lambda found: ascii(found.group())[1:-1], text)


class UserError(Exception):
    """An error in what the user gave gir (a program, IR, schedule, graph or flag).

    `str(error)` is the whole message, starting with `file:line:col:` when the error
    has a source location. Tools print it to stderr and exit with status 1. The
    message is made `printable` once, here, for every error gir raises.
    """

    def __init__(self, message: object = "", *rest: object):
        super().__init__(printable(str(message)), *rest)

    @classmethod
    def at(cls, op: Operation | None, message: str) -> UserError:
        """The error `message` (`error: ...`, or the text after it) about `op`,
        located at the source position of `op` or of its nearest located parent
        (unlocated without one, or without `op`)."""
        message = message if message.startswith("error: ") else f"error: {message}"
        found = None if op is None else source_position(op)
        if found is None:
            return cls(message)
        filename, line, column = found
        return SourceError(filename, line, column, message.removeprefix("error: "))


class UsageError(UserError):
    """A malformed command line (conflicting options, an unknown pass, a pass
    pipeline that does not parse): tools exit with status 2 for it, as argparse
    does for the errors it finds, and 1 for every other `UserError`."""


class SourceError(UserError):
    """A user error at a position of a source file."""

    def __init__(self, filename: str, line: int, column: int, message: str):
        super().__init__(f"{filename}:{line}:{column}: error: {message}")
        self.filename = filename
        self.line = line
        self.column = column
        self.message = message


def file_position(location: Attribute) -> FileLineColLoc | None:
    """The file position a location attribute names: itself, the position inside
    a name or call-site location (the callee's), or a fused location's first."""
    from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc

    if isinstance(location, FileLineColLoc):
        return location
    if isinstance(location, NameLoc):
        return file_position(location.location)
    if isinstance(location, CallSiteLoc):
        return file_position(location.callee)
    if isinstance(location, FusedLoc):
        for inner in location.locations:
            if (found := file_position(inner)) is not None:
                return found
    return None


def source_position(op: Operation) -> tuple[str, int, int] | None:
    """(file, line, column) of `op`, or of its nearest parent with a position."""
    current: Operation | None = op
    while current is not None:
        found = file_position(current.location)
        if found is not None:
            return found.filename.data, found.line.data, found.column.data
        current = current.parent_op()
    return None


def describe_diagnostic(error: Exception) -> str:
    """A verifier or pass error as `error: <message>` plus the offending op.

    xDSL renders the whole module with a marker under the failing op; users need
    the message and that op, not the dump.
    """
    lines = str(error).strip().splitlines()
    message = lines[0] if lines else "verification failed"
    for index, line in enumerate(lines):
        if line.strip().startswith("^") and index > 0:
            return f"error: {message}\n  in: {lines[index - 1].strip()}"
    return f"error: {message}"


def one_line(error: BaseException) -> str:
    """gir's message for `error` as one line, without a leading `error: ` (for a
    table cell or a progress line: gir-bench's cells, gir-tune's candidates)."""
    if isinstance(error, UserError):
        text = str(error)
    elif type(error).__module__.startswith("xdsl"):
        text = describe_diagnostic(error)  # type: ignore[arg-type]
    else:
        text = f"internal error: {type(error).__name__}: {error}"
    line = next((line.strip() for line in text.splitlines() if line.strip()), text)
    return line.removeprefix("error: ")
