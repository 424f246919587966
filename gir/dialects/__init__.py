"""gir's dialects, one module per level, and the list every tool registers."""

from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin
from xdsl.dialects.func import Func
from xdsl.dialects.gpu import GPU
from xdsl.dialects.math import Math
from xdsl.dialects.memref import MemRef
from xdsl.dialects.scf import Scf
from xdsl.ir import Dialect


def _gir_gpu() -> Dialect:
    from gir.dialects.gir_gpu import GirGpu

    return GirGpu


def _host() -> Dialect:
    from gir.dialects.host import Host

    return Host


def _frontier() -> Dialect:
    from gir.dialects.frontier import Frontier

    return Frontier


def _graph() -> Dialect:
    from gir.dialects.graph import Graph

    return Graph


DIALECT_FACTORIES: dict[str, Callable[[], Dialect]] = {
    "builtin": lambda: Builtin,
    "func": lambda: Func,
    "arith": lambda: Arith,
    "math": lambda: Math,
    "scf": lambda: Scf,
    "graph": _graph,
    "frontier": _frontier,
    "gpu": lambda: GPU,
    "memref": lambda: MemRef,
    "gir_gpu": _gir_gpu,
    "host": _host,
}
"""Every dialect gir's tools understand, by name; a new level adds one entry."""


def register_dialects(ctx: Context) -> None:
    """Makes every dialect of `DIALECT_FACTORIES` available to `ctx`'s parser."""
    for name, factory in DIALECT_FACTORIES.items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
