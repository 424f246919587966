"""docs/tutorial.md, done: in a copy of the repository, every file the tutorial
creates is written, every line it adds is inserted where it says, and every `sh`
block is run (each must succeed), in order. A tutorial step that no longer works
(an API it uses changed, a command's output moved) fails here. Then the copy
holds what the tutorial promises a new strategy costs: new files, one line added
to `gir/passes/__init__.py`, nothing else edited but the generated docs, which
are current (the docs tests pass on the copy).

A code block whose first line is `# new file: PATH` (or `// new file: PATH`) is
written to PATH; one whose first line is `# in PATH, after the line: TEXT` is
inserted after the first line of PATH that reads TEXT (spaces around it aside)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
TUTORIAL = ROOT / "docs" / "tutorial.md"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
NEW_FILE = re.compile(r"^(?:#|//) new file: (\S+)$")
INSERT = re.compile(r"^(?:#|//) in (\S+), after the line: (.+)$")


def _copy_repository(target: Path) -> None:
    """The repository's files (tracked, or new and not ignored) copied to `target`."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def _insert(path: Path, anchor: str, text: str) -> None:
    lines = path.read_text().splitlines(keepends=True)
    for position, line in enumerate(lines):
        if line.strip() == anchor.strip():
            lines[position + 1 : position + 1] = [text]
            path.write_text("".join(lines))
            return
    raise AssertionError(f"tutorial: no line '{anchor}' in {path.name}")


def _edited(original: Path, copy: Path) -> dict[str, tuple[list[str], list[str]]]:
    """The files of `original` that differ in `copy`: (original lines, copy lines)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=original, capture_output=True, check=True,
    ).stdout.decode()
    edited = {}
    for name in filter(None, listed.split("\0")):
        if (original / name).is_file() and (original / name).read_bytes() != (copy / name).read_bytes():
            edited[name] = ((original / name).read_text().splitlines(), (copy / name).read_text().splitlines())
    return edited


def _steps() -> list[tuple[str, str]]:
    """The tutorial's code blocks as (language, text), in order."""
    return [(match.group(1), match.group(2)) for match in BLOCK.finditer(TUTORIAL.read_text())]


def test_tutorial_has_steps_of_each_kind() -> None:
    steps = _steps()
    firsts = [text.splitlines()[0] for _, text in steps]
    assert sum(bool(NEW_FILE.match(first)) for first in firsts) >= 2
    assert sum(bool(INSERT.match(first)) for first in firsts) == 1  # the registration line
    assert sum(language == "sh" for language, _ in steps) >= 5


@pytest.mark.skipif(shutil.which("git") is None, reason="copying the repository needs git")
def test_tutorial_commands_work(tmp_path: Path) -> None:
    copy = tmp_path / "gir"
    _copy_repository(copy)
    bin_dir = Path(sys.executable).parent
    env = {
        **os.environ,
        "PYTHONPATH": str(copy),
        "PATH": os.pathsep.join([str(bin_dir), os.environ.get("PATH", "")]),
        "GIR_CACHE_DIR": str(tmp_path / "cache"),
    }
    for language, text in _steps():
        first, _, rest = text.partition("\n")
        if match := NEW_FILE.match(first):
            (copy / match.group(1)).parent.mkdir(parents=True, exist_ok=True)
            (copy / match.group(1)).write_text(rest)
        elif match := INSERT.match(first):
            _insert(copy / match.group(1), match.group(2), rest)
        elif language == "sh":
            done = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", text], cwd=copy, env=env,
                capture_output=True, text=True, timeout=900,
            )
            assert done.returncode == 0, f"{text}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
    edited = _edited(ROOT, copy)
    generated = {f"docs/{page}" for page in ("dialects.md", "levels.md", "schedules.md")}
    assert set(edited) - generated == {"gir/passes/__init__.py"}, sorted(edited)
    before, after = edited["gir/passes/__init__.py"]
    assert len(after) == len(before) + 1 and [line for line in after if line not in before] == [
        'register_load_balance("QM", "quad_mapped", "QuadMapped")'
    ]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test/unit/test_docs.py",
         "-k", "current or option"],
        cwd=copy, env=env, capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
