"""Synthetic graphs: `rmat:SCALE[:EDGEFACTOR]`, `road:W:H` and `uniform:N:M` specs.

A spec may end in `,w` (integer weights hashed from the seed and the undirected
edge) and `,seed=N`; an RMAT spec also in `,a=P`, the probability of the
top-left quadrant (Graph500's 0.57), which sets the degree skew: b = c =
(0.95 - P) / 2 and d = 0.05, so 0.45 is flatter and 0.65 more skewed. Generated graphs are symmetric, without self loops or
duplicates; those with at least 2^20 vertices go through the graph cache.
"""

from __future__ import annotations

import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from gir.runtime.graph import native
from gir.runtime.graph.cache import CacheEntry, remember_entry
from gir.runtime.graph.errors import MAX_VERTICES, GraphError
from gir.runtime.graph.graph import Graph, ProgressCallback, mark_symmetric
from gir.runtime.graph.memory import check_edge_count, check_host_memory, generated_graph_bytes

GENERATOR_PREFIX = re.compile(r"^[A-Za-z_]\w*:")
"""What a generator spec starts with (a file of that name is read as a file)."""
_GENERATOR_VERSION = 2  # 2: uniform graphs drawn in C++ (a hash of seed and edge)
_GENERATOR_CACHE_MIN_VERTICES = 1 << 20  # "rmat:20" and up

_GENERATOR_FORMS = {
    "rmat": "rmat:SCALE[:EDGEFACTOR]",
    "road": "road:W:H",
    "uniform": "uniform:N:M",
}
_OPTIONS_FORM = "[,w][,seed=N]"
_RMAT_OPTIONS_FORM = "[,a=P]"
_RMAT_PROBABILITIES = (0.57, 0.19, 0.19, 0.05)  # Graph500 a, b, c, d
_RMAT_D = _RMAT_PROBABILITIES[3]
_RMAT_A_RANGE = (0.25, 0.9)
"""The `a=` values taken: from a uniform quadrant split to nearly all edges in one."""
_RMAT_DEFAULT_EDGE_FACTOR = 16
_RMAT_MAX_SCALE = 30
_RMAT_CHUNK_EDGES = 1 << 20
_ROAD_DELETE_PROBABILITY = 0.10
_MAX_WEIGHTS = {"rmat": 1000, "road": 10000, "uniform": 1000}


@dataclass(frozen=True)
class GeneratorSpec:
    """A parsed generator spec such as `rmat:16:8,w,seed=3`."""

    name: str
    sizes: tuple[int, ...]
    weighted: bool
    seed: int
    rmat_a: float = _RMAT_PROBABILITIES[0]

    def __str__(self) -> str:
        weights = ",w" if self.weighted else ""
        skew = f",a={self.rmat_a:g}" if self.rmat_a != _RMAT_PROBABILITIES[0] else ""
        return f"{self.name}:{':'.join(map(str, self.sizes))}{weights},seed={self.seed}{skew}"

    @property
    def rmat_probabilities(self) -> tuple[float, float, float, float]:
        """RMAT's quadrant probabilities a, b, c, d for this spec's `a`."""
        a = self.rmat_a
        side = (1.0 - _RMAT_D - a) / 2
        return a, side, side, _RMAT_D

    @property
    def num_vertices(self) -> int:
        """How many vertices the generated graph has."""
        if self.name == "rmat":
            return 1 << self.sizes[0]
        if self.name == "road":
            return self.sizes[0] * self.sizes[1]
        return self.sizes[0]

    @property
    def drawn_edges(self) -> int:
        """How many edges the generator draws before symmetrizing."""
        if self.name == "rmat":
            return self.sizes[1] << self.sizes[0]
        if self.name == "road":
            width, height = self.sizes
            return (width - 1) * height + width * (height - 1)
        return self.sizes[1]

    @property
    def max_edges(self) -> int:
        """An upper bound of the generated graph's directed edges (both directions)."""
        return 2 * self.drawn_edges


def parse_generator_spec(spec: str, weighted: bool | None) -> GeneratorSpec:
    """Parse `NAME:SIZES[,w][,seed=N]`; `weighted` (when not None) overrides `,w`."""
    head, *options = spec.split(",")
    name, *size_texts = head.split(":")
    form = _GENERATOR_FORMS.get(name)
    if form is None:
        known = ", ".join(f"'{known_form}'" for known_form in _GENERATOR_FORMS.values())
        raise GraphError(
            f"unknown graph generator '{name}' in '{spec}' (expected {known}, or a graph file)"
        )
    options_form = _OPTIONS_FORM + (_RMAT_OPTIONS_FORM if name == "rmat" else "")
    expected = f"bad graph generator spec '{spec}': expected '{form}{options_form}'"
    sizes = tuple(_spec_integer(text, expected) for text in size_texts)
    wants_weights, seed, rmat_a = _parse_generator_options(options, expected)
    _check_generator_sizes(name, sizes, expected)
    if rmat_a is not None and name != "rmat":
        raise GraphError(f"{expected} (option 'a=' is RMAT's skew; '{name}' takes none)")
    if name == "rmat" and len(sizes) == 1:
        sizes += (_RMAT_DEFAULT_EDGE_FACTOR,)
    parsed = GeneratorSpec(
        name,
        sizes,
        wants_weights if weighted is None else weighted,
        seed,
        _RMAT_PROBABILITIES[0] if rmat_a is None else rmat_a,
    )
    # Symmetrizing doubles the drawn edges and drops duplicates: whether the result
    # fits is known only once it is built (`_generate` checks it then), so the
    # spec is refused at once only when one direction alone is too many. Above
    # 2^31 - 1 edges a graph has 64-bit offsets (`memory.edge_index_width`).
    check_edge_count(parsed.drawn_edges, f"'{spec}'")
    return parsed


def _parse_generator_options(
    options: list[str], expected: str
) -> tuple[bool, int, float | None]:
    """The (weighted, seed, RMAT's a or None) given by the comma-separated options of
    a generator spec."""
    weighted, seed, rmat_a = False, 0, None
    for option in options:
        if option == "w":
            weighted = True
        elif option.startswith("seed="):
            seed = _spec_integer(option.removeprefix("seed="), expected)
        elif option.startswith("a="):
            rmat_a = _spec_probability(option.removeprefix("a="), expected)
        else:
            raise GraphError(f"{expected} (unknown option '{option}')")
    return weighted, seed, rmat_a


def _spec_probability(text: str, expected: str) -> float:
    """RMAT's `a=` of a generator spec: a decimal in `_RMAT_A_RANGE`."""
    low, high = _RMAT_A_RANGE
    if re.fullmatch(r"0?\.[0-9]+", text) is None or not low <= float(text) <= high:
        raise GraphError(f"{expected} (a='{text}' must be a decimal in [{low}, {high}])")
    return float(text)


def _spec_integer(text: str, expected: str) -> int:
    """A non-negative decimal integer of a generator spec."""
    if not text.isdigit() or not text.isascii():
        raise GraphError(f"{expected} ('{text}' is not a non-negative integer)")
    return int(text)


def _check_generator_sizes(name: str, sizes: tuple[int, ...], expected: str) -> None:
    """Raise GraphError unless `sizes` suit generator `name`."""
    if name == "rmat":
        valid = len(sizes) in (1, 2) and 1 <= sizes[0] <= _RMAT_MAX_SCALE and sizes[-1:] != (0,)
        reason = f"SCALE must be in [1, {_RMAT_MAX_SCALE}] and EDGEFACTOR at least 1"
    elif name == "road":
        valid = len(sizes) == 2 and min(sizes) >= 1 and sizes[0] * sizes[1] <= MAX_VERTICES
        reason = f"W and H must be at least 1 and W*H at most {MAX_VERTICES}"
    else:
        valid = len(sizes) == 2 and 1 <= sizes[0] <= MAX_VERTICES
        reason = f"N must be in [1, {MAX_VERTICES}]"
    if not valid:
        raise GraphError(f"{expected} ({reason})")


def load_generated(spec: GeneratorSpec, cache: bool, report: ProgressCallback) -> Graph:
    """Generate the graph of `spec`, through the cache for large graphs."""
    cache_entry = (
        CacheEntry.for_generator(str(spec), _GENERATOR_VERSION)
        if cache and spec.num_vertices >= _GENERATOR_CACHE_MIN_VERTICES
        else None
    )
    graph = cache_entry.read(report) if cache_entry else None
    if graph is None:
        check_host_memory(
            generated_graph_bytes(spec.num_vertices, spec.max_edges, drawn_in_place=spec.name == "uniform"),
            f"generating '{spec}'",
        )
        report(f"generating {spec}...")
        started = time.perf_counter()
        graph = _generate(spec)
        report(
            f"generated {spec}: {graph.num_vertices:,} vertices, {graph.num_edges:,} edges "
            f"in {time.perf_counter() - started:.2f} s"
        )
        if cache_entry:
            cache_entry.write(graph, report)
    return remember_entry(mark_symmetric(graph), cache_entry)


def _generate(spec: GeneratorSpec) -> Graph:
    """Build the symmetric graph described by a generator spec."""
    rng = np.random.default_rng(spec.seed)
    if spec.name == "uniform":
        src, dst = native.uniform_symmetric_edges(spec.seed, spec.sizes[1], spec.num_vertices)
    else:
        if spec.name == "rmat":
            drawn = list(_rmat_edges(spec.sizes[0], spec.sizes[1], rng, spec.rmat_probabilities))
        else:
            drawn = list(_road_edges(spec.sizes[0], spec.sizes[1], rng))
        src, dst = native.symmetric_edges(drawn, spec.num_vertices)
    check_edge_count(src.size, f"'{spec}' (symmetrized)")
    weights = (
        _hashed_weights(src, dst, spec.seed, _MAX_WEIGHTS[spec.name]) if spec.weighted else None
    )
    return Graph(spec.num_vertices, src, dst, weights)


def _rmat_edges(
    scale: int,
    edge_factor: int,
    rng: np.random.Generator,
    probabilities: tuple[float, float, float, float] = _RMAT_PROBABILITIES,
) -> tuple[np.ndarray, np.ndarray]:
    """Graph500 RMAT edges: edge_factor * 2^scale directed edges, vertex ids randomly permuted.

    At each of the `scale` levels an edge falls in quadrant a, b, c or d of the adjacency
    matrix (one 16-bit random number per level and edge), which sets one bit of its
    src (quadrants c, d) and of its dst (quadrants b, d). The edges go in chunks of
    `_RMAT_CHUNK_EDGES`, a chunk's draws level after level; the draws are made on
    every core (`_uint16_draws`) and the bits set in C++ (`native.rmat_ends`), the
    same graph as drawing and setting them level by level with numpy.
    """
    a, b, c, _ = probabilities
    past = tuple(int(np.uint16(round(p * 65536))) for p in (a, a + b, a + b + c))
    num_edges = edge_factor << scale
    src = np.empty(num_edges, dtype=np.uint32)
    dst = np.empty(num_edges, dtype=np.uint32)
    workers = os.cpu_count() or 1
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for begin in range(0, num_edges, _RMAT_CHUNK_EDGES):
            count = min(_RMAT_CHUNK_EDGES, num_edges - begin)
            draws = _uint16_draws(rng, scale, count, pool, workers)
            native.rmat_ends(draws, scale, past, src[begin : begin + count], dst[begin : begin + count])  # type: ignore[arg-type]
    permutation = rng.permutation(1 << scale).astype(np.int32)
    return native.permute_ids(permutation, src), native.permute_ids(permutation, dst)


_DRAWS_PER_STEP = 4
"""16-bit draws a step of PCG64 (one 64-bit output) gives `Generator.integers`."""


def _uint16_draws(
    rng: np.random.Generator, levels: int, count: int, pool: ThreadPoolExecutor, workers: int
) -> np.ndarray:
    """`levels` rows of `rng.integers(0, 2^16, size=count, dtype=uint16)`, drawn
    one row after another (`rng` advanced past them all): in blocks on the
    pool's `workers` threads, each from a copy of the generator advanced to its block,
    where the stream allows (PCG64, even rows, whole steps: the same numbers);
    else row by row."""
    total = levels * count
    generator = rng.bit_generator
    aligned = isinstance(generator, np.random.PCG64) and not generator.state["has_uint32"]
    if not aligned or count % 2 or total % _DRAWS_PER_STEP or workers == 1 or total < 1 << 16:
        return np.stack([rng.integers(0, 1 << 16, size=count, dtype=np.uint16) for _ in range(levels)])
    out = np.empty(total, np.uint16)
    state = generator.state
    step = -(-total // workers // _DRAWS_PER_STEP) * _DRAWS_PER_STEP

    def draw(first: int) -> None:
        block = np.random.PCG64()
        block.state = state
        block.advance(first // _DRAWS_PER_STEP)
        last = min(first + step, total)
        out[first:last] = np.random.Generator(block).integers(0, 1 << 16, size=last - first, dtype=np.uint16)

    list(pool.map(draw, range(0, total, step)))
    generator.advance(total // _DRAWS_PER_STEP)
    return out.reshape(levels, count)


def _road_edges(width: int, height: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The 4-neighbour edges of a width x height grid (row-major ids), each kept with p = 0.9."""
    ids = np.arange(width * height, dtype=np.int32).reshape(height, width)
    src = np.concatenate([ids[:, :-1].ravel(), ids[:-1, :].ravel()])
    dst = np.concatenate([ids[:, 1:].ravel(), ids[1:, :].ravel()])
    kept = rng.random(src.size) >= _ROAD_DELETE_PROBABILITY
    return src[kept], dst[kept]


def _hashed_weights(src: np.ndarray, dst: np.ndarray, seed: int, max_weight: int) -> np.ndarray:
    """Weights in [1, max_weight] from a hash of (seed, undirected edge): u->v and v->u
    agree. Hashed `_RMAT_CHUNK_EDGES` edges at a time, so that the uint64
    temporaries stay small beside a large graph's edges."""
    weights = np.empty(src.size, np.int32)
    for begin in range(0, src.size, _RMAT_CHUNK_EDGES):
        end = begin + _RMAT_CHUNK_EDGES
        weights[begin:end] = _hashed_weight_chunk(src[begin:end], dst[begin:end], seed, max_weight)
    return weights


def _hashed_weight_chunk(src: np.ndarray, dst: np.ndarray, seed: int, max_weight: int) -> np.ndarray:
    """`_hashed_weights` of some edges."""
    undirected_keys = np.minimum(src, dst).astype(np.uint64) << np.uint64(32)
    undirected_keys |= np.maximum(src, dst).astype(np.uint64)
    undirected_keys ^= np.uint64(_splitmix64(seed))
    hashed = _splitmix64_array(undirected_keys)
    hashed >>= np.uint64(32)  # 32 random bits, scaled to [0, max_weight) by a multiply-shift
    hashed *= np.uint64(max_weight)
    hashed >>= np.uint64(32)
    return (hashed + np.uint64(1)).astype(np.int32)


def _splitmix64(value: int) -> int:
    """The splitmix64 finalizer of one Python int (used to spread the seed)."""
    return int(_splitmix64_array(np.array([value % (1 << 64)], dtype=np.uint64))[0])


def _splitmix64_array(values: np.ndarray) -> np.ndarray:
    """The splitmix64 finalizer applied to every uint64 (a well-mixing integer hash)."""
    hashed = values + np.uint64(0x9E3779B97F4A7C15)
    hashed ^= hashed >> np.uint64(30)
    hashed *= np.uint64(0xBF58476D1CE4E5B9)
    hashed ^= hashed >> np.uint64(27)
    hashed *= np.uint64(0x94D049BB133111EB)
    hashed ^= hashed >> np.uint64(31)
    return hashed
