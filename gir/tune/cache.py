"""The tuning cache: the best schedule `gir-tune` found, per program, schedule
space, graph and device.

Entries are JSON files under `$GIR_CACHE_DIR/tune` (default `~/.cache/gir/tune`),
named by a key that hashes:

- the program's algorithm: its graph-level IR without the `schedule:` section
  (tuning replaces the section, so a program and its tuned copy share a key, and
  comments or layout do not count);
- the schedule-space version (`space_version`): a hash of the registered axis
  values and the numeric candidates, so that an entry made before an axis gained
  or lost a value is not reused;
- the graph's signature (`DegreeStats.signature`: vertex and edge counts,
  degree statistics);
- the target and the device's name.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from gir.tune.stats import DegreeStats

__all__ = ["algorithm_hash", "algorithm_text", "cache_dir", "read_entry", "space_version", "tuning_key", "write_entry"]


def cache_dir() -> Path:
    """Where tuning results live: `$GIR_CACHE_DIR/tune` (default `~/.cache/gir/tune`)."""
    return Path(os.environ.get("GIR_CACHE_DIR") or Path.home() / ".cache" / "gir") / "tune"


def algorithm_text(source: str) -> str:
    """`source` without its schedule section (and trailing blank lines)."""
    from gir.space import SCHEDULE_SECTION

    found = SCHEDULE_SECTION.search(source)
    return (source if found is None else source[: found.start()]).rstrip()


@cache
def algorithm_hash(source: str) -> str:
    """A hash of `source`'s graph-level IR without its schedule section."""
    from gir.space import without_schedules

    return hashlib.sha256(str(without_schedules(source, "<program>")).encode()).hexdigest()


@cache
def space_version() -> str:
    """A hash of what `gir.schedule_space` enumerates: every registered axis value
    and the numeric candidates (`gir.space`'s constants)."""
    import gir.passes  # noqa: F401  (fills the registries)
    from gir import axes, space

    vocabulary = {
        "directions": list(axes.DIRECTIONS),
        "load_balances": list(axes.LOAD_BALANCES),
        "pull_frontiers": list(axes.pull_frontiers()),
        "creations": list(axes.frontier_creations()),
        "block_sizes": list(space.BLOCK_SIZES),
        "blocks_per_sm": list(space.BLOCKS_PER_SM),
        "blocking_sizes": list(space.BLOCKING_SIZES),
        "bucket_fusion": list(space.BUCKET_FUSION_THRESHOLDS),
        "classes": {str(k): [list(v.deltas), list(v.hybrid_thresholds)] for k, v in space.GRAPH_CLASSES.items()},
    }
    return hashlib.sha256(json.dumps(vocabulary, sort_keys=True).encode()).hexdigest()[:16]


def tuning_key(source: str, degrees: DegreeStats, target: str, device: str) -> str:
    """The cache key of tuning `source` on a graph with `degrees` on `device`."""
    fields = {
        "program": algorithm_hash(source),
        "space": space_version(),
        "graph": degrees.signature(),
        "target": target,
        "device": device,
    }
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:32]


def _entry_path(key: str) -> Path:
    return cache_dir() / f"{key}.json"


def read_entry(key: str) -> dict[str, Any] | None:
    """The cached result of `key`, None when there is none (or it is unreadable)."""
    try:
        entry = json.loads(_entry_path(key).read_text())
    except (OSError, ValueError):
        return None
    return entry if isinstance(entry, dict) and "schedule" in entry else None


def write_entry(key: str, entry: dict[str, Any]) -> Path:
    """Stores `entry` (it has a `schedule` section text) under `key`, atomically."""
    path = _entry_path(key)
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_suffix(f".{os.getpid()}.tmp")
    scratch.write_text(json.dumps(entry, indent=1, sort_keys=True))
    os.replace(scratch, path)
    return path
