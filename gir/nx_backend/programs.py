"""The GraphIt programs the NetworkX backend ships, compiled once per schedule.

`programs/<name>.gt` holds an algorithm without a schedule; each
`programs/<name>.<shape>.schedule` is the `schedule:` section it is compiled
under for graphs of that shape (see `GirGraph.shape`). The backend's config
(`nx.config.backends.gir`) can force one shape (`schedule`), and pick the target
and device as `gir.Program.run` does (`target`, `device`).
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from gir.nx_backend import DEFAULT_CONFIG
from gir.nx_backend.graph import SHAPES, GirGraph

_compiled: dict[tuple[str, str], Any] = {}


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


def schedule_shape(graph: GirGraph) -> str:
    """The shape whose schedule runs on `graph`: the config's, or the graph's own."""
    forced = config().schedule
    if forced == "auto":
        return graph.shape()
    if forced not in SHAPES:
        raise ValueError(f"nx.config.backends.gir.schedule is 'auto' or one of {SHAPES}, not {forced!r}")
    return forced


def program_text(name: str, suffix: str) -> str:
    """The text of the shipped file `programs/<name><suffix>`."""
    return resources.files(__package__).joinpath("programs", name + suffix).read_text()


def program(name: str, graph: GirGraph) -> Any:
    """Program `name` compiled under the schedule for `graph` (a `gir.Program`), once."""
    from gir.api import compile as compile_program

    shape = schedule_shape(graph)
    compiled = _compiled.get((name, shape))
    if compiled is None:
        source = program_text(name, ".gt")
        schedule = program_text(name, f".{shape}.schedule")
        compiled = _compiled[(name, shape)] = compile_program(source, schedule, name=name)
    return compiled
