"""The blocked edges of a graph (G2's EdgeBlocking, `Graph.blocked`): what they
hold, and their cache beside the graph's own cache entry."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import gir.runtime.graph.graph as graph_module
from gir.runtime.graph import Graph, GraphError, block_count, from_edges, load_graph
from test_cache import cache_dir  # noqa: F401 (an autouse fixture: a cache per test)

SPEC = "rmat:10,w,seed=3"


def expected_order(graph: Graph, size: int) -> list[tuple[int, int, int, int]]:
    """(block, src, dst, weight) of every edge, sorted: what blocking must give."""
    weights = graph.weights if graph.weights is not None else np.zeros(graph.num_edges, np.int32)
    return sorted(
        (int(d) // size, int(s), int(d), int(w))
        for s, d, w in zip(graph.src, graph.dst, weights, strict=True)
    )


@pytest.mark.parametrize("size", [1, 7, 100, 1024, 5000])
def test_blocks_hold_the_edges_into_their_range_in_source_order(size: int) -> None:
    graph = load_graph(SPEC, cache=False)
    blocked = graph.blocked(size)
    assert blocked.num_blocks == block_count(graph.num_vertices, size)
    assert blocked.offsets[0] == 0 and blocked.offsets[-1] == graph.num_edges
    assert (np.diff(blocked.offsets) >= 0).all()
    for k in range(blocked.num_blocks):
        begin, end = blocked.offsets[k], blocked.offsets[k + 1]
        assert ((blocked.dst[begin:end] // size) == k).all()
    assert blocked.weights is not None
    got = [
        (int(d) // size, int(s), int(d), int(w))
        for s, d, w in zip(blocked.src, blocked.dst, blocked.weights, strict=True)
    ]
    assert got == expected_order(graph, size)
    assert not blocked.src.flags.writeable


def test_blocking_is_made_once_per_size() -> None:
    graph = from_edges(5, np.array([0, 1, 4, 3]), np.array([4, 0, 1, 2]))
    assert graph.blocked(2) is graph.blocked(2)
    assert graph.blocked(3) is not graph.blocked(2)
    assert graph.blocked(2).weights is None
    assert graph.blocked(2).offsets.tolist() == [0, 2, 3, 4]


def test_one_block_when_the_size_covers_every_vertex() -> None:
    graph = from_edges(1, np.array([0]), np.array([0]))
    assert graph.blocked(1 << 20).offsets.tolist() == [0, 1]


def test_a_non_positive_size_is_an_error() -> None:
    with pytest.raises(GraphError, match="positive blocking size"):
        from_edges(2, np.array([0]), np.array([1])).blocked(0)


def blocked_entries(directory: Path) -> list[Path]:
    return sorted(directory.glob("*-blocked*.npz"))


def test_blocked_edges_round_trip_through_the_cache(cache_dir: Path) -> None:
    first = load_graph(SPEC).blocked(100)
    (entry,) = blocked_entries(cache_dir)
    again = load_graph(SPEC)
    calls = []
    real = graph_module.blocked_edges
    graph_module.blocked_edges = lambda *args: calls.append(args) or real(*args)
    try:
        cached = again.blocked(100)
    finally:
        graph_module.blocked_edges = real
    assert not calls, "the blocked edges were rebuilt instead of read from the cache"
    for name in ("offsets", "src", "dst", "weights"):
        assert np.array_equal(getattr(cached, name), getattr(first, name))
    load_graph(SPEC, weighted=False).blocked(100)
    assert len(blocked_entries(cache_dir)) == 2, "weighted and unweighted are cached apart"
    assert entry in blocked_entries(cache_dir)


def test_a_tampered_blocked_entry_is_rebuilt(
    cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = load_graph(SPEC).blocked(64)
    (entry,) = blocked_entries(cache_dir)
    with np.load(entry) as stored:
        arrays = {name: stored[name] for name in stored.files}
    arrays["src"] = np.roll(arrays["src"], 1)
    np.savez(entry, **arrays)
    rebuilt = load_graph(SPEC).blocked(64)
    assert "does not match its checksum" in capsys.readouterr().err
    assert np.array_equal(rebuilt.src, expected.src)


def test_an_uncached_graph_keeps_its_blocks_in_memory_only(cache_dir: Path) -> None:
    load_graph(SPEC, cache=False).blocked(64)
    assert blocked_entries(cache_dir) == []
