"""Program-level declarations: elements, constants, functions (with `export` and
`extern`), parameters."""

from __future__ import annotations

from gir.frontend import ast
from gir.frontend.lexer import Kind
from gir.frontend.parser.base import BLOCK_ENDS, ParserBase, pos_of


class DeclarationParser(ParserBase):
    """Parses the program and its declarations."""

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
