"""Tests of `gir.cache` and `python -m gir cache`: the size cap of `$GIR_CACHE_DIR`
with least-recently-used eviction when entries are written, `size` and `clear`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gir import cache
from gir.__main__ import main
from gir.runtime.graph import load_graph


@pytest.fixture(autouse=True)
def native_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A native-library directory of the test's own, so that `clear --native` touches
    nothing of the user's (a process that has loaded the library keeps it)."""
    directory = tmp_path / "native"
    monkeypatch.setenv("GIR_NATIVE_CACHE_DIR", str(directory))
    return directory


def edge_list(folder: Path, name: str, edges: int) -> Path:
    """An edge-list file of `edges` edges on a path (each file its own cache entry)."""
    path = folder / name
    path.write_text("".join(f"{i} {i + 1}\n" for i in range(edges)))
    return path


def cached(directory: Path) -> list[str]:
    return sorted(path.name.split("-")[0] for path in directory.glob("*.npz"))


def set_used(path: Path, seconds: int) -> None:
    os.utime(path, ns=(seconds * 10**9, seconds * 10**9))


def test_writing_an_entry_evicts_the_least_recently_used_ones(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    graphs = [edge_list(tmp_path, f"g{index}.el", 200) for index in range(3)]
    for graph in graphs:
        load_graph(str(graph))
    assert cached(cache_dir) == ["g0.el", "g1.el", "g2.el"]
    entries = {path.name.split("-")[0]: path for path in cache_dir.glob("*.npz")}
    set_used(entries["g0.el"], 1000)
    set_used(entries["g1.el"], 2000)
    set_used(entries["g2.el"], 3000)
    load_graph(str(graphs[0]))  # a cache hit marks g0 used now: g1 is the oldest
    entry_size = max(path.stat().st_size for path in entries.values())

    monkeypatch.setenv("GIR_CACHE_MAX_BYTES", str(3 * entry_size + entry_size // 2))
    load_graph(str(edge_list(tmp_path, "g3.el", 200)))
    assert cached(cache_dir) == ["g0.el", "g2.el", "g3.el"]


def test_an_entry_larger_than_the_cap_is_not_kept(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GIR_CACHE_MAX_BYTES", "1K")
    graph = load_graph(str(edge_list(tmp_path, "big.el", 2000)))
    assert graph.num_edges == 2000 and cached(cache_dir) == []
    assert "is larger than the cache's cap (1.0 KiB, GIR_CACHE_MAX_BYTES); not kept" in (
        capsys.readouterr().err
    )


def test_eviction_spares_temporaries_of_writers_at_work_and_tuning_results(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (cache_dir / "tune").mkdir(parents=True, exist_ok=True)
    old_name, new_name = "a.el-0123456789abcdef.npz", "b.el-fedcba9876543210.npz"
    names = (old_name, f".{new_name}.77.k2_x9abc.tmp", "tune/key.json", new_name)
    old, partial, tuned, written = (cache_dir / name for name in names)
    for path in (old, partial, tuned, written):
        path.write_bytes(b"x" * 1000)
    set_used(old, 1000)
    set_used(partial, 500)
    set_used(tuned, 100)
    monkeypatch.setenv("GIR_CACHE_MAX_BYTES", "3500")
    assert cache.enforce_cap(written) == [old]
    assert sorted(str(path.relative_to(cache_dir)) for path in cache_dir.rglob("*.*")) == [
        f".{new_name}.77.k2_x9abc.tmp", new_name, "tune/key.json"
    ]


def test_only_girs_own_files_are_counted_evicted_or_cleared(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A GIR_CACHE_DIR pointed at a folder of the user's own data loses none of it."""
    cache_dir.mkdir(exist_ok=True)
    theirs = [cache_dir / name for name in ("results.npz", "notes.txt", "x-0123.npz")]
    (cache_dir / "data").mkdir()
    theirs.append(cache_dir / "data" / "g.el-0123456789abcdef.npz")
    for path in theirs:
        path.write_bytes(b"x" * 1000)
        set_used(path, 1000)
    written = cache_dir / "g.el-0123456789abcdef.npz"
    written.write_bytes(b"x" * 10)
    monkeypatch.setenv("GIR_CACHE_MAX_BYTES", "100")
    assert cache.enforce_cap(written) == []
    assert [file.path for file in cache.cached_files(cache_dir)] == [written]
    assert cache.clear(cache_dir) == (1, 10)
    assert all(path.exists() for path in theirs) and not written.exists()


@pytest.mark.parametrize(
    ("relative", "owned"),
    [
        ("rmat_20-0123456789abcdef.npz", True),
        ("4.el-0123456789abcdef-blocked1024w.npz", True),
        ("4.el-0123456789abcdef-blockedsrc512.npz", True),
        (".4.el-0123456789abcdef.npz.4242.abc_123x.tmp", True),
        ("compiled/graphs/rmat_10-1024v.gbin", True),
        ("tune/0123.json", True),
        ("4.el-0123456789abcdef.npz.bak", False),
        ("weights.npz", False),
        (".weights.npz.4242.abc_123x.tmp", False),
        ("other/4.el-0123456789abcdef.npz", False),
    ],
)
def test_which_files_are_girs(relative: str, owned: bool) -> None:
    assert cache.graph_cache_file(Path(relative)) is owned


@pytest.mark.parametrize(
    ("text", "expected"), [("17", 17), ("16G", 16 << 30), ("512m", 512 << 20), ("2KB", 2048)]
)
def test_byte_counts(text: str, expected: int) -> None:
    assert cache.parse_byte_count(text) == expected


def test_the_default_cap_and_a_bad_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GIR_CACHE_MAX_BYTES", raising=False)
    assert cache.max_bytes() == cache.DEFAULT_MAX_BYTES
    monkeypatch.setenv("GIR_CACHE_MAX_BYTES", "0")
    with pytest.raises(cache.UserError, match="GIR_CACHE_MAX_BYTES: '0' is not a positive byte count"):
        cache.max_bytes()


def test_cache_size_and_clear(
    cache_dir: Path, native_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    load_graph(str(edge_list(tmp_path, "g.el", 50)))
    (cache_dir / "compiled" / "graphs").mkdir(parents=True)
    (cache_dir / "compiled" / "graphs" / "x.gbin").write_bytes(b"x" * 10)
    (cache_dir / "compiled" / "bfs-0123").write_bytes(b"x" * 20)
    files = [path for path in cache_dir.rglob("*") if path.is_file()]
    (cache_dir / "mine.txt").write_text("not gir's")
    size = sum(path.stat().st_size for path in files)
    native_dir.mkdir()
    (native_dir / "gir_graph-0123456789abcdef.so").write_bytes(b"x" * 30)

    assert main(["cache", "size"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"graphs and compiled programs: {cache_dir}: ")
    assert lines[0].endswith(f" in {len(files)} file(s), cap 16.0 GiB")
    assert lines[1].startswith(f"C++ graph library: {native_dir}: ")

    assert main(["cache", "clear"]) == 0
    assert capsys.readouterr().out == (
        f"removed {len(files)} file(s) ({cache.format_bytes(size)}) from {cache_dir}\n"
    )
    assert list(cache_dir.iterdir()) == [cache_dir / "mine.txt"]
    assert len(list(native_dir.iterdir())) == 1  # only with --native

    assert main(["cache", "clear", "--native"]) == 0
    assert capsys.readouterr().out.endswith(f"removed 1 file(s) (30 B) from {native_dir}\n")
    assert list(native_dir.iterdir()) == []


def test_cache_command_usage_and_user_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    for argv in (["cache"], ["cache", "shrink"], ["--bogus"]):
        with pytest.raises(SystemExit) as exit_status:
            main(argv)
        assert exit_status.value.code == 2
    monkeypatch.setenv("GIR_CACHE_MAX_BYTES", "lots")
    result = subprocess.run(
        [sys.executable, "-m", "gir", "cache", "size"], capture_output=True, text=True
    )
    assert result.returncode == 1
    assert result.stderr == (
        "error: GIR_CACHE_MAX_BYTES: 'lots' is not a positive byte count (e.g. 17179869184, 16G)\n"
    )
