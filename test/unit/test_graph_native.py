"""gir's C++ graph construction (`gir/cpp/graph_build.h`) as both hosts use it.

The Python host calls it through ctypes (`gir.runtime.graph.native`); a complete
CUDA program compiles it in. Here a small driver compiled with the system's C++
compiler (no CUDA) loads files as the CUDA program does, and must print exactly
gir-run's messages, refuse special files at once and allocate no more than a
file holds.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from gir import cpp
from gir.runtime.graph import GraphError, load_graph, native

CXX = shutil.which("c++") or shutil.which("g++")

_DRIVER = r"""
#include <cstdio>
#include "graph_build.h"

int main(int argc, char** argv) {
  try {
    gir_graph::Parsed parsed = gir_graph::load(argv[1]);
    std::printf("%lld", parsed.vertices);
    for (size_t e = 0; e < parsed.src.size(); ++e) {
      std::printf(" %d-%d", parsed.src[e], parsed.dst[e]);
      if (parsed.has_weights) std::printf(":%d", parsed.weights[e]);
    }
    std::printf("\n");
  } catch (const gir_graph::Error& error) {
    std::fprintf(stderr, "%s\n", error.text().c_str());
    return 1;
  }
  return 0;
}
"""

MTX = "%%MatrixMarket matrix coordinate integer general\n"

FILES = {
    "ok.el": "# c\n2 0\n0 1\n0 1\n\n1 2\n",
    "ok.wel": "0 1 7\n1 2 -3\n0 1 9\n",
    "sym.mtx": "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1.5\n3 3 2.5\n",
    "ok.gbin": None,  # written by write_binary_graph below
    "columns.el": "0 1\n1 2 3\n",
    "token.el": "0 1\n1 a\n",
    "negative.el": "0 1\n\n-1 2\n",
    "large.el": "0 1\n0 3000000000\n",
    "weight.wel": "0 1 99999999999\n",
    "banner.mtx": "0 1\n",
    "array.mtx": "%%MatrixMarket matrix array real general\n",
    "dense.mtx": "%%MatrixMarket matrix array integer symmetric\n3 3\n1\n0\n-4\n2\n0\n0\n",
    "skew.mtx": "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1.5\n3 2 -7\n",
    "skew_array.mtx": "%%MatrixMarket matrix array integer skew-symmetric\n3 3\n5\n0\n-1\n",
    "hermitian.mtx": "%%MatrixMarket matrix coordinate complex hermitian\n3 3 2\n2 1 3 0\n3 3 1 0\n",
    "imaginary.mtx": "%%MatrixMarket matrix coordinate complex general\n3 3 1\n2 1 3 1e-9\n",
    "diagonal.mtx": "%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 1\n2 2 3\n",
    "size.mtx": MTX + "% c\n3 3\n",
    "nosize.mtx": MTX + "% only comments\n",
    "truncated.mtx": MTX + "3 3 3\n1 2 1\n2 3 1\n",
    "many.mtx": MTX + "3 3 1\n1 2 1\n2 3 1\n",
    "below.mtx": MTX + "3 3 1\n0 3 1\n",
    "index.mtx": "%%MatrixMarket matrix coordinate real general\n3 3 1\n1.5 2 1\n",
    "nan.mtx": "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 nan\n",
    "huge.mtx": "%%MatrixMarket matrix coordinate pattern general\n9 9 2000000000\n1 2\n",
    "edges.mtx": "%%MatrixMarket matrix coordinate pattern symmetric\n5 5 2000000000\n1 2\n",
    "control.el": "0 1\n1 \x1b]0;title\x07\n",
    "unknown.txt": "0 1\n",
}

_PADDING = ("# " + "x" * 1000 + "\n") * 5000
"""5 MB of comment lines: a file with two of them is parsed in two stretches
by gir-run's loader (in parallel, see `stretch_count` in graph_build.h) but in
one by a CUDA program's, and both must report the same absolute lines."""

LARGE_FILES = {
    "stretches_ok.wel": "0 1 5\n" + _PADDING + "1 2 6\n" + _PADDING + "2 0 7\n",
    # A token error in the last stretch beats a range error in the first.
    "stretches_token.el": "-1 2\n" + _PADDING + _PADDING + "1 x\n",
    # The first failure of the earlier kind (rows, then weights) wins.
    "stretches_checks.mtx": MTX + "3 3 3\n1 2 99999999999\n" + _PADDING + _PADDING + "4 1 1\n1 1 1\n",
    "stretches_first.el": "0 1\n-1 2\n" + _PADDING + "-2 2\n" + _PADDING + "-3 3\n",
}


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The loader of a complete CUDA program, built without CUDA."""
    if CXX is None:
        pytest.skip("no C++ compiler")
    directory = tmp_path_factory.mktemp("driver")
    (directory / "driver.cpp").write_text(_DRIVER)
    binary = directory / "driver"
    subprocess.run(
        [CXX, "-O1", "-std=c++17", f"-I{cpp.SOURCE_DIR}", str(directory / "driver.cpp"), "-o", str(binary)],
        check=True,
    )
    return binary


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    directory = tmp_path_factory.mktemp("files")
    paths = {}
    for name, text in {**FILES, **LARGE_FILES}.items():
        paths[name] = directory / name
        if text is not None:
            paths[name].write_bytes(text.encode())
    from gir.runtime.graph import from_edges, write_binary_graph

    write_binary_graph(from_edges(4, np.array([3, 0, 1]), np.array([0, 1, 2])), paths["ok.gbin"])
    os.mkfifo(directory / "fifo.el")
    (directory / "folder.el").mkdir()
    paths.update(fifo=directory / "fifo.el", folder=directory / "folder.el")
    paths.update(zero=Path("/dev/zero"), urandom=Path("/dev/urandom"), missing=directory / "missing.el")
    return paths


def _limit_memory() -> None:
    """At most 1 GiB of address space: a loader that trusted a declared count would fail."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def _python_result(path: Path) -> tuple[int, str]:
    """What gir-run's loader makes of `path`: (0, the driver's line) or (1, the error)."""
    try:
        graph = load_graph(str(path), cache=False)
    except GraphError as error:
        return 1, str(error)
    edges = [f"{s}-{d}" + ("" if graph.weights is None else f":{w}") for s, d, w in
             zip(graph.src, graph.dst, graph.weights if graph.weights is not None else graph.src)]
    return 0, " ".join([str(graph.num_vertices), *edges])


@pytest.mark.parametrize("name", [*FILES, *LARGE_FILES, "fifo", "folder", "zero", "urandom", "missing"])
def test_the_cuda_programs_loader_reads_and_refuses_as_gir_run(
    name: str, driver: Path, files: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = files[name]
    if name in ("huge.mtx", "edges.mtx"):  # past gir-run's host-memory check, which refuses it first
        from gir.runtime.graph import memory

        monkeypatch.setattr(memory, "_max_memory", 1 << 50)
    status, expected = _python_result(path)
    finished = subprocess.run(
        [str(driver), str(path)], capture_output=True, text=True, timeout=30, preexec_fn=_limit_memory
    )
    output = finished.stdout if status == 0 else finished.stderr
    assert (finished.returncode, output) == (status, expected + "\n")


def test_the_library_is_built_once_per_user_not_per_graph_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = native.library_path()
    monkeypatch.setenv("GIR_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(native, "_build", lambda *arguments: pytest.fail("rebuilt the library"))
    assert native.library_path() == built and tmp_path not in built.parents
    assert not [entry for entry in built.parent.iterdir() if entry.suffix == ".tmp"]


def test_processes_starting_together_build_the_library_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIR_NATIVE_CACHE_DIR", str(tmp_path))
    builds: list[Path] = []

    def build(command: list[str], library: Path) -> None:
        builds.append(library)
        time.sleep(0.2)  # long enough for the others to arrive while it builds
        library.write_bytes(b"")

    monkeypatch.setattr(native, "_build", build)
    with ThreadPoolExecutor(4) as pool:  # each opens the lock file: a lock of its own
        paths = list(pool.map(lambda _: native.library_path(), range(4)))
    assert len(builds) == 1
    assert paths == [builds[0]] * 4


def _sorted_unique_reference(src: np.ndarray, dst: np.ndarray, weights: np.ndarray) -> list[tuple[int, int, int]]:
    """Edges sorted by (src, dst) as unsigned 32-bit ids, the first of a duplicate keeping its weight."""
    first: dict[tuple[int, int], int] = {}
    for s, d, w in zip(src.tolist(), dst.tolist(), weights.tolist()):
        first.setdefault((s, d), w)
    return sorted(((s, d, w) for (s, d), w in first.items()), key=lambda e: (e[0] & 0xFFFFFFFF, e[1] & 0xFFFFFFFF))


@pytest.mark.parametrize(
    "sources",
    [
        "dense",  # few vertices: every id byte but the lowest is the same
        "hubs",  # a few sources with thousands of edges each
        "sparse",  # ids spread over the whole int32 range
        "negative",  # negative ids order as unsigned, as the edge keys do
    ],
)
def test_sort_unique_keeps_the_first_weight_of_each_edge(sources: str) -> None:
    rng = np.random.default_rng(11)
    count = 5000
    if sources == "hubs":
        src = rng.integers(0, 4, count)
    elif sources == "sparse":
        src = rng.integers(0, 2**31 - 1, count) // 1000 * 1000
    else:
        src = rng.integers(0, 300, count)
    dst = rng.integers(-3 if sources == "negative" else 0, 300, count)
    if sources == "negative":
        src[17] = -5
    weights = rng.integers(-100, 100, count)
    got_src, got_dst, got_weights = native.sort_unique(src, dst, weights)
    got = list(zip(got_src.tolist(), got_dst.tolist(), got_weights.tolist()))
    assert got == _sorted_unique_reference(src, dst, weights)
    unweighted = native.sort_unique(src, dst, None)
    assert unweighted[2] is None and unweighted[0].tolist() == got_src.tolist()


def test_symmetric_edges_match_numpy() -> None:
    """The generators' C++ builder: both directions, no self loops or duplicates, sorted."""
    rng = np.random.default_rng(7)
    src = rng.integers(0, 60, 3000, dtype=np.int32)
    dst = rng.integers(0, 60, 3000, dtype=np.int32)
    drawn = [src.copy(), dst.copy()]
    got_src, got_dst = native.symmetric_edges(drawn, 64)
    assert drawn == []  # given up: freed once used
    keep = src != dst
    both = np.stack([np.concatenate([src[keep], dst[keep]]), np.concatenate([dst[keep], src[keep]])], axis=1)
    expected = np.unique(both, axis=0)
    np.testing.assert_array_equal(got_src, expected[:, 0])
    np.testing.assert_array_equal(got_dst, expected[:, 1])


def test_64_bit_offsets_equal_the_32_bit_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above 2^31 - 1 edges row pointers and tiling offsets are int64 (here forced
    on a small graph): the same values."""
    rng = np.random.default_rng(3)
    src, dst, _ = native.sort_unique(rng.integers(0, 40, 500), rng.integers(0, 40, 500), None)
    narrow_rows = native.row_pointers(src, 40)
    narrow_tiling = native.tile(src, dst, None, 40, 8, False)
    assert narrow_rows.dtype == np.int32 and narrow_tiling[0].dtype == np.int32
    monkeypatch.setattr(native, "offset_dtype", lambda num_edges: np.int64)
    wide_rows = native.row_pointers(src, 40)
    wide_tiling = native.tile(src, dst, None, 40, 8, False)
    assert wide_rows.dtype == np.int64 and wide_tiling[0].dtype == np.int64
    np.testing.assert_array_equal(wide_rows, narrow_rows)
    for wide, narrow in zip(wide_tiling[:3], narrow_tiling[:3], strict=True):
        np.testing.assert_array_equal(wide, narrow)


def _spelled_integer(rng: np.random.Generator, value: int) -> str:
    """`value` as any spelling the checked parser reads: sign, leading zeros
    (past the fast path's 18 digits too) or plain."""
    form = int(rng.integers(0, 4))
    if form == 0 and value >= 0:
        return f"+{value}"
    if form == 1:
        return ("-" if value < 0 else "") + "0" * int(rng.integers(1, 25)) + str(abs(value))
    return str(value)


def _spelled_number(rng: np.random.Generator, value: float) -> str:
    """`value` as one of the number spellings a real Matrix Market file may use."""
    form = int(rng.integers(0, 5))
    if form == 0:
        return f"{value:e}"
    if form == 1:
        return f"{value:.3f}".replace("0.", ".", 1) if 0 < value < 1 else f"{value:.3f}"
    if form == 2 and value >= 0:
        return f"+{value!r}"
    if form == 3:
        return f"{value:E}"
    return repr(value)


def _blanks(rng: np.random.Generator) -> str:
    return str(rng.choice([" ", "  ", "\t", " \t", "\x0b", "\x0c"]))


@pytest.mark.parametrize("suffix", [".wel", ".mtx"])
def test_every_spelling_of_a_line_reads_as_its_values(suffix: str, tmp_path: Path) -> None:
    """The parsers' fast path (plain unsigned ids, plain numbers) and their
    checked path (signs, leading zeros, exponents, odd blanks, comments, blank
    lines, CRLF) read the same values: a file mixing them loads as a plain
    reference reading of its lines says."""
    rng = np.random.default_rng(29)
    count, vertices = 4000, 60
    src, dst = rng.integers(0, vertices, count), rng.integers(0, vertices, count)
    raw = rng.choice([0.5, 1.5, 2.5, -2.5, 3.25, 1e2, 7.0, 123.456, -0.4], count) * rng.integers(1, 9, count)
    src[src == vertices - 1], dst[dst == vertices - 1] = 0, 1
    src[-1], dst[-1] = 0, vertices - 1  # the largest id only once, a destination on a plain line
    lines = ["%%MatrixMarket matrix coordinate real general", f"{vertices} {vertices} {count}"] if suffix == ".mtx" else []
    for index, (s, d, w) in enumerate(zip(src.tolist(), dst.tolist(), raw.tolist())):
        plain = index == count - 1 or rng.random() < 0.5
        first = 1 if suffix == ".mtx" else 0
        ids = [str(s + first), str(d + first)] if plain else [_spelled_integer(rng, s + first), _spelled_integer(rng, d + first)]
        if suffix == ".mtx" and not plain and rng.random() < 0.2:
            ids[0] = f"{s + first}.0"  # an integral index written as a number
        value = (repr(w) if plain else _spelled_number(rng, w)) if suffix == ".mtx" else str(round(w))
        gaps = [" ", " "] if plain else [_blanks(rng), _blanks(rng)]
        line = ids[0] + gaps[0] + ids[1] + gaps[1] + value
        if not plain:
            line = rng.choice(["", " ", "\t"]) + line + rng.choice(["", " ", "\r"])
            if rng.random() < 0.1:
                lines.append(str(rng.choice(["", "   ", "% a comment", "# another"])))
        lines.append(line)
    path = tmp_path / f"mixed{suffix}"
    path.write_bytes(("\n".join(lines) + "\n").encode())
    graph = load_graph(str(path), cache=False)
    assert graph.num_vertices == vertices
    weights = np.array([round(float(value)) for value in (raw if suffix == ".mtx" else np.round(raw))])
    expected = _sorted_unique_reference(src, dst, weights)
    assert list(zip(graph.src.tolist(), graph.dst.tolist(), graph.weights.tolist())) == expected
