"""IR text (`.mlir`) as user input: a module, or one located error, never a
traceback or a hang.

`parse_module_text(data, filename, ctx)` is the one way gir's tools read IR. A
linear pre-scan first rejects what xDSL's lexer and parser handle badly:

* bytes that are not UTF-8 (error at the first bad byte);
* string literals that are unterminated or hold an escape MLIR does not define:
  xDSL's string regex backtracks exponentially on those (40 characters never
  finish), so they never reach it;
* characters outside ASCII anywhere but in string literals and comments (xDSL
  would read `〇` as a digit and fail in `int()`);
* numbers with more than `MAX_DIGITS` digits and integer types wider than
  `MAX_INT_WIDTH` bits (`i99999999999999999999`);
* brackets nested deeper than `MAX_NESTING`.

Ops written without a `loc(...)` are located at the position where they start
in the text, so that later diagnostics about them name it.

The parse then runs with recursion headroom; whatever it raises (ParseError,
VerifyException, ValueError, OverflowError, ...) becomes one `SourceError` at the
token where it stopped. The parsed module is verified op by op, so that a verifier
error names the line and column of the op that fails.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError

from gir.diagnostics import SourceError, UserError
from gir.frontend.source import decode_source, ensure_recursion_headroom, position
from gir.ir_walk import walk
from gir.verifier import symbol_lookups_indexed

MAX_NESTING = 1024
"""Deepest bracket nesting (`{ ( [ <` together) accepted in IR text."""
MAX_DIGITS = 1000
"""Longest run of digits accepted (Python refuses to convert beyond 4300)."""
MAX_INT_WIDTH = 1024
"""Widest integer type `iN` accepted, in bits."""

_STRING_BODY = r'(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*'
_STRING_PREFIX = re.compile('"' + _STRING_BODY)
"""The longest prefix of a string literal that is still valid (linear: one
character per step, no nested repetition)."""
_INTERESTING = re.compile(
    r"//|\"|[{(\[<>\])}]|[^\x00-\x7f]|[0-9]+"
    r"|(?<![\w$.%@#!^-])[su]?i(?P<width>[0-9]+)(?![\w$.-])"
)
"""What the pre-scan looks at: comments, strings, brackets, non-ASCII characters,
digit runs and integer types."""
_OPENERS = "{([<"


def _error(text: str, filename: str, offset: int, message: str, line_offset: int) -> SourceError:
    line, column = position(text, offset)
    return SourceError(filename, line + line_offset, column, message)


def _skip_string(text: str, start: int, filename: str, line_offset: int) -> int:
    """The offset after the string literal that starts at `start`."""
    match = _STRING_PREFIX.match(text, start)
    assert match is not None
    end = match.end()
    if end < len(text) and text[end] == '"':
        return end + 1
    if end < len(text) and text[end] == "\\":
        raise _error(
            text,
            filename,
            end,
            "invalid escape in string literal (use \\n, \\t, \\\", \\\\ or two hex digits)",
            line_offset,
        )
    raise _error(text, filename, start, "unterminated string literal", line_offset)


def prescan(text: str, filename: str, line_offset: int = 0) -> None:
    """Rejects, with a located `SourceError`, text that xDSL's lexer would hang
    on or crash on; see the module docstring for the list."""
    depth = 0
    pos = 0
    while (match := _INTERESTING.search(text, pos)) is not None:
        token = match.group()
        start = match.start()
        pos = match.end()
        if token == "//":
            newline = text.find("\n", pos)
            pos = len(text) if newline < 0 else newline
        elif token == '"':
            pos = _skip_string(text, start, filename, line_offset)
        elif token in _OPENERS:
            depth += 1
            if depth > MAX_NESTING:
                raise _error(
                    text, filename, start, f"nesting too deep (limit {MAX_NESTING})", line_offset
                )
        elif token in "}])>":
            if not (token == ">" and start > 0 and text[start - 1] == "-"):
                depth = max(depth - 1, 0)
        elif not token.isascii():
            raise _error(
                text,
                filename,
                start,
                f"unexpected character '{token}' (U+{ord(token):04X}): "
                "outside string literals and comments IR text is ASCII",
                line_offset,
            )
        elif match.group("width") is not None:
            width = match.group("width")
            if len(width) > len(str(MAX_INT_WIDTH)) or int(width) > MAX_INT_WIDTH:
                raise _error(
                    text,
                    filename,
                    start,
                    f"integer type '{token[:40]}' is too wide (limit i{MAX_INT_WIDTH})",
                    line_offset,
                )
        elif len(token) > MAX_DIGITS:
            raise _error(
                text,
                filename,
                start,
                f"number with {len(token)} digits (limit {MAX_DIGITS})",
                line_offset,
            )


class _LocatingParser(Parser):
    """xDSL's parser, remembering where each operation starts."""

    def __init__(self, ctx: Context, text: str, name: str):
        super().__init__(ctx, text, name)
        self.op_offsets: dict[Operation, int] = {}

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        op = super().parse_operation()
        self.op_offsets[op] = start
        return op

    def current_offset(self) -> int:
        """Where the parser stopped."""
        return self._current_token.span.start


def _stopped_at(parser: _LocatingParser | None) -> int:
    """Where `parser` stopped (0 if it never started)."""
    return 0 if parser is None else parser.current_offset()


def _first_line(error: Exception) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def _parse(
    ctx: Context,
    text: str,
    filename: str,
    line_offset: int,
    implicit_module: bool,
    verify: bool,
) -> tuple[ModuleOp, dict[Operation, int]]:
    """The module in `text` and where its ops start; every exception is made a
    located error (verifier errors only if `verify`: otherwise they are the
    caller's)."""
    parser: _LocatingParser | None = None
    try:
        parser = _LocatingParser(ctx, text, filename)
        return parser.parse_module(implicit_module), parser.op_offsets
    except ParseError as error:
        span_start = error.span.start
        raise _error(text, filename, span_start, error.msg, line_offset) from None
    except UserError:
        raise
    except RecursionError:
        raise _error(
            text, filename, _stopped_at(parser), "nesting too deep for the IR parser", line_offset
        ) from None
    except DiagnosticException as error:
        if not verify:
            raise
        raise _error(
            text, filename, _stopped_at(parser), _first_line(error), line_offset
        ) from None
    except (ValueError, OverflowError, TypeError, KeyError, IndexError, AssertionError) as error:
        message = f"cannot parse this ({type(error).__name__}: {_first_line(error)})"
        raise _error(text, filename, _stopped_at(parser), message, line_offset) from None


def verify_located(
    module: ModuleOp,
    op_offsets: dict[Operation, int],
    text: str,
    filename: str,
    line_offset: int = 0,
) -> None:
    """Verifies `module`; the error names the first op (in walk order) that fails
    on its own, at the position where it was parsed."""
    with symbol_lookups_indexed():
        try:
            module.verify()
            return
        except (DiagnosticException, ValueError) as error:
            whole = error
        _raise_first_failing(module, op_offsets, text, filename, line_offset)
    raise UserError(f"{filename}: error: {_first_line(whole)}")


def _raise_first_failing(
    module: ModuleOp,
    op_offsets: dict[Operation, int],
    text: str,
    filename: str,
    line_offset: int,
) -> None:
    """Raises the located error of the first op (in walk order) that fails to
    verify on its own, if any."""
    for op in walk(module):
        try:
            op.verify(verify_nested_ops=False)
        except (DiagnosticException, ValueError) as error:
            message = _first_line(error).removeprefix("Operation does not verify: ")
            offset = op_offsets.get(op, 0)
            raise _error(text, filename, offset, f"'{op.name}': {message}", line_offset) from None


def locate_parsed_ops(
    op_offsets: dict[Operation, int], text: str, filename: str, line_offset: int = 0
) -> None:
    """Gives each parsed op that has no `loc(...)` the position where it starts."""
    line_starts = [0] + [match.end() for match in re.finditer("\n", text)]
    name = StringAttr(filename)
    for op, offset in op_offsets.items():
        if isinstance(op.location, UnknownLoc):
            line = bisect_right(line_starts, offset)
            column = offset - line_starts[line - 1] + 1
            op.location = FileLineColLoc(name, IntAttr(line + line_offset), IntAttr(column))


def parse_module_text(
    data: bytes | str,
    filename: str,
    ctx: Context,
    *,
    verify: bool = True,
    implicit_module: bool = True,
    line_offset: int = 0,
) -> ModuleOp:
    """The module in IR text `data` (bytes must be UTF-8), verified unless `verify`
    is false; raises a located `SourceError` for anything wrong with the text.

    With `verify` false, verification is the caller's: verifier errors raised
    while parsing (by attribute verifiers) propagate as xDSL's exceptions.
    `line_offset` is added to reported lines (for a chunk of a split file).
    """
    text = decode_source(data, filename)
    prescan(text, filename, line_offset)
    ensure_recursion_headroom()
    module, op_offsets = _parse(ctx, text, filename, line_offset, implicit_module, verify)
    locate_parsed_ops(op_offsets, text, filename, line_offset)
    if verify:
        verify_located(module, op_offsets, text, filename, line_offset)
    return module
