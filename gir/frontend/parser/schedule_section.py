"""The `schedule:` section: G2's scheduling statements, kept as written for
`gir.frontend.schedule` to evaluate."""

from __future__ import annotations

from gir.frontend import ast
from gir.frontend.lexer import Kind
from gir.frontend.parser.base import ParserBase, parse_int, pos_of


class ScheduleParser(ParserBase):
    """Parses the schedule section."""

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
