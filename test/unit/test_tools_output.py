"""Tests of `gir.tools.output`: atomic outputs, symlinks, devices, stale temporaries, npz."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from gir.tools.opt import report_user_errors
from gir.tools.output import (
    STALE_AFTER_SECONDS,
    OutputError,
    check_writable,
    open_output,
    remove_stale_temporaries,
    write_npz,
    write_text,
)


def leftovers(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.iterdir() if path.name.endswith(".tmp"))


def test_new_and_existing_files_are_replaced_whole(tmp_path: Path) -> None:
    target = tmp_path / "out.mlir"
    write_text(target, "first\n")
    assert target.read_text() == "first\n"
    target.chmod(0o640)
    write_text(target, "second\n")
    assert target.read_text() == "second\n"
    assert oct(target.stat().st_mode & 0o777) == oct(0o640)  # the mode is kept
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("failure", [RuntimeError, KeyboardInterrupt])
def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, failure: type[BaseException]
) -> None:
    target = tmp_path / "out.cl"
    target.write_text("old\n")
    with pytest.raises(failure):
        with open_output(target) as stream:
            stream.write("partial")
            raise failure()
    assert target.read_text() == "old\n"
    assert leftovers(tmp_path) == []
    new = tmp_path / "new.cl"
    with pytest.raises(failure):
        with open_output(new) as stream:
            stream.write("partial")
            raise failure()
    assert not new.exists()


def test_a_symlink_stays_a_link_and_its_target_is_written(tmp_path: Path) -> None:
    real = tmp_path / "real.cu"
    real.write_text("original\n")
    link = tmp_path / "link.cu"
    link.symlink_to(real)
    write_text(link, "new\n")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new\n"
    dangling = tmp_path / "dangling.cu"
    dangling.symlink_to(tmp_path / "created.cu")
    write_text(dangling, "made\n")
    assert dangling.is_symlink() and (tmp_path / "created.cu").read_text() == "made\n"


def test_a_character_device_is_written_through() -> None:
    write_text("/dev/null", "discarded\n")
    assert Path("/dev/null").is_char_device()


def test_a_fifo_is_written_through(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    write_text(fifo, "through the pipe\n")
    assert reader.communicate(timeout=30)[0] == "through the pipe\n"
    assert fifo.is_fifo()


def test_directories_missing_parents_and_read_only_files_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match=r"cannot write '.*': it is a directory$"):
        write_text(tmp_path, "x")
    with pytest.raises(OutputError, match=r"cannot write '.*/missing/out': No such file"):
        write_text(tmp_path / "missing" / "out", "x")
    if os.geteuid() != 0:  # root may write anything
        locked = tmp_path / "locked.txt"
        locked.write_text("keep\n")
        locked.chmod(0o444)
        with pytest.raises(OutputError, match="permission denied"):
            write_text(locked, "x")
        assert locked.read_text() == "keep\n"


def test_write_npz_takes_any_name(tmp_path: Path) -> None:
    vectors = {
        "file": np.arange(3, dtype=np.int32),
        "allow_pickle": np.array([1.5, 2.5], dtype=np.float32),
        "x": np.zeros(0, dtype=np.int64),
    }
    with open_output(tmp_path / "d.npz", binary=True) as stream:
        write_npz(stream, vectors)
    with np.load(tmp_path / "d.npz", allow_pickle=False) as loaded:
        assert sorted(loaded.keys()) == sorted(vectors)
        for name, array in vectors.items():
            assert loaded[name].dtype == array.dtype
            assert np.array_equal(loaded[name], array)


def test_stale_temporaries_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    dead_pid = int(dead.stdout)
    of_dead_writer = tmp_path / f".g.npz.{dead_pid}.abc123.tmp"
    of_live_writer = tmp_path / f".g.npz.{os.getpid()}.def456.tmp"
    old_live = tmp_path / f".h.npz.{os.getpid()}.ghi789.tmp"
    unrelated = tmp_path / "notes.tmp"
    for path in (of_dead_writer, of_live_writer, old_live, unrelated):
        path.write_bytes(b"partial")
    long_ago = time.time() - STALE_AFTER_SECONDS - 60
    os.utime(old_live, (long_ago, long_ago))
    removed = remove_stale_temporaries(tmp_path)
    assert sorted(path.name for path in removed) == sorted([of_dead_writer.name, old_live.name])
    assert of_live_writer.exists() and unrelated.exists()


def test_an_interrupted_tool_leaves_no_file_and_no_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "out.mlir"

    def interrupted_write() -> None:
        with open_output(target) as stream:
            stream.write("partial")
            raise KeyboardInterrupt

    assert report_user_errors(interrupted_write) == 130
    assert capsys.readouterr().err == "error: interrupted\n"
    assert not target.exists() and leftovers(tmp_path) == []


def test_dev_stdout_is_written_through_to_a_pipe_or_a_redirected_file(tmp_path: Path) -> None:
    writer = [sys.executable, "-c", "from gir.tools.output import write_text; "
              "write_text('/dev/stdout', 'to stdout\\n')"]  # fmt: skip
    piped = subprocess.run(writer, capture_output=True, text=True, check=True)
    assert piped.stdout == "to stdout\n"
    redirected = tmp_path / "redirected.txt"
    with open(redirected, "w") as stream:
        subprocess.run(writer, stdout=stream, check=True)
    assert redirected.read_text() == "to stdout\n"
    assert leftovers(tmp_path) == []


def test_check_writable_reports_before_any_work(tmp_path: Path) -> None:
    check_writable(tmp_path / "new.npz")
    (tmp_path / "old.npz").write_bytes(b"")
    check_writable(tmp_path / "old.npz")
    check_writable("/dev/null")
    with pytest.raises(OutputError, match="it is a directory"):
        check_writable(tmp_path)
    with pytest.raises(OutputError, match=r"cannot write '.*/missing/d.npz': no directory"):
        check_writable(tmp_path / "missing" / "d.npz")



@pytest.mark.parametrize(
    "command",
    ["-m gir", "-m gir.tools.translate --to-opencl test/programs/bfs.gt"],
)
def test_a_reader_that_goes_away_ends_the_tool_quietly(command: str, tmp_path: Path) -> None:
    """`python -m gir | head -c 1`: no BrokenPipeError traceback, no message."""
    errors = tmp_path / "stderr"
    subprocess.run(
        f"{sys.executable} {command} 2>{errors} | head -c 1 >/dev/null",
        shell=True, cwd=Path(__file__).parents[2], check=True,
    )  # fmt: skip
    assert errors.read_text() == ""


def test_errors_show_control_characters_escaped() -> None:
    """Every UserError's message is printable: ESC, BEL and C1 controls of an
    input (a graph file's line, a name) are shown as escapes, newlines kept."""
    from gir.diagnostics import SourceError, UserError

    assert str(UserError("error: '\x1b]0;X\x07' bad\n  in: \x9b")) == "error: '\\x1b]0;X\\x07' bad\n  in: \\x9b"
    assert str(SourceError("a\x1b.gt", 1, 2, "m")) == "a\\x1b.gt:1:2: error: m"
