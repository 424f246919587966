"""The schedule axes: each axis's values by name, and the strategies that realize them.

A schedule value (`load_balance = TWCE`, `direction = PULL`, a layout, a frontier
creation, a pull frontier) is a name that one registered strategy owns. This
module holds the registries; the strategy protocols, with their capability
methods, live in the axis packages of `gir/passes/` (`load_balance`,
`directions`, `layouts`, `representations`), and `gir/passes/__init__.py`
fills the registries, one registration line per strategy.

Why a module of its own, below both the dialects and the passes: the schedule
attributes (`gir/dialects/schedule.py`) verify their names against these
registries, and the passes that realize the names import the dialects. With the
registries here, neither imports the other at import time: a registry imports
its registration module (`REGISTRATIONS`, i.e. `gir.passes`) the first time it
is asked for a name, and a strategy's own module the first time the strategy is
used. So parsing `#graph.simple_schedule<load_balance = TWCE>` works without
importing any pass first, and a tool that never asks starts fast.

Frontier creations and pull frontiers are not registries of their own: each
frontier representation declares the creation (`FrontierRepresentation.creation`)
and the pull-input name (`pull_frontier`) it realizes, and `frontier_creations()`
and `pull_frontiers()` collect them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Generic, TypeVar

from gir.diagnostics import UserError

if TYPE_CHECKING:
    from gir.passes.directions import DirectionStrategy
    from gir.passes.intersections import IntersectionStrategy
    from gir.passes.layouts import LayoutStrategy
    from gir.passes.load_balance import LoadBalanceStrategy
    from gir.passes.representations import FrontierRepresentation

KeyT = TypeVar("KeyT")
StrategyT = TypeVar("StrategyT")

REGISTRATIONS = "gir.passes"
"""The module whose import registers every strategy (one line each)."""


def _load_registrations() -> None:
    importlib.import_module(REGISTRATIONS)


class StrategyRegistry(Generic[KeyT, StrategyT]):
    """The strategies of one schedule axis by key (a schedule value's name, or a
    frontier type for representations), in registration order. Each strategy's
    module is imported and the strategy made on first use."""

    def __init__(self, package: str, missing: Callable[[KeyT], str]):
        self._package = package
        self._missing = missing
        self._entries: dict[KeyT, tuple[str, str]] = {}
        self._instances: dict[KeyT, StrategyT] = {}

    def register(self, key: KeyT, module: str, cls: str) -> None:
        """Registers `<package>.<module>.<cls>` for `key`."""
        self._entries[key] = (module, cls)

    def keys(self) -> list[KeyT]:
        """The registered keys, in registration order (registering them first)."""
        _load_registrations()
        return list(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self.keys()

    def __iter__(self) -> Iterator[KeyT]:
        return iter(self.keys())

    def __len__(self) -> int:
        return len(self.keys())

    def get(self, key: KeyT) -> StrategyT:
        """The strategy registered for `key` (a UserError naming it if there is none)."""
        if key not in self._instances:
            entry = self._entries.get(key) if key in self else None
            if entry is None:
                raise UserError(self._missing(key))
            module, cls = entry
            self._instances[key] = getattr(
                importlib.import_module(f"{self._package}.{module}"), cls
            )()
        return self._instances[key]

    def strategies(self) -> list[StrategyT]:
        """Every registered strategy, in registration order."""
        return [self.get(key) for key in self.keys()]


DIRECTIONS: StrategyRegistry[str, DirectionStrategy] = StrategyRegistry(
    "gir.passes.directions",
    lambda name: f"error: direction {name} has no registered strategy",
)
"""`configDirection`'s first argument: which endpoint a thread iterates."""

LOAD_BALANCES: StrategyRegistry[str, LoadBalanceStrategy] = StrategyRegistry(
    "gir.passes.load_balance",
    lambda name: f"error: load balance {name} has no registered strategy",
)
"""`configLoadBalance`'s first argument: how edges are spread over threads."""

LAYOUTS: StrategyRegistry[str, LayoutStrategy] = StrategyRegistry(
    "gir.passes.layouts", lambda name: f"error: layout {name} has no GPU lowering yet"
)
"""The topology layouts device code reads edges from."""

REPRESENTATIONS: StrategyRegistry[type, FrontierRepresentation] = StrategyRegistry(
    "gir.passes.representations",
    lambda cls: f"error: frontier type {getattr(cls, 'name', cls)} has no GPU lowering",
)
"""Frontier representations by frontier type (a `frontier.FrontierType` subclass)."""


INTERSECTIONS: StrategyRegistry[str, IntersectionStrategy] = StrategyRegistry(
    "gir.passes.intersections",
    lambda name: f"error: intersection {name} has no registered strategy",
)
"""How `graph.intersect_neighbors` intersects two sorted adjacency lists."""


def intersection_named(name: str) -> str | None:
    """The method `program->configIntersection(label, name)` chooses: `name`
    itself when registered, else the one that lists it among its GraphIt names
    (`IntersectionStrategy.graphit_names`); None for neither."""
    if name in INTERSECTIONS:
        return name
    for strategy in INTERSECTIONS.strategies():
        if name in strategy.graphit_names:
            return strategy.value
    return None


def frontier_creations() -> list[str]:
    """`configFrontierCreation`'s values: what the representations realize as a
    traversal's output, in registration order."""
    return [rep.creation for rep in REPRESENTATIONS.strategies() if rep.creation is not None]


def pull_frontiers() -> list[str]:
    """`configDirection(PULL, F)`'s values of F: the representations a pull
    traversal's input can be converted to, in registration order."""
    return [
        rep.pull_frontier for rep in REPRESENTATIONS.strategies() if rep.pull_frontier is not None
    ]


AXES: dict[str, Callable[[], list[str]]] = {
    "direction": DIRECTIONS.keys,
    "load balance": LOAD_BALANCES.keys,
    "layout": LAYOUTS.keys,
    "frontier creation": frontier_creations,
    "pull frontier": pull_frontiers,
}
"""Every registry-owned axis by what it is called in messages: its names."""


def unknown(axis: str, name: str) -> str | None:
    """Why `name` is not a value of `axis` (a key of `AXES`; None: it is)."""
    names = AXES[axis]()
    if name in names:
        return None
    return f"unknown {axis} '{name}', expected one of {', '.join(names)}"
