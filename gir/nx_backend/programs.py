"""The GraphIt programs the NetworkX backend ships, and the schedules they run under.

`programs/<name>.gt` holds an algorithm without a schedule. By default
(`nx.config.backends.gir.schedule == "auto"`) its schedule is the one `gir-tune`
stored in the tuning cache for the program, the graph and the device, where
there is one (`tuned_schedule`, e.g. from `gir.tune(programs.path("bfs_levels"),
G, ...)`), else the auto model's (`gir.tune.auto`) for the graph: the graph's statistics (`GirGraph.stats`,
a BFS probe, computed once per NetworkX graph) decide the model's inputs, and
the model's point is kept per (program, target, inputs), so another call on the
same graph neither probes nor chooses again, and another graph of the same class
is probed but not scheduled again. Each program is compiled once per (program, schedule). The config can
force one shape's shipped schedule files instead (`programs/<name>.<shape>.schedule`:
"power_law" for G2's social-graph schedules, "high_diameter" for road-graph ones),
and picks the target and device as `gir.Program.run` does
(`target`, `device`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from gir.nx_backend import DEFAULT_CONFIG
from gir.nx_backend.graph import SHAPES, GirGraph

if TYPE_CHECKING:  # imported where used, as gir.api is: they load xDSL and the passes
    from gir.space import SchedulePoint, ScheduleSpace
    from gir.tune.auto import Choice

DELTA_ARGUMENTS: dict[str, int] = {"sssp": 3}
"""The argument (argv index) through which a program takes its delta-stepping
delta: the backend scales delta by the graph's mean weight (see
`algorithms.ROAD_DELTA_FACTOR`), which the auto model's deltas (G2's, for
DIMACS-scale weights) do not know, so the auto point's delta is replaced by it."""

CLASS_SHAPES = {"road": "high_diameter", "social": "power_law"}
"""The auto model's graph classes as the shipped schedules' shapes."""


@dataclass(frozen=True)
class AutoSchedule:
    """What the auto model chose for a program on a graph."""

    graph_class: str
    """"road" or "social" (`gir.tune.auto.classify`)."""
    point: SchedulePoint
    """The schedule of each labelled statement the program is compiled under."""
    choices: tuple[Choice, ...]
    """The rule behind each labelled statement."""
    space: ScheduleSpace
    """The program's schedule space, which builds its module under `point`."""


_auto: dict[tuple[str, str, tuple[str, bool]], AutoSchedule] = {}
_compiled: dict[tuple[str, object], Any] = {}


def config() -> Any:
    """The backend's NetworkX config (the defaults when NetworkX has none for gir,
    e.g. before the entry points are installed)."""
    import networkx as nx

    settings = getattr(nx.config.backends, "gir", None)
    return settings if settings is not None else nx.utils.Config(**DEFAULT_CONFIG)


def device_options() -> dict[str, Any]:
    """`target` and `device` for `gir.load_graph`, from the backend's config."""
    settings = config()
    return {"target": settings.target, "device": settings.device}


def forced_shape() -> str | None:
    """The shape whose shipped schedules the config forces, or None for "auto"."""
    forced = config().schedule
    if forced == "auto":
        return None
    if forced not in SHAPES:
        raise ValueError(f"nx.config.backends.gir.schedule is 'auto' or one of {SHAPES}, not {forced!r}")
    return forced


def schedule_shape(graph: GirGraph) -> str:
    """The shape of the schedule that runs on `graph`: the config's, or under
    "auto" the auto model's class of the graph as a shape (`CLASS_SHAPES`)."""
    from gir.tune.auto import classify

    return forced_shape() or CLASS_SHAPES[classify(graph.stats())]


def program_text(name: str, suffix: str) -> str:
    """The text of the shipped file `programs/<name><suffix>`."""
    return resources.files(__package__).joinpath("programs", name + suffix).read_text()


def path(name: str) -> str:
    """The path of the shipped program `name` (`programs/<name>.gt`), to tune it:
    `gir.tune(path("bfs_levels"), G, source, threshold)` stores a schedule the
    backend then runs on `G` (and on graphs of the same degree signature)."""
    return str(resources.files(__package__).joinpath("programs", name + ".gt"))


@cache
def _schedulable_source(name: str) -> str:
    """Program `name`'s source with its applies labelled, as gir-tune keys it."""
    from gir.tune.api import schedulable_source

    return schedulable_source(program_text(name, ".gt"))


def tuned_schedule(name: str, graph: GirGraph) -> str | None:
    """The `schedule:` section gir-tune stored for program `name` on `graph` (its
    degree signature) on the config's target and device, or None."""
    from gir.api import choose_target
    from gir.tune.api import cached_schedule

    target = choose_target(config().target)
    return cached_schedule(_schedulable_source(name), graph.stats().degrees, target, graph.loaded().device.name)


def auto_schedule(name: str, graph: GirGraph) -> AutoSchedule:
    """The auto model's schedule of program `name` on `graph`, for the config's
    target (chosen once per program, target and model inputs)."""
    from gir.api import choose_target
    from gir.tune.auto import model_inputs

    target = choose_target(config().target)
    inputs = model_inputs(graph.stats())
    key = (name, target, inputs)
    chosen = _auto.get(key)
    if chosen is None:
        chosen = _auto[key] = _choose(name, target, graph)
    return chosen


def _choose(name: str, target: str, graph: GirGraph) -> AutoSchedule:
    """The auto model's point for program `name` on `graph`, its delta-stepping
    delta taken from the program's argument (`DELTA_ARGUMENTS`)."""
    from gir.dialects.schedule import ArgvAttr, SimpleScheduleAttr
    from gir.space import SchedulePoint, schedule_space
    from gir.tune.api import schedulable_source
    from gir.tune.auto import auto_point, classify

    stats = graph.stats()
    graph_class = classify(stats)
    space = schedule_space(schedulable_source(program_text(name, ".gt")), graph_class, target=target)
    point, choices = auto_point(space, stats)
    if name in DELTA_ARGUMENTS:
        delta = ArgvAttr(DELTA_ARGUMENTS[name])
        point = SchedulePoint(
            {
                label: schedule.with_options(delta=delta)
                if isinstance(schedule, SimpleScheduleAttr) and not schedule.has_default_delta
                else schedule
                for label, schedule in point.items()
            }
        )
    return AutoSchedule(graph_class, point, tuple(choices), space)


def program(name: str, graph: GirGraph) -> Any:
    """Program `name` compiled under the schedule for `graph` (a `gir.Program`),
    once per schedule."""
    from gir.api import compile as compile_program

    shape = forced_shape()
    if shape is not None:
        compiled = _compiled.get((name, shape))
        if compiled is None:
            source = program_text(name, ".gt")
            schedule = program_text(name, f".{shape}.schedule")
            compiled = _compiled[(name, shape)] = compile_program(source, schedule, name=name)
        return compiled
    tuned = tuned_schedule(name, graph)
    if tuned is not None:
        compiled = _compiled.get((name, tuned))
        if compiled is None:
            from gir.tune.cache import algorithm_text

            text = algorithm_text(_schedulable_source(name)) + "\n\n" + tuned
            compiled = _compiled[(name, tuned)] = compile_program(text, name=name)
        return compiled
    chosen = auto_schedule(name, graph)
    compiled = _compiled.get((name, chosen.point))
    if compiled is None:
        compiled = _compiled[(name, chosen.point)] = compile_program(chosen.space.module(chosen.point), name=name)
    return compiled
