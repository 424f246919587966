"""Limits of the GraphIt source gir accepts: beyond each, one located error at
the source, never a traceback from a later stage.

The nesting limits bound the work of every later stage. CPython allows 100
levels of indentation and 20 statically nested loops in one function (3.11 to
3.13); the host Python printer moves control flow nested 16 deep into functions
of its own (`gir.targets.host_python`), so these limits are gir's, not Python's.
Printers import them from here.
"""

MAX_NESTING = 256
"""Deepest nesting of `if`, `while` and `for` bodies in a function: an `elif`
counts as an `if` nested in the `else`, and the statements after an `if` that
breaks out of a loop nest one level deeper (they run under a check of the
loop's break flag)."""

MAX_LOOP_NESTING = 64
"""Deepest nesting of `while` and `for` loops in a function."""

MAX_EXPR_DEPTH = 1024
"""Deepest expression tree (parentheses, unary operators, and the operands of a
chain `a + b + c`, which nests to the left), and deepest type or schedule
argument list."""

MAX_ARGV_INDEX = 2**31 - 2
"""Largest N of `argv[N]`: it indexes the program's C `argv`, whose count `argc`
is an `int`."""

MAX_INT_DIGITS = {10: 20, 16: 16}
"""Most significant digits (leading zeros aside) of a 64-bit integer literal, by
base: literals are checked on their digit count before conversion, which Python
refuses beyond 4300 digits."""


def int_literal_value(text: str) -> int | None:
    """The value of a decimal or `0x` hexadecimal integer literal, or None if it
    has more digits than any 64-bit value (leading zeros aside, so that a long
    literal is never handed to `int`)."""
    base = 16 if text[:2] in ("0x", "0X") else 10
    digits = (text[2:] if base == 16 else text).lstrip("0")
    if len(digits) > MAX_INT_DIGITS[base]:
        return None
    return int(digits or "0", base)


def argv_index_refused(digits: str) -> str | None:
    """Why `argv[digits]` (a decimal or `0x` hexadecimal index) is refused: its
    index is beyond `MAX_ARGV_INDEX`; None if it is not."""
    value = int_literal_value(digits)
    if value is not None and value <= MAX_ARGV_INDEX:
        return None
    shown = digits if len(digits) <= 24 else f"{digits[:20]}... ({len(digits)} characters)"
    return f"argv index {shown} out of range (0 to {MAX_ARGV_INDEX})"
