"""Expressions, by precedence, down to postfix calls, indexing and primaries."""

from __future__ import annotations

from gir.frontend import ast
from gir.frontend.ast import Pos
from gir.frontend.lexer import Kind
from gir.frontend.limits import MAX_EXPR_DEPTH, argv_index_refused
from gir.frontend.parser.base import COMPARISON_OPS, ParserBase, parse_int, pos_of


class ExpressionParser(ParserBase):
    """Parses expressions."""

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
                if method.text == "modified" and is_plain_apply(expr):
                    expr = applied_modified(expr, args)
                    continue
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
            elif self.at_punct("(") and functor_parts_of(expr) is not None:
                name, captures = functor_parts_of(expr)
                expr = ast.Call(expr.pos, name, self.parse_args(), captures)
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


def is_plain_apply(expr: ast.Expr) -> bool:
    """Whether `expr` is `X.apply(f)`, which GraphIt's older syntax followed with
    `.modified(v)`."""
    return isinstance(expr, ast.MethodCall) and expr.method == "apply" and len(expr.args) == 1


def applied_modified(apply: ast.Expr, tracked: list[ast.Expr]) -> ast.MethodCall:
    """`X.apply(f).modified(v)`, GraphIt's removed spelling of
    `X.applyModified(f, v)`, as that call (at the `apply`)."""
    assert isinstance(apply, ast.MethodCall)
    return ast.MethodCall(
        apply.pos, apply.receiver, "applyModified", apply.method_pos, [*apply.args, *tracked]
    )


def functor_parts_of(expr: ast.Expr) -> tuple[str, list[ast.Expr]] | None:
    """`f[a]` or `f[a, b]` followed by `(`: a functor called as a function, its
    name and captured values; None for any other expression."""
    if isinstance(expr, ast.Functor):
        return expr.name, list(expr.captures)
    if isinstance(expr, ast.Index) and isinstance(expr.base, ast.Name):
        return expr.base.name, [expr.index]
    return None
