"""What every part of the parser shares (`ParserBase`): the tokens, the current
position, token helpers, errors, and the nesting counts behind
`gir.frontend.limits`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from gir.diagnostics import SourceError
from gir.frontend.ast import Pos
from gir.frontend.lexer import Kind, Token
from gir.frontend.limits import MAX_EXPR_DEPTH, MAX_LOOP_NESTING, MAX_NESTING, int_literal_value


SCALAR_TYPES = ("int", "float", "double", "bool", "string")
WORD_SCALAR_TYPES = ("uint", "uint_64", "int64")
"""Scalar type names that are not keywords (GraphIt's lexer knows them, but gir
keeps them usable as identifiers elsewhere): types only where a type is expected."""
ASSIGN_OPS = ("=", "min=", "max=", "+=", "-=")
COMPARISON_OPS = ("==", "!=", "<", ">", "<=", ">=")
BLOCK_ENDS = ("end", "else", "elif")
STMT_KEYWORDS = (
    "var", "const", "if", "while", "for", "par_for", "print", "println", "delete", "break",
    "new", "load", "not", "true", "false",
)  # fmt: skip


def pos_of(token: Token) -> Pos:
    """The position of a token."""
    return Pos(token.line, token.col)


def parse_int(text: str) -> int:
    """The value of a decimal or `0x` hexadecimal integer literal (the lexer
    refuses those beyond 64 bits)."""
    value = int_literal_value(text)
    assert value is not None, "the lexer refuses integer literals beyond 64 bits"
    return value


class ParserBase:
    """The token list and position of one parse, the helpers that read tokens,
    and the nesting counts behind the limits. `Parser` combines it with one
    mixin per part of the grammar (declarations, types, statements,
    expressions, the schedule section); a mixin calls the others' rules
    through `self`."""

    def __init__(self, tokens: list[Token], filename: str, source: str = ""):
        self.tokens = tokens
        self.filename = filename
        self.lines = source.splitlines()
        """The source's lines, for hints about what the lexer skipped."""
        self.index = 0
        self.block_nesting = 0
        """Statement bodies open here, the function's own included."""
        self.loop_nesting = 0
        self.expr_nesting = 0
        """Expressions, types or schedule argument lists open here."""

    # -- token helpers -------------------------------------------------------

    @property
    def tok(self) -> Token:
        """The current token."""
        return self.tokens[self.index]

    def peek(self, offset: int = 1) -> Token:
        """The token `offset` after the current one (EOF past the end)."""
        return self.tokens[min(self.index + offset, len(self.tokens) - 1)]

    def advance(self) -> Token:
        """Consumes and returns the current token."""
        token = self.tok
        if token.kind != Kind.EOF:
            self.index += 1
        return token

    def error(self, message: str, at: Token | Pos | None = None) -> SourceError:
        """A `SourceError` at `at` (default: the current token)."""
        where = self.tok if at is None else at
        if isinstance(where, Token):
            where = pos_of(where)
        return SourceError(self.filename, where.line, where.col, message)

    def expected(self, what: str) -> SourceError:
        """`expected <what>, found <current token>` (with a hint where the
        previous line goes on with `% operand`, a modulo GraphIt reads as a comment)."""
        return self.error(f"expected {what}, found {self.tok.describe()}{self.modulo_hint()}")

    def modulo_hint(self) -> str:
        """A note when the token before the current one ends its line with
        `% x...`: GraphIt's `%` starts a comment, it is no modulo operator."""
        if self.index == 0:
            return ""
        previous = self.tokens[self.index - 1]
        operand = previous.kind in (Kind.IDENT, Kind.INT, Kind.FLOAT) or any(
            previous.is_punct(close) for close in (")", "]")
        )
        if not operand or previous.line >= self.tok.line or previous.line > len(self.lines):
            return ""
        rest = self.lines[previous.line - 1][previous.col - 1 + len(previous.text) :].lstrip()
        if not (rest.startswith("%") and rest[1:].lstrip()[:1].isalnum()):
            return ""
        return (
            f" ('%' at {previous.line}:{self.lines[previous.line - 1].index(rest) + 1} starts a "
            "comment: GraphIt has no modulo operator, write a - a / b * b)"
        )

    def at_punct(self, text: str) -> bool:
        """Whether the current token is the punctuation `text`."""
        return self.tok.is_punct(text)

    def at_keyword(self, text: str) -> bool:
        """Whether the current token is the keyword `text`."""
        return self.tok.is_keyword(text)

    def accept_punct(self, text: str) -> Token | None:
        """Consumes the punctuation `text` if it is next."""
        return self.advance() if self.at_punct(text) else None

    def accept_keyword(self, text: str) -> Token | None:
        """Consumes the keyword `text` if it is next."""
        return self.advance() if self.at_keyword(text) else None

    def expect_punct(self, text: str) -> Token:
        """Consumes the punctuation `text` or raises `expected 'text'`."""
        if not self.at_punct(text):
            raise self.expected(f"'{text}'")
        return self.advance()

    def expect_keyword(self, text: str) -> Token:
        """Consumes the keyword `text` or raises `expected 'text'`."""
        if not self.at_keyword(text):
            raise self.expected(f"'{text}'")
        return self.advance()

    def expect_ident(self, what: str = "an identifier") -> Token:
        """Consumes an identifier or raises `expected <what>`."""
        if self.tok.kind != Kind.IDENT:
            raise self.expected(what)
        return self.advance()

    @contextmanager
    def nested_block(self, opener: Token) -> Iterator[None]:
        """One more level of statement nesting: at most `MAX_NESTING` inside the
        function's body."""
        self.block_nesting += 1
        if self.block_nesting > MAX_NESTING + 1:
            raise self.error(f"nesting too deep (limit {MAX_NESTING})", opener)
        try:
            yield
        finally:
            self.block_nesting -= 1

    @contextmanager
    def nested_loop(self, opener: Token) -> Iterator[None]:
        """One more loop around the statements parsed inside, at most
        `MAX_LOOP_NESTING`."""
        self.loop_nesting += 1
        if self.loop_nesting > MAX_LOOP_NESTING:
            raise self.error(f"loops nested too deep (limit {MAX_LOOP_NESTING})", opener)
        try:
            yield
        finally:
            self.loop_nesting -= 1

    @contextmanager
    def nested_expr(self, what: str = "expression") -> Iterator[None]:
        """One more level of expression (or type, or schedule list) nesting, at
        most `MAX_EXPR_DEPTH`."""
        self.expr_nesting += 1
        if self.expr_nesting > MAX_EXPR_DEPTH:
            raise self.error(f"{what} nested too deep (limit {MAX_EXPR_DEPTH})")
        try:
            yield
        finally:
            self.expr_nesting -= 1
