"""The 1D edge partition of partitioned runs (`gir.runtime.graph.partition`) and
the host-staged combines of their exchanges (`gir.runtime.multi_device`)."""

from __future__ import annotations

import numpy as np
import pytest

from gir.dialects.host import Combine
from gir.runtime.graph import GraphError, from_edges, load_graph
from gir.runtime.graph.partition import partition, source_ranges
from gir.runtime.multi_device import combine_arrays


@pytest.mark.parametrize("parts", [1, 2, 3, 7])
def test_parts_hold_every_edge_once_by_source_range(parts: int) -> None:
    graph = load_graph("rmat:9,w")
    pieces = partition(graph, parts)
    ranges = source_ranges(graph, parts)
    assert ranges[0][0] == 0 and ranges[-1][1] == graph.num_vertices
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
    assert sum(piece.num_edges for piece in pieces) == graph.num_edges
    edges = np.concatenate([piece.local.src.astype(np.int64) << 32 | piece.local.dst for piece in pieces])
    assert np.array_equal(np.sort(edges), graph.src.astype(np.int64) << 32 | graph.dst)
    for piece, (begin, end) in zip(pieces, ranges):
        row_ptr, col_idx, weights = piece.csr()
        assert row_ptr.size == graph.num_vertices + 1
        degrees = np.diff(row_ptr)
        assert not degrees[:begin].any() and not degrees[end:].any()
        assert weights is not None and weights.size == col_idx.size
        assert np.array_equal(piece.out_degrees(), graph.out_degrees())
        csc_ptr, csc_idx, _ = piece.csc()
        assert csc_idx.size == piece.num_edges and ((csc_idx >= begin) & (csc_idx < end)).all()


def test_ranges_balance_out_edges() -> None:
    graph = load_graph("rmat:12")
    counts = [piece.num_edges for piece in partition(graph, 4)]
    assert max(counts) - min(counts) <= graph.out_degrees().max()


def test_a_graph_without_edges_splits_into_empty_parts() -> None:
    graph = from_edges(5, np.array([], np.int32), np.array([], np.int32))
    assert [piece.num_edges for piece in partition(graph, 3)] == [0, 0, 0]


def test_combines() -> None:
    base = np.array([0, 0, 5, 7], np.int32)
    copies = [np.array([1, 0, 5, 3], np.int32), np.array([2, 4, 5, 7], np.int32)]
    assert combine_arrays(copies, Combine.SUM, base).tolist() == [3, 4, 5, 3]
    assert combine_arrays(copies, Combine.CLAIM, base).tolist() == [1, 4, 5, 3]
    assert combine_arrays(copies, Combine.MIN, None).tolist() == [1, 0, 5, 3]
    assert combine_arrays(copies, Combine.MAX, None).tolist() == [2, 4, 5, 7]
    assert combine_arrays(copies, Combine.OR, None).tolist() == [3, 4, 5, 7]
    negative = [np.array([-1, 2], np.int32), np.array([3, 4], np.int32)]
    assert combine_arrays(negative, Combine.UMIN, None).tolist() == [3, 2]
    assert combine_arrays(negative, Combine.UMAX, None).tolist() == [-1, 4]


def test_a_part_of_more_than_2_31_edges_is_split_whole() -> None:
    """A part may hold more than 2^31 - 1 edges: the partitioned run then runs
    with 64-bit edge indices (test/e2e/test_multi_device_wide.py); the split
    itself does not refuse it."""
    from gir.runtime.graph import partition as partition_module

    graph = load_graph("rmat:8")
    parts = partition_module.partition(graph, 2)
    assert sum(part.num_edges for part in parts) == graph.num_edges
