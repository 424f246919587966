"""tools/setup.sh (sourced by quickstart.sh and test.sh) waits for another apt
process's lock instead of failing at once on a fresh machine."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_apt_get_call_waits_for_the_dpkg_lock(tmp_path: Path) -> None:
    fake = tmp_path / "apt-get"
    fake.write_text('#!/bin/sh\necho "apt-get $*" >> "$APT_LOG"\n')
    fake.chmod(0o755)
    log = tmp_path / "apt.log"
    # setup.sh's apt helper alone (sourcing the whole script would install things).
    script = (
        'source <(sed -n "/^_gir_apt_lock=/,/^}/p" tools/setup.sh); '
        '_gir_sudo=""; _gir_apt pocl-opencl-icd'
    )
    environment = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}", "APT_LOG": str(log)}
    done = subprocess.run(
        ["bash", "-c", script], cwd=ROOT, env=environment, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    calls = log.read_text().splitlines()
    assert [call.split()[3] for call in calls] == ["update", "install"]
    assert all(call.startswith("apt-get -o DPkg::Lock::Timeout=300 ") for call in calls)


def test_mkdocs_output_is_ignored_by_git(tmp_path: Path) -> None:
    """`mkdocs build` writes mkdocs.yml's site_dir: git ignores it."""
    lines = (ROOT / "mkdocs.yml").read_text().splitlines()
    site_dir = next(line.split(":", 1)[1].strip() for line in lines if line.startswith("site_dir:"))
    done = subprocess.run(
        ["git", "check-ignore", "--no-index", f"{site_dir}/index.html"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, f"{site_dir}/ (mkdocs build's output) is not in .gitignore"
