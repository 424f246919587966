"""gir's cache directories: where they are, their size, clearing them, and the size cap.

`$GIR_CACHE_DIR` (default `~/.cache/gir`) holds the graph cache (parsed graph
files and large generated graphs as `.npz`, `gir.runtime.graph.cache`),
`gir-bench --host compiled`'s executables and `.gbin` graphs (`compiled/`) and
gir-tune's results (`tune/`). Its size is capped by `$GIR_CACHE_MAX_BYTES`
(default 16G; a byte count with an optional K, M, G or T suffix): whenever gir
writes an entry there, the least recently used files are removed until the
directory fits. Reading or running an entry marks it used (its modification
time), so eviction follows use, not creation; an entry larger than the cap by
itself is not kept. Tuning results are counted but never evicted: they are a few
KB each, and each took minutes of device time. Only gir's own files
(`graph_cache_file`) are counted, evicted or cleared, so a `$GIR_CACHE_DIR`
pointed at a folder of other data loses none of it.

gir's C++ graph library is built into `$GIR_NATIVE_CACHE_DIR` (default
`~/.cache/gir-native`), apart from the graph cache so that runs with their own
`GIR_CACHE_DIR` share one build; it holds one small library per version of the
sources and is not capped.

`python -m gir cache size` and `python -m gir cache clear [--native]` show and
empty them.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gir.diagnostics import UserError
from gir.output import TEMPORARY_SUFFIX

MAX_BYTES_VARIABLE = "GIR_CACHE_MAX_BYTES"
DEFAULT_MAX_BYTES = 16 << 30
"""The cap of `$GIR_CACHE_DIR` when `$GIR_CACHE_MAX_BYTES` is not set: a few
benchmark-sized graphs (rmat:22 with its blocked edges is about 1.5 GB)."""

KEPT_SUBDIRECTORY = "tune"
"""The subdirectory of `$GIR_CACHE_DIR` eviction never touches: gir-tune's results."""

_OWNED_SUBDIRECTORIES = ("compiled", KEPT_SUBDIRECTORY)
_GRAPH_ENTRY = re.compile(r".*-[0-9a-f]{16}(-blocked(src)?[0-9]+w?)?\.npz")
_NATIVE_LIBRARY = re.compile(r"gir_graph-[0-9a-f]{16}\.so")


def _entry_or_its_temporary(name: str, entry: re.Pattern[str]) -> bool:
    """Whether `name` matches `entry`, or is a writer's temporary file of such a
    name (`.NAME.PID.XXXXXXXX.tmp`, `gir.output.open_output`)."""
    if entry.fullmatch(name):
        return True
    if not (name.startswith(".") and name.endswith(TEMPORARY_SUFFIX)):
        return False
    parts = name[1:].rsplit(".", 3)
    return len(parts) == 4 and bool(entry.fullmatch(parts[0]))


def graph_cache_file(relative: Path) -> bool:
    """Whether the file at `relative` (a path inside `$GIR_CACHE_DIR`) is one gir
    writes there: a graph entry (`NAME-HASH.npz`, `NAME-HASH-blocked1024.npz`), a
    writer's temporary of one, or anything under `compiled/` and `tune/`. Other
    files are never counted, evicted or cleared, whatever the directory holds."""
    if len(relative.parts) > 1:
        return relative.parts[0] in _OWNED_SUBDIRECTORIES
    return _entry_or_its_temporary(relative.name, _GRAPH_ENTRY)


def native_cache_file(relative: Path) -> bool:
    """Whether the file at `relative` inside the native cache is a built graph
    library (`gir_graph-HASH.so`) or a build's temporary of one."""
    return len(relative.parts) == 1 and _entry_or_its_temporary(relative.name, _NATIVE_LIBRARY)


_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def cache_dir() -> Path:
    """The graph and compiled-program cache: `$GIR_CACHE_DIR`, default `~/.cache/gir`."""
    return Path(os.environ.get("GIR_CACHE_DIR") or Path.home() / ".cache" / "gir")


def native_cache_dir() -> Path:
    """Where gir's C++ graph library is built: `$GIR_NATIVE_CACHE_DIR`, default
    `$XDG_CACHE_HOME/gir-native` (`~/.cache/gir-native`)."""
    configured = os.environ.get("GIR_NATIVE_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "gir-native"


def parse_byte_count(text: str) -> int:
    """A positive byte count such as `17179869184`, `16G` or `512M` (a ValueError
    when `text` is none)."""
    match = re.fullmatch(r"([0-9]+)([KMGT]?)B?", text.strip(), re.IGNORECASE)
    if match is None or int(match[1]) == 0:
        raise ValueError(f"'{text}' is not a positive byte count (e.g. 17179869184, 16G)")
    return int(match[1]) * _UNITS[match[2].upper()]


def max_bytes() -> int:
    """The cap of `$GIR_CACHE_DIR`: `$GIR_CACHE_MAX_BYTES`, else `DEFAULT_MAX_BYTES`;
    a UserError when the variable is set to something else than a byte count."""
    text = os.environ.get(MAX_BYTES_VARIABLE)
    if not text:
        return DEFAULT_MAX_BYTES
    try:
        return parse_byte_count(text)
    except ValueError as error:
        raise UserError(f"error: {MAX_BYTES_VARIABLE}: {error}") from None


@dataclass(frozen=True)
class CachedFile:
    """A file in a cache directory, its size and when it was last used."""

    path: Path
    size: int
    used_ns: int


def cached_files(directory: Path, owned: Callable[[Path], bool] = graph_cache_file) -> list[CachedFile]:
    """gir's regular files under `directory` (those `owned` says gir wrote, by
    their path inside it; symbolic links are not followed), least recently used
    first; none when it does not exist."""
    files: list[CachedFile] = []
    for root, _, names in os.walk(directory):
        for name in names:
            path = Path(root) / name
            if not owned(path.relative_to(directory)):
                continue
            try:
                status = path.lstat()
            except OSError:  # removed by another process meanwhile
                continue
            if stat.S_ISREG(status.st_mode):
                files.append(CachedFile(path, status.st_size, status.st_mtime_ns))
    return sorted(files, key=lambda file: file.used_ns)


def mark_used(path: Path) -> None:
    """Note that the entry `path` was just used, for least-recently-used eviction
    (nothing happens in a read-only cache)."""
    try:
        os.utime(path)
    except OSError:
        pass


def enforce_cap(written: Path, directory: Path | None = None) -> list[Path]:
    """Remove the least recently used files of `directory` (default `cache_dir()`)
    until it fits the cap, `written` (the entry just written) last; the removed
    files. Temporary files of writers still at work and tuning results are
    counted, never removed."""
    directory = cache_dir() if directory is None else directory
    cap = max_bytes()
    files = cached_files(directory)
    total = sum(file.size for file in files)
    kept = directory / KEPT_SUBDIRECTORY
    candidates = [
        file
        for file in files
        if not file.path.name.endswith(TEMPORARY_SUFFIX)
        and file.path != written
        and not file.path.is_relative_to(kept)
    ]
    candidates += [file for file in files if file.path == written]
    removed: list[Path] = []
    for file in candidates:
        if total <= cap:
            break
        try:
            file.path.unlink()
        except FileNotFoundError:  # another process evicted it first
            pass
        except OSError:
            continue
        total -= file.size
        removed.append(file.path)
    if written in removed:
        print(
            f"note: cache entry {written} is larger than the cache's cap "
            f"({format_bytes(cap)}, {MAX_BYTES_VARIABLE}); not kept",
            file=sys.stderr,
        )
    return removed


def clear(directory: Path, owned: Callable[[Path], bool] = graph_cache_file) -> tuple[int, int]:
    """Remove gir's files under `directory` (`owned`; anything else, and the
    directory, stay) and the folders they leave empty; the number of files
    removed and their size."""
    count = size = 0
    for file in cached_files(directory, owned):
        try:
            file.path.unlink()
        except FileNotFoundError:
            continue
        count += 1
        size += file.size
    for root, folders, _ in os.walk(directory, topdown=False):
        for folder in folders:
            path = Path(root) / folder
            if owned(path.relative_to(directory) / "file"):  # a folder of gir's files
                try:
                    path.rmdir()  # only once empty
                except OSError:
                    pass
    return count, size


def format_bytes(size: int) -> str:
    """`size` bytes for people: `512 B`, `3.2 MiB`, `16.0 GiB`."""
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{size} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def size_report() -> list[str]:
    """One line for each cache directory: where, how much, and the cap."""
    lines = []
    for label, directory, owned, cap in (
        ("graphs and compiled programs", cache_dir(), graph_cache_file, f", cap {format_bytes(max_bytes())}"),
        ("C++ graph library", native_cache_dir(), native_cache_file, ""),
    ):
        files = cached_files(directory, owned)
        total = sum(file.size for file in files)
        lines.append(
            f"{label}: {directory}: {format_bytes(total)} in {len(files)} file(s){cap}"
        )
    return lines
