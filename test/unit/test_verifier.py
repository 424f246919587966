"""Verification stays linear in the module's size (`gir.verifier`).

No wall time is measured: the tests count what made verification quadratic,
symbol lookups that scan the module (one per `func.call`) and symbol tables
built per lookup, and check that the tools verify a module a fixed number of
times, whatever its number of calls.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest
from xdsl.utils import symbol_table
from xdsl.utils.exceptions import VerifyException

import gir.verifier
from gir.frontend import parse_graphit_source
from gir.tools.opt import main as opt_main
from gir.tools.translate import main as translate_main

ROOT = Path(__file__).resolve().parents[2]


def _compile_time_script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("compile_time", ROOT / "tools" / "compile_time.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PROGRAM = _compile_time_script().program


class Counts:
    """Symbol lookups that scan a block, and symbol tables indexed."""

    def __init__(self) -> None:
        self.scans = 0
        self.tables = 0


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counts]:
    counted = Counts()
    scanning = gir.verifier._scanning_lookup  # pyright: ignore[reportPrivateUsage]
    indexing = symbol_table.SymbolTable.__init__

    def scan(*args: object) -> object:
        counted.scans += 1
        return scanning(*args)  # type: ignore[arg-type]

    def index(self: symbol_table.SymbolTable, op: object) -> None:
        counted.tables += 1
        indexing(self, op)  # type: ignore[arg-type]

    monkeypatch.setattr(gir.verifier, "_scanning_lookup", scan)
    monkeypatch.setattr(symbol_table.SymbolTable, "__init__", index)
    yield counted


@pytest.mark.parametrize("calls", [10, 200])
def test_verifying_indexes_the_module_once(counts: Counts, calls: int) -> None:
    module = parse_graphit_source(PROGRAM(calls), "calls.gt")
    counts.tables = 0
    gir.verifier.verify_module(module)
    assert (counts.scans, counts.tables) == (0, 1)


def test_outside_verification_lookups_scan_the_current_ir(counts: Counts) -> None:
    """Passes change the IR: their lookups are never answered from a stale index."""
    from xdsl.traits import SymbolTable

    module = parse_graphit_source(PROGRAM(3), "calls.gt")
    assert SymbolTable.lookup_symbol(module, "f1") is not None
    assert counts.scans == 1


def test_a_missing_callee_is_still_an_error() -> None:
    module = parse_graphit_source(PROGRAM(3), "calls.gt")
    callee = next(op for op in module.ops if op.properties["sym_name"].data == "f1")  # type: ignore[union-attr]
    callee.properties["sym_name"] = type(callee.properties["sym_name"])("renamed")
    with pytest.raises(VerifyException, match="'@f1' could not be found"):
        gir.verifier.verify_module(module)


@pytest.mark.parametrize(
    ("tool", "arguments", "verifications"),
    [
        # the frontend's check, then the driver's before the (empty) pipeline
        (opt_main, [], 2),
        # and after each of the two passes
        (opt_main, ["-p", "graph-default-schedule,graph-specialize-udfs"], 4),
        # the frontend's check; the one after the lowering looks nothing up, as
        # the lowering inlined every call
        (translate_main, ["--to-opencl"], 1),
    ],
)
def test_tools_verify_a_fixed_number_of_times(
    counts: Counts, tmp_path: Path, tool, arguments: list[str], verifications: int  # type: ignore[no-untyped-def]
) -> None:
    """Each verification indexes the module once and scans nothing: the number of
    tables built is the number of verifications, the same for 5 calls as for 300."""
    built: list[int] = []
    for calls in (5, 300):
        source = tmp_path / f"calls_{calls}.gt"
        source.write_text(PROGRAM(calls))
        counts.tables = counts.scans = 0
        assert tool([str(source), *arguments, "-o", str(tmp_path / "out")]) == 0
        built.append(counts.tables)
        assert counts.scans == 0
    assert built == [verifications, verifications]
