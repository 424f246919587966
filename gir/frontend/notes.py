"""Located warnings of the frontend.

Errors stop the frontend (`SourceError`); warnings say that something the program
asks for is ignored and go on. Each is one line on stderr, `file:line:col:
warning: message`, like an error's. Warnings about the schedule section (GraphIt
CPU scheduling calls, schedules on statements they cannot apply to) become errors
when the user asks for a strict schedule (`--strict-schedule`), for those who want
a schedule that gir cannot honour to stop the build.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from gir.diagnostics import SourceError
from gir.frontend.ast import Pos


@dataclass
class Warnings:
    """Reports the warnings of one source file."""

    filename: str
    strict_schedule: bool = False

    def warning(self, pos: Pos, message: str) -> None:
        """Prints `message` as a warning at `pos`."""
        print(f"{self.filename}:{pos.line}:{pos.col}: warning: {message}", file=sys.stderr)

    def schedule_warning(self, pos: Pos, message: str) -> None:
        """A warning about the schedule section; an error with `strict_schedule`."""
        if self.strict_schedule:
            raise SourceError(
                self.filename, pos.line, pos.col, f"{message} (an error with --strict-schedule)"
            )
        self.warning(pos, message)


STRICT_SCHEDULE_HELP = (
    "make the schedule section's warnings errors: GraphIt CPU scheduling calls "
    "(program->configApplyDirection, fuseFields, ...) and schedules on statements "
    "they cannot apply to"
)
"""`--strict-schedule`'s help text, shared by gir-opt, gir-run and gir-translate."""
