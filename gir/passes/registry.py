"""The pass and pipeline registry of gir's tools.

A pass is registered with one entry in `PASSES` (name -> factory importing its
module lazily, so a tool starts fast); a named pipeline is one entry in
`PIPELINES`; the strategies of a schedule axis live in `gir.axes`'s registries.
`gir-opt --help` prints passes and pipelines, one line each, from the passes'
docstrings.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline



def _lazy(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    def load() -> type[ModulePass]:
        return getattr(importlib.import_module(f"gir.passes.{module}"), cls)

    return load


PASSES: dict[str, Callable[[], type[ModulePass]]] = {}
"""Every gir pass by its command-line name."""


def register_pass(name: str, module: str, cls: str) -> None:
    """Registers the pass class `cls` of `gir.passes.<module>` as `name`."""
    PASSES[name] = _lazy(module, cls)


@dataclass(frozen=True)
class Pipeline:
    """A named sequence of passes, usable wherever a pass name is."""

    summary: str
    spec: str


PIPELINES: dict[str, Pipeline] = {}
"""Named pipelines by their command-line name."""


def strip_module_anchor(spec: str) -> str:
    """`builtin.module(a,b{k=v})` -> `a,b{k=v}`; a plain list is returned as is."""
    spec = spec.strip()
    prefix = "builtin.module("
    if spec.startswith(prefix) and spec.endswith(")"):
        return spec[len(prefix) : -1].strip()
    return spec


def pass_summary(pass_class: type[ModulePass]) -> str:
    """The first line of a pass's docstring: its one-line help."""
    doc = (pass_class.__doc__ or "").strip()
    return doc.splitlines()[0] if doc else ""


def pipeline_pass(name: str) -> type[ModulePass]:
    """A ModulePass class that runs the named pipeline, so pipelines nest in specs."""
    pipeline = PIPELINES[name]
    pipeline_name = name  # a class body cannot read `name` from this scope

    @dataclass(frozen=True)
    class NamedPipeline(ModulePass):
        __doc__ = pipeline.summary

        name: ClassVar[str] = pipeline_name

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            parse_pipeline(pipeline.spec).apply(ctx, op)

    return NamedPipeline


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Passes and pipelines, by name, as xDSL's pipeline parser wants them."""
    import gir.passes  # noqa: F401  (fills the registry)

    available = dict(PASSES)
    for name in PIPELINES:
        available[name] = lambda name=name: pipeline_pass(name)
    return available


def parse_pipeline(spec: str) -> PassPipeline:
    """A runnable pipeline from `a,b{k=v}` or `builtin.module(...)`; the ops its
    passes make inherit source locations (`gir.passes.locations`)."""
    from gir.passes.locations import LocationInheritance

    return PassPipeline.parse_spec(
        available_passes(), strip_module_anchor(spec), LocationInheritance()
    )
