"""Verification in time linear in the module's size (not a pass).

xDSL's `SymbolTable.lookup_symbol` (the trait's static method, which
`func.call`'s verifier, `host.launch`'s and gir's other symbol users call) scans
the symbol table's block for every lookup, so verifying a module of N calls to
N functions costs N^2. While `verify_module` (or the `symbol_lookups_indexed`
context) runs, nothing changes the IR, so each symbol table is indexed once,
on its first lookup, in xDSL's `SymbolTableCollection`, and every later lookup
is a dictionary access. Outside that context (in passes, which change the IR)
lookups scan as before.

Op verifiers that need a fact about the whole module (the names
`host.bind_global` binds) compute it once per verification with
`per_verification`.

`lookup_symbol` is replaced once, when this module is imported, by a function
that consults the context's collection (a `ContextVar`, so threads verifying
different modules at once each see their own) and otherwise calls xDSL's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TypeVar

from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.traits import SymbolTable
from xdsl.utils.symbol_table import SymbolTableCollection

_CallbackT = TypeVar("_CallbackT", bound=Callable[..., None])
_FactT = TypeVar("_FactT")

_scanning_lookup = SymbolTable.lookup_symbol
"""xDSL's lookup, which scans the symbol table's block."""

@dataclass
class _Verification:
    """What one verification has indexed so far."""

    tables: SymbolTableCollection = field(default_factory=SymbolTableCollection)
    facts: dict[object, object] = field(default_factory=dict[object, object])
    """`per_verification`'s results by key."""


_running: ContextVar[_Verification | None] = ContextVar("gir_verification", default=None)
"""The `symbol_lookups_indexed` context running now, if any."""


def _lookup_symbol(op: Operation, name: str | StringAttr | SymbolRefAttr) -> Operation | None:
    """`SymbolTable.lookup_symbol`, from the indexed tables while verifying."""
    verification = _running.get()
    if verification is None:
        return _scanning_lookup(op, name)
    anchor: Operation | None = op
    while anchor is not None and not anchor.has_trait(SymbolTable):
        anchor = anchor.parent_op()
    if anchor is None:
        raise ValueError(f"Operation {op} has no SymbolTable ancestor")
    return verification.tables.lookup_symbol_in(anchor, name)


SymbolTable.lookup_symbol = staticmethod(_lookup_symbol)  # type: ignore[method-assign]


@contextmanager
def symbol_lookups_indexed() -> Iterator[None]:
    """Within this context symbol lookups use tables indexed once: the IR must not
    change inside it (verifying and printing do not)."""
    token = _running.set(_Verification())
    try:
        yield
    finally:
        _running.reset(token)


def per_verification(key: object, compute: Callable[[], _FactT]) -> _FactT:
    """`compute()`, computed once per verification for `key` (an op and what to
    compute about it): an op's verifier that needs a fact about the whole module
    or block it is in, such as the names bound in it, asks for it here, so that
    verifying every such op costs one walk, not one each. Outside a verification
    (an op verified on its own) it is computed every time."""
    verification = _running.get()
    if verification is None:
        return compute()
    if key not in verification.facts:
        verification.facts[key] = compute()
    return verification.facts[key]  # type: ignore[return-value]


def verify_module(module: Operation) -> None:
    """`module.verify()`, in time linear in the module's size."""
    with symbol_lookups_indexed():
        module.verify()


def indexing_lookups(callback: _CallbackT) -> _CallbackT:
    """A pass-pipeline callback (xDSL's verifies the module between passes) that
    runs with symbol lookups indexed."""

    def indexed(*args: object) -> None:
        with symbol_lookups_indexed():
            callback(*args)

    return indexed  # type: ignore[return-value]

