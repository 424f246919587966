"""End to end: the direction axis (PULL over the transpose) and hybrid schedules,
programs compiled with the schedules they are written with, run on every
available target against the CPU references, bounds-checked."""

from __future__ import annotations

import pytest

from test_programs import (
    PROGRAMS,
    STRATEGIES,
    TARGETS,
    compile_checked,
    generated_graphs,
    hand_made_graphs,
    with_schedule,
)

from gir.api import lower_for_run
from gir.diagnostics import UserError
from gir.axes import pull_frontiers
from gir.dialects.schedule import (
    DirectionAttr,
    LoadBalanceAttr,
    PullFrontierAttr,
    SimpleScheduleAttr,
)
from gir.passes.directions import DIRECTIONS
from gir.passes.load_balance import load_balance
from gir.tools.run import parse_program


@pytest.fixture(scope="module")
def as_written():
    """`compiled` of `check_program` for programs with their own schedules (the
    strategy and block size arguments are not used)."""

    cache: dict[tuple[str, str], tuple[object, object]] = {}

    def get(program: str, target: str, strategy: object, block_size: int | None = None):
        key = (program, target)
        if key not in cache:
            cache[key] = compile_checked(parse_program(str(PROGRAMS / program)), program, target)
        return cache[key]

    return get


@pytest.fixture(scope="module")
def rescheduled():
    """`compiled` of `check_program` for a program whose traversals all take the
    direction, load balance and pull frontier given as the strategy argument, a
    (direction, load balance, pull frontier or None) triple of names."""

    cache: dict[tuple[str, str, object], tuple[object, object]] = {}

    def get(program: str, target: str, strategy: tuple, block_size: int | None = None):
        key = (program, target, strategy)
        if key not in cache:
            direction, balance, pull_frontier = strategy
            options = {
                "direction": DirectionAttr(direction),
                "load_balance": LoadBalanceAttr(balance),
            }
            if pull_frontier is not None:
                options["pull_frontier"] = PullFrontierAttr(pull_frontier)
            module = with_schedule(parse_program(str(PROGRAMS / program)), **options)
            cache[key] = compile_checked(module, program, target)
        return cache[key]

    return get


DIRECTION_CASES = [
    ("bfs.gt", False),  # a to filter and a claimed parent: pull exits early, CAS if shared
    ("sssp_bf.gt", True),  # min= over weighted edges, from a frontier
    ("pagerank_default.gt", False),  # += over every vertex
]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("direction", [pytest.param(d, id=d.lower()) for d in DIRECTIONS])
@pytest.mark.parametrize(("program", "weighted"), DIRECTION_CASES)
def test_direction_matches_reference(
    program, weighted, direction, strategy, target, rescheduled, check_program, tmp_path
):
    """Every registered direction with every registered load balance: a strategy
    that accepts the pair runs against the reference; one that rejects it (its
    `unsupported`) is a located error naming the reason, not a crash."""
    schedule = SimpleScheduleAttr.default().with_options(
        direction=DirectionAttr(direction), load_balance=LoadBalanceAttr(strategy)
    )
    reason = load_balance(strategy).unsupported(schedule)
    if reason is not None:
        with pytest.raises(UserError, match=reason):
            rescheduled(program, target[0], (direction, strategy, None))
        return
    graphs = {**hand_made_graphs(tmp_path, weighted), **generated_graphs(weighted)}
    check_program(rescheduled, program, (direction, strategy, None), target, graphs)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("pull_frontier", [pytest.param(f, id=f.lower()) for f in pull_frontiers()])
def test_pull_frontier_matches_reference(
    pull_frontier, strategy, target, rescheduled, check_program, tmp_path
):
    """BFS pulling from its wave, tested as a bitmap or a boolmap, with every load
    balance (the edge-map strategies iterate every destination and test the
    source's membership per in-edge)."""
    graphs = {**hand_made_graphs(tmp_path, False), **generated_graphs(False)}
    check_program(
        rescheduled,
        "bfs_pull_bitmap.gt",
        ("PULL", strategy, pull_frontier),
        target,
        graphs,
    )


PULL_CASES = [
    ("pagerank_pull.gt", False),
    # BFS pulling from its wave, tested as a bitmap / a boolmap
    ("bfs_pull_bitmap.gt", False),
    ("bfs_pull_boolmap.gt", False),
]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("program", "weighted"), PULL_CASES)
def test_pull_matches_reference(program, weighted, target, as_written, check_program, tmp_path):
    graphs = {**hand_made_graphs(tmp_path, weighted), **generated_graphs(weighted)}
    check_program(as_written, program, None, target, graphs)


HYBRID_CASES = [
    pytest.param("bfs_hybrid_fixed.gt", [], id="fixed"),
    pytest.param("bfs_hybrid_boolmap.gt", [], id="fixed-pull-boolmap"),
    # 0 and a huge threshold pin one branch for every level; 0.01 switches (rmat)
    pytest.param("bfs_hybrid_argv.gt", ["0"], id="argv-second"),
    pytest.param("bfs_hybrid_argv.gt", ["0.01"], id="argv-switching"),
    pytest.param("bfs_hybrid_argv.gt", ["1e9"], id="argv-first"),
    # G2's schedule: TWCE push for small waves, VERTEX_BASED pull over a bitmap
    # for large ones (its output an unfused bitmap, converted to the loop's queue)
    pytest.param("bfs_hybrid.gt", ["0"], id="g2-pull"),
    pytest.param("bfs_hybrid.gt", ["0.01"], id="g2-switching"),
    pytest.param("bfs_hybrid.gt", ["1e9"], id="g2-push"),
]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("program", "extra"), HYBRID_CASES)
def test_hybrid_matches_reference(program, extra, target, as_written, check_runs, tmp_path):
    """Hybrid BFS: both schedules compiled, chosen per level at run time by the
    input frontier's size against a threshold (a number, or argv[3])."""
    executable, validator = as_written(program, target[0], None)
    graphs = {**hand_made_graphs(tmp_path, False), **generated_graphs(False)}
    check_runs(program, executable, validator, target, graphs, [extra])


@pytest.mark.parametrize("target", TARGETS)
def test_transposed_matches_reference(target, devices, tmp_path):
    """BFS over `links.transpose()`: a BFS tree of the transposed graph."""
    import io

    from gir.executor import compile_program
    from gir.runtime.graph import load_graph
    from gir.runtime.reference import check_bfs_parent

    target_name, index = target
    program = "bfs_transposed.gt"
    module = parse_program(str(PROGRAMS / program))
    executable = compile_program(lower_for_run(module, check_bounds=True), target_name)
    device = devices(target_name, index)
    graphs = {**hand_made_graphs(tmp_path, False), **generated_graphs(False)}
    failures = []
    for name, (spec, start) in graphs.items():
        result = executable.run(device, [program, spec, str(start)], io.StringIO())
        reversed_graph = load_graph(spec, cache=False).transpose()
        problem = check_bfs_parent(reversed_graph, start, result.globals["pred"])
        if problem is not None:
            failures.append(f"{name}: {problem}")
    assert not failures, "\n".join(failures)
