"""`--validate` on programs written as GraphIt's and G2's own are: a result
cleared at the end of each trial (checked on a copy taken before the first
clear), `int` path counts in BC, a source that starts at a distance of its own
and point-to-point searches that stop at their target."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import scf

from gir.dialects import graph
from gir.runtime import reference
from gir.runtime.graph import Graph, from_edges, load_graph
from gir.tools.run import parse_program
from gir.validate import find_validator

PROGRAMS = Path(__file__).parents[1] / "programs"


def _globals(module) -> dict[str, graph.GlobalOp]:
    return {op.sym_name.data: op for op in module.ops if isinstance(op, graph.GlobalOp)}


def test_a_result_cleared_after_each_trial_is_copied_before_the_first_clear() -> None:
    module = parse_program(str(PROGRAMS / "bc_cleared.gt"))
    validator = find_validator(module)
    assert validator is not None
    assert validator.algorithm == (
        "betweenness centrality (dependencies in 'share'), copied before its first "
        f"clear at {PROGRAMS / 'bc_cleared.gt'}:90"
    )
    assert validator.result == "share_validated"
    declared = _globals(module)
    assert declared["share_validated"].global_type == declared["share"].global_type
    module.verify()
    # the copy is guarded by the flag, right before `towns.apply(wipe)`
    take = next(op for op in module.walk() if isinstance(op, graph.VectorCopyOp))
    guard = take.parent_op()
    assert isinstance(guard, scf.IfOp)
    clear = guard.next_op
    assert isinstance(clear, graph.VertexSetApplyOp) and clear.udf.root_reference.data == "wipe"
    graph_ = load_graph("road:5:4", cache=False)
    argv = ["bc_cleared", "road:5:4", "3"]
    right = reference.betweenness_one_source(graph_, 3).astype(np.float32)
    zeros = np.zeros(graph_.num_vertices, np.float32)
    assert validator.check(graph_, argv, {"share": zeros, "share_validated": right}) is None
    assert validator.check(graph_, argv, {"share": right, "share_validated": zeros}) is not None


def test_a_clear_before_the_traversal_is_not_copied() -> None:
    """bc.gt clears at the start of each run: its last run's result stands."""
    module = parse_program(str(PROGRAMS / "bc.gt"))
    validator = find_validator(module)
    assert validator is not None and validator.result == "credit"
    assert "credit_validated" not in _globals(module)


def test_int_path_counts_are_checked_for_overflow() -> None:
    validator = find_validator(parse_program(str(PROGRAMS / "bc_cleared.gt")))
    assert validator is not None
    grid = load_graph("road:32:32", cache=False)
    right = reference.betweenness_one_source(grid, 0)
    problem = validator.check(grid, ["p", "road:32:32", "0"], {"share_validated": right})
    assert problem is not None and problem.startswith("the shortest-path counts overflow 'paths'")


def test_the_source_distance_is_the_one_the_program_stores() -> None:
    validator = find_validator(parse_program(str(PROGRAMS / "sssp_base_distance.gt")))
    assert validator is not None and validator.algorithm == "SSSP (distances in 'far')"
    grid = load_graph("road:5:4,w", cache=False)
    dist = reference.sssp_distances(grid, 2)
    argv = ["p", "road:5:4,w", "2", "14"]
    further = np.where(dist == reference.UNREACHABLE_DISTANCE, dist, dist + 14)
    assert validator.check(grid, argv, {"far": further}) is None
    assert validator.check(grid, argv, {"far": dist}) is not None
    assert validator.check(grid, [*argv[:3], "0"], {"far": dist}) is None


def test_a_search_that_stops_at_its_target_is_point_to_point() -> None:
    """lang_ppsp.gt loops `while (pq.finishedNode(end_vertex) == false)`: the
    distances beyond the target's may be upper bounds."""
    validator = find_validator(parse_program(str(PROGRAMS / "lang_ppsp.gt")))
    assert validator is not None
    assert validator.algorithm == "point-to-point SSSP (distances in 'dist')"
    grid = load_graph("road:6:6,w", cache=False)
    dist = reference.sssp_distances(grid, 0)
    near = int(np.argsort(dist)[3])
    stopped = np.where(dist <= dist[near], dist, reference.UNREACHABLE_DISTANCE)
    argv = ["p", "road:6:6,w", "0", str(near), "1"]
    assert validator.check(grid, argv, {"dist": stopped}) is None
    far = int(np.argmax(dist))
    assert validator.check(grid, [*argv[:3], str(far), "1"], {"dist": stopped}) is not None


def test_triangle_counting_needs_the_order_guard(tmp_path: Path) -> None:
    """tc.gt is recognised; without `if dst < src` every triangle would be
    counted several times, which is not what the reference counts."""
    validator = find_validator(parse_program(str(PROGRAMS / "tc.gt")))
    assert validator is not None and validator.algorithm == "triangle counting (counts in 'closed')"
    source = (PROGRAMS / "tc.gt").read_text()
    unguarded = tmp_path / "tc_unguarded.gt"
    unguarded.write_text(source.replace("if dst < src", "if true"))
    assert find_validator(parse_program(str(unguarded))) is None
    swapped = tmp_path / "tc_swapped.gt"
    swapped.write_text(source.replace("if dst < src", "if src > dst"))
    assert find_validator(parse_program(str(swapped))) is not None


def test_a_function_that_reads_the_result_before_zeroing_it_is_no_clear(tmp_path: Path) -> None:
    """GraphIt's PageRank update reads new_rank, then zeroes it: that moves the
    result on rather than clearing it, so no copy is taken."""
    source = (PROGRAMS / "bc_cleared.gt").read_text()
    old = "func wipe(v : Vertex)\n    share[v] = 0;\n"
    assert old in source
    moved = tmp_path / "bc_moved.gt"
    moved.write_text(source.replace(old, "func wipe(v : Vertex)\n    paths[v] = share[v];\n    share[v] = 0;\n"))
    module = parse_program(str(moved))
    validator = find_validator(module)
    assert validator is not None and validator.result == "share"
    assert "share_validated" not in _globals(module)


def test_union_find_linking_is_connected_components(tmp_path: Path) -> None:
    """cc_afforest.gt links by `compare_and_swap(comp[high], high, low)` in an
    `apply`: a root hooked under another label is CC, checked on `comp`. A swap
    whose expected value is not the slot's own index hooks no root, so it is not."""
    validator = find_validator(parse_program(str(PROGRAMS / "cc_afforest.gt")))
    assert validator is not None
    assert validator.algorithm == "connected components (labels in 'comp')"
    graph_ = load_graph("road:4:3", cache=False)
    argv = ["cc_afforest", "road:4:3"]
    one_label = np.zeros(graph_.num_vertices, np.int32)
    assert validator.check(graph_, argv, {"comp": one_label}) is None
    own_labels = np.arange(graph_.num_vertices, dtype=np.int32)
    assert validator.check(graph_, argv, {"comp": own_labels}) is not None
    source = (PROGRAMS / "cc_afforest.gt").read_text()
    old = "compare_and_swap(comp[high], high, low)"
    assert old in source
    swapped = tmp_path / "cc_not_a_root.gt"
    swapped.write_text(source.replace(old, "compare_and_swap(comp[high], low, high)"))
    assert find_validator(parse_program(str(swapped))) is None


def _chain_with_an_island() -> Graph:
    """0 -> 1 -> 2 (weights 2 and 3) and vertex 3, which nothing reaches."""
    return from_edges(4, np.array([0, 1]), np.array([1, 2]), np.array([2, 3]))


def test_unreached_distances_are_the_programs_own_markers(tmp_path: Path) -> None:
    """An SSSP that fills its distances with 21474836 (GraphIt's closeness
    centrality) leaves that at unreached vertices; one that then stores 0
    where the fill is still held leaves 0. Neither is a wrong distance, and a
    reached vertex holding the marker still is."""
    source = (PROGRAMS / "sssp_base_distance.gt").read_text()
    assert "= 2147483647;" in source
    filled = tmp_path / "sssp_own_fill.gt"
    filled.write_text(source.replace("= 2147483647;", "= 21474836;"))
    zeroed = tmp_path / "sssp_zeroed.gt"
    zeroed.write_text(
        filled.read_text()
        .replace("func main()", ZERO_UNREACHED + "\nfunc main()")
        .replace("    end\nend", "    end\n    towns.apply(zero_unreached);\nend")
    )
    g = _chain_with_an_island()
    argv = ["p", "g", "0", "0"]
    fill = find_validator(parse_program(str(filled)))
    assert fill is not None
    assert fill.check(g, argv, {"far": np.array([0, 2, 5, 21474836], np.int32)}) is None
    assert fill.check(g, argv, {"far": np.array([0, 2, 5, 0], np.int32)}) is not None
    assert fill.check(g, argv, {"far": np.array([0, 2, 21474836, 21474836], np.int32)}) is not None
    zero = find_validator(parse_program(str(zeroed)))
    assert zero is not None
    assert zero.check(g, argv, {"far": np.array([0, 2, 5, 0], np.int32)}) is None
    assert zero.check(g, argv, {"far": np.array([0, 2, 0, 0], np.int32)}) is not None
    halved = tmp_path / "sssp_halved.gt"
    halved.write_text(source.replace("= 2147483647;", "= 2147483647 / 2;"))
    half = find_validator(parse_program(str(halved)))
    assert half is not None
    assert half.check(g, argv, {"far": np.array([0, 2, 5, 1073741823], np.int32)}) is None
    default = find_validator(parse_program(str(PROGRAMS / "sssp_base_distance.gt")))
    assert default is not None
    assert default.check(g, argv, {"far": np.array([0, 2, 5, 21474836], np.int32)}) is not None


ZERO_UNREACHED = """const towns : vertexset{Vertex} = roads.getVertices();

func zero_unreached(v : Vertex)
    if far[v] == 21474836
        far[v] = 0;
    end
end
"""


def test_an_unreached_dependency_is_what_the_program_stores_there(tmp_path: Path) -> None:
    """bc.gt stores 0 where no shortest path was counted; a program that stores
    -1 there (as GraphIt's test bc.gt does) is right too, at unreached vertices only."""
    source = (PROGRAMS / "bc.gt").read_text()
    old = "    if sigma[v] == 0\n        credit[v] = 0;"
    assert old in source
    marked = tmp_path / "bc_marked.gt"
    marked.write_text(source.replace(old, "    if sigma[v] == 0\n        credit[v] = -1;"))
    validator = find_validator(parse_program(str(marked)))
    assert validator is not None
    g = _chain_with_an_island()
    argv = ["p", "g", "0", "1"]
    right = reference.betweenness_one_source(g, 0)
    assert right[3] == 0
    assert validator.check(g, argv, {"credit": np.where(np.arange(4) == 3, -1.0, right)}) is None
    assert validator.check(g, argv, {"credit": right}) is None
    assert validator.check(g, argv, {"credit": np.where(np.arange(4) == 2, -1.0, right)}) is not None
    plain = find_validator(parse_program(str(PROGRAMS / "bc.gt")))
    assert plain is not None
    assert plain.check(g, argv, {"credit": np.where(np.arange(4) == 3, -1.0, right)}) is not None


def test_factors_the_reference_overflows_are_not_checked() -> None:
    """collaborative_filtering.gt on ratings that make its steps diverge: the
    reference itself leaves float32's range, so no result is called wrong."""
    validator = find_validator(parse_program(str(PROGRAMS / "collaborative_filtering.gt")))
    assert validator is not None
    argv = ["p", "g"]
    tame = from_edges(3, np.array([0, 1, 2]), np.array([1, 2, 0]), np.array([5, 4, 3]))
    wrong = validator.check(tame, argv, {validator.result: np.full(3 * 20, np.nan, np.float32)})
    assert wrong is not None and wrong.startswith("3 vertices have wrong latent factors")
    huge = from_edges(3, np.array([0, 1, 2]), np.array([1, 2, 0]), np.array([10**9] * 3))
    with pytest.raises(reference.NotChecked, match="overflow"):
        validator.check(huge, argv, {validator.result: np.full(3 * 20, np.nan, np.float32)})


SPREAD = """element Vertex end
element Edge end
const links : edgeset{Edge}(Vertex,Vertex) = load (argv[1]);
const people : vertexset{Vertex} = links.getVertices();
const score : vector{Vertex}(float) = 2.0 / people.size();
const gathered : vector{Vertex}(float) = 0.0;

func gather(src : Vertex, dst : Vertex)
    gathered[dst] += score[src];
end

func settle(v : Vertex)
    score[v] = gathered[v];
    gathered[v] = 0.0;
end

func main()
    for round in 0:4
        links.apply(gather);
        people.apply(settle);
    end
end
"""


def test_an_undamped_sum_of_in_neighbours_is_power_iteration(tmp_path: Path) -> None:
    """`new[dst] += old[src]` then `old = new` (GraphIt's eigenvector
    centrality test) is no PageRank: its values are those of power iteration
    without normalisation, from the fill `2.0 / people.size()`. A damped or
    scaled update of the same shape has no reference: not checked, with why."""
    program = tmp_path / "spread.gt"
    program.write_text(SPREAD)
    validator = find_validator(parse_program(str(program)))
    assert validator is not None and validator.algorithm.startswith("power iteration")
    g = load_graph("rmat:6", cache=False)
    adjacency = np.zeros((g.num_vertices, g.num_vertices))
    adjacency[g.src, g.dst] = 1
    values = np.full(g.num_vertices, 2.0 / g.num_vertices)
    for _ in range(4):
        values = adjacency.T @ values
    argv = ["p", "rmat:6"]
    assert validator.check(g, argv, {"score": values.astype(np.float32)}) is None
    assert validator.check(g, argv, {"score": (values * 0.85).astype(np.float32)}) is not None
    damped = tmp_path / "spread_damped.gt"
    damped.write_text(SPREAD.replace("score[v] = gathered[v];", "score[v] = 0.85 * gathered[v];"))
    declined = find_validator(parse_program(str(damped)))
    assert declined is not None
    with pytest.raises(reference.NotChecked, match="not PageRank"):
        declined.check(g, argv, {"score": values.astype(np.float32)})


def test_gir_run_says_not_checked_instead_of_a_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    """A check that raises `NotChecked` is neither OK nor an error: gir-run
    says why and carries on (the run is not failed)."""
    from gir.tools.run import _validate
    from gir.validate import Validator

    def check(g, argv, vectors):  # type: ignore[no-untyped-def]
        raise reference.NotChecked("the reference overflows")

    _validate(Validator("an overflowing thing", check, "x"), ["p", "road:3:3"], {"x": np.zeros(9)})
    assert "an overflowing thing not checked: the reference overflows" in capsys.readouterr().err


PEELING = """element Vertex end
element Edge end
const edges : edgeset{Edge}(Vertex,Vertex) = load (argv[1]);
const vertices : vertexset{Vertex} = edges.getVertices();
const degrees : vector{Vertex}(int) = edges.getOutDegrees();
const D : vector{Vertex}(int);
const pq : priority_queue{Vertex}(int);
const split : int = 4;

func reset(v : Vertex)
    if v < split
        D[v] = degrees[v];
    else
        D[v] = OTHER;
    end
end

func apply_f(src : Vertex, dst : Vertex)
    var k : int = pq.get_current_priority();
    pq.updatePrioritySum(dst, -1, k);
end

func main()
    vertices.apply(reset);
    pq = new priority_queue{Vertex}(int)(false, false, D, 1, 0, false, -1);
    var finished : int = 0;
    while (finished != vertices.size())
        var frontier : vertexset{Vertex} = pq.dequeue_ready_set();
        finished += frontier.getVertexSetSize();
        edges.from(frontier).applyUpdatePriority(apply_f);
        delete frontier;
    end
end
"""


def test_a_peeling_from_other_priorities_than_degrees_is_not_a_k_core(tmp_path: Path) -> None:
    """A peeling whose priorities start as out-degrees copied from another
    vector is a k-core (GraphIt's apps/k_core.gt); one that stores another value
    at some vertices (hyperkcore.gt's hyperedges) is declined, not misjudged."""
    copied = tmp_path / "copied.gt"
    copied.write_text(PEELING.replace("OTHER", "degrees[v]"))
    validator = find_validator(parse_program(str(copied)))
    assert validator is not None and validator.algorithm == "k-core (core numbers in 'D')"
    other = tmp_path / "other.gt"
    other.write_text(PEELING.replace("OTHER", "2147483647"))
    validator = find_validator(parse_program(str(other)))
    assert validator is not None and validator.result == "D"
    g = load_graph("rmat:5", cache=False)
    with pytest.raises(reference.NotChecked, match="hypergraph k-core"):
        validator.check(g, ["p", "g"], {"D": np.zeros(g.num_vertices, np.int32)})



def test_an_astar_search_checks_its_path_costs_at_the_target() -> None:
    """lang_astar.gt's queue orders by `rank` (cost plus a heuristic), its edge
    function `writeMin`s the costs into `dist`, and its goal is a global set
    from argv: `dist` is checked, exact at the goal only."""
    validator = find_validator(parse_program(str(PROGRAMS / "lang_astar.gt")))
    assert validator is not None
    assert validator.algorithm == "A* search (path costs in 'dist')"
    grid = load_graph("road:6:6,w", cache=False)
    dist = reference.sssp_distances(grid, 0)
    goal = int(np.argsort(dist)[5])
    argv = ["a", "road:6:6,w", "0", str(goal)]
    bounds = dist + (np.arange(len(dist)) != goal)  # a path's length, not the shortest, off the goal
    assert validator.check(grid, argv, {"dist": bounds}) is None
    long = bounds.copy()
    long[goal] += 1
    assert "wrong distance" in (validator.check(grid, argv, {"dist": long}) or "")
    below = bounds.copy()
    below[int(np.argmax(dist))] -= 2
    assert validator.check(grid, argv, {"dist": below}) is not None


def test_gir_run_validates_an_astar_search_on_pocl(capsys: pytest.CaptureFixture[str]) -> None:
    """lang_astar.gt with both of its heuristics, run end to end on OpenCL."""
    from gir.tools.run import main

    code = main(
        [
            "--target", "opencl",
            "--extern", str(PROGRAMS / "lang_astar.cl"),
            "--host-extern", str(PROGRAMS / "lang_astar.py"),
            str(PROGRAMS / "lang_astar.gt"), "road:6:6,w", "0", "35", "--validate",
        ]
    )  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "validated A* search (path costs in 'dist')" in captured.err
    expected = reference.sssp_distances(load_graph("road:6:6,w", cache=False), 0)[35]
    assert captured.out.split()[0] == str(expected)
