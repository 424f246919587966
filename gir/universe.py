"""gir as an xDSL plugin: its dialects, passes and targets for `xdsl-opt`.

xDSL discovers plugins through the `xdsl.universe` entry-point group
(`xdsl.universe.Universe.get_multiverse`); gir's `pyproject.toml` names
`GIR_UNIVERSE`, so after `pip install gir`:

```
xdsl-opt bfs.mlir -p graph-default-schedule,lower-to-gpu     # gir's passes and pipelines
xdsl-opt bfs_gpu.mlir -t cuda                                 # gir's printers as targets
gir-opt test/programs/bfs.gt -t opencl                       # the same targets in gir-opt
```

The dialects offered are gir's own levels (`graph`, `frontier`, `gir_gpu`,
`host`); the upstream dialects gir uses are xDSL's. A target lowers a module above
the GPU level with `lower-to-gpu` first, as `gir-translate` does.

`xdsl-opt` reads IR only; GraphIt (`.gt`) goes through `gir-opt`, which is
xDSL's driver with gir's frontend (`gir-opt prog.gt | xdsl-opt -p ...`, or
`gir-opt prog.gt -p ...` directly). `xdsl-opt prog.gt` ends in xDSL's own
`ValueError: Unrecognized file extension 'gt'` traceback, and a plugin cannot
change that without patching xDSL:

- `Universe` (this entry point) takes dialects, passes and targets, nothing else.
- `xDSLOptMain` registers frontends in `CommandLineTool.register_all_frontends`,
  which registers `mlir` only; xDSL's documented way to add one is to override
  that method in a subclass, which is what `gir-opt` (`GirOptMain`) does.
- `prepare_input` raises the `ValueError` for any other extension, and
  `xdsl-opt`'s `main` catches nothing.

The only ways in from here would be to replace `register_all_frontends` on xDSL's
class when this module is imported (which happens inside every xDSL tool's
start-up, through `get_multiverse`, so it would change every `CommandLineTool`
in the process, and work only because `register_all_dialects` happens to load
the plugins before frontends are registered), or to install a `sys.excepthook`
on import. gir does neither. When xDSL's `Universe` gains frontends, `.gt`
belongs here (`test_cli_exit.py` fails that day to say so).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Dialect
from xdsl.universe import Universe
from xdsl.utils.target import Target

from gir.dialects import DIALECT_FACTORIES
from gir.passes.registry import available_passes

GIR_DIALECTS = ("graph", "frontier", "gir_gpu", "host")
"""The dialects gir defines (the others in `DIALECT_FACTORIES` are xDSL's)."""


class _GirTarget(Target):
    """A gir printer as an xDSL target: `gir-translate --to-<name>` of the module."""

    name: ClassVar[str]

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from gir.lowering import translate

        output.write(translate(module, self.name))


@dataclass(frozen=True)
class CudaTarget(_GirTarget):
    """The kernels as one `.cu` file (`extern "C" __global__` functions)."""

    name = "cuda"


@dataclass(frozen=True)
class OpenCLTarget(_GirTarget):
    """The kernels as OpenCL C."""

    name = "opencl"


@dataclass(frozen=True)
class HostPythonTarget(_GirTarget):
    """The host function `@main` as the Python `run(rt, K)` gir's runtime calls."""

    name = "host-python"


def _factory(target: type[Target]) -> Callable[[], type[Target]]:
    """A factory without parameters (xDSL reads a factory with parameters as a
    legacy `emit(module, output)` function)."""
    return lambda: target


TARGETS: dict[str, Callable[[], type[Target]]] = {
    target.name: _factory(target) for target in (CudaTarget, OpenCLTarget, HostPythonTarget)
}
"""gir's targets by name, as xDSL's `-t` wants them."""


def gir_dialects() -> dict[str, Callable[[], Dialect]]:
    """gir's own dialects by name."""
    return {name: DIALECT_FACTORIES[name] for name in GIR_DIALECTS}


GIR_UNIVERSE = Universe(
    all_dialects=gir_dialects(),
    all_passes=available_passes(),
    all_targets=TARGETS,
)
"""What gir adds to `xdsl-opt` (the `xdsl.universe` entry point)."""
