"""A schedule space as optuna categorical parameters.

`gir.schedule_space` is a concatenation of groups (one per edge-blocking option
and per fusion option of each fusable loop), each the product of every labelled
apply's choices; an apply's choices are themselves products and concatenations
of lists (its legal schedule shapes, the block sizes, hybrid thresholds...).
`SpaceParameters.suggest` walks that structure with an optuna trial:

- a group is picked by one parameter per kind of decision: `blocking`, and
  `fuse:LOOP` (off or on, then `fuse:LOOP.how`: block size and blocks per SM)
  for each fusable loop (a combination the space lacks is pruned);
- a concatenation by a `part` parameter, a product factor by factor;
- a list of schedule shapes field by field (`LABEL.direction`, then
  `LABEL.load_balance` among the shapes left, ...), so that a sampler learns
  "PULL is fast here" across the hundreds of shapes that share it.

Every suggestion is a point of the space (so it is legal by construction), and
every point can be suggested. Optuna forbids a parameter's choices to change
between trials, so a parameter whose choices depend on earlier picks carries a
short hash of its choices in its name.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import FloatAttr, IntegerAttr
from xdsl.ir import Attribute

from gir.dialects.schedule import SimpleScheduleAttr
from gir.space import LazyConcat, LazyProduct, SchedulePoint, ScheduleSpace

__all__ = ["NoSuchPoint", "SpaceParameters"]

_SHAPE_FIELDS = tuple(name for name, _ in SimpleScheduleAttr.get_irdl_definition().parameters)


class NoSuchPoint(Exception):
    """The trial's picks name a combination of groups the space does not have."""


def _text(value: object) -> str:
    """A short text for a parameter value."""
    if isinstance(value, IntegerAttr):
        return str(value.value.data)
    if isinstance(value, FloatAttr):
        return repr(value.value.data)
    if isinstance(value, Attribute) and hasattr(value, "data"):
        return str(getattr(value, "data"))
    return repr(value)


def _loop_text(point: SchedulePoint, loop: str) -> str:
    schedule = point.get(loop)
    if not isinstance(schedule, SimpleScheduleAttr):
        return "off"
    return f"block {_text(schedule.block_size)} x{_text(schedule.blocks_per_sm)}"


def _blocking_text(point: SchedulePoint, labels: Sequence[str]) -> str:
    for label in labels:
        schedule = point[label]
        if isinstance(schedule, SimpleScheduleAttr) and schedule.edge_blocking.data.blocked:
            return f"{_text(schedule.blocking_size)} from {label}"
    return "off"


class SpaceParameters:
    """Suggests points of one `ScheduleSpace` through optuna trials."""

    def __init__(self, space: ScheduleSpace):
        self.space = space
        self.labels = [apply.label for apply in space.applies]
        self.loops = [loop.label for loop in space.loops]
        points = space.points
        groups = list(points.parts) if isinstance(points, LazyConcat) else [points]
        self.groups: dict[tuple[str, ...], Sequence[SchedulePoint]] = {}
        self.choices: dict[str, list[str]] = {"blocking": [], **{f"fuse:{loop}": [] for loop in self.loops}}
        for group in groups:
            first = group[0]
            decision = (_blocking_text(first, self.labels), *(_loop_text(first, loop) for loop in self.loops))
            self.groups.setdefault(decision, group)
            for name, value in zip(self.choices, decision, strict=True):
                if value not in self.choices[name]:
                    self.choices[name].append(value)

    def suggest(self, trial: Any) -> SchedulePoint:
        """The point `trial`'s picks make; `NoSuchPoint` for a combination of
        blocking and fusion the space has no group for."""
        decision = tuple(self._decide(trial, name, values) for name, values in self.choices.items())
        group = self.groups.get(decision)
        if group is None:
            raise NoSuchPoint(", ".join(f"{n} {v}" for n, v in zip(self.choices, decision, strict=True)))
        if not isinstance(group, LazyProduct):
            return group[self._index(trial, "point", group)]
        index = 0
        for label, factor in zip(self.labels, group.factors, strict=True):
            index = index * len(factor) + self._index(trial, label, factor)
        return group[index]

    def _decide(self, trial: Any, name: str, values: list[str]) -> str:
        """A group decision: for a loop, first whether it is fused at all (else
        the many fused variants would drown "off" in a uniform draw), then how."""
        if not name.startswith("fuse:") or "off" not in values or len(values) == 1:
            return self._categorical(trial, name, values)
        fused = [value for value in values if value != "off"]
        if self._categorical(trial, name, ["off", "on"]) == "off":
            return "off"
        return self._categorical(trial, f"{name}.how", fused)

    # -- the structure ---------------------------------------------------------------

    def _index(self, trial: Any, prefix: str, sequence: Sequence[Any]) -> int:
        """An index into `sequence`, picked by `trial` part by part."""
        if len(sequence) == 1:
            return 0
        if isinstance(sequence, LazyConcat):
            names = [str(i) for i in range(len(sequence.parts))]
            part = int(self._categorical(trial, f"{prefix}/part", names))
            inner = self._index(trial, f"{prefix}/{part}", sequence.parts[part])
            return sequence.starts[part] + inner
        if isinstance(sequence, LazyProduct):
            index = 0
            for position, factor in enumerate(sequence.factors):
                index = index * len(factor) + self._index(trial, f"{prefix}/{position}", factor)
            return index
        if all(isinstance(item, SimpleScheduleAttr) for item in sequence):
            return self._shape(trial, prefix, sequence)
        values = [_text(item) for item in sequence]
        return values.index(self._categorical(trial, prefix, values))

    def _shape(self, trial: Any, prefix: str, shapes: Sequence[SimpleScheduleAttr]) -> int:
        """An index into a list of schedule shapes, narrowed field by field."""
        left = list(range(len(shapes)))
        for name in _SHAPE_FIELDS:
            values = list(dict.fromkeys(_text(getattr(shapes[i], name)) for i in left))
            if len(values) > 1:
                picked = self._categorical(trial, f"{prefix}.{name}", values)
                left = [i for i in left if _text(getattr(shapes[i], name)) == picked]
            if len(left) == 1:
                break
        return left[0]

    @staticmethod
    def _categorical(trial: Any, name: str, values: list[str]) -> str:
        """`trial`'s pick among `values` for parameter `name` (suffixed with a hash
        of `values`: optuna requires a parameter's choices to stay the same)."""
        if len(values) == 1:
            return values[0]
        digest = hashlib.sha1("\0".join(values).encode()).hexdigest()[:6]
        return trial.suggest_categorical(f"{name}#{digest}", values)
