"""Schedules without an expert: `gir.tune` searches a program's schedule space on
a graph (`gir-tune`), `schedule="auto"` picks one from the graph's statistics.

- `tune(program, graph, *args, budget=...)`: optuna's TPE sampler over
  `gir.schedule_space(program)`, every candidate timed by the program's own timer
  and checked; the best is stored in the tuning cache (`gir.tune.search`).
- `auto_schedule(program, graph)`: the auto model's choice, no search
  (`gir.tune.auto`: rules per graph class and traversal shape).
- `tuned_schedule(program, graph)`: the cached result of an earlier `tune`
  (`gir.tune.cache`).
- `ScheduledProgram`: what `gir.compile(program, schedule="auto"|"tuned")`
  returns; it chooses the schedule when `run` sees the graph (`gir.tune.api`).

docs/tuning.md describes the search, the cache and the auto model's rules.

`gir.tune` is both this package and the function: the package is callable,
`gir.tune(program, graph, *args, budget=120)` is `gir.tune.tune(...)` (a
submodule would otherwise hide a function of its name once imported).
"""

import sys
import types
from typing import Any

from gir.tune.api import SCHEDULE_MODES, ScheduledProgram, auto_schedule, chosen_schedule, tuned_schedule
from gir.tune.search import Measurement, TuneResult, tune

__all__ = [
    "SCHEDULE_MODES",
    "Measurement",
    "ScheduledProgram",
    "TuneResult",
    "auto_schedule",
    "chosen_schedule",
    "tune",
    "tuned_schedule",
]


class _CallableModule(types.ModuleType):
    """This package, callable as `tune`."""

    def __call__(self, *args: Any, **options: Any) -> TuneResult:
        return tune(*args, **options)


sys.modules[__name__].__class__ = _CallableModule
