"""Type expressions: scalars, elements, vertexsets, edgesets, vectors, priority
queues, lists."""

from __future__ import annotations

from gir.frontend import ast
from gir.frontend.ast import Pos
from gir.frontend.lexer import Kind
from gir.frontend.parser.base import SCALAR_TYPES, WORD_SCALAR_TYPES, ParserBase, parse_int, pos_of
from gir.frontend.sema import MAX_VECTOR_SIZE


class TypeParser(ParserBase):
    """Parses types."""

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
