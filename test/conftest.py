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


LONGEST_MODULES = (
    "test_tune_runs.py",
    "test_multi_device.py",
    "test_multi_device_nvcc.py",
    "test_language.py",
    "test_cuda_host_nvcc.py",
    "test_reorder_nvcc.py",
    "test_programs.py",
    "test_directions.py",
    "test_docs_tutorial.py",
    "test_multi_device_exchanges.py",
    "test_fuzz_inputs.py",
    "test_api_xdsl_plugin.py",
    "test_packaging.py",
    "test_nx_dispatch.py",
)
"""The test modules that take longest (15-45 s of a core each on a 2-core
machine: nvcc, child processes, the tutorial's commands), longest first."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Runs `LONGEST_MODULES` first, each module's tests kept together and in
    order. tools/test.sh hands whole modules to pytest-xdist's workers in this
    order (`--dist loadfile --no-loadscope-reorder`), so that the modules left
    for the end are short and no worker idles long while another finishes."""
    rank = {name: position for position, name in enumerate(LONGEST_MODULES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


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
