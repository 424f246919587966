"""The schedule axes (`gir/axes.py`): a schedule value is a registered strategy's
name, verified by its attribute; the strategies' capabilities answer what other
passes ask; the registries load without importing a pass first."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.utils.exceptions import VerifyException

from gir import axes
from gir.api import lower_for_run
from gir.diagnostics import UserError
from gir.dialects.host import EDGE_INDEX_WIDTH
from gir.dialects.schedule import (
    EdgeBlocking,
    DirectionAttr,
    EdgeBlockingAttr,
    LoadBalanceAttr,
    SimpleScheduleAttr,
)
from gir.passes.layouts import layout_for
from gir.passes.load_balance import LoadBalanceStrategy
from gir.tools.run import parse_program

PROGRAMS = Path(__file__).parents[1] / "programs"


def test_every_axis_has_names_and_strategies() -> None:
    for names in axes.AXES.values():
        assert names()
    for registry in (axes.DIRECTIONS, axes.LOAD_BALANCES, axes.LAYOUTS):
        for name in registry:
            assert registry.get(name).value == name


def test_an_unregistered_name_is_rejected_with_the_registered_ones() -> None:
    with pytest.raises(VerifyException, match="unknown load balance 'FAST', expected one of VERTEX_BASED"):
        LoadBalanceAttr("FAST")


def test_a_registered_strategy_is_a_valid_schedule_value(monkeypatch: pytest.MonkeyPatch) -> None:
    class Quad(LoadBalanceStrategy):
        value = "QUAD"

    monkeypatch.setitem(axes.LOAD_BALANCES._entries, "QUAD", ("vertex_based", "VertexBased"))
    monkeypatch.setitem(axes.LOAD_BALANCES._instances, "QUAD", Quad())
    schedule = SimpleScheduleAttr.default().with_options(load_balance=LoadBalanceAttr("QUAD"))
    assert "load_balance = QUAD" in str(schedule)
    assert axes.LOAD_BALANCES.get("QUAD").supports(schedule)
    assert not Quad().owns_iterated_vertex() and Quad().fusable


def test_a_load_balance_without_wide_edges_is_refused_at_64_bits(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Every registered load balance lowers 64-bit edge indices; one that does not
    (`wide_edges` False: a new strategy's default) is refused at the traversal."""
    from gir.passes.load_balance.merge_path import MergePath

    monkeypatch.setattr(MergePath, "wide_edges", False)
    source = (PROGRAMS / "bfs_timed_edge_only.gt").read_text().replace("EDGE_ONLY", "MERGE_PATH")
    path = tmp_path / "merge_path.gt"
    path.write_text(source)
    module = parse_program(str(path))
    module.attributes[EDGE_INDEX_WIDTH] = IntegerAttr(64, i64)
    with pytest.raises(UserError, match=(
        r"merge_path.gt:\d+:\d+: error: load balance MERGE_PATH keeps edge positions and sums of "
        r"degrees in 32 bits: .* use one of VERTEX_BASED, EDGE_ONLY, TWC, TWCE, STRICT, WM, CM there"
    )):
        lower_for_run(module)


@pytest.mark.parametrize("walk", [EdgeBlocking.BLOCKED, EdgeBlocking.BLOCKED_SWEEP])
def test_edge_blocking_asks_the_load_balance(walk: EdgeBlocking) -> None:
    composing = [n for n in axes.LOAD_BALANCES if axes.LOAD_BALANCES.get(n).composes_with_blocking]
    assert composing == ["EDGE_ONLY"]
    blocked = {"edge_blocking": EdgeBlockingAttr(walk), "blocking_size": IntegerAttr(64, i64)}
    SimpleScheduleAttr.default().with_options(load_balance=LoadBalanceAttr("EDGE_ONLY"), **blocked)
    with pytest.raises(VerifyException, match=rf"\({walk}\) requires load balance EDGE_ONLY, got TWCE"):
        SimpleScheduleAttr.default().with_options(load_balance=LoadBalanceAttr("TWCE"), **blocked)
    with pytest.raises(VerifyException, match=rf"\({walk}\) needs a positive size"):
        SimpleScheduleAttr.default().with_options(
            load_balance=LoadBalanceAttr("EDGE_ONLY"), edge_blocking=EdgeBlockingAttr(walk)
        )


def test_host_steps_decide_fusion() -> None:
    unfusable = {n for n in axes.LOAD_BALANCES if not axes.LOAD_BALANCES.get(n).fusable}
    assert unfusable == {"EDGE_ONLY", "STRICT", "MERGE_PATH"}
    assert all(axes.LOAD_BALANCES.get(n).host_steps() for n in unfusable)


def test_layouts_are_chosen_by_the_schedule() -> None:
    default = SimpleScheduleAttr.default()
    pull = default.with_options(direction=DirectionAttr("PULL"))
    blocked = {"edge_blocking": EdgeBlockingAttr(EdgeBlocking.BLOCKED), "blocking_size": IntegerAttr(64, i64)}
    edge_only = {"load_balance": LoadBalanceAttr("EDGE_ONLY")}
    assert layout_for(default) == "CSR"
    assert layout_for(pull) == "CSC"
    assert layout_for(default.with_options(**blocked, **edge_only)) == "BLOCKED"
    assert layout_for(pull.with_options(**blocked, **edge_only)) == "BLOCKED_CSC"
    sweep = {**blocked, "edge_blocking": EdgeBlockingAttr(EdgeBlocking.BLOCKED_SWEEP)}
    assert layout_for(default.with_options(**sweep, **edge_only)) == "BLOCKED"
    assert layout_for(pull.with_options(**sweep, **edge_only)) == "BLOCKED_CSC"


def test_pull_frontiers_and_creations_come_from_the_representations() -> None:
    assert axes.pull_frontiers() == ["BOOLMAP", "BITMAP"]
    assert axes.frontier_creations() == ["FUSED", "UNFUSED_BOOLMAP", "UNFUSED_BITMAP"]


def test_the_dialect_verifies_names_without_importing_a_pass_first() -> None:
    code = (
        "import sys\n"
        "from gir.dialects.schedule import SimpleScheduleAttr\n"
        "assert 'gir.passes' not in sys.modules\n"
        "print(SimpleScheduleAttr.default())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "load_balance = VERTEX_BASED" in done.stdout
