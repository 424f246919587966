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
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from gir.diagnostics import SourceError
from gir.frontend import ast
from gir.frontend.ast import Pos
from gir.frontend.lexer import Kind, Token, tokenize
from gir.frontend.limits import (
    MAX_EXPR_DEPTH,
    MAX_LOOP_NESTING,
    MAX_NESTING,
    argv_index_refused,
    int_literal_value,
)
from gir.frontend.sema import GET_NGH_LOOP_UNSUPPORTED, MAX_VECTOR_SIZE

SCALAR_TYPES = ("int", "float", "double", "bool", "string")
WORD_SCALAR_TYPES = ("uint", "uint_64", "int64")
"""Scalar type names that are not keywords (GraphIt's lexer knows them, but gir
keeps them usable as identifiers elsewhere): types only where a type is expected."""
ASSIGN_OPS = ("=", "min=", "max=", "+=", "-=")
COMPARISON_OPS = ("==", "!=", "<", ">", "<=", ">=")
BLOCK_ENDS = ("end", "else", "elif")
STMT_KEYWORDS = (
    "var", "const", "if", "while", "for", "print", "println", "delete", "break",
    "new", "load", "not", "true", "false",
)  # fmt: skip


def pos_of(token: Token) -> Pos:
    """The position of a token."""
    return Pos(token.line, token.col)


class Parser:
    """Parses one token list; see the module docstring for the grammar."""

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

    # -- program ---------------------------------------------------------------

    def parse_program(self) -> ast.Program:
        """The whole file."""
        decls: list[ast.Decl] = []
        schedule: list[ast.SchedStmt] = []
        while self.tok.kind != Kind.EOF:
            if (
                self.tok.kind == Kind.IDENT
                and self.tok.text == "schedule"
                and self.peek().is_punct(":")
            ):
                self.advance()
                self.advance()
                schedule = self.parse_schedule_section()
                break
            decls.append(self.parse_decl())
        return ast.Program(decls, schedule)

    def parse_decl(self) -> ast.Decl:
        """One top-level declaration."""
        if self.at_keyword("element"):
            return self.parse_element()
        if self.at_keyword("const"):
            return self.parse_const()
        if self.at_keyword("export"):
            return self.parse_export()
        if self.at_keyword("func"):
            return self.parse_func()
        if self.at_keyword("extern"):
            return self.parse_extern()
        raise self.expected("'element', 'const', 'func' or 'schedule:'")

    def parse_element(self) -> ast.ElementDecl:
        """`element Name end`."""
        start = self.advance()
        name = self.expect_ident("an element name")
        self.expect_keyword("end")
        return ast.ElementDecl(pos_of(start), name.text)

    def parse_const(self) -> ast.ConstDecl:
        """`const name : T [= init];` at program level."""
        start = self.advance()
        name = self.expect_ident("a constant name")
        self.expect_punct(":")
        type_expr = self.parse_type()
        init = self.parse_expr() if self.accept_punct("=") else None
        self.expect_punct(";")
        return ast.ConstDecl(pos_of(start), name.text, pos_of(name), type_expr, init)

    def parse_func(self, exported: bool = False) -> ast.FuncDecl:
        """`func name(params) [-> output : T] body end`; an export may also
        declare several outputs, `-> (a : T, b : U)` (GraphIt's `results` rule)."""
        start = self.advance()
        name = self.expect_ident("a function name")
        captures = self.parse_params("]") if self.accept_punct("[") else []
        self.expect_punct("(")
        params = self.parse_params(")")
        outputs = self.parse_outputs(exported) if self.accept_punct("->") else []
        body = self.parse_block(start, "func", BLOCK_ENDS[:1])
        self.advance()
        output = outputs[0] if len(outputs) == 1 and not exported else None
        return ast.FuncDecl(
            pos_of(start), name.text, params, output, body, captures,
            outputs=outputs, exported=exported,
        )

    def parse_outputs(self, exported: bool) -> list[ast.Param]:
        """`output : T` or, for an export, `(output : T {, output : T})` (after `->`)."""
        opening = self.accept_punct("(")
        if opening is None:
            return [self.parse_param()]
        if not exported:
            raise self.error(
                "only an 'export func' declares its outputs in parentheses; "
                "a function returns one value, '-> name : T'",
                opening,
            )
        if self.at_punct(")"):
            raise self.expected("an output name after '('")
        return self.parse_params(")")

    def parse_params(self, closer: str) -> list[ast.Param]:
        """`[param {, param}] closer` (after the opening bracket)."""
        params: list[ast.Param] = []
        if not self.at_punct(closer):
            params.append(self.parse_param())
            while self.accept_punct(","):
                params.append(self.parse_param())
        self.expect_punct(closer)
        return params

    def parse_export(self) -> ast.FuncDecl:
        """`export func name(params) [-> output : T | -> (a : T, ...)] body end`: an entry point
        called from Python (see `gir.frontend.exports`)."""
        self.advance()
        if not self.at_keyword("func"):
            raise self.expected("'func' after 'export'")
        return self.parse_func(exported=True)

    def parse_extern(self) -> ast.FuncDecl:
        """`extern func name(params) [-> output : T];`: a device function the
        user implements in CUDA or OpenCL C (`gir-run --extern FILE`)."""
        start = self.advance()
        if not self.at_keyword("func"):
            raise self.expected("'func' after 'extern'")
        self.advance()
        name = self.expect_ident("a function name")
        self.expect_punct("(")
        params = self.parse_params(")")
        output = self.parse_param() if self.accept_punct("->") else None
        self.expect_punct(";")
        outputs = [output] if output is not None else []
        return ast.FuncDecl(pos_of(start), name.text, params, output, [], outputs=outputs, extern=True)

    def parse_param(self) -> ast.Param:
        """`name : T`."""
        name = self.expect_ident("a parameter name")
        self.expect_punct(":")
        return ast.Param(pos_of(name), name.text, self.parse_type())

    # -- types -----------------------------------------------------------------

    def parse_type(self) -> ast.TypeExpr:
        """A type: scalar, element, vertexset, edgeset, vector, priority queue, list."""
        with self.nested_expr("type"):
            return self.parse_type_here()

    def parse_type_here(self) -> ast.TypeExpr:
        """`parse_type` inside its nesting count."""
        token = self.tok
        pos = pos_of(token)
        if token.kind == Kind.KEYWORD and token.text in SCALAR_TYPES:
            self.advance()
            return ast.ScalarTypeExpr(pos, token.text)
        if token.kind == Kind.IDENT:
            self.advance()
            if token.text in WORD_SCALAR_TYPES:
                return ast.ScalarTypeExpr(pos, token.text)
            return ast.ElementTypeExpr(pos, token.text)
        if self.accept_keyword("vertexset"):
            return ast.VertexSetTypeExpr(pos, self.parse_braced_element())
        if self.accept_keyword("edgeset"):
            return self.parse_edgeset_type(pos)
        if self.accept_keyword("vector"):
            return self.parse_vector_type(pos)
        if self.accept_keyword("priority_queue"):
            element = self.parse_braced_element()
            return ast.PriorityQueueTypeExpr(pos, element, self.parse_paren_type())
        if self.accept_keyword("list"):
            self.expect_punct("{")
            item = self.parse_type()
            self.expect_punct("}")
            return ast.ListTypeExpr(pos, item)
        raise self.expected("a type")

    def parse_braced_element(self) -> str:
        """`{ Element }`."""
        self.expect_punct("{")
        name = self.expect_ident("an element name")
        self.expect_punct("}")
        return name.text

    def parse_paren_type(self) -> ast.TypeExpr:
        """`( T )`."""
        self.expect_punct("(")
        inner = self.parse_type()
        self.expect_punct(")")
        return inner

    def parse_edgeset_type(self, pos: Pos) -> ast.EdgeSetTypeExpr:
        """`edgeset{Edge}(Vertex, Vertex[, weight])` after `edgeset`."""
        element = self.parse_braced_element()
        self.expect_punct("(")
        endpoints = [self.expect_ident("an element name").text]
        self.expect_punct(",")
        endpoints.append(self.expect_ident("an element name").text)
        weight = self.parse_type() if self.accept_punct(",") else None
        self.expect_punct(")")
        return ast.EdgeSetTypeExpr(pos, element, endpoints, weight)

    def parse_vector_type(self, pos: Pos) -> ast.VectorTypeExpr:
        """`vector{Vertex}(T)` or `vector[N](T)` after `vector` (a size given by
        name, `vector[K](T)`, is left to sema, which requires a constant)."""
        if self.accept_punct("["):
            if self.tok.kind == Kind.IDENT:
                name = self.advance()
                self.expect_punct("]")
                return ast.VectorTypeExpr(
                    pos, None, None, self.parse_paren_type(), name.text, pos_of(name)
                )
            if self.tok.kind != Kind.INT:
                raise self.expected("a vector size")
            size_token = self.advance()
            size = parse_int(size_token.text)
            if size > MAX_VECTOR_SIZE:
                raise self.error(
                    f"vector size {size} exceeds the limit of {MAX_VECTOR_SIZE} elements",
                    size_token,
                )
            self.expect_punct("]")
            return ast.VectorTypeExpr(pos, None, size, self.parse_paren_type())
        element = self.parse_braced_element()
        return ast.VectorTypeExpr(pos, element, None, self.parse_paren_type())

    # -- statements --------------------------------------------------------------

    def parse_block(self, opener: Token, what: str, ends: tuple[str, ...]) -> list[ast.Stmt]:
        """Statements up to (not including) one of the keywords `ends`; anything
        else that cannot start a statement means the block was not closed."""
        body: list[ast.Stmt] = []
        with self.nested_block(opener):
            while not (self.tok.kind == Kind.KEYWORD and self.tok.text in ends):
                if not self.can_start_statement():
                    raise self.error(
                        f"expected 'end' to close '{what}' at {opener.line}:{opener.col}, "
                        f"found {self.tok.describe()}"
                    )
                body.append(self.parse_stmt())
        return body

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

    def can_start_statement(self) -> bool:
        """Whether the current token can begin a statement."""
        token = self.tok
        if token.kind in (Kind.IDENT, Kind.INT, Kind.FLOAT, Kind.STRING):
            return True
        if token.kind == Kind.KEYWORD:
            return token.text in STMT_KEYWORDS
        return token.kind == Kind.PUNCT and token.text in ("#", "(", "-")

    def parse_stmt(self) -> ast.Stmt:
        """One statement, with its optional `#label#`."""
        label: Token | None = None
        hash_token = self.accept_punct("#")
        if hash_token is not None:
            label = self.expect_ident("a label name")
            self.expect_punct("#")
        stmt = self.parse_unlabelled_stmt()
        if label is not None and hash_token is not None:
            stmt.label = label.text
            stmt.label_pos = pos_of(hash_token)
        return stmt

    def parse_unlabelled_stmt(self) -> ast.Stmt:
        """A statement without its label."""
        token = self.tok
        if token.kind == Kind.KEYWORD:
            keyword_parsers = {
                "var": self.parse_var,
                "const": self.parse_var,
                "if": self.parse_if,
                "while": self.parse_while,
                "for": self.parse_for,
                "print": self.parse_print,
                "println": self.parse_print,
                "delete": self.parse_delete,
                "break": self.parse_break,
            }
            if token.text in keyword_parsers:
                return keyword_parsers[token.text]()
        return self.parse_expr_stmt()

    def parse_var(self) -> ast.VarDecl:
        """`var name [: T] [= init];`."""
        start = self.advance()
        name = self.expect_ident("a variable name")
        type_expr = self.parse_type() if self.accept_punct(":") else None
        init = self.parse_expr() if self.accept_punct("=") else None
        if type_expr is None and init is None:
            raise self.expected("':' and a type")
        self.expect_punct(";")
        return ast.VarDecl(pos_of(start), name.text, pos_of(name), type_expr, init)

    def parse_if(self) -> ast.If:
        """`if c ... {elif c ...} [else ...] end`."""
        start = self.advance()
        return self.parse_if_rest(start)

    def parse_if_rest(self, start: Token) -> ast.If:
        """The condition and branches after `if` or `elif` (`start`)."""
        cond = self.parse_expr()
        then_body = self.parse_block(start, start.text, BLOCK_ENDS)
        else_body: list[ast.Stmt] | None = None
        if self.at_keyword("elif"):
            elif_token = self.advance()
            with self.nested_block(elif_token):
                nested = self.parse_if_rest(elif_token)
            return ast.If(pos_of(start), cond, then_body, [nested])
        if self.accept_keyword("else"):
            else_body = self.parse_block(start, start.text, BLOCK_ENDS[:1])
        self.expect_keyword("end")
        return ast.If(pos_of(start), cond, then_body, else_body)

    def parse_while(self) -> ast.While:
        """`while c ... end`."""
        start = self.advance()
        cond = self.parse_expr()
        with self.nested_loop(start):
            body = self.parse_block(start, "while", BLOCK_ENDS[:1])
        self.advance()
        return ast.While(pos_of(start), cond, body)

    def parse_for(self) -> ast.For:
        """`for i in a:b ... end`."""
        start = self.advance()
        var = self.expect_ident("a loop variable")
        self.expect_keyword("in")
        first = self.parse_expr()
        if isinstance(first, ast.MethodCall) and first.method == "getNgh":
            # GraphIt's `for ngh in edges.getNgh(v)`: say what works, not "expected ':'"
            raise self.error(GET_NGH_LOOP_UNSUPPORTED, first.method_pos)
        self.expect_punct(":")
        last = self.parse_expr()
        with self.nested_loop(start):
            body = self.parse_block(start, "for", BLOCK_ENDS[:1])
        self.advance()
        return ast.For(pos_of(start), var.text, pos_of(var), first, last, body)

    def parse_print(self) -> ast.Print:
        """`print e;`."""
        start = self.advance()
        value = self.parse_expr()
        self.expect_punct(";")
        return ast.Print(pos_of(start), value)

    def parse_delete(self) -> ast.Delete:
        """`delete e;`."""
        start = self.advance()
        value = self.parse_expr()
        self.expect_punct(";")
        return ast.Delete(pos_of(start), value)

    def parse_break(self) -> ast.Break:
        """`break;`."""
        start = self.advance()
        self.expect_punct(";")
        return ast.Break(pos_of(start))

    def parse_expr_stmt(self) -> ast.Stmt:
        """An assignment `target op value;` or an expression statement."""
        start = self.tok
        expr = self.parse_expr()
        if self.tok.kind == Kind.PUNCT and self.tok.text in ASSIGN_OPS:
            op = self.advance()
            if not isinstance(expr, ast.Name | ast.Index):
                raise self.error("can only assign to a variable or a vector element", start)
            value = self.parse_expr()
            self.expect_punct(";")
            return ast.Assign(pos_of(start), expr, op.text, pos_of(op), value)
        self.expect_punct(";")
        return ast.ExprStmt(pos_of(start), expr)

    # -- expressions -------------------------------------------------------------

    def parse_expr(self) -> ast.Expr:
        """An expression (lowest precedence: `or`, `xor`); a whole one (not nested
        in another) is at most `MAX_EXPR_DEPTH` deep."""
        start = self.tok
        with self.nested_expr():
            expr = self.parse_or()
        if self.expr_nesting == 0 and ast.expr_depth(expr) > MAX_EXPR_DEPTH:
            raise self.error(f"expression nested too deep (limit {MAX_EXPR_DEPTH})", start)
        return expr

    def parse_or(self) -> ast.Expr:
        """`a or b`, `a xor b`."""
        left = self.parse_and()
        while self.at_keyword("or") or self.at_keyword("xor"):
            op = self.advance()
            left = ast.Binary(pos_of(op), op.text, left, self.parse_and())
        return left

    def parse_and(self) -> ast.Expr:
        """`a and b`."""
        left = self.parse_not()
        while self.at_keyword("and"):
            op = self.advance()
            left = ast.Binary(pos_of(op), "and", left, self.parse_not())
        return left

    def parse_not(self) -> ast.Expr:
        """`not a`."""
        if self.at_keyword("not"):
            op = self.advance()
            with self.nested_expr():
                return ast.Unary(pos_of(op), "not", self.parse_not())
        return self.parse_comparison()

    def parse_comparison(self) -> ast.Expr:
        """`a == b`, `a < b`, ..."""
        left = self.parse_additive()
        while self.tok.kind == Kind.PUNCT and self.tok.text in COMPARISON_OPS:
            op = self.advance()
            left = ast.Binary(pos_of(op), op.text, left, self.parse_additive())
        return left

    def parse_additive(self) -> ast.Expr:
        """`a + b`, `a - b`."""
        left = self.parse_multiplicative()
        while self.at_punct("+") or self.at_punct("-"):
            op = self.advance()
            left = ast.Binary(pos_of(op), op.text, left, self.parse_multiplicative())
        return left

    def parse_multiplicative(self) -> ast.Expr:
        """`a * b`, `a / b`."""
        left = self.parse_unary()
        while self.at_punct("*") or self.at_punct("/"):
            op = self.advance()
            left = ast.Binary(pos_of(op), op.text, left, self.parse_unary())
        return left

    def parse_unary(self) -> ast.Expr:
        """`-a`."""
        if self.at_punct("-"):
            op = self.advance()
            with self.nested_expr():
                return ast.Unary(pos_of(op), "-", self.parse_unary())
        return self.parse_postfix()

    def parse_postfix(self) -> ast.Expr:
        """A primary followed by calls, method calls and indexing."""
        expr = self.parse_primary()
        while True:
            if self.at_punct("."):
                self.advance()
                method = self.expect_ident("a method name")
                if not self.at_punct("("):
                    raise self.expected(f"'(' after method name '{method.text}'")
                args = self.parse_args()
                expr = ast.MethodCall(expr.pos, expr, method.text, pos_of(method), args)
            elif self.at_punct("["):
                self.advance()
                index = self.parse_expr()
                if self.at_punct(",") and isinstance(expr, ast.Name):
                    captures = [index]
                    while self.accept_punct(","):
                        captures.append(self.parse_expr())
                    self.expect_punct("]")
                    expr = ast.Functor(expr.pos, expr.name, captures)
                    continue
                self.expect_punct("]")
                expr = ast.Index(expr.pos, expr, index)
            elif self.at_punct("(") and isinstance(expr, ast.Name):
                expr = ast.Call(expr.pos, expr.name, self.parse_args())
            else:
                return expr

    def parse_args(self) -> list[ast.Expr]:
        """`( [expr {, expr}] )`."""
        self.expect_punct("(")
        args: list[ast.Expr] = []
        if not self.at_punct(")"):
            args.append(self.parse_expr())
            while self.accept_punct(","):
                args.append(self.parse_expr())
        self.expect_punct(")")
        return args

    def parse_primary(self) -> ast.Expr:
        """Literals, names, `argv[N]`, parentheses, vector literals `{a, b}`,
        `new`, `load`."""
        token = self.tok
        pos = pos_of(token)
        if token.kind == Kind.INT:
            self.advance()
            return ast.IntLit(pos, parse_int(token.text))
        if token.kind == Kind.FLOAT:
            self.advance()
            return ast.FloatLit(pos, float(token.text))
        if token.kind == Kind.STRING:
            self.advance()
            return ast.StringLit(pos, token.text)
        if token.is_keyword("true") or token.is_keyword("false"):
            self.advance()
            return ast.BoolLit(pos, token.text == "true")
        if token.kind == Kind.IDENT:
            self.advance()
            if token.text == "argv" and self.at_punct("["):
                return self.parse_argv_rest(pos)
            return ast.Name(pos, token.text)
        if self.accept_punct("("):
            inner = self.parse_expr()
            self.expect_punct(")")
            return inner
        if self.accept_punct("{"):
            items = [self.parse_expr()]
            while self.accept_punct(","):
                items.append(self.parse_expr())
            self.expect_punct("}")
            return ast.VectorLit(pos, items)
        if self.accept_keyword("new"):
            type_expr = self.parse_type()
            if not self.at_punct("("):
                raise self.expected("'(' after the type in 'new'")
            return ast.New(pos, type_expr, self.parse_args())
        if self.accept_keyword("load"):
            self.expect_punct("(")
            source = self.parse_expr()
            self.expect_punct(")")
            return ast.Load(pos, source)
        raise self.expected("expression")

    def parse_argv_rest(self, pos: Pos) -> ast.Argv:
        """`[N]` after `argv`."""
        self.advance()
        if self.tok.kind != Kind.INT:
            raise self.expected("an integer literal as the argv index")
        token = self.advance()
        refused = argv_index_refused(token.text)
        if refused is not None:
            raise self.error(refused, token)
        index = parse_int(token.text)
        self.expect_punct("]")
        return ast.Argv(pos, index)

    # -- schedule section ----------------------------------------------------------

    def parse_schedule_section(self) -> list[ast.SchedStmt]:
        """The statements after `schedule:` up to the end of the file."""
        stmts: list[ast.SchedStmt] = []
        while self.tok.kind != Kind.EOF:
            stmts.extend(self.parse_sched_stmt())
        return stmts

    def parse_sched_stmt(self) -> list[ast.SchedStmt]:
        """One schedule statement (a `program->a(..)->b(..)` chain gives several)."""
        first = self.expect_ident("a schedule statement")
        if first.text == "program" and self.at_punct("->"):
            calls: list[ast.SchedStmt] = []
            while self.accept_punct("->"):
                method = self.expect_ident("a method name")
                calls.append(
                    ast.SchedProgramCall(
                        pos_of(first), method.text, pos_of(method), self.parse_sched_args()
                    )
                )
            self.expect_punct(";")
            return calls
        if self.accept_punct("."):
            method = self.expect_ident("a method name")
            config_args = self.parse_sched_args()
            self.expect_punct(";")
            return [
                ast.SchedConfig(pos_of(first), first.text, method.text, pos_of(method), config_args)
            ]
        name = self.expect_ident("a schedule name")
        copy_from: ast.SchedArg | None = None
        ctor_args: list[ast.SchedArg] | None = None
        if self.accept_punct("="):
            source = self.expect_ident("a schedule name")
            copy_from = ast.SchedArg(pos_of(source), "ident", source.text)
        elif self.at_punct("("):
            ctor_args = self.parse_sched_args()
        self.expect_punct(";")
        return [
            ast.SchedDecl(pos_of(first), first.text, name.text, pos_of(name), copy_from, ctor_args)
        ]

    def parse_sched_args(self) -> list[ast.SchedArg]:
        """`( [sarg {, sarg}] )`."""
        self.expect_punct("(")
        args: list[ast.SchedArg] = []
        if not self.at_punct(")"):
            args.append(self.parse_sched_arg())
            while self.accept_punct(","):
                args.append(self.parse_sched_arg())
        self.expect_punct(")")
        return args

    def parse_sched_arg(self) -> ast.SchedArg:
        """An option name, a string, or a (possibly negative) number."""
        token = self.tok
        pos = pos_of(token)
        sign = -1 if self.accept_punct("-") else 1
        token = self.tok
        if token.kind == Kind.INT:
            self.advance()
            return ast.SchedArg(pos, "int", sign * parse_int(token.text))
        if token.kind == Kind.FLOAT:
            self.advance()
            return ast.SchedArg(pos, "float", sign * float(token.text))
        if sign == 1 and token.kind in (Kind.IDENT, Kind.KEYWORD):
            self.advance()
            return ast.SchedArg(pos, "ident", token.text)
        if sign == 1 and token.kind == Kind.STRING:
            self.advance()
            return ast.SchedArg(pos, "string", token.text)
        if sign == 1 and token.is_punct("{"):
            return self.parse_sched_list()
        raise self.expected("a schedule argument")

    def parse_sched_list(self) -> ast.SchedArg:
        """`{ [sarg {, sarg}] }`: a list argument (GraphIt's CPU `fuseFields`)."""
        start = self.advance()
        items: list[ast.SchedArg] = []
        with self.nested_expr("schedule argument"):
            if not self.at_punct("}"):
                items.append(self.parse_sched_arg())
                while self.accept_punct(","):
                    items.append(self.parse_sched_arg())
        self.expect_punct("}")
        return ast.SchedArg(pos_of(start), "list", items)


def parse_int(text: str) -> int:
    """The value of a decimal or `0x` hexadecimal integer literal (the lexer
    refuses those beyond 64 bits)."""
    value = int_literal_value(text)
    assert value is not None, "the lexer refuses integer literals beyond 64 bits"
    return value


def parse_program(source: str, filename: str) -> ast.Program:
    """Parses a GraphIt program; raises `SourceError` for lexical or syntax errors."""
    return Parser(tokenize(source, filename), filename, source).parse_program()
