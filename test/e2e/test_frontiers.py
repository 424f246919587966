"""End to end: the frontier-creation x deduplication axes (queue, bitmap and
boolmap outputs; no, fused and unfused deduplication) on BFS and CC, with
VERTEX_BASED and EDGE_ONLY load balance, and CC under G2's own schedule
(cc.gt), on every available target, checked against the CPU references on the
hand-made and generated graphs with every device access bounds-checked."""

from __future__ import annotations

import pytest

from gir.axes import frontier_creations
from gir.dialects.schedule import (
    DedupStrategy,
    DedupStrategyAttr,
    FrontierCreationAttr,
    LoadBalanceAttr,
    Toggle,
    ToggleAttr,
)
from gir.api import lower_for_run
from gir.tools.run import parse_program
from gir.validate import find_validator
from test_programs import (
    PROGRAMS,
    TARGETS,
    generated_graphs,
    hand_made_graphs,
    with_schedule,
)

DEDUPS = {
    "no_dedup": None,
    "dedup_fused": DedupStrategy.FUSED,
    "dedup_unfused": DedupStrategy.UNFUSED,
}
CASES = [
    pytest.param(
        program, creation, dedup, "VERTEX_BASED",
        id=f"{program}-{creation.lower()}-{dedup_id}",
    )
    for program in ("bfs.gt", "cc_default.gt")
    for creation in frontier_creations()
    for dedup_id, dedup in DEDUPS.items()
] + [
    pytest.param(
        program, "UNFUSED_BITMAP", None, "EDGE_ONLY",
        id=f"{program}-unfused_bitmap-edge_only",
    )
    for program in ("bfs.gt", "cc_default.gt")
]


def scheduled(module, creation: str, dedup: DedupStrategy | None, lb: str):
    """`module` with every edgeset apply's schedule given these options."""
    options = {
        "frontier_creation": FrontierCreationAttr(creation),
        "load_balance": LoadBalanceAttr(lb),
        "deduplication": ToggleAttr(Toggle.DISABLED if dedup is None else Toggle.ENABLED),
    }
    if dedup is not None:
        options["dedup_strategy"] = DedupStrategyAttr(dedup)
    return with_schedule(module, **options)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("program", "creation", "dedup", "lb"), CASES)
def test_frontier_creation_matches_reference(
    program, creation, dedup, lb, target, check_runs, tmp_path
):
    module = scheduled(parse_program(str(PROGRAMS / program)), creation, dedup, lb)
    _check_on_every_graph(module, program, target, check_runs, tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_cc_with_g2_schedule_matches_reference(target, check_runs, tmp_path):
    """cc.gt as written: G2's CC schedule (CM, deduplication, UNFUSED_BITMAP)."""
    _check_on_every_graph(parse_program(str(PROGRAMS / "cc.gt")), "cc.gt", target, check_runs, tmp_path)


def _check_on_every_graph(module, program: str, target, check_runs, tmp_path) -> None:
    """Runs `module` (bounds-checked) on the hand-made and generated graphs and
    checks each result against the CPU reference."""
    from gir.executor import compile_program

    validator = find_validator(module)
    assert validator is not None
    executable = compile_program(lower_for_run(module, check_bounds=True), target[0])
    graphs = {**hand_made_graphs(tmp_path, weighted=False), **generated_graphs(weighted=False)}
    check_runs(program, executable, validator, target, graphs)
