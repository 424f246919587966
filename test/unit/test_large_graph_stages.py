"""Tests of the stages a graph of billions of edges goes through, on small
graphs against their numpy forms: the uniform generator drawn in C++, the
parallel symmetrizing, checks and row pointers, a part's CSC cut from the whole
graph's, the C++ BFS reference, and the device memory estimate that refuses a
one-device run too large for its device (docs/large-graphs.md)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gir.diagnostics import UserError
from gir.runtime import reference
from gir.runtime.footprint import DeviceFootprint
from gir.runtime.graph import Graph, GraphError, from_edges, load_graph, native
from gir.runtime.graph.partition import partition

PROGRAMS = Path(__file__).parents[1] / "programs"


def _directed_graph(num_vertices: int, num_edges: int, seed: int, weighted: bool) -> Graph:
    rng = np.random.default_rng(seed)
    src = rng.integers(0, num_vertices, num_edges)
    dst = rng.integers(0, num_vertices, num_edges)
    weights = rng.integers(1, 100, num_edges) if weighted else None
    return from_edges(num_vertices, src, dst, weights)


# --------------------------------------------------------------------------------------
# Generating and checking
# --------------------------------------------------------------------------------------


def test_uniform_graphs_are_symmetric_and_depend_on_the_seed_only() -> None:
    graph = load_graph("uniform:5000:40000", cache=False)
    again = load_graph("uniform:5000:40000", cache=False)
    other = load_graph("uniform:5000:40000,seed=1", cache=False)
    assert np.array_equal(graph.src, again.src) and np.array_equal(graph.dst, again.dst)
    assert not np.array_equal(graph.dst, other.dst)
    edges = set(zip(graph.src.tolist(), graph.dst.tolist(), strict=True))
    assert edges == {(d, s) for s, d in edges}
    assert not np.any(graph.src == graph.dst)
    # 40,000 draws: a few self loops and repeats dropped, both directions kept
    assert 79_000 < graph.num_edges <= 80_000
    degrees = graph.out_degrees()
    assert degrees.min() > 0 and degrees.max() < 50  # uniform: mean 16, no hubs


@pytest.mark.parametrize("repeats", [True, False])
def test_symmetric_edges_match_numpy(repeats: bool) -> None:
    rng = np.random.default_rng(3)
    if repeats:  # self loops and duplicates in both directions: the rows are packed
        src, dst = rng.integers(0, 300, 5000), rng.integers(0, 300, 5000)
    else:  # a path: nothing is dropped, the rows stay where they are
        src, dst = np.arange(999), np.arange(1, 1000)
    kept = src != dst
    expected = np.unique(
        np.stack([np.concatenate([src[kept], dst[kept]]), np.concatenate([dst[kept], src[kept]])]), axis=1
    )
    got_src, got_dst = native.symmetric_edges([src.astype(np.int32), dst.astype(np.int32)], 1000)
    assert np.array_equal(got_src, expected[0]) and np.array_equal(got_dst, expected[1])


def test_first_unsorted_edge_finds_the_first_bad_edge() -> None:
    def first(src: list[int], dst: list[int]) -> int | None:
        return native.first_unsorted_edge(np.array(src, np.int32), np.array(dst, np.int32), 4)

    assert first([0, 0, 1, 3], [1, 2, 0, 3]) is None
    assert first([], []) is None
    assert first([0, 0, 1, 1], [1, 1, 0, 2]) == 1  # a duplicate
    assert first([0, 1, 0, 2], [1, 0, 2, 0]) == 2  # out of order
    assert first([0, 1, 2, 2], [1, 4, 0, 1]) == 1  # an id out of range
    assert first([0, -1], [1, 0]) == 1


def test_graph_checks_explain_what_the_native_check_finds() -> None:
    with pytest.raises(GraphError, match=r"dst holds 5, outside the valid range \[0, 2\]"):
        Graph(3, np.array([0, 1], np.int32), np.array([1, 5], np.int32))
    with pytest.raises(GraphError, match=r"edge 2 \(0->2\) comes after 1->0"):
        Graph(3, np.array([0, 1, 0], np.int32), np.array([1, 0, 2], np.int32))
    graph = Graph(3, np.array([0, 1], np.int32), np.array([1, 2], np.int32))
    assert not graph.src.flags.writeable and graph.num_edges == 2


@pytest.mark.parametrize("rows", [[], [0, 0, 1], [2, 2, 5, 5, 5, 7], [9]])
def test_row_pointers_of_sorted_rows(rows: list[int]) -> None:
    sorted_rows = np.array(rows, np.int32)
    expected = np.searchsorted(sorted_rows, np.arange(11), side="left")
    assert np.array_equal(native.row_pointers(sorted_rows, 10), expected)


def test_row_pointers_spread_over_threads() -> None:
    rows = np.sort(np.random.default_rng(5).integers(0, 50_000, 400_000)).astype(np.int32)
    expected = np.searchsorted(rows, np.arange(60_001), side="left")
    assert np.array_equal(native.row_pointers(rows, 60_000), expected)


def test_row_pointers_of_more_than_2_31_edges_are_64_bit() -> None:
    """The int64 path (a graph above 2^31 - 1 edges) on a small graph."""
    rows = np.sort(np.random.default_rng(9).integers(0, 900, 20_000)).astype(np.int32)
    pointers = np.empty(1001, np.int64)
    native.library().gir_row_pointers64(rows, rows.size, 1000, pointers)
    assert np.array_equal(pointers, native.row_pointers(rows, 1000))


def test_column_ranges_of_64_bit_offsets() -> None:
    graph = _directed_graph(400, 5000, 10, True)
    ptr, idx, weights = graph.transpose().csr()
    narrow = native.column_range(ptr, idx, weights, 100, 250, int(((graph.src >= 100) & (graph.src < 250)).sum()))
    wide = native.column_range(ptr.astype(np.int64), idx, weights, 100, 250, narrow[1].size)
    assert all(np.array_equal(a, b) for a, b in zip(narrow, wide, strict=True))
    assert narrow[1].min() >= 100 and narrow[1].max() < 250


# --------------------------------------------------------------------------------------
# Partitioning
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("parts", [1, 2, 3, 4])
@pytest.mark.parametrize("kind", ["symmetric", "directed"])
def test_a_parts_csc_is_its_transpose(parts: int, kind: str) -> None:
    graph = load_graph("rmat:10,w", cache=False) if kind == "symmetric" else _directed_graph(700, 6000, 1, True)
    for part in partition(graph, parts):
        expected = part.local.transpose().csr()
        got = part.csc()
        assert got[0].dtype == expected[0].dtype
        for got_array, expected_array in zip(got, expected, strict=True):
            assert np.array_equal(got_array, expected_array)
        assert part.csc() is got  # made once


def test_parts_do_not_keep_their_graph_alive() -> None:
    import gc
    import weakref

    graph = _directed_graph(300, 2000, 8, False)
    parts = partition(graph, 2)
    gone = weakref.ref(graph)
    del graph
    gc.collect()
    assert gone() is None  # no cycle through the parts it keeps
    for part in parts:  # the CSC is then the part's own transpose
        assert all(np.array_equal(a, b) for a, b in zip(part.csc()[:2], part.local.transpose().csr()[:2], strict=True))


def test_a_graph_is_split_once() -> None:
    graph = load_graph("rmat:9", cache=False)
    assert partition(graph, 3) is partition(graph, 3)
    assert partition(graph, 2) is not partition(graph, 3)


# --------------------------------------------------------------------------------------
# The C++ BFS reference
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("pick", [0, 7, 300])
@pytest.mark.parametrize("kind", ["rmat", "directed"])
def test_native_bfs_levels_match_numpy(pick: int, kind: str) -> None:
    graph = load_graph("rmat:11", cache=False) if kind == "rmat" else _directed_graph(1000, 2500, 2, False)
    source = int(np.flatnonzero(graph.out_degrees() > 0)[pick])
    row_ptr, col_idx, _ = graph.csr()
    expected = reference._bfs(graph, source)[0]
    assert np.array_equal(native.bfs_levels(row_ptr, col_idx, source), expected)
    assert np.array_equal(native.bfs_levels(row_ptr.astype(np.int64), col_idx, source), expected)
    assert (expected == -1).any() and (expected > 1).any()  # unreached vertices, several levels


def test_native_edge_lookups_match_numpy() -> None:
    graph = _directed_graph(500, 4000, 4, False)
    rng = np.random.default_rng(6)
    src, dst = rng.integers(0, 500, 3000), rng.integers(0, 500, 3000)
    src[:1000], dst[:1000] = graph.src[:1000], graph.dst[:1000]  # some that exist
    row_ptr, col_idx, _ = graph.csr()
    found = native.has_edges(row_ptr, col_idx, src, dst)
    assert found[:1000].all()
    assert np.array_equal(found, reference._has_edges(graph, src, dst))


def test_bfs_check_reads_the_same_from_the_native_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    graph = _directed_graph(2000, 5000, 7, False)
    source = graph.largest_degree_vertex()
    levels = reference._bfs(graph, source)[0]
    parent = np.full(graph.num_vertices, -1, np.int64)
    parent[source] = source
    row_ptr, col_idx, _ = graph.csr()
    for u in np.argsort(levels):
        if levels[u] >= 0:
            for v in col_idx[row_ptr[u] : row_ptr[u + 1]]:
                if levels[v] == levels[u] + 1 and parent[v] == -1:
                    parent[v] = u
    reached = np.flatnonzero(levels > 0)
    no_edge = parent.copy()
    no_edge[reached[:3]] = reached[-1]  # parents without the edge
    unreachable = parent.copy()
    unreachable[np.flatnonzero(levels < 0)[:2]] = source
    cases = [parent, no_edge, unreachable]
    expected = [reference.check_bfs_parent(graph, source, case) for case in cases]
    assert expected[0] is None and all(expected[1:])
    monkeypatch.setattr(reference, "NATIVE_MIN_EDGES", 0)
    native_graph = Graph(graph.num_vertices, graph.src, graph.dst)  # no cached levels
    assert [reference.check_bfs_parent(native_graph, source, case) for case in cases] == expected


@pytest.mark.parametrize("spec", ["rmat:10", "uniform:2000:9000", "road:30:20"])
def test_pagerank_pulls_in_cpp_from_a_billion_edges_as_numpy_pushes(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The C++ pull over the CSC (rows summed on every core) gives numpy's
    push-by-bincount ranks; on a directed graph too (the CSC is a transpose)."""
    graph = load_graph(spec, cache=False)
    directed = Graph(graph.num_vertices, graph.src[::2].copy(), graph.dst[::2].copy())
    for g in (graph, directed):
        expected = reference.pagerank(g, 20)
        monkeypatch.setattr(reference, "NATIVE_MIN_EDGES", 0)
        np.testing.assert_allclose(reference.pagerank(Graph(g.num_vertices, g.src, g.dst), 20), expected, rtol=1e-12)
        monkeypatch.undo()


# --------------------------------------------------------------------------------------
# The device memory a program needs
# --------------------------------------------------------------------------------------


def _hybrid_footprint(edge_index_width: int) -> DeviceFootprint:
    import gir
    from gir.api import lower_for_run

    source = gir.compile(str(PROGRAMS / "bfs_hybrid.gt"))
    module = source._main() if edge_index_width == 32 else None
    if module is None:
        from gir.tools.run import parse_program

        module = lower_for_run(parse_program(str(PROGRAMS / "bfs_hybrid.gt"), False), edge_index_width=64)
    footprint = DeviceFootprint.of(module)
    assert footprint is not None
    return footprint


def test_footprint_of_direction_optimizing_bfs() -> None:
    vertices, edges = 1 << 20, 1 << 24
    graph_bytes, buffer_bytes = _hybrid_footprint(32).bytes(vertices, edges)
    # CSR and CSC: 32-bit offsets and ids
    assert graph_bytes == 2 * 4 * (vertices + 1) + 2 * 4 * edges
    # two queues of max(V, E) slots (the wave and the next), pred, the bitmaps, sizes
    queues = 2 * 4 * edges
    assert queues + 4 * vertices <= buffer_bytes <= queues + 4 * vertices + 3 * 4 * (vertices // 32 + 1) + 64


def test_footprint_of_a_graph_larger_than_one_gpu() -> None:
    vertices, edges = 1 << 28, 8_400_000_000
    graph_bytes, buffer_bytes = _hybrid_footprint(64).bytes(vertices, edges)
    assert graph_bytes == 2 * 8 * (vertices + 1) + 2 * 4 * edges
    # the queues' capacity is clamped to 2^31 - 1 slots
    assert 2 * 4 * (2**31 - 1) <= buffer_bytes < 2 * 4 * (2**31 - 1) + 2 * 4 * vertices
    assert graph_bytes + buffer_bytes > 80 * 10**9  # more than an 80 GB GPU holds


def test_a_one_device_run_too_large_is_refused_before_any_upload(monkeypatch: pytest.MonkeyPatch) -> None:
    import gir
    from gir.runtime.device import OpenCLDevice

    def no_upload(self: object, array: np.ndarray) -> None:
        raise AssertionError("uploaded before the check")

    try:
        program = gir.compile(str(PROGRAMS / "bfs_hybrid.gt"))
        graph = load_graph("rmat:10")
        program.run(graph, 0, 0.05, target="opencl")  # fits: runs
    except UserError as error:
        pytest.skip(str(error))
    monkeypatch.setattr(OpenCLDevice, "memory_bytes", lambda self: 200_000)
    monkeypatch.setattr(OpenCLDevice, "upload", no_upload)
    with pytest.raises(UserError, match=r"needs about \d+ KB of device memory .* run it partitioned over 2 devices or more \(gir-run --devices 2"):
        program.run(graph, 0, 0.05, target="opencl")
