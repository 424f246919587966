"""Tests of the graph cache's integrity (tampering, truncation, concurrent and killed
writers) and of the memory and size checks made before a graph is built."""

from __future__ import annotations

import io
import multiprocessing
import os
import re
import signal
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

import gir
import gir.runtime.graph as graph_module
from gir.runtime.graph import cache as graph_cache
from gir.runtime.graph import generators, memory
from gir.runtime.graph import GraphError, load_graph, set_max_memory
from gir.tools.output import write_npz

SPEC = "rmat:10,w,seed=4"


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own cache; generated graphs from 2^10 vertices are cached."""
    directory = tmp_path / "cache"
    monkeypatch.setenv("GIR_CACHE_DIR", str(directory))
    monkeypatch.setattr(generators, "_GENERATOR_CACHE_MIN_VERTICES", 1 << 10)
    return directory


@pytest.fixture(autouse=True)
def default_memory_limit():
    yield
    set_max_memory(None)


def entries(directory: Path) -> list[Path]:
    return sorted(directory.iterdir()) if directory.exists() else []


def same_graph(a: graph_module.Graph, b: graph_module.Graph) -> bool:
    return (
        a.num_vertices == b.num_vertices
        and np.array_equal(a.src, b.src)
        and np.array_equal(a.dst, b.dst)
        and np.array_equal(a.weights, b.weights)
    )


def test_a_tampered_entry_is_detected_and_rebuilt(
    cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = load_graph(SPEC, cache=False)
    load_graph(SPEC)
    (entry,) = entries(cache_dir)
    with np.load(entry) as stored:
        arrays = {name: stored[name] for name in stored.files}
    # Valid arrays of other edges, key and checksum left as they were.
    arrays["dst"] = np.roll(arrays["dst"], 1)
    keep = arrays["src"] < arrays["dst"]
    for name in ("src", "dst", "weights"):
        arrays[name] = arrays[name][keep]
    with open(entry, "wb") as stream:
        write_npz(stream, arrays)
    capsys.readouterr()
    rebuilt = load_graph(SPEC)
    assert same_graph(rebuilt, expected)
    note = capsys.readouterr().err.strip().splitlines()
    assert len(note) == 1 and "does not match its checksum; rebuilding it" in note[0]
    assert same_graph(load_graph(SPEC), expected)  # the rebuilt entry is used quietly
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("keep_bytes", [0, 100, -200])
def test_a_truncated_entry_is_rebuilt(
    cache_dir: Path, capsys: pytest.CaptureFixture[str], keep_bytes: int
) -> None:
    expected = load_graph(SPEC)
    (entry,) = entries(cache_dir)
    data = entry.read_bytes()
    entry.write_bytes(data[:keep_bytes] if keep_bytes else b"")
    capsys.readouterr()
    assert same_graph(load_graph(SPEC), expected)
    assert "is corrupt or truncated; rebuilding it" in capsys.readouterr().err
    assert entry.read_bytes() == data


def test_a_fifo_in_place_of_an_entry_is_replaced_without_blocking(
    cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = load_graph(SPEC)
    (entry,) = entries(cache_dir)
    entry.unlink()
    os.mkfifo(entry)
    signal.alarm(60)  # a regression blocks on the FIFO: fail instead of hanging
    try:
        assert same_graph(load_graph(SPEC), expected)
    finally:
        signal.alarm(0)
    assert "is not a regular file; rebuilding it" in capsys.readouterr().err
    assert entry.is_file() and same_graph(load_graph(SPEC), expected)
    assert capsys.readouterr().err == ""


def test_an_npy_header_claiming_more_than_the_member_holds_is_rebuilt(
    cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A header claiming 2^33 elements is a corrupt entry, never a 32 GiB allocation."""
    expected = load_graph(SPEC)
    (entry,) = entries(cache_dir)
    with np.load(entry) as stored:
        arrays = {name: stored[name] for name in stored.files}
    with zipfile.ZipFile(entry, "w") as archive:
        for name, value in arrays.items():
            member = io.BytesIO()
            if name == "src":
                header = {"descr": "<i4", "fortran_order": False, "shape": (2**33,)}
                np.lib.format.write_array_header_1_0(member, header)
                member.write(b"\0" * 64)
            else:
                np.save(member, value)
            archive.writestr(f"{name}.npy", member.getvalue())
    capsys.readouterr()
    assert same_graph(load_graph(SPEC), expected)
    assert "is corrupt or truncated; rebuilding it" in capsys.readouterr().err
    assert same_graph(load_graph(SPEC), expected)
    assert capsys.readouterr().err == ""


def test_a_file_changed_without_a_new_size_or_mtime_is_reparsed(tmp_path: Path) -> None:
    path = tmp_path / "g.el"
    path.write_text("0 1\n1 2\n")
    stat = path.stat()
    assert load_graph(str(path)).num_edges == 2
    path.write_text("0 1\n2 1\n")  # same size
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert load_graph(str(path)).dst.tolist() == [1, 1]


def _load_in_child(spec: str) -> None:
    load_graph(spec)


def test_concurrent_first_runs_leave_one_valid_entry(cache_dir: Path) -> None:
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_load_in_child, args=(SPEC,)) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert [worker.exitcode for worker in workers] == [0, 0, 0, 0]
    (entry,) = entries(cache_dir)
    assert entry.suffix == ".npz"
    spec = str(generators.parse_generator_spec(SPEC, None))
    cached = graph_cache.CacheEntry.for_generator(spec, generators._GENERATOR_VERSION).read(
        lambda message: None
    )
    assert cached is not None and same_graph(cached, load_graph(SPEC, cache=False))


def _write_slowly_in_child(spec: str) -> None:
    def stalled_write(stream, arrays) -> None:
        stream.write(b"PK partial archive")
        stream.flush()
        time.sleep(120)

    graph_cache.write_npz = stalled_write
    load_graph(spec)


def test_a_writer_killed_mid_write_leaves_a_temporary_the_next_run_removes(
    cache_dir: Path,
) -> None:
    writer = multiprocessing.get_context("fork").Process(
        target=_write_slowly_in_child, args=(SPEC,)
    )
    writer.start()
    deadline = time.monotonic() + 60
    while not any(path.name.endswith(".tmp") for path in entries(cache_dir)):
        assert time.monotonic() < deadline and writer.is_alive(), "the writer never started"
        time.sleep(0.05)
    os.kill(writer.pid, signal.SIGKILL)
    writer.join()
    assert [path.suffix for path in entries(cache_dir)] == [".tmp"]
    graph = load_graph(SPEC)
    (entry,) = entries(cache_dir)
    assert entry.suffix == ".npz"
    assert same_graph(graph, load_graph(SPEC, cache=False))


def test_reading_an_entry_removes_temporaries_of_dead_writers(cache_dir: Path) -> None:
    load_graph(SPEC)
    finished = multiprocessing.get_context("fork").Process(target=time.sleep, args=(0,))
    finished.start()
    finished.join()
    (entry,) = entries(cache_dir)
    left_behind = cache_dir / f".{entry.name}.{finished.pid}.k1ll3d.tmp"
    left_behind.write_bytes(b"PK partial")
    load_graph(SPEC)
    assert entries(cache_dir) == [entry]


# --------------------------------------------------------------------------------------
# Sizes and memory, checked before any work
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec", ["rmat:30", "rmat:12:100000000", "uniform:10:3000000000", "road:40000:40000"]
)
def test_graphs_needing_64_bit_edge_offsets_pass_the_size_checks_and_meet_the_memory_check_at_once(
    spec: str,
) -> None:
    graph_module.set_max_memory(1 << 30)
    started = time.perf_counter()
    try:
        with pytest.raises(GraphError, match=r"generating '.*' needs about [\d.]+ GB of memory, but --max-memory allows 1.0 GB"):
            load_graph(spec)
    finally:
        graph_module.set_max_memory(None)
    assert time.perf_counter() - started < 1


def test_a_graph_just_over_2_31_edges_is_accepted_by_the_size_checks_without_being_built() -> None:
    just_over = 2**31
    memory.check_edge_count(just_over, "a graph")
    assert memory.edge_index_width(just_over) == 64
    assert memory.edge_index_width(memory.MAX_EDGES_32) == 32
    # a grid's stride past the last edge must not wrap a 32-bit position
    assert memory.edge_index_width(memory.MAX_EDGES_32 + 1) == 64
    assert memory.edge_index_width(2**31 - 1) == 64
    spec = generators.parse_generator_spec("uniform:67108864:1073741825", None)  # 2^31 + 2 edges at most
    assert spec.max_edges == 2**31 + 2
    # 16 bytes per edge while generating: 32 GB, which the message states honestly
    assert memory.generated_graph_bytes(spec.num_vertices, spec.max_edges) == 16 * (2**31 + 2) + 48 * 2**26
    assert memory.device_graph_bytes(1 << 26, just_over, False) == 2 * (8 * ((1 << 26) + 1) + 4 * just_over)
    with pytest.raises(GraphError, match=r"more than gir's limit"):
        memory.check_edge_count(memory.MAX_EDGES + 1, "a graph")


def test_the_compiled_host_takes_as_many_edges_at_32_bits_as_gir_run() -> None:
    """cuda_runtime.cuh's MAX_EDGES_32 (the complete CUDA program's check) is memory.py's."""
    header = (Path(gir.__file__).parent / "cpp" / "cuda_runtime.cuh").read_text()
    (shift,) = re.findall(r"static constexpr long long MAX_EDGES_32 = INT32_MAX - \(1LL << (\d+)\);", header)
    assert memory.MAX_EDGES_32 == 2**31 - 1 - (1 << int(shift)) == 2**31 - 1 - memory.EDGE_POSITION_ROOM


def test_the_forced_edge_index_width_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(memory.FORCE_EDGE_INDEX_WIDTH, "64")
    assert memory.edge_index_width(10) == 64
    monkeypatch.setenv(memory.FORCE_EDGE_INDEX_WIDTH, "48")
    with pytest.raises(GraphError, match=r"GIR_EDGE_INDEX_WIDTH must be 32 or 64, not '48'"):
        memory.edge_index_width(10)


def test_a_graph_larger_than_the_memory_limit_is_refused_before_generating(
    cache_dir: Path,
) -> None:
    set_max_memory(1 << 20)
    with pytest.raises(GraphError, match=r"generating 'rmat:16.*' needs about .* --max-memory"):
        load_graph("rmat:16")
    assert entries(cache_dir) == []
    set_max_memory(None)
    assert load_graph("rmat:8").num_vertices == 256


def test_a_huge_vertex_id_is_refused_before_allocating(tmp_path: Path) -> None:
    path = tmp_path / "big.el"
    path.write_text("0 1\n1 2147483646\n")
    set_max_memory(16 << 30)
    with pytest.raises(GraphError, match=r"2,147,483,647 vertices, 2 edges\) needs about 32.0 GB"):
        load_graph(str(path))


def test_a_matrix_market_header_is_checked_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "big.mtx"
    path.write_text("%%MatrixMarket matrix coordinate pattern general\n5 5 3000000000\n1 2\n")
    set_max_memory(1 << 30)  # more than 2^31 edges pass the size checks; the memory check refuses
    try:
        with pytest.raises(GraphError, match=r"\(5 vertices, 3,000,000,000 edges\) needs about 134.1 GB"):
            load_graph(str(path))
    finally:
        set_max_memory(None)
    path.write_text("%%MatrixMarket matrix coordinate pattern general\n1000000 1000000 2\n1 2\n")
    set_max_memory(1 << 20)
    with pytest.raises(GraphError, match="1,000,000 vertices, 2 edges"):
        load_graph(str(path))


def test_device_memory_check() -> None:
    needed = graph_module.device_graph_bytes(1000, 5000, weighted=True)
    assert needed == 2 * (4 * 1001 + 8 * 5000)
    graph_module.check_device_memory(needed, needed, "gpu0")
    graph_module.check_device_memory(needed, None, "gpu0")
    with pytest.raises(GraphError, match="needs about 86 KB on gpu0, which has 1 KB free"):
        graph_module.check_device_memory(needed, 1024, "gpu0")


def test_available_host_memory_is_known_here() -> None:
    available = graph_module.available_host_memory()
    assert available is None or available > 0


def test_a_generated_graph_too_large_once_symmetrized_is_refused_before_caching(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memory, "MAX_EDGES", 1000)
    load_graph("rmat:5")  # 512 edges drawn, fewer than 1000 after symmetrizing
    with pytest.raises(GraphError, match=r"'rmat:6' has 1,024 edges"):
        load_graph("rmat:6")  # 1024 drawn: refused at once
    monkeypatch.setattr(memory, "MAX_EDGES", 1500)
    with pytest.raises(GraphError, match=r"\(symmetrized\) has 1,\d\d\d edges"):
        load_graph("rmat:10:1")  # 1024 drawn, more than 1500 after symmetrizing
    assert entries(cache_dir) == []


def test_a_graph_larger_than_the_cache_cap_is_not_written(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A graph of billions of edges would take minutes to write only to be evicted:
    it is not cached at all (here with a small cap)."""
    monkeypatch.setenv("GIR_CACHE_MAX_BYTES", "1000")
    load_graph("rmat:20:1")
    assert entries(cache_dir) == []
    assert "is larger than the cache's cap (1000 B, GIR_CACHE_MAX_BYTES); not kept" in capsys.readouterr().err
