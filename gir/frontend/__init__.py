"""The GraphIt frontend: `.gt` source (algorithm and `schedule:`) to graph dialect."""

from xdsl.dialects.builtin import ModuleOp


def parse_graphit_source(
    source: bytes | str, filename: str, strict_schedule: bool = False
) -> ModuleOp:
    """The graph-dialect module of a GraphIt program, schedules attached.

    Bytes must be UTF-8. Raises `gir.diagnostics.SourceError` (file:line:col) for
    bad source; warnings are printed to stderr, and those about the schedule
    section are errors with `strict_schedule`.
    """
    from gir.frontend.irgen import build_module
    from gir.frontend.parser import parse_program
    from gir.frontend.source import decode_source, ensure_recursion_headroom

    ensure_recursion_headroom()
    text = decode_source(source, filename)
    return build_module(parse_program(text, filename), filename, strict_schedule)
