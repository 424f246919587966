"""Tests of the Graph class, the .el/.wel/.mtx/.gbin loaders, the cache and scipy/networkx conversion."""

from __future__ import annotations

import os
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.io
import scipy.sparse as sparse

from gir.runtime.graph import io as graph_io
from gir.runtime.graph import (
    FractionalWeights,
    Graph,
    GraphError,
    from_edges,
    from_networkx,
    from_scipy,
    load_graph,
    set_max_memory,
    write_binary_graph,
)


def write(directory: Path, name: str, text: str) -> Path:
    """Write a text file and return its path."""
    path = directory / name
    path.write_bytes(text.encode())
    return path


def edges_of(graph: Graph) -> list[tuple[int, ...]]:
    """The edges of a graph as (src, dst) or (src, dst, weight) tuples."""
    columns = [graph.src, graph.dst] + ([graph.weights] if graph.weights is not None else [])
    return [tuple(int(value) for value in edge) for edge in zip(*columns)]


# --------------------------------------------------------------------------------------
# Edge lists
# --------------------------------------------------------------------------------------


def test_edge_list_with_comments_blanks_duplicates_and_self_loops(tmp_path: Path) -> None:
    path = write(
        tmp_path, "g.el", "# header\n% other comment\n2 0\n\n0 1\r\n  1 2  \n0 1\n3 3\n1 0"
    )
    graph = load_graph(str(path))
    assert graph.num_vertices == 4
    assert edges_of(graph) == [(0, 1), (1, 0), (1, 2), (2, 0), (3, 3)]
    assert graph.weights is None
    assert graph.src.dtype == np.int32 and graph.dst.dtype == np.int32


def test_weighted_edge_list_keeps_first_weight_of_duplicates(tmp_path: Path) -> None:
    path = write(tmp_path, "g.wel", "0 1 7\n1 2 -3\n0 1 9\n2 0 2147483647\n")
    graph = load_graph(str(path))
    assert edges_of(graph) == [(0, 1, 7), (1, 2, -3), (2, 0, 2147483647)]
    assert graph.weights is not None and graph.weights.dtype == np.int32


def test_random_edge_list_matches_from_edges(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    src, dst, weights = (
        rng.integers(0, 500, 3000),
        rng.integers(0, 500, 3000),
        rng.integers(1, 100, 3000),
    )
    lines = "".join(f"{s} {d} {w}\n" for s, d, w in zip(src, dst, weights))
    loaded = load_graph(str(write(tmp_path, "r.wel", lines)))
    expected = from_edges(int(max(src.max(), dst.max())) + 1, src, dst, weights)
    assert edges_of(loaded) == edges_of(expected)


def test_errors_deep_in_a_file_report_absolute_line_numbers(tmp_path: Path) -> None:
    lines = ["# comment"] + [f"{i} {i + 1}" for i in range(200)]
    graph = load_graph(str(write(tmp_path, "long.el", "\n".join(lines) + "\n")), cache=False)
    assert edges_of(graph) == [(i, i + 1) for i in range(200)]
    lines[150] = "150 oops"
    with pytest.raises(GraphError, match=r"long\.el:151: error: 'oops' is not an integer"):
        load_graph(str(write(tmp_path, "long.el", "\n".join(lines) + "\n")), cache=False)


def test_empty_edge_list(tmp_path: Path) -> None:
    graph = load_graph(str(write(tmp_path, "empty.el", "# nothing\n")))
    assert graph.num_vertices == 0 and graph.num_edges == 0


# --------------------------------------------------------------------------------------
# Matrix Market
# --------------------------------------------------------------------------------------

MTX_ENTRIES = "1 2 4\n3 1 2.6\n2 2 1\n"


@pytest.mark.parametrize(
    ("field", "symmetry", "expected"),
    [
        ("pattern", "general", [(0, 1), (1, 1), (2, 0)]),
        ("integer", "general", [(0, 1, 4), (1, 1, 1), (2, 0, 3)]),
        ("real", "general", [(0, 1, 4), (1, 1, 1), (2, 0, 3)]),
        ("pattern", "symmetric", [(0, 1), (0, 2), (1, 0), (1, 1), (2, 0)]),
        ("real", "symmetric", [(0, 1, 4), (0, 2, 3), (1, 0, 4), (1, 1, 1), (2, 0, 3)]),
    ],
)
def test_matrix_market_fields_and_symmetry(
    tmp_path: Path, field: str, symmetry: str, expected: list[tuple[int, ...]]
) -> None:
    entries = MTX_ENTRIES.replace(" 2.6", " 3") if field == "integer" else MTX_ENTRIES
    if field == "pattern":
        entries = "".join(" ".join(line.split()[:2]) + "\n" for line in entries.splitlines())
    text = f"%%MatrixMarket matrix coordinate {field} {symmetry}\n% a comment\n\n4 3 3\n{entries}"
    graph = load_graph(str(write(tmp_path, "m.mtx", text)))
    assert graph.num_vertices == 4
    assert edges_of(graph) == expected


MATRIX_FORMS = [
    # (banner fields, size line and body, the edges: the matrix's entries)
    (
        "array integer general",
        "2 3\n1\n0\n0\n-2\n5\n0\n",
        [(0, 0, 1), (0, 2, 5), (1, 1, -2)],
    ),
    (
        "array real symmetric",
        "3 3\n1.4\n0\n2\n0\n0.2\n7\n",
        [(0, 0, 1), (0, 2, 2), (1, 2, 0), (2, 0, 2), (2, 1, 0), (2, 2, 7)],
    ),
    (
        "array integer skew-symmetric",
        "3 3\n4\n0\n-6\n",
        [(0, 1, -4), (1, 0, 4), (1, 2, 6), (2, 1, -6)],
    ),
    (
        "array complex hermitian",
        "2 2\n1 0\n3 0\n0 0\n",
        [(0, 0, 1), (0, 1, 3), (1, 0, 3)],
    ),
    (
        "coordinate integer skew-symmetric",
        "3 3 2\n2 1 4\n3 2 -1\n",
        [(0, 1, -4), (1, 0, 4), (1, 2, 1), (2, 1, -1)],
    ),
    (
        "coordinate real hermitian",
        "3 3 2\n2 1 4.2\n3 3 1\n",
        [(0, 1, 4), (1, 0, 4), (2, 2, 1)],
    ),
    (
        "coordinate complex hermitian",
        "3 3 2\n2 1 4 0\n3 3 1.0 -0.0\n",
        [(0, 1, 4), (1, 0, 4), (2, 2, 1)],
    ),
    (
        "coordinate complex general",
        "2 2 1\n1 2 -3 0\n",
        [(0, 1, -3)],
    ),
]


@pytest.mark.parametrize(("banner", "body", "expected"), MATRIX_FORMS)
def test_matrix_market_arrays_skew_symmetric_and_hermitian(
    tmp_path: Path, banner: str, body: str, expected: list[tuple[int, ...]]
) -> None:
    """An array's zeros are no edges; a skew-symmetric entry's mirror has the
    negated weight; hermitian values must be real."""
    path = write(tmp_path, "m.mtx", f"%%MatrixMarket matrix {banner}\n% c\n{body}")
    graph = load_graph(str(path), cache=False)
    assert graph.num_vertices == max(int(size) for size in body.split("\n")[0].split()[:2])
    assert edges_of(graph) == expected


@pytest.mark.parametrize("symmetry", ["general", "symmetric", "skew-symmetric", "hermitian"])
@pytest.mark.parametrize("dense", [False, True])
def test_matrix_market_forms_mean_the_matrix_scipy_reads(tmp_path: Path, symmetry: str, dense: bool) -> None:
    """Every form scipy writes loads as the graph of the matrix scipy reads back."""
    rng = np.random.default_rng(7)
    values = rng.integers(-50, 50, (40, 40)) * (rng.random((40, 40)) < 0.2)
    if symmetry in ("symmetric", "hermitian"):
        values = np.tril(values) + np.tril(values, -1).T
    elif symmetry == "skew-symmetric":
        values = np.tril(values, -1) - np.tril(values, -1).T
    matrix = values.astype(complex if symmetry == "hermitian" else np.int64)
    scipy.io.mmwrite(
        tmp_path / "s.mtx", matrix if dense else sparse.coo_array(matrix), symmetry=symmetry
    )
    assert (symmetry in (tmp_path / "s.mtx").read_text().split("\n")[0])
    read = scipy.io.mmread(tmp_path / "s.mtx")
    expected = from_scipy(sparse.coo_array(np.real(read.toarray() if sparse.issparse(read) else read)))
    assert edges_of(load_graph(str(tmp_path / "s.mtx"), cache=False)) == edges_of(expected)


def test_matrix_market_written_by_scipy(tmp_path: Path) -> None:
    matrix = sparse.random(60, 60, density=0.05, random_state=3, format="coo")
    matrix.data = np.round(matrix.data * 100) + 1
    scipy.io.mmwrite(
        tmp_path / "s.mtx", matrix.astype(np.int64), field="integer", symmetry="general"
    )
    assert edges_of(load_graph(str(tmp_path / "s.mtx"))) == edges_of(from_scipy(matrix))


# --------------------------------------------------------------------------------------
# Malformed input
# --------------------------------------------------------------------------------------

MTX_HEAD = "%%MatrixMarket matrix coordinate integer general\n"


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("a.el", "0 1\n1 2 3\n", r"a\.el:2: error: expected 2 columns, found 3: '1 2 3'"),
        ("a.el", "0 1\n1 a\n", r"a\.el:2: error: 'a' is not an integer: '1 a'"),
        ("a.el", "0 1\n\n-1 2\n", r"a\.el:3: error: negative vertex id -1: '-1 2'"),
        ("a.el", "0 1.5\n", r"a\.el:1: error: '1\.5' is not an integer"),
        ("a.el", "# a\n# b\n0 1\nx y\n", r"a\.el:4: error: 'x' is not an integer"),
        ("a.el", "0 1\n0 3000000000\n", r"a\.el:2: error: vertex id 3000000000 is too large"),
        ("a.el", "0 1 # note\n", r"a\.el:1: error: expected 2 columns, found 4"),
        ("a.wel", "0 1 2\n1 2\n", r"a\.wel:2: error: expected 3 columns, found 2: '1 2'"),
        (
            "a.wel",
            "0 1 99999999999\n",
            r"a\.wel:1: error: weight 99999999999 does not fit in int32",
        ),
        ("a.mtx", "%%MatrixMarket matrix\n", r"a\.mtx:1: error: not a Matrix Market file"),
        ("a.mtx", "0 1\n", r"a\.mtx:1: error: not a Matrix Market file"),
        (
            "a.mtx",
            "%%MatrixMarket matrix dense real general\n",
            r"a\.mtx:1: error: unsupported Matrix Market format 'dense'",
        ),
        (
            "a.mtx",
            "%%MatrixMarket matrix coordinate double general\n",
            r"a\.mtx:1: error: unsupported Matrix Market field 'double'",
        ),
        (
            "a.mtx",
            "%%MatrixMarket matrix coordinate real upper\n",
            r"a\.mtx:1: error: unsupported Matrix Market symmetry 'upper'",
        ),
        (
            "a.mtx",
            "%%MatrixMarket matrix array pattern general\n",
            r"a\.mtx:1: error: a Matrix Market array has values",
        ),
        (
            "a.mtx",
            "%%MatrixMarket matrix coordinate pattern skew-symmetric\n",
            r"a\.mtx:1: error: .* 'pattern' cannot be skew-symmetric",
        ),
        (
            "a.mtx",
            "%%MatrixMarket matrix array real symmetric\n% c\n2 3\n",
            r"a\.mtx:3: error: a symmetric, skew-symmetric or hermitian array must be square",
        ),
        (
            "a.mtx",
            "%%MatrixMarket matrix array real general\n2 2 4\n",
            r"a\.mtx:2: error: expected the size line 'ROWS COLS': '2 2 4'",
        ),
        (
            "a.mtx",
            "%%MatrixMarket matrix array integer general\n2 2\n1\n0\n3\n",
            r"a\.mtx: error: truncated file: the size line \(line 2\) declares 4 values but 3 were found",
        ),
        (
            "a.mtx",
            "%%MatrixMarket matrix array integer skew-symmetric\n2 2\n1\n2\n",
            r"a\.mtx: error: too many values: .* declares 1 values but 2 were found",
        ),
        (
            "a.mtx",
            "%%MatrixMarket matrix array real general\n1 2\n1 2\n",
            r"a\.mtx:3: error: expected 1 columns, found 2: '1 2'",
        ),
        (
            "a.mtx",
            "%%MatrixMarket matrix coordinate complex hermitian\n3 3 2\n2 1 4 0\n3 1 1.5 -2\n",
            r"a\.mtx:4: error: the value has a nonzero imaginary part",
        ),
        (
            "a.mtx",
            "%%MatrixMarket matrix coordinate complex general\n3 3 1\n2 1 4\n",
            r"a\.mtx:3: error: expected 4 columns, found 3",
        ),
        (
            "a.mtx",
            "%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 2\n2 1 4\n3 3 1\n",
            r"a\.mtx:4: error: a skew-symmetric matrix has a zero diagonal",
        ),
        (
            "a.mtx",
            "%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 1\n2 1 -2147483648\n",
            r"a\.mtx:3: error: the mirrored weight 2147483648 does not fit in int32",
        ),
        ("a.mtx", MTX_HEAD + "% c\n3 3\n", r"a\.mtx:3: error: expected the size line"),
        (
            "a.mtx",
            MTX_HEAD + "% only comments\n",
            r"a\.mtx: error: truncated file: the size line .* is missing",
        ),
        (
            "a.mtx",
            MTX_HEAD + "3 3 3\n1 2 1\n2 3 1\n",
            r"a\.mtx: error: truncated file: .* declares 3 entries but 2",
        ),
        ("a.mtx", MTX_HEAD + "3 3 1\n1 2 1\n2 3 1\n", r"a\.mtx: error: too many entries"),
        (
            "a.mtx",
            MTX_HEAD + "3 3 2\n1 2 1\n0 3 1\n",
            r"a\.mtx:4: error: vertex index 0 is below 1: '0 3 1'",
        ),
        (
            "a.mtx",
            MTX_HEAD + "3 3 2\n1 2 1\n2 4 1\n",
            r"a\.mtx:4: error: vertex index 4 is larger than the matrix",
        ),
        ("a.mtx", MTX_HEAD + "3 3 1\n1 2 1.5\n", r"a\.mtx:3: error: '1\.5' is not an integer"),
        (
            "a.mtx",
            "%%MatrixMarket matrix coordinate real general\n3 3 1\n1.5 2 1\n",
            r"a\.mtx:3: error: row and column indices must be integers",
        ),
        (
            "a.mtx",
            "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 nan\n",
            r"a\.mtx:3: error: weight is not",
        ),
        ("a.txt", "0 1\n", r"a\.txt: error: unknown graph file extension '\.txt'"),
    ],
)
def test_malformed_files_name_path_and_line(
    tmp_path: Path, name: str, text: str, expected: str
) -> None:
    path = write(tmp_path, name, text)
    with pytest.raises(GraphError, match=expected) as raised:
        load_graph(str(path))
    message = str(raised.value)
    assert "\n" not in message and str(path) in message


def test_control_bytes_of_a_file_are_escaped_in_messages(tmp_path: Path) -> None:
    """A line that would set the terminal's title (ESC ] 0 ; ... BEL) is shown escaped."""
    path = write(tmp_path, "a.el", "0 1\n1 \x1b]0;title\x07\tx\u0085\n")
    with pytest.raises(GraphError) as raised:
        load_graph(str(path))
    assert str(raised.value).endswith("found 3: '1 \\x1b]0;title\\x07\tx\\x85'")


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(GraphError, match=r"graph file not found: .*nope\.el"):
        load_graph(str(tmp_path / "nope.el"))


def special_files(directory: Path) -> dict[str, tuple[Path, str]]:
    """Paths that are no regular file, each with what the loaders call it."""
    fifo = directory / "fifo.el"
    os.mkfifo(fifo)
    folder = directory / "folder.el"
    folder.mkdir()
    return {
        "fifo": (fifo, "a FIFO"),
        "directory": (folder, "a directory"),
        "zero": (Path("/dev/zero"), "a character device"),
        "urandom": (Path("/dev/urandom"), "a character device"),
    }


def test_special_files_are_refused_without_reading_them(tmp_path: Path) -> None:
    """A FIFO would block, /dev/zero and /dev/urandom never end, a directory
    would read as an empty graph: each is one located error at once."""
    for label, (path, kind) in special_files(tmp_path).items():
        with pytest.raises(GraphError) as raised:
            load_graph(str(path))
        assert str(raised.value) == f"{path}: error: a graph must be a regular file, not {kind}", label


def test_a_matrix_market_file_declaring_more_entries_than_it_holds(tmp_path: Path) -> None:
    """The declared count is checked against what the file holds, not allocated
    (here past the host-memory check, which would refuse it first)."""
    path = write(tmp_path, "a.mtx", "%%MatrixMarket matrix coordinate pattern general\n9 9 2000000000\n1 2\n")
    set_max_memory(1 << 50)
    try:
        with pytest.raises(GraphError, match="truncated file: .* declares 2000000000 entries but 1 were"):
            load_graph(str(path), cache=False)
    finally:
        set_max_memory(None)


# --------------------------------------------------------------------------------------
# gir's binary edge files
# --------------------------------------------------------------------------------------


def test_binary_graph_round_trip(tmp_path: Path) -> None:
    graph = from_edges(5, np.array([3, 0, 4, 0]), np.array([1, 2, 0, 1]), np.array([7, 8, 9, 10]))
    write_binary_graph(graph, tmp_path / "g.gbin")
    loaded = load_graph(str(tmp_path / "g.gbin"))
    assert loaded.num_vertices == 5 and edges_of(loaded) == edges_of(graph)
    assert list(tmp_path.iterdir()) == [tmp_path / "g.gbin"]  # no temporary left, not cached


def test_a_damaged_binary_graph_is_one_located_error(tmp_path: Path) -> None:
    graph = from_edges(5, np.array([3, 0, 4]), np.array([1, 2, 0]))
    write_binary_graph(graph, tmp_path / "g.gbin")
    data = (tmp_path / "g.gbin").read_bytes()
    (tmp_path / "g.gbin").write_bytes(data[:-4])
    with pytest.raises(GraphError, match=r"g\.gbin: error: corrupt gir binary graph: the header does not match"):
        load_graph(str(tmp_path / "g.gbin"))


# --------------------------------------------------------------------------------------
# Weight requests
# --------------------------------------------------------------------------------------


def test_weighted_false_drops_file_weights(tmp_path: Path) -> None:
    graph = load_graph(str(write(tmp_path, "w.wel", "0 1 5\n1 0 6\n")), weighted=False)
    assert graph.weights is None and edges_of(graph) == [(0, 1), (1, 0)]


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("u.el", "0 1\n"),
        ("p.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n"),
    ],
)
def test_weighted_true_on_unweighted_file_is_an_error(tmp_path: Path, name: str, text: str) -> None:
    with pytest.raises(GraphError, match="has no weights; the program needs a weighted edgeset"):
        load_graph(str(write(tmp_path, name, text)), weighted=True)


# --------------------------------------------------------------------------------------
# The cache
# --------------------------------------------------------------------------------------


def test_cache_is_written_then_read(
    tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, "c.wel", "0 1 3\n1 2 4\n")
    messages: list[str] = []
    first = load_graph(str(path), progress=messages.append)
    assert messages == ["parsing c.wel (1 KB)..."]
    assert [file.suffix for file in cache_dir.iterdir()] == [".npz"]

    def no_parsing(path: Path) -> Graph:
        raise AssertionError("the cached graph should have been used")

    monkeypatch.setattr(graph_io, "_parse_file", no_parsing)
    messages.clear()
    second = load_graph(str(path), progress=messages.append)
    assert messages[0].startswith("reading cached graph c.wel")
    assert edges_of(second) == edges_of(first)
    assert load_graph(str(path), weighted=False).weights is None


def test_modified_file_invalidates_the_cache(tmp_path: Path, cache_dir: Path) -> None:
    path = write(tmp_path, "m.el", "0 1\n")
    assert edges_of(load_graph(str(path))) == [(0, 1)]
    write(tmp_path, "m.el", "0 1\n1 2\n")
    assert edges_of(load_graph(str(path))) == [(0, 1), (1, 2)]
    assert len(list(cache_dir.iterdir())) == 1  # the entry was replaced, not duplicated


def test_corrupt_cache_is_ignored_and_cache_false_writes_nothing(
    tmp_path: Path, cache_dir: Path
) -> None:
    path = write(tmp_path, "k.el", "0 1\n")
    load_graph(str(path))
    (entry,) = cache_dir.iterdir()
    for damaged in (b"garbage", b""):
        entry.write_bytes(damaged)
        assert edges_of(load_graph(str(path))) == [(0, 1)]
    other = write(tmp_path, "other.el", "1 0\n")
    load_graph(str(other), cache=False)
    assert len(list(cache_dir.iterdir())) == 1


def test_unwritable_cache_only_loses_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = write(tmp_path, "not-a-directory", "")
    monkeypatch.setenv("GIR_CACHE_DIR", str(blocker / "cache"))
    messages: list[str] = []
    graph = load_graph(str(write(tmp_path, "u.el", "0 1\n")), progress=messages.append)
    assert edges_of(graph) == [(0, 1)]
    assert messages[-1].startswith("cannot write the graph cache")
    assert list(tmp_path.glob("**/*.tmp")) == []


# --------------------------------------------------------------------------------------
# The Graph class and conversions
# --------------------------------------------------------------------------------------


def small_graph() -> Graph:
    """0->1 (5), 0->2 (6), 1->2 (7), 2->0 (8), 3->3 (9)."""
    return from_edges(
        4, np.array([2, 0, 1, 0, 3]), np.array([0, 2, 2, 1, 3]), np.array([8, 6, 7, 5, 9])
    )


def test_csr_csc_degrees_and_transpose() -> None:
    graph = small_graph()
    row_ptr, col_idx, weights = graph.csr()
    assert row_ptr.tolist() == [0, 2, 3, 4, 5] and col_idx.tolist() == [1, 2, 2, 0, 3]
    assert weights is not None and weights.tolist() == [5, 6, 7, 8, 9]
    assert graph.csr() is graph.csr()
    in_ptr, in_idx, in_weights = graph.csc()
    assert in_ptr.tolist() == [0, 1, 2, 4, 5] and in_idx.tolist() == [2, 0, 0, 1, 3]
    assert in_weights is not None and in_weights.tolist() == [8, 5, 6, 7, 9]
    assert graph.out_degrees().tolist() == [2, 1, 1, 1] and graph.out_degrees().dtype == np.int32
    assert graph.transpose().transpose() is graph
    assert graph.largest_degree_vertex() == 0
    assert graph.num_edges == 5 and "num_edges=5" in repr(graph)


def test_symmetrized_drops_loops_and_duplicates() -> None:
    symmetric = small_graph().symmetrized()
    assert edges_of(symmetric) == [(0, 1, 5), (0, 2, 6), (1, 0, 5), (1, 2, 7), (2, 0, 8), (2, 1, 7)]
    unweighted = from_edges(3, np.array([0, 1]), np.array([1, 2])).symmetrized()
    assert edges_of(unweighted) == [(0, 1), (1, 0), (1, 2), (2, 1)]
    assert unweighted.csc()[1] is unweighted.csr()[1]


def test_graph_invariants_are_enforced() -> None:
    graph = small_graph()
    with pytest.raises(ValueError):
        graph.src[0] = 3
    with pytest.raises(GraphError, match="sorted by"):
        Graph(3, np.array([1, 0]), np.array([0, 1]))
    with pytest.raises(GraphError, match="sorted by"):
        Graph(3, np.array([0, 0]), np.array([1, 1]))
    with pytest.raises(GraphError, match="outside"):
        Graph(2, np.array([0]), np.array([2]))
    with pytest.raises(GraphError, match="outside"):
        from_edges(2, np.array([-1]), np.array([0]))
    with pytest.raises(GraphError, match="no vertices"):
        Graph(0, np.array([], dtype=np.int32), np.array([], dtype=np.int32)).largest_degree_vertex()


def test_from_edges_keeps_first_weight_and_takes_integral_floats() -> None:
    graph = from_edges(
        3, np.array([1, 0, 1, 1]), np.array([2, 1, 2, 0]), np.array([2.0, 2.0, 9.0, -0.0])
    )
    assert edges_of(graph) == [(0, 1, 2), (1, 0, 0), (1, 2, 2)]


def test_from_edges_never_rounds_a_weight() -> None:
    with pytest.raises(FractionalWeights, match=(
        r"^error: 2 of the 4 edge weights have a fraction \(the first, 1\.6, on edge 0 in the "
        r"given order\): gir's graphs hold int32 weights and never round them"
    )):  # fmt: skip
        from_edges(3, np.array([1, 0, 1, 1]), np.array([2, 1, 2, 0]), np.array([1.6, 2.0, 9.0, -0.4]))


def test_from_scipy() -> None:
    matrix = sparse.coo_array(
        (np.array([1.0, 2.0, 0.0, 3.0]), (np.array([0, 0, 2, 1]), np.array([1, 1, 0, 2]))),
        shape=(3, 4),
    )
    graph = from_scipy(matrix)
    assert graph.num_vertices == 4
    assert edges_of(graph) == [
        (0, 1, 3),
        (1, 2, 3),
        (2, 0, 0),
    ]  # duplicates summed, explicit zero kept
    assert from_scipy(matrix.astype(bool)).weights is None
    assert from_scipy(matrix, weighted=False).weights is None
    with pytest.raises(GraphError, match="scipy sparse"):
        from_scipy(np.eye(3))
    with pytest.raises(FractionalWeights, match="2 of the 3 edge weights have a fraction"):
        from_scipy(matrix * 0.5)


def test_from_networkx() -> None:
    directed = nx.DiGraph([(0, 1, {"weight": 4}), (2, 0, {"weight": 2.0})])
    assert edges_of(from_networkx(directed)) == [(0, 1, 4), (2, 0, 2)]
    fractional = nx.DiGraph([(0, 1, {"weight": 4}), (2, 0, {"weight": 1.6})])
    with pytest.raises(FractionalWeights, match=r"the first, 1\.6, on edge 1 "):
        from_networkx(fractional)
    assert edges_of(from_networkx(fractional, weighted=False)) == [(0, 1), (2, 0)]
    undirected = nx.Graph([("a", "b"), ("b", "c"), ("c", "c")])
    graph = from_networkx(undirected)
    assert graph.weights is None
    assert edges_of(graph) == [(0, 1), (1, 0), (1, 2), (2, 1), (2, 2)]
    partly_weighted = nx.DiGraph([(0, 1, {"weight": 4}), (1, 0)])
    assert from_networkx(partly_weighted).weights is None
    with pytest.raises(GraphError, match="must be numbers"):
        from_networkx(nx.DiGraph([(0, 1, {"weight": "heavy"})]))
