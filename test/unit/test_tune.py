"""Tests of gir.tune without running a program: the tuning cache's keys, the
graph statistics, the auto model's rules (a social-like and a road-like graph
pick different schedules), the schedule space as optuna parameters, and
gir-tune's command-line errors (exit status 2, one line, no traceback)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import gir
from gir.diagnostics import UserError
from gir.dialects.schedule import HybridScheduleAttr, SimpleScheduleAttr, Toggle
from gir.runtime.graph import from_edges, load_graph
from gir.tune import cache
from gir.tune.auto import RULES, Shape, auto_point, classify
from gir.tune.search import parse_budget
from gir.tune.stats import degree_stats, graph_stats

PROGRAMS = Path(__file__).parents[1] / "programs"
BENCHMARKS = Path(gir.__file__).parent / "benchmarks" / "programs"

SOCIAL = "rmat:10"
ROAD = "road:160:6"
"""A thin road grid: its diameter (about 165 levels) is past `ROAD_DIAMETER`."""


@pytest.fixture(scope="module")
def social_stats():
    return graph_stats(load_graph(SOCIAL))


@pytest.fixture(scope="module")
def road_stats():
    return graph_stats(load_graph(ROAD))


# -- statistics and the cache's keys ---------------------------------------------------


def test_statistics_tell_a_social_graph_from_a_road_grid(social_stats, road_stats) -> None:
    assert social_stats.degrees.degree_cv > 1.0 > road_stats.degrees.degree_cv
    assert social_stats.diameter < 20 and road_stats.diameter >= 160
    assert (classify(social_stats), classify(road_stats)) == ("social", "road")


def test_a_chain_is_road_like_and_a_star_social() -> None:
    chain = from_edges(200, np.arange(199), np.arange(1, 200))
    star = from_edges(200, np.zeros(199, dtype=np.int64), np.arange(1, 200))
    assert graph_stats(chain).diameter == 199 and classify(graph_stats(chain)) == "road"
    assert graph_stats(star).diameter == 1 and classify(graph_stats(star)) == "social"


def test_the_key_ignores_the_schedule_section_but_not_the_algorithm() -> None:
    degrees = degree_stats(load_graph(SOCIAL))
    source = (BENCHMARKS / "bfs_best_social.gt").read_text()
    other_schedule = (BENCHMARKS / "bfs_g2_social.gt").read_text()
    key = cache.tuning_key(source, degrees, "opencl", "dev")
    assert cache.tuning_key(other_schedule, degrees, "opencl", "dev") == key
    assert cache.tuning_key(source.replace("parent[w] = u", "parent[w] = w"), degrees, "opencl", "dev") != key


def test_the_key_names_graph_target_and_device() -> None:
    source = (PROGRAMS / "bfs.gt").read_text()
    social, road = degree_stats(load_graph(SOCIAL)), degree_stats(load_graph(ROAD))
    keys = {
        cache.tuning_key(source, social, "opencl", "dev"),
        cache.tuning_key(source, road, "opencl", "dev"),
        cache.tuning_key(source, social, "cuda", "dev"),
        cache.tuning_key(source, social, "opencl", "other dev"),
    }
    assert len(keys) == 4
    assert cache.tuning_key(source, degree_stats(load_graph(SOCIAL)), "opencl", "dev") in keys


def test_entries_live_under_gir_cache_dir(cache_dir: Path) -> None:
    assert cache.read_entry("k") is None
    path = cache.write_entry("k", {"schedule": "schedule:\n", "median_ms": 1.5})
    assert path.parent == cache_dir / "tune"
    assert cache.read_entry("k") == {"schedule": "schedule:\n", "median_ms": 1.5}


def test_the_space_version_is_a_stable_hash() -> None:
    assert cache.space_version() == cache.space_version() and len(cache.space_version()) == 16


# -- the auto model --------------------------------------------------------------------


def test_every_rule_names_its_source() -> None:
    for (klass, shape), rule in RULES.items():
        assert klass in ("social", "road") and isinstance(shape, Shape)
        assert rule.source
    assert {shape for _, shape in RULES} == set(Shape)


def test_auto_bfs_differs_between_social_and_road_graphs(social_stats, road_stats) -> None:
    space = gir.schedule_space(BENCHMARKS / "bfs_best_social.gt", target="cuda")
    social, _ = auto_point(space, social_stats)
    road, why = auto_point(space, road_stats)
    # social: push below 1% of the vertices, pull above (bfs_best_social.gt)
    hybrid = social["search:expand"]
    assert isinstance(hybrid, HybridScheduleAttr)
    assert hybrid.first.load_balance.data == "EDGE_ONLY" and hybrid.second.direction.data == "PULL"
    assert hybrid.second.load_balance.data == "VERTEX_BASED"  # BFS claims: no `+=`
    # road: the level loop in one kernel of 128 threads (bfs_best_road.gt)
    expand, loop = road["search:expand"], road["search"]
    assert isinstance(expand, SimpleScheduleAttr) and expand.load_balance.data == "CM"
    assert isinstance(loop, SimpleScheduleAttr) and loop.kernel_fusion.data == Toggle.ENABLED
    assert loop.block_size.value.data == 128
    assert any("bfs_best_road.gt" in choice.source for choice in why)


def test_auto_fuses_road_frontier_loops_without_a_filter(road_stats) -> None:
    """bc_best_road.gt's level-guarded steps have no `to` filter: on a road graph
    their loops are still fused, with the filtered road rule (its own schedule),
    while CC's labelled hooking, in no fusable loop, keeps CC's rule."""
    space = gir.schedule_space(BENCHMARKS / "bc_best_road.gt", target="cuda")
    point, why = auto_point(space, road_stats)
    for loop in ("forward_loop", "backward_loop"):
        fused = point[loop]
        assert isinstance(fused, SimpleScheduleAttr) and fused.kernel_fusion.data == Toggle.ENABLED
    backward = point["backward_loop:backward"]
    assert isinstance(backward, SimpleScheduleAttr) and backward.load_balance.data == "CM"
    assert any("bc_best_road.gt" in choice.source for choice in why)
    cc = auto_point(gir.schedule_space(BENCHMARKS / "cc_best_road.gt", target="cuda"), road_stats)[0]
    hooking = cc["hooking"]
    assert isinstance(hooking, SimpleScheduleAttr) and hooking.frontier_creation.data == "UNFUSED_BITMAP"


def test_auto_bc_pulls_with_twce_where_the_edge_function_sums(social_stats) -> None:
    space = gir.schedule_space(BENCHMARKS / "bc_best_social.gt", target="opencl")
    point, _ = auto_point(space, social_stats)
    for label in ("forward_loop:forward", "backward_loop:backward"):
        schedule = point[label]
        assert isinstance(schedule, HybridScheduleAttr) and schedule.second.load_balance.data == "TWCE"


def test_auto_on_opencl_fuses_no_loop(road_stats) -> None:
    space = gir.schedule_space(BENCHMARKS / "sssp_best_road.gt", target="opencl")
    point, _ = auto_point(space, road_stats)
    assert set(point) == {"steps:relaxing"}
    relaxing = point["steps:relaxing"]
    assert isinstance(relaxing, SimpleScheduleAttr) and relaxing.delta.value.data == 80000


def test_auto_pagerank_blocks_edges_only_on_graphs_larger_than_a_block(social_stats) -> None:
    space = gir.schedule_space(BENCHMARKS / "pr_best.gt", target="opencl")
    gather = auto_point(space, social_stats)[0]["gather"]
    assert isinstance(gather, SimpleScheduleAttr)
    assert gather.direction.data == "PULL" and gather.edge_blocking.data == "UNBLOCKED"


def test_auto_pagerank_pushes_on_road_graphs_and_pulls_blocked_on_large_social_ones(social_stats, road_stats) -> None:
    space = gir.schedule_space(BENCHMARKS / "pr_best.gt", target="opencl")
    road = auto_point(space, road_stats)[0]["gather"]
    assert isinstance(road, SimpleScheduleAttr)
    assert (road.direction.data, road.load_balance.data, road.block_size.value.data) == ("PUSH", "VERTEX_BASED", 512)
    large_social = replace(social_stats, degrees=replace(social_stats.degrees, vertices=1 << 22))
    social = auto_point(space, large_social)[0]["gather"]
    assert isinstance(social, SimpleScheduleAttr)
    assert (social.direction.data, social.edge_blocking.data, social.blocking_size.value.data) == (
        "PULL", "BLOCKED", 0x10000,
    )  # fmt: skip


def test_compile_with_auto_defers_the_choice_to_the_graph() -> None:
    program = gir.compile(str(PROGRAMS / "bfs.gt"), schedule="auto")
    assert type(program).__name__ == "ScheduledProgram"
    assert "HybridGPUSchedule" in program.schedule_for(SOCIAL, target="opencl")


# -- the space as parameters -----------------------------------------------------------


def _suggestions(program: Path, count: int) -> list:
    """`count` trials of a random sampler over `program`'s OpenCL space: each
    suggested point, checked to come back from the trial's parameters alone."""
    optuna = pytest.importorskip("optuna")
    from gir.tune.params import NoSuchPoint, SpaceParameters

    parameters = SpaceParameters(gir.schedule_space(program, target="opencl"))
    study = optuna.create_study(sampler=optuna.samplers.RandomSampler(seed=1))
    found = []
    for _ in range(count):
        trial = study.ask()
        try:
            point = parameters.suggest(trial)
        except NoSuchPoint:
            continue
        assert parameters.suggest(optuna.trial.FixedTrial(trial.params)) == point
        found.append(point)
        study.tell(trial, 1.0)
    return found


def test_suggestions_are_points_of_the_space() -> None:
    program = BENCHMARKS / "pr_best.gt"
    every = set(gir.schedule_space(program, target="opencl"))  # 192 points
    found = _suggestions(program, 40)
    assert all(point in every for point in found) and len(set(found)) > 20


def test_suggestions_reach_simple_and_hybrid_schedules() -> None:
    found = _suggestions(PROGRAMS / "bfs.gt", 30)
    assert len(set(found)) == len(found) > 20
    kinds = {type(point["search:expand"]) for point in found}
    assert kinds == {SimpleScheduleAttr, HybridScheduleAttr}


# -- the command line ------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        [],
        [str(PROGRAMS / "bfs.gt")],
        [str(PROGRAMS / "bfs.gt"), "rmat:4", "0", "--budget", "0"],
        [str(PROGRAMS / "bfs.gt"), "rmat:4", "0", "--budget", "soon"],
        [str(PROGRAMS / "bfs.gt"), "rmat:4", "0", "--trials", "0"],
        [str(PROGRAMS / "bfs.gt"), "rmat:4", "0", "--target", "metal"],
        [str(PROGRAMS / "bfs.gt"), "rmat:4", "0", "--compile-workers", "-1"],
        [str(PROGRAMS / "bfs.gt"), "rmat:4", "0", "--hang-grace", "0"],
        [str(PROGRAMS / "bfs.gt"), "rmat:4", "0", "--hang-grace", "nan"],
        ["bfs.mlir", "rmat:4", "0"],
    ],
)
def test_bad_arguments_exit_2_with_one_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from gir.tools.tune import main

    try:
        status = main(args)
    except SystemExit as exit:  # argparse's own errors
        status = exit.code
    assert status == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "error" in err


@pytest.mark.parametrize("text, seconds", [("90", 90.0), ("120s", 120.0), ("2m", 120.0), ("1.5h", 5400.0), (30, 30.0)])
def test_budgets(text: str | int, seconds: float) -> None:
    assert parse_budget(text) == seconds


def test_a_bad_budget_is_a_user_error() -> None:
    with pytest.raises(UserError, match="not a duration"):
        parse_budget("2 minutes")


# -- generated labels ------------------------------------------------------------------


def test_unlabelled_applies_and_their_loops_get_labels_auto_schedules() -> None:
    import re

    from gir.tune.labels import label_applies

    source = re.sub(r"#\w+# ", "", (PROGRAMS / "bfs.gt").read_text())
    labelled = label_applies(source)
    space = gir.schedule_space(labelled, target="cuda")
    [apply] = space.applies
    [loop] = space.loops
    assert re.fullmatch(r"loop_\d+_\d+:apply_\d+_\d+", apply.label) and apply.loop == loop.label
    assert label_applies(labelled) == labelled  # nothing left to label
    section = gir.auto_schedule(source, SOCIAL, target="opencl")
    assert f'applyGPUSchedule("{apply.label}"' in section


def test_a_loop_around_a_labelled_apply_keeps_no_label() -> None:
    from gir.tune.labels import label_applies

    source = (PROGRAMS / "bfs.gt").read_text().replace("#search# ", "")
    assert label_applies(source) == source


def test_auto_pulls_a_summing_gather_but_not_cc_check(social_stats, road_stats) -> None:
    space = gir.schedule_space(BENCHMARKS / "cc_best_social.gt", target="opencl")
    check = auto_point(space, social_stats)[0]["checking"]
    assert isinstance(check, SimpleScheduleAttr) and check.direction.data == "PUSH"
    assert check.load_balance.data == "CM" and check.block_size.value.data == 1024
    road_check = auto_point(space, road_stats)[0].get("checking", SimpleScheduleAttr.default())
    assert road_check == SimpleScheduleAttr.default()


def test_gir_run_schedule_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gir.tools.run import main as gir_run

    assert gir_run([str(PROGRAMS / "bfs.gt"), "--schedule", "auto"]) == 1
    assert capsys.readouterr().err.startswith("error: --schedule auto chooses a schedule for a graph")
    ir = tmp_path / "bfs.mlir"
    ir.write_text("builtin.module {\n}\n")
    assert gir_run([str(ir), "rmat:4", "--schedule", "tuned"]) == 1
    assert "schedules GraphIt programs (.gt)" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit:
        gir_run([str(PROGRAMS / "bfs.gt"), "rmat:4", "0", "--schedule", "best"])
    assert exit.value.code == 2 and "Traceback" not in capsys.readouterr().err
