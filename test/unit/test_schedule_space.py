"""`gir.schedule_space`: its structure, its points' uniqueness, their GraphIt text,
and that a seeded sample of points lowers and prints for CUDA and OpenCL.

`GIR_SCHEDULE_SPACE_SAMPLE` sets how many points per program the lowering test
draws (default 10, to keep the suite fast; 25 or more for a deeper check)."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pytest
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp

import gir
from gir.api import lower_for_run
from gir.dialects import graph
from gir.dialects.host import PERSISTENT_THREADS_PER_SM
from gir.frontend import parse_graphit_source
from gir.dialects.schedule import (
    DedupStrategy,
    EdgeBlocking,
    HybridScheduleAttr,
    SimpleScheduleAttr,
    Toggle,
)
from gir.space import BLOCK_SIZES, GRAPH_CLASSES, SchedulePoint, ScheduleSpace
from gir.tools.translate import translate

PROGRAMS = Path(__file__).parents[1] / "programs"
SAMPLED = ("bfs.gt", "sssp_delta.gt", "pagerank.gt", "cc.gt", "bc.gt")
SAMPLE = int(os.environ.get("GIR_SCHEDULE_SPACE_SAMPLE", "10"))


@cache
def space(name: str, graph_class: str | None = None, target: str = "cuda") -> ScheduleSpace:
    return gir.schedule_space(PROGRAMS / name, graph_class, target=target)


def parts(point: SchedulePoint, label: str) -> list[SimpleScheduleAttr]:
    schedule = point[label]
    if isinstance(schedule, HybridScheduleAttr):
        return [schedule.first, schedule.second]
    assert isinstance(schedule, SimpleScheduleAttr)
    return [schedule]


def sample(name: str, count: int = 300) -> list[SchedulePoint]:
    return space(name).sample(count, seed=1)


# -- structure ---------------------------------------------------------------------


@pytest.mark.parametrize("name", SAMPLED)
def test_every_point_schedules_every_labelled_apply(name: str) -> None:
    program = space(name)
    assert len(program) > 0
    labels = {apply.label for apply in program.applies}
    assert labels, "the benchmark programs label their applies"
    for point in sample(name, 50):
        assert labels <= set(point)
        assert set(point) - labels <= {loop.label for loop in program.loops}


def test_labelled_statements_of_bfs() -> None:
    bfs = space("bfs.gt")
    assert [apply.label for apply in bfs.applies] == ["search:expand"]
    assert [loop.label for loop in bfs.loops] == ["search"]
    assert bfs.applies[0].from_frontier and bfs.applies[0].has_output


def test_indexing_matches_iteration_and_is_deterministic() -> None:
    pagerank = space("pagerank.gt")
    listed = list(pagerank)
    assert len(listed) == len(pagerank)
    assert [pagerank[i] for i in range(len(pagerank))] == listed
    again = gir.schedule_space(PROGRAMS / "pagerank.gt")
    assert list(again) == listed
    assert space("bfs.gt").sample(10, seed=3) == space("bfs.gt").sample(10, seed=3)


@pytest.mark.parametrize("name", ["pagerank.gt", "sssp_delta.gt"])
def test_points_are_unique(name: str) -> None:
    points = list(space(name))
    assert len(set(points)) == len(points)


def test_sampled_points_of_a_large_space_are_unique() -> None:
    bc = space("bc.gt")
    indices = range(0, len(bc), len(bc) // 3000)
    points = [bc[i] for i in indices]
    assert len(set(points)) == len(points)


def test_load_balances_come_from_the_registry() -> None:
    from gir.axes import LOAD_BALANCES

    seen = {
        part.load_balance.data
        for point in space("pagerank.gt")
        for part in parts(point, "gather")
    }
    assert seen == set(LOAD_BALANCES)


def test_axes_vary_only_where_they_matter() -> None:
    """No two points that lower alike: the pull frontier only for PULL from a
    frontier, the dedup strategy only with deduplication on, a blocking size only
    when blocked (one per program), delta only on applyUpdatePriority."""
    for name in SAMPLED:
        program = space(name)
        for point in sample(name):
            sizes = set()
            for apply in program.applies:
                for part in parts(point, apply.label):
                    if part.direction.data != "PULL" or not apply.from_frontier:
                        assert part.pull_frontier == SimpleScheduleAttr.default().pull_frontier
                    if part.deduplication.data == Toggle.DISABLED:
                        assert part.dedup_strategy.data == DedupStrategy.FUSED
                    if part.edge_blocking.data.blocked:
                        sizes.add(part.blocking_size.value.data)
                    else:
                        assert part.blocking_size.value.data == 0
                    if not apply.priority:
                        assert part.has_default_delta
                        assert part.bucket_fusion.data == Toggle.DISABLED
            assert len(sizes) <= 1


def test_blocking_appears_only_over_all_vertices() -> None:
    blocked = [
        point
        for point in space("pagerank.gt")
        if point["gather"].edge_blocking.data.blocked  # type: ignore[union-attr]
    ]
    walks = {point["gather"].edge_blocking.data for point in blocked}  # type: ignore[union-attr]
    assert walks == {walk for walk in EdgeBlocking if walk.blocked} == {
        EdgeBlocking.BLOCKED,
        EdgeBlocking.BLOCKED_SWEEP,
    }
    assert all(
        point["gather"].load_balance.data == "EDGE_ONLY"  # type: ignore[union-attr]
        for point in blocked
    )
    for point in sample("bfs.gt"):
        for part in parts(point, "search:expand"):
            assert part.edge_blocking.data == EdgeBlocking.UNBLOCKED


def test_fused_loops_share_their_block_size_and_fuse_only_what_lowers() -> None:
    bfs = space("bfs.gt")
    fused = [point for point in sample("bfs.gt", 2000) if "search" in point]
    assert fused
    for point in fused:
        loop = point["search"]
        assert isinstance(loop, SimpleScheduleAttr)
        assert loop.kernel_fusion.data == Toggle.ENABLED
        # an explicit count equal to the default's would repeat a point
        block = loop.block_size.value.data
        assert loop.blocks_per_sm.value.data != max(1, PERSISTENT_THREADS_PER_SM // block)
        apply = point["search:expand"]
        assert isinstance(apply, SimpleScheduleAttr)
        assert apply.block_size == loop.block_size
        # EDGE_ONLY's host-side scan cannot run in a fused kernel
        assert apply.load_balance.data != "EDGE_ONLY"
    assert {p["search"].block_size.value.data for p in fused} <= set(BLOCK_SIZES)  # type: ignore[union-attr]
    assert len(bfs) > len(space("bfs.gt", target="opencl"))


def test_opencl_space_has_no_kernel_fusion() -> None:
    opencl = space("bfs.gt", target="opencl")
    assert opencl.loops == ()
    assert all(set(point) == {"search:expand"} for point in opencl.sample(200))


def test_graph_class_picks_the_deltas() -> None:
    for graph_class in ("social", "road"):
        deltas = {
            part.delta.value.data  # type: ignore[union-attr]
            for point in space("sssp_delta.gt", graph_class)
            for part in parts(point, "steps:relaxing")
        }
        assert deltas == set(GRAPH_CLASSES[graph_class].deltas)


def test_unknown_graph_class_and_target_are_user_errors() -> None:
    with pytest.raises(gir.UserError, match="unknown graph class 'web'"):
        gir.schedule_space(PROGRAMS / "bfs.gt", "web")
    with pytest.raises(gir.UserError, match="unknown target 'metal'"):
        gir.schedule_space(PROGRAMS / "bfs.gt", target="metal")


# -- the two ways to apply a point agree --------------------------------------------


def _schedules(module: ModuleOp) -> dict[str, object]:
    found: dict[str, object] = {}
    for op in module.walk():
        if isinstance(op, graph.EdgeSetApplyOp) and op.label is not None and op.schedule:
            found[op.label.data] = op.schedule
        elif isinstance(op, scf.WhileOp) and "graph.schedule" in op.attributes:
            found[op.attributes["graph.label"].data] = op.attributes["graph.schedule"]  # type: ignore[attr-defined]
    return found


@pytest.mark.parametrize("name", SAMPLED)
def test_schedule_section_text_reads_back_as_the_point(name: str) -> None:
    program = space(name)
    for point in program.sample(15, seed=7):
        module = parse_graphit_source(program.program_text(point), name)
        assert _schedules(module) == dict(point)
        assert _schedules(program.module(point)) == dict(point)


# -- every sampled point compiles ------------------------------------------------------


@pytest.mark.parametrize("name", SAMPLED)
def test_sampled_points_lower_and_print_for_cuda_and_opencl(name: str) -> None:
    program = space(name)
    for point in program.sample(SAMPLE, seed=11):
        module = lower_for_run(program.module(point))
        for target in ("cuda", "opencl"):
            assert translate(module, target), point.schedule_section()


def test_a_programs_edge_sample_stays_in_every_point() -> None:
    """cc_afforest.gt samples its `sampling` apply (`configEdgeSample(2)`): every
    point keeps the sample there, which leaves PUSH and VERTEX_BASED only, and
    the other applies stay unsampled; the point's text reads back the same."""
    program = space("cc_afforest.gt")
    sampled = next(apply for apply in program.applies if apply.label == "sampling")
    assert sampled.edge_sample == 2
    assert {apply.label for apply in program.applies if apply.edge_sample} == {"sampling"}
    for point in program.sample(15, seed=3):
        schedules = dict(point)
        sampling = schedules["sampling"]
        assert isinstance(sampling, SimpleScheduleAttr)
        assert sampling.edge_sample.value.data == 2
        assert (sampling.direction.data, sampling.load_balance.data) == ("PUSH", "VERTEX_BASED")
        for label in ("linking", "linking_back"):
            other = schedules[label]
            hybrid = isinstance(other, HybridScheduleAttr)
            parts = [other.first, other.second] if hybrid else [other]
            assert all(part.edge_sample.value.data == 0 for part in parts)
        module = parse_graphit_source(program.program_text(point), "cc_afforest.gt")
        assert _schedules(module) == schedules
