"""Recursive-descent parser for GraphIt (`.gt`) programs.

Grammar (as G2's evaluation programs use it)::

    program    := { element | const | func } [ 'schedule' ':' { sched_stmt } ] EOF
    element    := 'element' IDENT 'end'
    const      := 'const' IDENT ':' type [ '=' expr ] ';'
    func       := 'func' IDENT [ '[' param { ',' param } ']' ] '(' [ param { ',' param } ] ')'
                  [ '->' param ] block 'end'
    param      := IDENT ':' type
    stmt       := [ '#' IDENT '#' ] ( var | if | while | for | print | delete
                                    | 'break' ';' | expr [ assign_op expr ] ';' )
    var        := ('var' | 'const') IDENT [ ':' type ] [ '=' expr ] ';'
    if         := 'if' expr block { 'elif' expr block } [ 'else' block ] 'end'
    while      := 'while' expr block 'end'
    for        := 'for' IDENT 'in' expr ':' expr block 'end'
    expr       := or  (or/xor < and < not < comparison < + - < * / < unary - < postfix)
    postfix    := primary { '.' IDENT '(' args ')' | '[' expr ']' | '(' args ')' }
    primary    := INT | FLOAT | STRING | 'true' | 'false' | IDENT | 'argv' '[' INT ']'
                | '(' expr ')' | 'new' type '(' args ')' | 'load' '(' expr ')'
    sched_stmt := IDENT IDENT [ '=' IDENT | '(' sargs ')' ] ';'
                | IDENT '.' IDENT '(' sargs ')' ';'
                | 'program' '->' IDENT '(' sargs ')' { '->' IDENT '(' sargs ')' } ';'
    sarg       := [ '-' ] ( INT | FLOAT ) | IDENT | STRING | '{' [ sarg { ',' sarg } ] '}'

`parse_program(source, filename)` returns an `ast.Program` or raises a
`SourceError` at the first offending token.

Nesting is bounded (`gir.frontend.limits`) so that no later stage (sema, irgen,
passes, printers, reading the printed IR back, compiling the printed host code)
fails on it: statement bodies nest at most `MAX_NESTING` deep in a function
(each `elif` counts, it becomes a nested `scf.if`), loops at most
`MAX_LOOP_NESTING` deep, and an expression tree, a type or a schedule argument
list at most `MAX_EXPR_DEPTH` deep (parentheses, unary operators, and the
operands of a chain `a + b + c`, which nests to the left). An `argv[N]` index is
at most `MAX_ARGV_INDEX`.

The package is split by the grammar's parts: one mixin per part over
`base.ParserBase` (`declarations`, `types`, `statements`, `expressions`,
`schedule_section`), combined in `Parser`.
"""

from __future__ import annotations

from gir.frontend import ast
from gir.frontend.lexer import tokenize
from gir.frontend.parser.base import parse_int, pos_of
from gir.frontend.parser.declarations import DeclarationParser
from gir.frontend.parser.expressions import ExpressionParser
from gir.frontend.parser.schedule_section import ScheduleParser
from gir.frontend.parser.statements import StatementParser
from gir.frontend.parser.types import TypeParser

__all__ = ["Parser", "parse_int", "parse_program", "pos_of"]


class Parser(DeclarationParser, TypeParser, StatementParser, ExpressionParser, ScheduleParser):
    """Parses one token list; see the module docstring for the grammar."""


def parse_program(source: str, filename: str) -> ast.Program:
    """Parses a GraphIt program; raises `SourceError` for lexical or syntax errors."""
    return Parser(tokenize(source, filename), filename, source).parse_program()
