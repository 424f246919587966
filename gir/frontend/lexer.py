"""Tokens of GraphIt source.

The lexer turns a `.gt` file into a list of `Token`s, each with its 1-based line
and column. `%` starts a comment to the end of the line; `%{ ... %}` is a block
comment. As in GraphIt's scanner, `%` is never an operator: GraphIt has no
modulo (its multiplicative operators are `*` and `/`). In the `schedule:` section, which G2 copies verbatim into C++, `//` starts
a comment to the end of the line too. `min=` and `max=` are single tokens (reduction assignments), as in
GraphIt's own scanner. Bad characters, unterminated strings and comments raise a
`SourceError` at their position.

GraphIt text is ASCII outside comments: identifiers are ASCII letters, digits and
`_` (at most `MAX_IDENT_LENGTH` characters), numbers are ASCII digits, and string
literals hold ASCII characters (escapes for the rest are not defined). Anything
else is one located error, so no two spellings can name one variable (`afi` and
`aﬁ` under NFKC) and every name is a valid identifier in the generated code.
Integer literals must fit in 64 bits (up to 2^64-1, a `uint_64`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from gir.diagnostics import SourceError
from gir.frontend.limits import int_literal_value


class Kind(Enum):
    """The kind of a token."""

    IDENT = "identifier"
    INT = "integer"
    FLOAT = "float"
    STRING = "string"
    KEYWORD = "keyword"
    PUNCT = "punctuation"
    EOF = "end of file"


KEYWORDS = frozenset(
    {
        "element", "end", "const", "var", "func", "extern", "export",
        "if", "elif", "else", "while", "for", "par_for", "in", "break",
        "print", "println", "delete", "new", "load",
        "and", "or", "not", "xor", "true", "false",
        "int", "float", "double", "bool", "string",
        "vertexset", "edgeset", "vector", "priority_queue", "list",
    }
)  # fmt: skip
"""Words that cannot be identifiers."""

PUNCTUATION = (
    "->", "==", "!=", "<=", ">=", "+=", "-=",
    "(", ")", "[", "]", "{", "}", "<", ">", ",", ".", ":", ";",
    "=", "+", "-", "*", "/", "#",
)  # fmt: skip
"""Operators and delimiters, longest first where one is a prefix of another
(`min=` and `max=` are read with words)."""


MAX_IDENT_LENGTH = 64
"""Longest identifier: kernel and host names are built from several of them, and
OpenCL compilers refuse symbols much longer than 250 characters."""
MAX_INT_LITERAL = 2**64 - 1
"""Largest integer literal, a `uint_64`'s largest value (sema checks that a
literal fits the type it is stored as)."""
DIGITS = frozenset("0123456789")
HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
IDENT_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
IDENT_CHARS = IDENT_START | DIGITS


def describe_char(char: str) -> str:
    """A character as error messages name it: `'é' (U+00E9)`."""
    if char.isprintable() and char != "'":
        return f"'{char}' (U+{ord(char):04X})"
    return f"U+{ord(char):04X}"


@dataclass(frozen=True)
class Token:
    """One token: its kind, its text (for strings: the unquoted value) and where
    it starts."""

    kind: Kind
    text: str
    line: int
    col: int

    def describe(self) -> str:
        """How the token is named in error messages (`'end'`, `end of file`)."""
        if self.kind == Kind.EOF:
            return "end of file"
        if self.kind == Kind.STRING:
            return f'string "{self.text}"'
        return f"'{self.text}'"

    def is_punct(self, text: str) -> bool:
        """Whether the token is the punctuation `text`."""
        return self.kind == Kind.PUNCT and self.text == text

    def is_keyword(self, text: str) -> bool:
        """Whether the token is the keyword `text`."""
        return self.kind == Kind.KEYWORD and self.text == text


class Lexer:
    """Splits GraphIt source into tokens (see `tokenize`)."""

    def __init__(self, source: str, filename: str):
        self.source = source
        self.filename = filename
        self.pos = 0
        self.line = 1
        self.col = 1
        self.in_schedule = False

    def error(self, message: str, line: int | None = None, col: int | None = None) -> SourceError:
        """A `SourceError` at the given position (default: the current one)."""
        return SourceError(
            self.filename,
            self.line if line is None else line,
            self.col if col is None else col,
            message,
        )

    def peek(self, offset: int = 0) -> str:
        """The character `offset` ahead, or '' at the end."""
        index = self.pos + offset
        return self.source[index] if index < len(self.source) else ""

    def advance(self, count: int = 1) -> str:
        """Consumes `count` characters, keeping line and column up to date."""
        text = self.source[self.pos : self.pos + count]
        for char in text:
            if char == "\n":
                self.line += 1
                self.col = 1
            else:
                self.col += 1
        self.pos += len(text)
        return text

    def tokens(self) -> list[Token]:
        """All tokens of the source, ending with one EOF token."""
        result: list[Token] = []
        while True:
            self.skip_space_and_comments()
            if self.pos >= len(self.source):
                result.append(Token(Kind.EOF, "", self.line, self.col))
                return result
            result.append(self.next_token())
            self.in_schedule = self.in_schedule or starts_schedule(result)

    def skip_space_and_comments(self) -> None:
        """Skips whitespace, `% ...` line comments and `%{ ... %}` block comments."""
        while self.pos < len(self.source):
            char = self.peek()
            if char in " \t\r\n\f\v":
                self.advance()
            elif char == "%" and self.peek(1) == "{":
                self.skip_block_comment()
            elif char == "%" or (self.in_schedule and char == "/" and self.peek(1) == "/"):
                while self.pos < len(self.source) and self.peek() != "\n":
                    self.advance()
            else:
                return

    def skip_block_comment(self) -> None:
        """Skips a `%{ ... %}` comment, which must be closed."""
        line, col = self.line, self.col
        self.advance(2)
        while self.pos < len(self.source):
            if self.peek() == "%" and self.peek(1) == "}":
                self.advance(2)
                return
            self.advance()
        raise self.error("unterminated comment '%{'", line, col)

    def next_token(self) -> Token:
        """The token starting at the current position."""
        line, col = self.line, self.col
        char = self.peek()
        if char in IDENT_START:
            return self.word(line, col)
        if char in DIGITS or (char == "." and self.peek(1) in DIGITS and self.peek(1) != ""):
            return self.number(line, col)
        if not char.isascii():
            raise self.error(
                f"unexpected character {describe_char(char)}: GraphIt names and numbers "
                "are ASCII letters, digits and '_'"
            )
        if char == '"':
            return self.string(line, col)
        for punct in PUNCTUATION:
            if self.source.startswith(punct, self.pos):
                self.advance(len(punct))
                return Token(Kind.PUNCT, punct, line, col)
        raise self.error(f"unexpected character '{char}'")

    def word(self, line: int, col: int) -> Token:
        """An identifier, a keyword, or a `min=`/`max=` reduction."""
        start = self.pos
        while self.peek() in IDENT_CHARS and self.peek() != "":
            self.advance()
        if not self.peek().isascii():
            raise self.error(
                f"unexpected character {describe_char(self.peek())} in a name: GraphIt "
                "names are ASCII letters, digits and '_'"
            )
        text = self.source[start : self.pos]
        if len(text) > MAX_IDENT_LENGTH:
            raise self.error(
                f"name '{text[:16]}...' is {len(text)} characters long "
                f"(limit {MAX_IDENT_LENGTH})",
                line,
                col,
            )
        if text in ("min", "max") and self.peek() == "=" and self.peek(1) != "=":
            self.advance()
            return Token(Kind.PUNCT, text + "=", line, col)
        kind = Kind.KEYWORD if text in KEYWORDS else Kind.IDENT
        return Token(kind, text, line, col)

    def number(self, line: int, col: int) -> Token:
        """An integer (decimal or `0x` hex, at most `MAX_INT_LITERAL`) or a float
        literal."""
        start = self.pos
        if self.peek() == "0" and self.peek(1) in ("x", "X"):
            self.advance(2)
            self.skip_chars(IDENT_CHARS)
            text = self.source[start : self.pos]
            if len(text) == 2 or any(c not in HEX_DIGITS for c in text[2:]):
                raise self.error(f"malformed hexadecimal literal '{text[:40]}'", line, col)
            self.check_int_range(text, line, col)
            return Token(Kind.INT, text, line, col)
        is_float = False
        self.skip_chars(DIGITS)
        if self.peek() == "." and self.peek(1) in DIGITS and self.peek(1) != "":
            is_float = True
            self.advance()
            self.skip_chars(DIGITS)
        if self.peek() in ("e", "E") and (
            self.peek(1) in DIGITS and self.peek(1) != ""
            or (self.peek(1) in ("+", "-") and self.peek(2) in DIGITS and self.peek(2) != "")
        ):
            is_float = True
            self.advance(2)
            self.skip_chars(DIGITS)
        if self.peek() in IDENT_CHARS and self.peek() != "":
            raise self.error(
                f"malformed number '{self.source[start : self.pos][:40]}{self.peek()}'", line, col
            )
        text = self.source[start : self.pos]
        if not is_float:
            self.check_int_range(text, line, col)
        return Token(Kind.FLOAT if is_float else Kind.INT, text, line, col)

    def skip_chars(self, chars: frozenset[str]) -> None:
        """Consumes characters while they are in `chars`."""
        while self.pos < len(self.source) and self.source[self.pos] in chars:
            self.advance()

    def check_int_range(self, text: str, line: int, col: int) -> None:
        """Integer literals above `MAX_INT_LITERAL` are errors (checked on the digit
        count first: Python refuses to convert more than 4300 digits)."""
        value = int_literal_value(text)
        if value is None or value > MAX_INT_LITERAL:
            shown = text if len(text) <= 24 else f"{text[:20]}... ({len(text)} characters)"
            raise self.error(
                f"integer literal {shown} does not fit in 64 bits (limit 2^64-1)", line, col
            )

    def string(self, line: int, col: int) -> Token:
        """A double-quoted string literal with `\\n`, `\\t`, `\\"`, `\\\\` escapes."""
        self.advance()
        chars: list[str] = []
        escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
        while True:
            char = self.peek()
            if char in ("", "\n"):
                raise self.error("unterminated string literal", line, col)
            if char == '"':
                self.advance()
                return Token(Kind.STRING, "".join(chars), line, col)
            if not char.isascii() or (not char.isprintable() and char != "\t"):
                raise self.error(
                    f"character {describe_char(char)} in a string literal: GraphIt strings "
                    "hold printable ASCII (and \\n, \\t escapes)"
                )
            if char == "\\":
                escaped = self.peek(1)
                if escaped not in escapes:
                    raise self.error(f"unknown escape sequence '\\{escaped}' in string")
                chars.append(escapes[escaped])
                self.advance(2)
                continue
            chars.append(char)
            self.advance()


def starts_schedule(tokens: list[Token]) -> bool:
    """Whether `tokens` end with the `schedule :` that opens the schedule section:
    at the top level, so after nothing, an `end` or a `;` (where the parser looks
    for it)."""
    if len(tokens) < 2 or not tokens[-1].is_punct(":"):
        return False
    word = tokens[-2]
    if word.kind != Kind.IDENT or word.text != "schedule":
        return False
    return len(tokens) == 2 or tokens[-3].is_keyword("end") or tokens[-3].is_punct(";")


def tokenize(source: str, filename: str) -> list[Token]:
    """The tokens of `source`, ending with an EOF token; raises `SourceError`."""
    return Lexer(source, filename).tokens()
