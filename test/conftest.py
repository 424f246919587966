"""What every test gets (unit and end to end): no test reads or writes the
user's graph cache (`~/.cache/gir`); and the run's skips summed up by reason.

Each test has its own `GIR_CACHE_DIR`, so a test never sees what another one
cached. That costs no regeneration: the only graphs the suite caches are the
edge-list files tests write into their own temporary directories (generated
graphs are cached from 2^20 vertices, and the tests' are far smaller), so each
is parsed once either way. Module- and session-scoped fixtures run before a
test's own fixtures, so the session gets a cache directory of its own as well
(one per xdist worker)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def session_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """`GIR_CACHE_DIR` for the session, seen by fixtures wider than a test."""
    directory = tmp_path_factory.mktemp("session-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GIR_CACHE_DIR", str(directory))
        yield directory


@pytest.fixture(autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own `GIR_CACHE_DIR` (empty at the start; a subprocess the test
    starts inherits it)."""
    directory = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("GIR_CACHE_DIR", str(directory))
    return directory


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The skipped tests counted by reason, one line each (pytest's `-rs` gives a
    line per skipping test location: about ninety for the CUDA tests alone on a
    machine without a GPU)."""
    reasons = Counter(
        report.longrepr[2].removeprefix("Skipped: ")
        for report in terminalreporter.stats.get("skipped", [])
        if isinstance(report.longrepr, tuple)
    )
    if reasons:
        terminalreporter.section("skipped, by reason")
        for reason, count in reasons.most_common():
            terminalreporter.line(f"{count:5d}  {reason}")
