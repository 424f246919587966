"""gir: a multi-level IR compiler for graph algorithms on GPUs, built on xDSL.

From Python (see `gir.api` and docs/python.md):

```python
import gir
prog = gir.compile("bfs.gt")
out = prog.run("rmat:10", 0)          # {vector name: numpy array}, plus out.times
len(gir.schedule_space("bfs.gt"))     # every legal schedule (docs/schedule-space.md)
gir.tune("bfs.gt", "rmat:16", 0, budget=60)   # search it on a graph (docs/tuning.md)
```
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import Any

try:
    __version__ = version("gir")
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "unknown"

_API = ("compile", "load_graph", "Program", "LoadedGraph", "Result", "UserError")
__all__ = ["__version__", *_API, "auto_schedule", "schedule_space", "tune"]


def __getattr__(name: str) -> Any:
    """The Python API, imported on first use so that the command-line tools, which
    import `gir.*` modules, do not pay for the runtime."""
    if name == "UserError":
        from gir.diagnostics import UserError

        return UserError
    if name == "schedule_space":
        from gir.space import schedule_space

        return schedule_space
    if name in ("tune", "auto_schedule", "compile"):
        # gir.compile is gir.tune.api.compile: gir.api.compile, and schedule="auto"
        # or "tuned" chosen per graph (the tuner sits above gir.api)
        import gir.tune
        import gir.tune.api

        return {"tune": gir.tune, "auto_schedule": gir.tune.auto_schedule, "compile": gir.tune.api.compile}[name]
    if name in _API:
        from gir import api

        return getattr(api, name)
    raise AttributeError(f"module 'gir' has no attribute '{name}'")
