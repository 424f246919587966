"""The graph cache: parsed files and large generated graphs as `.npz` files.

Entries live in `$GIR_CACHE_DIR` (default `~/.cache/gir`), one per source, keyed
by what they were made from and checked by a checksum of their arrays. The
directory is capped (`$GIR_CACHE_MAX_BYTES`, `gir.cache`): writing an entry evicts
the least recently used ones, and reading one marks it used. Anything
wrong with an entry (another key, a bad checksum, a truncated archive, an `.npy`
header that claims more data than the member holds, or a FIFO, device or
directory in its place) is noted on stderr and the entry rebuilt; reading one
never blocks and never allocates more than the file holds.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

from gir.cache import MAX_BYTES_VARIABLE, cache_dir, enforce_cap, format_bytes, mark_used, max_bytes
from gir.output import OutputError, open_output, remove_stale_temporaries, write_npz
from gir.runtime.graph.errors import GraphError
from gir.runtime.graph.graph import (
    CACHE_ENTRY,
    BlockedEdges,
    Graph,
    ProgressCallback,
    block_count,
    ignore_progress,
)

_CACHE_FORMAT_VERSION = 2


@dataclass(frozen=True)
class CacheEntry:
    """One cached graph: an `.npz` file, the key its content must match, and a checksum.

    The key names the source: for a file its absolute path, size, mtime and a digest
    of its content (`_file_digest`); for a generator its full spec and the versions
    of the generator and of numpy (whose random streams it draws). The entry also
    stores a checksum of its arrays, so an entry whose arrays were changed or cut
    short is noticed, noted on stderr and rebuilt rather than used.
    """

    file: Path
    key: str

    @staticmethod
    def for_file(path: Path, size: int, mtime_ns: int) -> CacheEntry:
        """The entry of a graph file, valid while its path, size, mtime and content hold."""
        absolute = path.resolve()
        digest = _file_digest(path, size)
        key = f"file v{_CACHE_FORMAT_VERSION}|{absolute}|{size}|{mtime_ns}|{digest}"
        return CacheEntry(cache_dir() / _cache_file_name(path.name, str(absolute)), key)

    @staticmethod
    def for_generator(spec: str, generator_version: int) -> CacheEntry:
        """The entry of the graph a generator of `generator_version` makes of `spec`."""
        key = f"generator v{_CACHE_FORMAT_VERSION}.{generator_version}|numpy {np.__version__}|{spec}"
        return CacheEntry(cache_dir() / _cache_file_name(spec, key), key)

    def read(self, report: ProgressCallback) -> Graph | None:
        """The cached graph, or None when missing, stale, corrupt or tampered with.

        Temporary files that killed writers left in the cache directory are removed.
        """
        arrays = self.read_arrays(_CACHED_ARRAYS, f"reading cached graph {self.file.name}...", report)
        if arrays is None:
            return None
        try:
            weights = arrays["weights"] if bool(arrays["weighted"]) else None
            return Graph(int(arrays["num_vertices"]), arrays["src"], arrays["dst"], weights)
        except GraphError:
            return self._rebuild("is corrupt or truncated")

    def write(self, graph: Graph, report: ProgressCallback) -> None:
        """Store `graph` atomically (temp file + rename); a failure only loses the cache."""
        self.write_arrays(
            {
                "num_vertices": np.array(graph.num_vertices, dtype=np.int64),
                "src": graph.src,
                "dst": graph.dst,
                "weighted": np.array(graph.weights is not None),
                "weights": np.empty(0, np.int32) if graph.weights is None else graph.weights,
            },
            report,
        )

    def blocked(self, size: int, weighted: bool, by_source: bool = False) -> CacheEntry:
        """The entry of the blocked edges (`Graph.blocked(size, by_source)`) of this
        entry's graph, with or without its weights."""
        label = f"blocked{'src' if by_source else ''}{size}{'w' if weighted else ''}"
        file = self.file.with_name(f"{self.file.stem}-{label}.npz")
        return CacheEntry(file, f"{self.key}|{label} v{_BLOCKED_FORMAT_VERSION}")

    def reordered(self, name: str, weighted: bool) -> CacheEntry:
        """The entry of this entry's graph relabelled by the ordering `name`
        (`gir.runtime.graph.reorder`), with or without its weights."""
        label = f"reorder{name}{'w' if weighted else ''}"
        file = self.file.with_name(f"{self.file.stem}-{label}.npz")
        return CacheEntry(file, f"{self.key}|{label} v{_REORDERED_FORMAT_VERSION}")

    def read_blocked(self, graph: Graph, size: int) -> BlockedEdges | None:
        """The cached blocked edges of `graph`, or None (as `read`); checked to be a
        permutation-sized tiling of `graph` by `size`."""
        arrays = self.read_arrays(("offsets", "src", "dst", "weights"), "", ignore_progress)
        if arrays is None:
            return None
        offsets = arrays["offsets"]
        edges = graph.num_edges
        if (
            offsets.size != block_count(graph.num_vertices, size) + 1
            or offsets[-1] != edges
            or arrays["src"].size != edges
            or arrays["dst"].size != edges
        ):
            return self._rebuild("does not fit its graph")
        weights = arrays["weights"] if graph.weights is not None else None
        if weights is not None and weights.size != edges:
            return self._rebuild("does not fit its graph")
        for array in (offsets, arrays["src"], arrays["dst"], weights):
            if array is not None:
                array.setflags(write=False)
        return BlockedEdges(size, offsets, arrays["src"], arrays["dst"], weights)

    def read_arrays(
        self, names: tuple[str, ...], message: str, report: ProgressCallback
    ) -> dict[str, np.ndarray] | None:
        """The arrays `names` of the entry, or None when it is missing, made from
        another key, corrupt or does not match its checksum (noted on stderr).
        `message` goes to `report` once the key matched."""
        remove_stale_temporaries(self.file.parent)
        try:
            stream = _open_regular(self.file)
        except FileNotFoundError:
            return None
        except OSError:
            return self._rebuild("cannot be read")
        if stream is None:
            return self._rebuild("is not a regular file")
        try:
            with stream, zipfile.ZipFile(stream) as archive:
                if str(_read_member(archive, "key")) != self.key:
                    return self._rebuild("was made from another source or version")
                if message:
                    report(message)
                arrays = {name: _read_member(archive, name) for name in names}
                if str(_read_member(archive, "checksum")) != _checksum(arrays):
                    return self._rebuild("does not match its checksum")
            mark_used(self.file)
            return arrays
        except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile):
            return self._rebuild("is corrupt or truncated")

    def write_arrays(self, arrays: dict[str, np.ndarray], report: ProgressCallback) -> None:
        """Store `arrays` with the key and their checksum, atomically (temp file +
        rename); a failure only loses the cache. Arrays larger than the cache's
        cap are not written at all (a graph of billions of edges would take
        minutes to write, then be evicted)."""
        if sum(array.nbytes for array in arrays.values()) > max_bytes():
            print(
                f"note: cache entry {self.file} is larger than the cache's cap "
                f"({format_bytes(max_bytes())}, {MAX_BYTES_VARIABLE}); not kept",
                file=sys.stderr,
            )
            return
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            _remove_special_file(self.file)
            with open_output(self.file, binary=True) as stream:
                write_npz(
                    stream,
                    {"key": np.array(self.key), "checksum": np.array(_checksum(arrays)), **arrays},
                )
            enforce_cap(self.file)
        except OSError as error:
            report(f"cannot write the graph cache {self.file}: {error.strerror}")
        except OutputError as error:
            report(f"cannot write the graph cache {self.file}: {error.reason}")

    def _rebuild(self, problem: str) -> None:
        print(f"note: graph cache entry {self.file} {problem}; rebuilding it", file=sys.stderr)


def _open_regular(path: Path) -> BinaryIO | None:
    """`path` open for reading if it is a regular file, else None; opened without
    blocking, so a FIFO in its place cannot stall the reader."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        return None
    return os.fdopen(descriptor, "rb")


def _remove_special_file(path: Path) -> None:
    """Remove a FIFO, socket or device found where a cache entry is to be written
    (`open_output` would write through it); a directory stays, and fails the write."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        path.unlink()


def _read_member(archive: zipfile.ZipFile, name: str) -> np.ndarray:
    """The array `name` of an `.npz` archive, its `.npy` header checked against the
    member's size before anything is allocated (a ValueError if they disagree)."""
    info = archive.getinfo(f"{name}.npy")
    with archive.open(info) as member:
        version = np.lib.format.read_magic(member)
        read_header = (
            np.lib.format.read_array_header_1_0
            if version == (1, 0)
            else np.lib.format.read_array_header_2_0
        )
        shape, fortran_order, dtype = read_header(member)
        if dtype.hasobject:
            raise ValueError(f"member {name} holds Python objects")
        size = int(np.prod(shape, dtype=object)) * dtype.itemsize
        if size != info.file_size - member.tell():
            raise ValueError(f"the header of member {name} does not match its size")
        array = np.frombuffer(member.read(size), dtype=dtype)
    return array.reshape(shape, order="F" if fortran_order else "C")


_CACHED_ARRAYS = ("num_vertices", "src", "dst", "weighted", "weights")
_BLOCKED_FORMAT_VERSION = 1
_REORDERED_FORMAT_VERSION = 1
"""Part of a relabelled graph's key: raise it when an ordering of `gir.reorder`
changes what it computes, so that cached relabellings are made again."""


def remember_entry(graph: Graph, entry: CacheEntry | None) -> Graph:
    """`graph`, noting the cache `entry` it came through (derived data such as its
    blocked edges is cached beside it)."""
    if entry is not None:
        graph._derived[CACHE_ENTRY] = entry
    return graph
_FILE_DIGEST_WHOLE_LIMIT = 64 << 20
_FILE_DIGEST_SAMPLE = 1 << 20


def _checksum(arrays: dict[str, np.ndarray]) -> str:
    """A SHA-256 over the names, types, shapes and bytes of `arrays` (hashed in parallel)."""
    names = sorted(arrays)
    contiguous = [np.ascontiguousarray(arrays[name]) for name in names]
    with ThreadPoolExecutor(max_workers=min(4, len(names))) as pool:
        digests = list(pool.map(lambda a: hashlib.sha256(memoryview(a).cast("B")).digest(), contiguous))
    combined = hashlib.sha256()
    for name, array, digest in zip(names, contiguous, digests):
        combined.update(f"{name}:{array.dtype.str}:{array.shape};".encode())
        combined.update(digest)
    return combined.hexdigest()


def _file_digest(path: Path, size: int) -> str:
    """A SHA-256 of a file's content: all of it up to 64 MiB, else its first and last MiB.

    Larger files are identified by their size and mtime as well; reading all of a
    multi-GB file would cost as much as the parse the cache saves.
    """
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as stream:
            if size <= _FILE_DIGEST_WHOLE_LIMIT:
                digest.update(stream.read())
                return digest.hexdigest()
            digest.update(stream.read(_FILE_DIGEST_SAMPLE))
            stream.seek(size - _FILE_DIGEST_SAMPLE)
            digest.update(stream.read(_FILE_DIGEST_SAMPLE))
    except OSError as error:
        raise GraphError(f"cannot read the file: {error.strerror}", path=path) from None
    return "sampled:" + digest.hexdigest()


def _cache_file_name(label: str, identity: str) -> str:
    """A readable, collision-safe cache file name for `identity`."""
    digest = hashlib.sha256(identity.encode()).hexdigest()[:16]
    readable = re.sub(r"[^\w.-]+", "_", label)[:60]
    return f"{readable}-{digest}.npz"
