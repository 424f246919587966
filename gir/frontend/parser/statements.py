"""Statement blocks and statements."""

from __future__ import annotations

from gir.frontend import ast
from gir.frontend.lexer import Kind, Token
from gir.frontend.parser.base import ASSIGN_OPS, BLOCK_ENDS, STMT_KEYWORDS, ParserBase, pos_of
from gir.frontend.sema import GET_NGH_LOOP_UNSUPPORTED


class StatementParser(ParserBase):
    """Parses blocks and statements."""

    def parse_block(self, opener: Token, what: str, ends: tuple[str, ...]) -> list[ast.Stmt]:
        """Statements up to (not including) one of the keywords `ends`; anything
        else that cannot start a statement means the block was not closed."""
        body: list[ast.Stmt] = []
        with self.nested_block(opener):
            while not (self.tok.kind == Kind.KEYWORD and self.tok.text in ends):
                if self.accept_punct(";") is not None:
                    continue  # GraphIt's empty statement (`for i in 0:n;` has one)
                if not self.can_start_statement():
                    raise self.error(
                        f"expected 'end' to close '{what}' at {opener.line}:{opener.col}, "
                        f"found {self.tok.describe()}"
                    )
                body.append(self.parse_stmt())
        return body

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
                "par_for": self.parse_for,
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
        """`for i in a:b ... end` or `par_for i in a:b ... end`, as GraphIt's
        `for_stmt: 'for' ident 'in' expr ':' expr stmt_block 'end'`."""
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
            body = self.parse_block(start, start.text, BLOCK_ENDS[:1])
        self.advance()
        return ast.For(
            pos_of(start), var.text, pos_of(var), first, last, body, start.text == "par_for"
        )

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
