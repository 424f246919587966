"""A test module's cases run in one pytest process of its own, for cases that
need an environment fixed before a library starts: PoCL's device count
(`POCL_DEVICES`) is read once per process, when pyopencl first lists the
platforms, which the collection of other modules already did in a pytest-xdist
worker. One child process runs every case of the module that needs it (each
start costs seconds: Python, gir, pytest's collection), and each case of the
parent then reads its own outcome from the child's junit report."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from functools import cache
from pathlib import Path

import pytest


@cache
def _outcomes(module: str, environment: tuple[tuple[str, str], ...]) -> tuple[dict[str, tuple[str, str]], str]:
    """The cases of `module` run by pytest in a child process with `environment`
    added: each case's outcome (`passed`, `failure`, `error` or `skipped`) and
    its text, and the end of the child's output."""
    with tempfile.TemporaryDirectory(prefix="gir-own-process-") as scratch:
        report = Path(scratch) / "report.xml"
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", module,
                   f"--junitxml={report}"]  # fmt: skip
        child = subprocess.run(
            command, capture_output=True, text=True, env={**os.environ, **dict(environment)}, timeout=900
        )
        output = (child.stdout + child.stderr)[-3000:]
        if not report.exists():
            return {}, output
        outcomes: dict[str, tuple[str, str]] = {}
        for case in ElementTree.parse(report).getroot().iter("testcase"):
            not_passed = next(iter([*case.iter("failure"), *case.iter("error"), *case.iter("skipped")]), None)
            outcomes[case.get("name", "")] = (
                ("passed", "")
                if not_passed is None
                else (not_passed.tag, f"{not_passed.get('message')}\n{not_passed.text or ''}")
            )
        return outcomes, output


def check_in_own_process(request: pytest.FixtureRequest, environment: dict[str, str]) -> None:
    """Asserts that the case `request` runs passed in the child process that ran
    its module with `environment` (skips where it skipped there); the child
    must tell itself apart by a variable of `environment`, and run its cases."""
    outcomes, output = _outcomes(str(request.path), tuple(sorted(environment.items())))
    outcome, text = outcomes.get(request.node.name, ("failure", f"did not run in the child process:\n{output}"))
    if outcome == "skipped":
        pytest.skip(text)
    assert outcome == "passed", text
