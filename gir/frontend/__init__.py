"""The GraphIt frontend: `.gt` source (algorithm and `schedule:`) to graph dialect."""

from xdsl.dialects.builtin import ModuleOp


def parse_graphit_source(source: str, filename: str) -> ModuleOp:
    """The graph-dialect module of a GraphIt program, schedules attached.

    Raises `gir.diagnostics.SourceError` (file:line:col) for bad source.
    """
    from gir.frontend.irgen import build_module
    from gir.frontend.parser import parse_program

    return build_module(parse_program(source, filename), filename)
