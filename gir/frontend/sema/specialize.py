"""Functions over vectors, by reference: a function whose parameters or captures
include vectors (`func add_one[a : vector{Vertex}(int)](v : Vertex)`) is
specialized once per tuple of vectors it is given, as GraphIt passes a vector
by reference (a pointer in its C++).

Each use, `f(level, 3)` from the host or `f[level, 3]` as an apply's functor,
names the vectors it passes (a program-level vector or a local one). sema gives
it a copy of `f` (its own `FuncInfo` and syntax tree, named
`f_level`) in which the vector parameters are gone and their names are bound to
the vectors passed: the body reads and writes `level` itself, and irgen builds
its accesses as any other access of `level`'s `graph.global`. The use is
rewritten to call (or apply) the copy with the remaining scalar values, so no
later stage sees a vector parameter. The unspecialized `f` is not built.
"""

from __future__ import annotations

import copy

from gir.frontend import ast
from gir.frontend.sema.base import CheckerBase
from gir.frontend.sema.symbols import FuncInfo, Symbol, capture_vector, vector_writes
from gir.frontend.sema.types import VectorTy
from gir.frontend.sema.vocabulary import BUILTINS


class Specializations(CheckerBase):
    """Specializes functions over the vectors each use passes them."""

    def bind_vector(self, value: ast.Expr, slot: Symbol, function: FuncInfo) -> Symbol:
        """The vector `value` passes for the vector parameter or capture `slot`
        of `function`: the name of a vector of `slot`'s type."""
        assert isinstance(slot.ty, VectorTy)
        if not isinstance(value, ast.Name):
            raise self.error(
                value.pos,
                f"'{slot.name}' of '{function.name}' is a vector passed by reference: give "
                "the name of a vector",
            )
        symbol = self.resolve_name(value)
        if symbol.ty != slot.ty:
            raise self.error(
                value.pos,
                f"'{slot.name}' of '{function.name}' is {slot.ty}, '{value.name}' is {symbol.ty}",
            )
        value.ty = symbol.ty
        return symbol

    def specialize(self, function: FuncInfo, bound: list[Symbol]) -> FuncInfo:
        """The copy of `function` with its vector parameters and captures, in
        order, bound to the vectors `bound`; made on first use and checked once
        the functions written in the program have been."""
        key = (function.name, tuple(id(symbol) for symbol in bound))
        existing = self.specializations.get(key)
        if existing is not None:
            return existing
        decl = copy.deepcopy(function.decl)
        decl.name = self.specialization_name(function.name, bound)
        slots = [
            *(p for p in decl.params if p.symbol is not None and isinstance(p.symbol.ty, VectorTy)),
            *(c for c in decl.captures if c.symbol is not None and isinstance(c.symbol.ty, VectorTy)),
        ]  # fmt: skip
        bindings = {slot.name: symbol for slot, symbol in zip(slots, bound, strict=True)}
        decl.params = [p for p in decl.params if p.name not in bindings]
        decl.captures = [c for c in decl.captures if c.name not in bindings]
        writes = {
            bindings[name].global_name if name in bindings else name
            for name in vector_writes(decl.body)
        }
        clone = FuncInfo(
            decl.name,
            decl,
            [p.symbol for p in decl.params if p.symbol is not None],
            decl.output.symbol if decl.output is not None else None,
            writes,
            [c.symbol for c in decl.captures if c.symbol is not None],
            output_ignored=function.output_ignored,
            bound=bindings,
        )
        self.functions[clone.name] = clone
        self.specializations[key] = clone
        self.pending_specializations.append(clone)
        return clone

    def specialization_name(self, name: str, bound: list[Symbol]) -> str:
        """`f_level` (with a counter where a function, global or captured value's
        vector has the name): a C identifier, as the function becomes a kernel."""
        taken = {
            *self.globals, *self.functions, *BUILTINS,
            *(symbol.global_name for _, symbol in self.local_vectors),
            *(capture_vector(f.name, c.name) for f in self.functions.values() for c in f.captures),
        }  # fmt: skip
        base = "_".join([name, *(symbol.global_name for symbol in bound)])
        candidates = [base, *(f"{base}_{n}" for n in range(2, len(taken) + 3))]
        return next(candidate for candidate in candidates if candidate not in taken)

    def check_specializations(self) -> None:
        """Checks each specialization made so far; checking one may make more."""
        while self.pending_specializations:
            self.check_function(self.pending_specializations.pop(0))
