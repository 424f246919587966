"""The NetworkX backend's schedules from the auto model (`gir.tune.auto`) on PoCL:
a road-like and a social-like graph get their class's schedules, results still
equal NetworkX's, and a converted graph's statistics (a BFS probe) are computed
once however many calls it serves."""

from __future__ import annotations

from collections.abc import Iterator

import networkx as nx
import pytest

from gir.dialects.schedule import ArgvAttr, HybridScheduleAttr, LoadBalanceAttr, SimpleScheduleAttr
from gir.nx_backend import programs
from gir.nx_backend.interface import BackendInterface
from gir.tune import stats

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.fixture(autouse=True)
def auto_config(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    config = nx.utils.Config(schedule="auto", target="opencl", device=None, min_edges=None)
    monkeypatch.setattr(programs, "config", lambda: config)
    yield


@pytest.fixture
def probes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts `graph_stats` calls (each one probes the graph by BFS)."""
    calls: list[int] = []
    measure = stats.graph_stats

    def counted(graph: object) -> stats.GraphStats:
        calls.append(1)
        return measure(graph)

    monkeypatch.setattr(stats, "graph_stats", counted)
    return calls


def _weighted(graph: nx.Graph) -> nx.Graph:
    graph = nx.convert_node_labels_to_integers(graph)
    for u, v, data in graph.edges(data=True):
        data["weight"] = (3 * u + v) % 7
    return graph


def _road() -> nx.Graph:
    """A long grid: about 90 levels from end to end, even degrees."""
    return _weighted(nx.grid_2d_graph(3, 90))


def _social() -> nx.Graph:
    """Preferential attachment: hubs, a few levels."""
    return _weighted(nx.barabasi_albert_graph(400, 3, seed=4))


def test_road_and_social_graphs_get_their_class_schedules() -> None:
    road = BackendInterface.convert_from_nx(_road(), edge_attrs={"weight": 1})
    social = BackendInterface.convert_from_nx(_social(), edge_attrs={"weight": 1})
    on_road, on_social = programs.auto_schedule("bfs_levels", road), programs.auto_schedule("bfs_levels", social)
    assert (on_road.graph_class, on_social.graph_class) == ("road", "social")
    assert programs.schedule_shape(road) == "high_diameter" and programs.schedule_shape(social) == "power_law"
    assert on_road.point != on_social.point
    road_bfs, social_bfs = on_road.point["search:expand"], on_social.point["search:expand"]
    assert isinstance(road_bfs, SimpleScheduleAttr) and road_bfs.load_balance == LoadBalanceAttr("CM")
    assert isinstance(social_bfs, HybridScheduleAttr)  # push small frontiers, pull large ones
    assert [choice.shape for choice in on_road.choices] == ["road graph, frontier, destination filter"]
    assert programs.program("bfs_levels", road) is not programs.program("bfs_levels", social)
    sssp = programs.auto_schedule("sssp", road).point["steps:relaxing"]
    assert isinstance(sssp, SimpleScheduleAttr) and sssp.delta == ArgvAttr(3)  # the backend's weight-scaled delta


def test_statistics_are_computed_once_per_converted_graph(probes: list[int]) -> None:
    road = _road()
    converted = BackendInterface.convert_from_nx(road, edge_attrs={"weight": 1})
    first = programs.program("bfs_levels", converted)
    for _ in range(3):
        assert BackendInterface.single_source_shortest_path_length(converted, 0) == (
            nx.single_source_shortest_path_length(road, 0)
        )
        assert BackendInterface.single_source_dijkstra_path_length(converted, 0) == (
            nx.single_source_dijkstra_path_length(road, 0)
        )
    assert programs.program("bfs_levels", converted) is first  # compiled once
    assert len(probes) == 1
    unweighted = BackendInterface.convert_from_nx(road)  # another conversion of the graph: its statistics
    assert programs.program("bfs_levels", unweighted) is first
    assert len(probes) == 1
    road.add_edge(0, len(road) - 1)  # NetworkX clears its cache: a new conversion probes again
    changed = BackendInterface.convert_from_nx(road)
    assert programs.auto_schedule("bfs_levels", changed).graph_class == "social"  # the chord halves the diameter
    assert len(probes) == 2


def test_road_schedules_equal_networkx() -> None:
    """The small graphs of test_nx_backend.py are all social to the model: the
    road rules' results, checked here."""
    road = _road()
    converted = BackendInterface.convert_from_nx(road, edge_attrs={"weight": 1})
    plain = BackendInterface.convert_from_nx(road)
    assert programs.auto_schedule("components", plain).graph_class == "road"
    assert list(BackendInterface.connected_components(plain)) == list(nx.connected_components(road))
    assert list(BackendInterface.bfs_edges(plain, 5)) == list(nx.bfs_edges(road, 5))
    assert BackendInterface.single_source_dijkstra_path_length(converted, 7) == (
        nx.single_source_dijkstra_path_length(road, 7)
    )
    ranks, expected = BackendInterface.pagerank(converted), nx.pagerank(road)
    assert ranks == pytest.approx(expected, rel=1e-6, abs=1e-9)
    central, expected = BackendInterface.betweenness_centrality(plain), nx.betweenness_centrality(road)
    assert central == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_a_tuned_schedule_in_the_cache_is_the_one_that_runs() -> None:
    """gir-tune's result for a shipped program on a graph (stored in this test's
    own tuning cache) is what the backend compiles for that graph, before the
    auto model; the results still equal NetworkX's."""
    pytest.importorskip("optuna")
    import gir

    social = _social()
    converted = BackendInterface.convert_from_nx(social)
    assert programs.tuned_schedule("bfs_levels", converted) is None
    untuned = programs.program("bfs_levels", converted)
    threshold = max(1, len(converted) // 20)
    result = gir.tune(
        programs.path("bfs_levels"), converted.gir_graph(), 0, threshold, budget=3, target="opencl", trials=1
    )
    assert programs.tuned_schedule("bfs_levels", converted) == result.schedule
    tuned = programs.program("bfs_levels", converted)
    assert tuned is programs.program("bfs_levels", converted)  # compiled once
    assert tuned is programs._compiled[("bfs_levels", result.schedule)]  # compiled from the tuned section
    assert untuned is not tuned
    assert BackendInterface.single_source_shortest_path_length(converted, 0) == (
        nx.single_source_shortest_path_length(social, 0)
    )
