"""Tests of the synthetic graph generators: rmat, road and uniform specs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gir.runtime.graph import generators
from gir.runtime.graph import Graph, GraphError, load_graph


def edge_keys(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """One int64 per edge, ordered like (src, dst)."""
    return (src.astype(np.int64) << 32) | dst


def assert_simple_symmetric(graph: Graph) -> None:
    """No self loops, no duplicates, every edge's reverse present with the same weight."""
    assert not (graph.src == graph.dst).any()
    forward = edge_keys(graph.src, graph.dst)
    assert (np.diff(forward) > 0).all()
    reverse = edge_keys(graph.dst, graph.src)
    order = np.argsort(reverse)
    assert np.array_equal(reverse[order], forward)
    if graph.weights is not None:
        assert np.array_equal(graph.weights[order], graph.weights)


SPECS = ["rmat:10", "rmat:9:4,w", "rmat:10,a=0.45,seed=3", "road:30:20,w", "uniform:300:2000,w,seed=5"]


@pytest.mark.parametrize("spec", SPECS)
def test_generated_graphs_are_simple_and_symmetric(spec: str) -> None:
    graph = load_graph(spec)
    assert graph.num_edges > 0
    assert_simple_symmetric(graph)
    assert graph.csc()[1] is graph.csr()[1]


@pytest.mark.parametrize("spec", SPECS)
def test_generators_are_deterministic_per_seed(spec: str) -> None:
    first, again = load_graph(spec), load_graph(spec)
    other = load_graph(spec.split(",seed=")[0] + ",seed=11")
    assert np.array_equal(first.src, again.src) and np.array_equal(first.dst, again.dst)
    assert first.weights is None or np.array_equal(first.weights, again.weights)
    same_edges = first.num_edges == other.num_edges and np.array_equal(first.dst, other.dst)
    same_weights = first.weights is None or np.array_equal(first.weights, other.weights)
    assert not (same_edges and same_weights)


def test_rmat_degree_distribution_is_skewed() -> None:
    graph = load_graph("rmat:12")
    assert graph.num_vertices == 4096
    assert graph.num_edges <= 2 * 16 * 4096
    degrees = graph.out_degrees()
    assert degrees.max() > 20 * degrees.mean()
    assert (degrees == 0).mean() > 0.1
    assert graph.largest_degree_vertex() == int(np.argmax(degrees))


def test_rmat_edge_factor() -> None:
    sparse_graph, dense_graph = load_graph("rmat:10:2"), load_graph("rmat:10:32")
    assert sparse_graph.num_edges <= 2 * 2 * 1024 < dense_graph.num_edges


def test_road_is_a_grid_with_ninety_percent_of_edges() -> None:
    width, height = 120, 80
    graph = load_graph(f"road:{width}:{height}")
    assert graph.num_vertices == width * height
    gap = np.abs(graph.src - graph.dst)
    same_row = graph.src // width == graph.dst // width
    assert ((gap == 1) & same_row | (gap == width)).all()
    grid_edges = (width - 1) * height + width * (height - 1)
    assert abs(graph.num_edges / 2 / grid_edges - 0.9) < 0.01


def test_uniform_vertex_and_edge_counts() -> None:
    graph = load_graph("uniform:500:3000")
    assert graph.num_vertices == 500
    assert 2 * 2900 < graph.num_edges <= 2 * 3000


@pytest.mark.parametrize(
    ("spec", "max_weight"),
    [("rmat:12,w", 1000), ("road:100:100,w", 10000), ("uniform:900:9000,w", 1000)],
)
def test_weights_cover_their_range(spec: str, max_weight: int) -> None:
    weights = load_graph(spec).weights
    assert weights is not None and weights.dtype == np.int32
    assert weights.min() >= 1 and weights.max() <= max_weight
    assert weights.min() < 0.01 * max_weight and weights.max() > 0.99 * max_weight


def test_weighted_argument_overrides_the_spec() -> None:
    assert load_graph("road:10:10", weighted=True).weights is not None
    assert load_graph("road:10:10,w", weighted=False).weights is None
    plain, weighted = load_graph("rmat:8"), load_graph("rmat:8,w")
    assert np.array_equal(plain.src, weighted.src) and np.array_equal(plain.dst, weighted.dst)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("rmat:x", r"expected 'rmat:SCALE\[:EDGEFACTOR\]\[,w\]\[,seed=N\]\[,a=P\]' \('x' is not"),
        ("rmat:10,a=0.95", r"a='0.95' must be a decimal in \[0.25, 0.9\]"),
        ("rmat:10,a=1e-1", r"a='1e-1' must be a decimal"),
        ("road:5:5,a=0.5", r"option 'a=' is RMAT's skew; 'road' takes none"),
        ("rmat:0", r"SCALE must be in \[1, 30\]"),
        ("rmat:31", r"SCALE must be in \[1, 30\]"),
        ("rmat:10:0", r"EDGEFACTOR at least 1"),
        ("rmat:10:4:2", r"expected 'rmat:SCALE"),
        ("road:5", r"expected 'road:W:H\[,w\]\[,seed=N\]'"),
        ("road:0:5", r"W and H must be at least 1"),
        ("uniform:10", r"expected 'uniform:N:M"),
        ("uniform:10:-1", r"'-1' is not a non-negative integer"),
        ("rmat:10,seed=a", r"'a' is not a non-negative integer"),
        ("rmat:10,weighted", r"unknown option 'weighted'"),
        ("grid:3:3", r"unknown graph generator 'grid'"),
    ],
)
def test_bad_generator_specs(spec: str, expected: str) -> None:
    with pytest.raises(GraphError, match=expected):
        load_graph(spec)


def test_large_generated_graphs_are_cached(
    monkeypatch: pytest.MonkeyPatch, cache_dir: Path
) -> None:
    monkeypatch.setattr(generators, "_GENERATOR_CACHE_MIN_VERTICES", 1000)
    messages: list[str] = []
    first = load_graph("rmat:10,w,seed=2", progress=messages.append)
    second = load_graph("rmat:10,w,seed=2", progress=messages.append)
    assert messages[0] == "generating rmat:10:16,w,seed=2..."
    assert messages[1].startswith("generated rmat:10:16,w,seed=2: 1,024 vertices, ")
    assert messages[2].startswith("reading cached graph")
    assert len(list(cache_dir.iterdir())) == 1
    assert np.array_equal(first.dst, second.dst) and np.array_equal(first.weights, second.weights)
    assert second.transpose() is second
    load_graph("rmat:9", progress=messages.append)
    assert len(list(cache_dir.iterdir())) == 1  # below the threshold: not cached


def test_rmat_skew_option() -> None:
    """`a=` moves edges into the top-left quadrant: a larger `a` concentrates the
    degrees (more duplicate draws, fewer distinct edges); the default spec is
    unchanged, so are its cached graphs."""
    flat, default, skewed = (load_graph(f"rmat:12{option}") for option in (",a=0.4", "", ",a=0.7"))
    assert flat.num_edges > default.num_edges > skewed.num_edges
    explicit = load_graph("rmat:12,a=0.57")
    assert np.array_equal(explicit.dst, default.dst)
    assert str(generators.parse_generator_spec("rmat:12,a=0.57", None)) == "rmat:12:16,seed=0"
    assert str(generators.parse_generator_spec("rmat:12,a=0.45", None)) == "rmat:12:16,seed=0,a=0.45"


def _rmat_edges_level_by_level(
    scale: int, edge_factor: int, rng: np.random.Generator, probabilities: tuple[float, float, float, float]
) -> tuple[np.ndarray, np.ndarray]:
    """RMAT as gir drew it before its draws went to every core: each chunk's
    levels in turn, each level one numpy draw and numpy's bit operations."""
    a, b, c, _ = probabilities
    past_a, past_b, past_c = (np.uint16(round(p * 65536)) for p in (a, a + b, a + b + c))
    src = np.zeros(edge_factor << scale, dtype=np.uint32)
    dst = np.zeros(edge_factor << scale, dtype=np.uint32)
    for begin in range(0, src.size, generators._RMAT_CHUNK_EDGES):
        chunk_src = src[begin : begin + generators._RMAT_CHUNK_EDGES]
        chunk_dst = dst[begin : begin + generators._RMAT_CHUNK_EDGES]
        for _ in range(scale):
            draw = rng.integers(0, 1 << 16, size=chunk_src.size, dtype=np.uint16)
            beyond_b = draw >= past_b
            chunk_src <<= 1
            chunk_src |= beyond_b
            chunk_dst <<= 1
            chunk_dst |= (draw >= past_a) ^ beyond_b ^ (draw >= past_c)
    permutation = rng.permutation(1 << scale).astype(np.int32)
    return permutation[src], permutation[dst]


@pytest.mark.parametrize(
    "scale, edge_factor, chunk, a",
    [(17, 16, 1 << 20, 0.57), (16, 5, 1 << 14, 0.45), (15, 3, 6 + (1 << 13), 0.65), (14, 1, 1 << 20, 0.57)],
)  # fmt: skip
def test_rmat_draws_on_every_core_make_the_same_graph(
    scale: int, edge_factor: int, chunk: int, a: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Blocks of draws from advanced copies of the generator, on 4 threads, and
    the bits set in C++, give the edges of drawing level by level, including
    chunks whose draws do not fill whole steps of the generator (which go row by
    row) and the generator's state after them (the permutation drawn last)."""
    monkeypatch.setattr(generators, "_RMAT_CHUNK_EDGES", chunk)
    monkeypatch.setattr(generators.os, "cpu_count", lambda: 4)
    probabilities = (a, (0.95 - a) / 2, (0.95 - a) / 2, 0.05)
    expected = _rmat_edges_level_by_level(scale, edge_factor, np.random.default_rng(11), probabilities)
    drawn = generators._rmat_edges(scale, edge_factor, np.random.default_rng(11), probabilities)
    for got, want in zip(drawn, expected, strict=True):
        np.testing.assert_array_equal(got, want)
