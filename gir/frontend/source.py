"""Source text as user input: decoding, positions and the recursion headroom that
gir's recursive parsers and walkers need.

Both readers of user text, the GraphIt frontend and `gir.ir_input`, start here:
`decode_source` turns bytes into text or one located error at the first byte that
is not UTF-8, and `position` turns an offset into a 1-based line and column.
"""

from __future__ import annotations

import sys

from gir.diagnostics import SourceError

RECURSION_LIMIT = 20_000
"""Python frames gir may use. The readers bound nesting (`gir.frontend.limits`,
`MAX_NESTING` in `gir.ir_input`) so that parsing and every later pass and
printer stay far below it; it is raised for the whole process because modules
are walked again after parsing."""


def ensure_recursion_headroom() -> None:
    """Raises the interpreter's recursion limit to `RECURSION_LIMIT` (never lowers it)."""
    if sys.getrecursionlimit() < RECURSION_LIMIT:
        sys.setrecursionlimit(RECURSION_LIMIT)


def position(text: str, offset: int) -> tuple[int, int]:
    """The 1-based (line, column) of character `offset` of `text`."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def decode_source(data: bytes | str, filename: str) -> str:
    """`data` as text; bytes must be UTF-8 (a byte-order mark is dropped).

    Raises a `SourceError` at the line and column of the first byte that is not
    UTF-8.
    """
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        good = data[: error.start].decode("utf-8-sig")
        line, column = position(good, len(good))
        raise SourceError(
            filename,
            line,
            column,
            f"invalid UTF-8 byte 0x{data[error.start]:02x}: source files must be UTF-8",
        ) from None
