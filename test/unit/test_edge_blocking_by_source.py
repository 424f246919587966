"""The edges tiled by source range (`Graph.blocked(size, by_source=True)`): the
transpose's tiling that PULL's edge blocking walks (the BLOCKED_CSC layout)."""

from __future__ import annotations

import numpy as np
import pytest

from gir.runtime.graph import block_count, from_edges, load_graph
from test_cache import cache_dir  # noqa: F401 (an autouse fixture: a cache per test)

SPEC = "rmat:10,w,seed=3"


@pytest.mark.parametrize("size", [1, 7, 100, 5000])
def test_blocks_hold_the_edges_out_of_their_range_in_destination_order(size: int) -> None:
    graph = load_graph(SPEC, cache=False)
    blocked = graph.blocked(size, by_source=True)
    assert blocked.num_blocks == block_count(graph.num_vertices, size)
    assert blocked.offsets[0] == 0 and blocked.offsets[-1] == graph.num_edges
    for k in range(blocked.num_blocks):
        begin, end = blocked.offsets[k], blocked.offsets[k + 1]
        assert ((blocked.src[begin:end] // size) == k).all()
    assert blocked.weights is not None
    got = [
        (int(s) // size, int(d), int(s), int(w))
        for s, d, w in zip(blocked.src, blocked.dst, blocked.weights, strict=True)
    ]
    expected = sorted(
        (int(s) // size, int(d), int(s), int(w))
        for s, d, w in zip(graph.src, graph.dst, graph.weights, strict=True)
    )
    assert got == expected


def test_the_two_tilings_are_made_and_kept_apart() -> None:
    graph = from_edges(5, np.array([0, 1, 4, 3]), np.array([4, 0, 1, 2]))
    by_source = graph.blocked(2, by_source=True)
    assert by_source is graph.blocked(2, by_source=True)
    assert by_source is not graph.blocked(2)
    assert by_source.offsets.tolist() == [0, 2, 3, 4]
    assert by_source.src.tolist() == [1, 0, 3, 4]
    assert by_source.dst.tolist() == [0, 4, 2, 1]


def test_the_tiling_by_source_is_cached_beside_the_graph() -> None:
    first = load_graph(SPEC).blocked(64, by_source=True)
    again = load_graph(SPEC).blocked(64, by_source=True)
    assert np.array_equal(first.offsets, again.offsets)
    assert np.array_equal(first.src, again.src) and np.array_equal(first.dst, again.dst)
    pushed = load_graph(SPEC).blocked(64)
    assert not np.array_equal(pushed.src, again.src)
