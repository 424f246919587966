"""The graph reorderings (`gir.reorder`) and relabelled graphs (`gir.runtime.graph.reorder`):
every registered ordering is a permutation whose inverse is right, and a
relabelled graph is the same graph under new names, cached beside its source."""

from __future__ import annotations

import numpy as np
import pytest

from gir.reorder import ORDERINGS, relabel, relabelling_of, unknown_ordering
from gir.runtime.graph import from_edges, load_graph
from gir.runtime.graph.reorder import relabelled

NAMES = list(ORDERINGS)


def _star_and_path() -> tuple[int, np.ndarray, np.ndarray]:
    """Vertex 5 is a hub of 0..4; 6-7-8-9 is a path; 10 is isolated."""
    src = np.array([5, 5, 5, 5, 5, 6, 7, 8])
    dst = np.array([0, 1, 2, 3, 4, 7, 8, 9])
    return 11, src, dst


@pytest.mark.parametrize("name", NAMES)
def test_every_ordering_is_a_permutation_with_its_inverse(name: str) -> None:
    graph = load_graph("rmat:8")
    relabelling = relabel(name, graph.num_vertices, graph.src, graph.dst)
    vertices = np.arange(graph.num_vertices)
    assert sorted(relabelling.old_of_new.tolist()) == vertices.tolist()
    assert (relabelling.new_of_old[relabelling.old_of_new] == vertices).all()
    assert (relabelling.old_of_new[relabelling.new_of_old] == vertices).all()


@pytest.mark.parametrize("name", NAMES)
def test_relabelled_graph_is_isomorphic(name: str) -> None:
    graph = load_graph("road:6:5,w")
    made = relabelled(graph, name)
    new_of_old = made.relabelling.new_of_old
    expected = from_edges(graph.num_vertices, new_of_old[graph.src], new_of_old[graph.dst], graph.weights)
    assert (made.graph.src == expected.src).all() and (made.graph.dst == expected.dst).all()
    assert (made.graph.weights == expected.weights).all()
    assert relabelled(graph, name).graph is made.graph  # made once per graph


def test_degree_puts_the_hub_first() -> None:
    count, src, dst = _star_and_path()
    assert relabel("DEGREE", count, src, dst).old_of_new[0] == 5
    hubs = relabel("HUB_CLUSTER", count, src, dst).old_of_new
    # above the average degree (16 / 11): 5, 7 and 8; each group keeps its old order
    assert hubs.tolist() == [5, 7, 8, 0, 1, 2, 3, 4, 6, 9, 10]


def test_degree_group_groups_by_power_of_two() -> None:
    count, src, dst = _star_and_path()
    order = relabel("DEGREE_GROUP", count, src, dst).old_of_new.tolist()
    # degree 5 (group 3), then degree 2 (7, 8), then degree 1, then the isolated vertex
    assert order == [5, 7, 8, 0, 1, 2, 3, 4, 6, 9, 10]


def test_rcm_keeps_a_path_narrow() -> None:
    src = np.array([0, 3, 1, 4])  # the path 2-0-3-1-4, written with scattered ids
    dst = np.array([2, 0, 3, 1])
    new_of_old = relabel("RCM", 5, src, dst).new_of_old
    assert max(abs(int(new_of_old[a]) - int(new_of_old[b])) for a, b in zip(src, dst)) == 1


def test_mapping_values_both_ways() -> None:
    relabelling = relabelling_of("X", np.array([2, 0, 1]), 3)
    assert relabelling.to_internal(2) == 0 and relabelling.to_internal(7) == 7
    assert relabelling.indexed_to_user(np.array([20, 0, 10])).tolist() == [0, 10, 20]
    assert relabelling.ids_to_user(np.array([0, -1, 2, 9])).tolist() == [2, -1, 1, 9]


def test_no_permutation_is_refused() -> None:
    with pytest.raises(ValueError, match="not a permutation"):
        relabelling_of("X", np.array([0, 0, 1]), 3)
    assert unknown_ordering("DEGREE") is None
    assert "expected one of DEGREE" in str(unknown_ordering("SIDEWAYS"))


def test_relabelled_graph_is_cached_beside_its_source(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("GIR_CACHE_DIR", str(tmp_path))
    edges = tmp_path / "g.el"
    edges.write_text("0 1\n1 2\n2 0\n3 0\n3 1\n3 2\n")
    first = relabelled(load_graph(str(edges)), "DEGREE")
    assert not first.cached and list(tmp_path.glob("*reorderDEGREE*.npz"))
    again = relabelled(load_graph(str(edges)), "DEGREE")
    assert again.cached and again.seconds >= 0
    assert (again.relabelling.old_of_new == first.relabelling.old_of_new).all()
    assert (again.graph.src == first.graph.src).all() and (again.graph.dst == first.graph.dst).all()


def test_bench_schedule_with_an_ordering(tmp_path) -> None:
    from gir.diagnostics import UserError
    from gir.tools.bench import reordered_source, split_schedule

    assert split_schedule("best") == ("best", None)
    assert split_schedule("best+DEGREE") == ("best", "DEGREE")
    with pytest.raises(UserError, match="CLASS or CLASS\\+ORDERING"):
        split_schedule("+RCM")
    with_section = tmp_path / "a.gt"
    with_section.write_text("func main()\nend\n\nschedule:\n    SimpleGPUSchedule s;\n")
    assert reordered_source(with_section, "RCM").decode().endswith(
        "schedule:\n    SimpleGPUSchedule s;\n    program->configReorder(RCM);\n"
    )
    ordered = tmp_path / "c.gt"
    ordered.write_text("func main()\nend\n\nschedule:\n    program->configReorder(DEGREE);\n    SimpleGPUSchedule s;\n")
    assert reordered_source(ordered, "RCM").decode().endswith(
        "schedule:\n    SimpleGPUSchedule s;\n    program->configReorder(RCM);\n"
    )
    without = tmp_path / "b.gt"
    without.write_text("func main()\nend\n")
    assert reordered_source(without, "DEGREE").decode() == (
        "func main()\nend\n\nschedule:\n    program->configReorder(DEGREE);\n"
    )


@pytest.mark.parametrize("name", NAMES)
def test_the_complete_programs_orderings(name: str) -> None:
    """The C++ orderings a complete CUDA program relabels with: a permutation,
    the Python host's own where the ordering is a stable sort (all but RCM,
    whose C++ version keeps RCM's narrow band)."""
    from gir.runtime.graph import native

    graph = load_graph("rmat:9")
    order = native.reorder(name, graph.num_vertices, graph.src, graph.dst)
    assert sorted(order.tolist()) == list(range(graph.num_vertices))
    if name != "RCM":
        assert order.tolist() == relabel(name, graph.num_vertices, graph.src, graph.dst).old_of_new.tolist()
    path = np.array([0, 3, 1, 4]), np.array([2, 0, 3, 1])
    new_of_old = relabelling_of(name, native.reorder(name, 5, *path).astype(np.int64), 5).new_of_old
    if name == "RCM":
        assert max(abs(int(new_of_old[a]) - int(new_of_old[b])) for a, b in zip(*path)) == 1


def test_the_complete_programs_unknown_ordering() -> None:
    from gir.runtime.graph import GraphError, native

    with pytest.raises(GraphError, match="unknown reordering 'SIDEWAYS'"):
        native.reorder("SIDEWAYS", 2, np.array([0]), np.array([1]))
