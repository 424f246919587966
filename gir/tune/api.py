"""Schedules for a program on a graph without writing one: `auto` (the model of
`gir.tune.auto`) and `tuned` (the tuning cache `gir-tune` fills).

```python
gir.auto_schedule("bfs.gt", G)            # the schedule section auto picks for G
prog = gir.compile("bfs.gt", schedule="auto")
prog.run(G, 0)                            # the schedule is chosen when the graph is known
gir.compile("bfs.gt", schedule="tuned").run(G, 0)   # the cached gir-tune result for G
```

A schedule depends on the graph, which `gir.compile` does not see: with
`schedule="auto"` or `"tuned"` it returns a `ScheduledProgram`, which chooses
(and compiles) a schedule per graph on `run`, once per schedule. (`gir.compile`
is `compile` below, above `gir.api.compile`, which knows nothing of tuning: the
tuner sits above the API in gir's layers.)
"""

from __future__ import annotations

import os
from typing import Any

from gir.diagnostics import UserError

__all__ = [
    "SCHEDULE_MODES",
    "ScheduledProgram",
    "auto_schedule",
    "cached_schedule",
    "compile",
    "chosen_schedule",
    "schedulable_source",
    "scheduled_module",
    "tuned_schedule",
]

SCHEDULE_MODES = ("auto", "tuned")
"""The schedule names `gir.compile(schedule=...)` and `gir-run --schedule` take."""


def _host_graph(graph: Any) -> Any:
    """`graph` (anything `Program.run` takes) as a host `Graph`."""
    from gir.api import LoadedGraph, to_graph
    from gir.runtime.graph import Graph, load_graph

    if isinstance(graph, LoadedGraph):
        return graph.host_graph
    host = to_graph(graph)
    return host if isinstance(host, Graph) else load_graph(host)


def schedulable_source(program: Any) -> str:
    """The source of `program` (a `.gt` path or GraphIt text) with a generated
    label on each unlabelled apply (`gir.tune.labels`), as `auto` and `tuned`
    schedule it."""
    from gir.space import read_program
    from gir.tune.labels import label_applies

    return label_applies(read_program(program)[0])


_source = schedulable_source


def auto_schedule(
    program: str | os.PathLike[str], graph: Any, *, target: str | None = None, device_memory: int | None = None
) -> str:
    """The `schedule:` section the auto model picks for `program` (a `.gt` path
    or GraphIt source) on `graph`, for `target` (None: CUDA where it runs, else
    OpenCL; OpenCL has no kernel fusion)."""
    from gir.api import choose_target
    from gir.space import schedule_space
    from gir.tune.auto import auto_point, classify
    from gir.tune.stats import graph_stats

    stats = graph_stats(_host_graph(graph))
    space = schedule_space(_source(program), classify(stats), target=choose_target(target))
    return auto_point(space, stats, device_memory)[0].schedule_section()


def tuned_schedule(
    program: str | os.PathLike[str], graph: Any, *, target: str | None = None, device: int | None = None
) -> str:
    """The `schedule:` section `gir-tune` found for `program` on `graph` on the
    device `target`/`device` names; a UserError when it has not been tuned there."""
    from gir.api import choose_target, load_graph
    from gir.tune.stats import degree_stats

    chosen = choose_target(target)
    name = load_graph(graph, target=chosen, device=device).device.name  # uploads nothing yet
    section = cached_schedule(_source(program), degree_stats(_host_graph(graph)), chosen, name)
    if section is None:
        raise UserError(
            f"error: no tuning result for this program on this graph on {name}: run gir-tune "
            "first (gir-tune PROGRAM GRAPH [ARGS...]), or use --schedule auto"
        )
    return section


def cached_schedule(source: str, degrees: Any, target: str, device_name: str) -> str | None:
    """The `schedule:` section gir-tune stored for the labelled program `source`
    on a graph of out-degree statistics `degrees`, on `target`'s device
    `device_name`; None when it has not been tuned there."""
    from gir.tune.cache import read_entry, tuning_key

    entry = read_entry(tuning_key(source, degrees, target, device_name))
    return None if entry is None else str(entry["schedule"])


def chosen_schedule(
    program: str | os.PathLike[str], mode: str, graph: Any, *, target: str | None = None, device: int | None = None
) -> str:
    """`auto_schedule` or `tuned_schedule` by `mode` ("auto" or "tuned")."""
    if mode == "auto":
        return auto_schedule(program, graph, target=target)
    if mode == "tuned":
        return tuned_schedule(program, graph, target=target, device=device)
    raise UserError(f"error: unknown schedule '{mode}' (expected {' or '.join(SCHEDULE_MODES)})")


def compile(
    program: str | os.PathLike[str] | Any,
    schedule: str | None = None,
    *,
    check_bounds: bool = False,
    name: str | None = None,
    extern: str | os.PathLike[str] | None = None,
    host_externs: Any = None,
) -> Any:
    """`gir.compile`: `gir.api.compile`, and for `schedule="auto"` or `"tuned"` (a
    `.gt` path or GraphIt source) a `ScheduledProgram`, which chooses the schedule
    per graph when it runs (docs/tuning.md)."""
    from gir import api

    if schedule in SCHEDULE_MODES and isinstance(program, str | os.PathLike):
        if extern is not None or host_externs is not None:
            raise UserError(f"error: extern= and host_externs= need a fixed schedule, not schedule={schedule!r}")
        return ScheduledProgram(program, schedule, check_bounds, name)
    return api.compile(
        program, schedule, check_bounds=check_bounds, name=name, extern=extern, host_externs=host_externs
    )


class ScheduledProgram:
    """A GraphIt program whose schedule is chosen per graph (`auto` or `tuned`):
    `run` takes what `gir.Program.run` takes, the graph first."""

    def __init__(self, program: str | os.PathLike[str], mode: str, check_bounds: bool = False, name: str | None = None):
        if mode not in SCHEDULE_MODES:
            raise UserError(f"error: unknown schedule '{mode}' (expected {' or '.join(SCHEDULE_MODES)})")
        self.source = _source(program)
        self.mode = mode
        self.check_bounds = check_bounds
        self.name = name or (
            os.path.splitext(os.path.basename(os.fspath(program)))[0] if "\n" not in os.fspath(program) else "<program>"
        )
        self._programs: dict[tuple[object, ...], Any] = {}
        self._chosen: dict[tuple[object, ...], tuple[Any, str]] = {}

    def schedule_for(self, graph: Any, *, target: str | None = None, device: int | None = None) -> str:
        """The schedule section chosen for `graph` (once per graph: a spec or path
        by its text, an in-memory graph by identity, held while this program is)."""
        key = (graph if isinstance(graph, str) else id(graph), target, device)
        chosen = self._chosen.get(key)
        if chosen is None:
            section = chosen_schedule(self.source, self.mode, graph, target=target, device=device)
            chosen = self._chosen[key] = (graph, section)
        return chosen[1]

    def program_for(self, graph: Any, *, target: str | None = None, device: int | None = None) -> Any:
        """The `gir.Program` compiled with `graph`'s schedule (once per schedule)."""
        import gir
        from gir.tune.cache import algorithm_text

        section = self.schedule_for(graph, target=target, device=device)
        program = self._programs.get((section,))
        if program is None:
            text = algorithm_text(self.source) + "\n\n" + section
            program = self._programs[(section,)] = gir.compile(text, check_bounds=self.check_bounds, name=self.name)
        return program

    def run(self, graph: Any, *args: Any, target: str | None = None, device: int | None = None, **options: Any) -> Any:
        """Runs the program on `graph` under the schedule chosen for it (see
        `gir.Program.run` for `args` and `options`)."""
        return self.program_for(graph, target=target, device=device).run(
            graph, *args, target=target, device=device, **options
        )

    def __repr__(self) -> str:
        return f"ScheduledProgram({self.name}, schedule={self.mode!r})"


def scheduled_module(path: str, mode: str, args: list[str], target: str | None, device: int | None) -> Any:
    """`gir-run --schedule auto|tuned`: the graph-level module of the `.gt` program
    at `path` under the schedule chosen for its graph, `args[0]`."""
    from gir.frontend import parse_graphit_source
    from gir.tune.cache import algorithm_text

    if not path.endswith(".gt"):
        raise UserError(f"error: --schedule {mode} schedules GraphIt programs (.gt), not '{path}'")
    if not args:
        raise UserError(f"error: --schedule {mode} chooses a schedule for a graph: give the program's GRAPH")
    source = _source(path)
    section = chosen_schedule(source, mode, args[0], target=target, device=device)
    return parse_graphit_source((algorithm_text(source) + "\n\n" + section).encode(), path)
