"""Fixtures every test gets (unit and end to end): no test reads or writes the
user's graph cache (`~/.cache/gir`).

Each test has its own `GIR_CACHE_DIR`, so a test never sees what another one
cached. That costs no regeneration: the only graphs the suite caches are the
edge-list files tests write into their own temporary directories (generated
graphs are cached from 2^20 vertices, and the tests' are far smaller), so each
is parsed once either way. Module- and session-scoped fixtures run before a
test's own fixtures, so the session gets a cache directory of its own as well
(one per xdist worker)."""

from __future__ import annotations

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
