"""Writing output files so that a failure never leaves a partial file.

Every file gir writes (`gir-opt -o`, `gir-translate -o`, `gir-run --dump`, the graph
cache) goes through `open_output`:

- a regular file, or a path that does not exist yet, is written to a temporary file
  in the same directory (`.NAME.PID.RANDOM.tmp`) that is renamed over the target
  only once everything was written; on any error, KeyboardInterrupt included, the
  temporary file is removed and the target is untouched;
- a symbolic link is followed: its target is replaced and the link stays a link;
- a character device, FIFO or socket (`/dev/null`), or an open descriptor
  (`/dev/stdout`, `/proc/self/fd/N`, whatever it is redirected to), is written
  straight through, never replaced by a regular file;
- a directory, or an existing file the user may not write, is an `OutputError`.

A writer killed by SIGKILL cannot clean up after itself: `remove_stale_temporaries`
removes the temporary files of writers that are gone (their PID no longer exists)
or that stopped writing long ago.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

from gir.diagnostics import UserError

TEMPORARY_SUFFIX = ".tmp"
STALE_AFTER_SECONDS = 10 * 60
"""A temporary file not modified for this long belongs to a writer that is stuck or gone."""

_TEMPORARY_NAME = re.compile(r"^\..+\.(?P<pid>[0-9]+)\.[^.]+" + re.escape(TEMPORARY_SUFFIX) + "$")


class OutputError(UserError):
    """An output file cannot be written; `str(error)` is one line naming the file."""

    def __init__(self, path: str | os.PathLike[str], reason: str):
        super().__init__(f"error: cannot write '{os.fspath(path)}': {reason}")
        self.path = os.fspath(path)
        self.reason = reason


@contextmanager
def open_output(path: str | os.PathLike[str], binary: bool = False) -> Iterator[IO]:
    """A stream whose content becomes the file `path` only if the block succeeds.

    See the module docstring for symlinks, devices and directories. OSErrors while
    opening, writing or renaming become an `OutputError` naming `path`.
    """
    mode = "wb" if binary else "w"
    target = Path(os.path.realpath(path))
    existing = _existing_output(path)
    if existing is not None and (
        not stat.S_ISREG(existing.st_mode) or _is_descriptor_link(target)
    ):
        with _reporting_os_errors(path):
            stream = open(path, mode)
        with _reporting_os_errors(path), stream:
            yield stream
        return
    with _reporting_os_errors(path):
        descriptor, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.{os.getpid()}.", suffix=TEMPORARY_SUFFIX
        )
    try:
        with _reporting_os_errors(path):
            with os.fdopen(descriptor, mode) as stream:
                yield stream
            os.chmod(temporary, _permissions_for(existing))
            os.replace(temporary, target)
    except BaseException:
        _remove_quietly(Path(temporary))
        raise


def check_writable(path: str | os.PathLike[str]) -> None:
    """Raise the `OutputError` that writing `path` would raise, without writing.

    For tools that work long before they write: a bad output path is reported first.
    """
    if _existing_output(path) is not None:
        return
    directory = Path(os.path.realpath(path)).parent
    if not directory.is_dir():
        raise OutputError(path, f"no directory {directory}")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise OutputError(path, f"permission denied in {directory}")


def stdout_closed_quietly() -> int:
    """What a tool does when the reader of its standard output went away (`gir-opt
    X | head -1`): stop writing, with no traceback and no message, as Unix tools
    do. Standard output is pointed at /dev/null so that the interpreter's final
    flush does not complain either; the status is 1 (Python's own for SIGPIPE
    handled this way)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 1


def check_not_input(output: str | os.PathLike[str] | None, input_: str | os.PathLike[str] | None) -> None:
    """Raises an `OutputError` when `output` is the file `input_` (the same file by
    any name): a compiler writing its output over its own input loses the input,
    so `gir-opt X -o X` is refused, as C compilers refuse it."""
    if output is None or input_ is None or os.fspath(input_) == "-":
        return
    try:
        same = os.path.samefile(output, input_)
    except OSError:  # either does not exist (yet): not the same file
        return
    if same and stat.S_ISREG(os.stat(output).st_mode):
        raise OutputError(output, "it is the input file (give another output file)")


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` to `path` through `open_output`."""
    with open_output(path) as stream:
        stream.write(text)


def write_npz(stream: IO[bytes], arrays: Mapping[str, np.ndarray]) -> None:
    """Write `arrays` as an uncompressed `.npz` archive that `np.load` reads.

    Unlike `np.savez(file, **arrays)`, any name works, `file` and `allow_pickle`
    included: the names are data, never keyword arguments.
    """
    import numpy as np  # here: numpy is a sixth of the start-up of tools that write no arrays

    with zipfile.ZipFile(stream, mode="w", compression=zipfile.ZIP_STORED, allowZip64=True) as archive:
        for name, array in arrays.items():
            with archive.open(f"{name}.npy", mode="w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)


def remove_stale_temporaries(directory: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files in `directory` left by writers that were killed.

    A temporary file is stale when the process that created it no longer exists, or
    when it was not modified for `STALE_AFTER_SECONDS`. Returns the removed files.
    """
    removed = []
    now = time.time()
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    for entry in entries:
        match = _TEMPORARY_NAME.match(entry.name)
        if match is None:
            continue
        try:
            age = now - entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        if age > STALE_AFTER_SECONDS or not _process_exists(int(match["pid"])):
            if _remove_quietly(Path(entry.path)):
                removed.append(Path(entry.path))
    return removed


def _existing_output(path: str | os.PathLike[str]) -> os.stat_result | None:
    """The status of the file `path` names (None if there is none), if it may be written."""
    existing = _stat_or_none(Path(path))
    if existing is not None and stat.S_ISDIR(existing.st_mode):
        raise OutputError(path, "it is a directory")
    if existing is not None and not os.access(path, os.W_OK):
        raise OutputError(path, "permission denied")
    return existing


def _is_descriptor_link(target: Path) -> bool:
    """Whether a path resolved to an open descriptor of a process (`/dev/stdout` ->
    `/proc/PID/fd/1` -> `pipe:[...]` or the file the shell redirected to)."""
    return target.parts[:2] == ("/", "proc") or not target.exists()


def _stat_or_none(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise OutputError(path, error.strerror or str(error)) from None


@contextmanager
def _reporting_os_errors(path: str | os.PathLike[str]) -> Iterator[None]:
    try:
        yield
    except OSError as error:
        raise OutputError(path, error.strerror or str(error)) from None


def _permissions_for(existing: os.stat_result | None) -> int:
    """The mode bits the output gets: those of the file it replaces, else 0o666 - umask."""
    if existing is not None:
        return stat.S_IMODE(existing.st_mode)
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process, or not a PID of this system: leave it
    return True


def _remove_quietly(path: Path) -> bool:
    try:
        path.unlink()
    except OSError:
        return False
    return True
