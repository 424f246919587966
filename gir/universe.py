"""gir as an xDSL plugin: its dialects, passes, targets and `.gt` frontend for `xdsl-opt`.

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

`xdsl-opt` also reads GraphIt: `xdsl-opt prog.gt -p lower-to-gpu` parses `.gt`
with gir's frontend, and a bad `.gt` is one located line on stderr with exit
status 1, as under `gir-opt`, whether the frontend or a gir pass finds the
problem (`gir-opt prog.gt | xdsl-opt -p ...` works too).
xDSL 0.74 offers a plugin no place for a frontend, so gir adds it the one way
open to it; `register_graphit_frontend` (called when xDSL loads this module)
says how and why it is kept narrow.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, ClassVar, TypeVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Dialect
from xdsl.universe import Universe
from xdsl.utils.target import Target
from xdsl.xdsl_opt_main import xDSLOptMain

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


_GRAPHIT_EXTENSION = "gt"
"""The input extension (and `-f` name) of GraphIt source."""


_Result = TypeVar("_Result")


def _one_line_or_exit(step: Callable[..., _Result]) -> Callable[..., _Result]:
    """`step` of the driver, with gir's user errors printed as their one located
    line and exit status 1 (`xdsl-opt`'s `main` catches nothing, so they would
    end in a traceback), as `gir-opt` reports them."""
    from gir.diagnostics import UserError, printable

    @functools.wraps(step)
    def one_line_or_exit(*args: object) -> _Result:
        try:
            return step(*args)
        except UserError as error:
            print(printable(str(error)), file=sys.stderr)
            raise SystemExit(1) from None

    return one_line_or_exit


def _parse_graphit_or_exit(tool: xDSLOptMain, io: IO[bytes]) -> ModuleOp:
    """The graph-dialect module of the GraphIt source `io` holds, for `tool`.

    A bad program is one located line and exit status 1, whether its frontend
    finds the problem or, later, one of gir's passes (a schedule a strategy
    cannot lower) or targets: for this run only, `tool`'s `apply_passes` and
    `output_resulting_program` report gir's errors so too.
    """
    from gir.frontend import parse_graphit_source

    tool.apply_passes = _one_line_or_exit(tool.apply_passes)  # type: ignore[method-assign]
    tool.output_resulting_program = _one_line_or_exit(tool.output_resulting_program)  # type: ignore[method-assign]
    return _one_line_or_exit(parse_graphit_source)(io.read(), tool.get_input_name())


def register_graphit_frontend() -> None:
    """Makes `xDSLOptMain` (so `xdsl-opt`) read `.gt` files with gir's frontend.

    xDSL 0.74's `Universe` carries dialects, passes and targets but no frontends,
    and `xDSLOptMain` registers only `mlir` in `register_all_frontends`, which
    xDSL expects a subclass to override (as `gir-opt` does). A plugin's only way
    in is to wrap that method on xDSL's class, which this does, and it works
    because `xDSLOptMain.__init__` loads the plugins (`Universe.get_multiverse`,
    inside `register_all_dialects`) before it registers frontends.

    The wrapper is kept narrow: it is installed once (importing this module
    again leaves it as it is), it touches `xDSLOptMain` and its subclasses only
    (not every `CommandLineTool`), and it adds the `gt` key only where it is
    absent, so a `.gt` frontend registered by xDSL or by a subclass such as
    `gir-opt` is never replaced. When xDSL's `Universe` gains frontends, `.gt`
    belongs there instead (`test_cli_exit.py` fails that day to say so).
    """
    registered = xDSLOptMain.register_all_frontends
    if getattr(registered, "registers_graphit", False):
        return

    @functools.wraps(registered)
    def register_all_frontends(self: xDSLOptMain) -> None:
        registered(self)
        self.available_frontends.setdefault(
            _GRAPHIT_EXTENSION, functools.partial(_parse_graphit_or_exit, self)
        )

    register_all_frontends.registers_graphit = True  # type: ignore[attr-defined]
    xDSLOptMain.register_all_frontends = register_all_frontends  # type: ignore[method-assign]


register_graphit_frontend()
