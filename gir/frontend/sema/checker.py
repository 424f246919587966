"""`Checker`, the concerns of sema combined, and `check_program`, its entry point."""

from __future__ import annotations

from gir.frontend import ast
from gir.frontend.sema.calls import CallChecks
from gir.frontend.sema.declarations import DeclarationChecks
from gir.frontend.sema.edge_applies import EdgeApplyChecks
from gir.frontend.sema.expressions import ExpressionChecks
from gir.frontend.sema.methods import MethodChecks
from gir.frontend.sema.specialize import Specializations
from gir.frontend.sema.statements import StatementChecks
from gir.frontend.sema.symbols import SemaInfo
from gir.frontend.sema.type_resolution import TypeResolution


class Checker(
    DeclarationChecks,
    TypeResolution,
    StatementChecks,
    ExpressionChecks,
    CallChecks,
    MethodChecks,
    EdgeApplyChecks,
    Specializations,
):
    """Checks one program (`check`); see `check_program`."""


def check_program(program: ast.Program, filename: str) -> SemaInfo:
    """Resolves names and checks types; raises `SourceError` for the first error."""
    return Checker(program, filename).check()
