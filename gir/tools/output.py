"""The tools' atomic output files: `gir.output`, under the name the tools have used.

The code lives in `gir.output`, below every package that writes files (the graph
cache of `gir.runtime` included), so that the runtime does not import the tools.
"""

from gir.output import (
    STALE_AFTER_SECONDS,
    TEMPORARY_SUFFIX,
    OutputError,
    check_not_input,
    check_writable,
    open_output,
    remove_stale_temporaries,
    stdout_closed_quietly,
    write_npz,
    write_text,
)

__all__ = [
    "STALE_AFTER_SECONDS",
    "TEMPORARY_SUFFIX",
    "OutputError",
    "check_not_input",
    "check_writable",
    "open_output",
    "remove_stale_temporaries",
    "stdout_closed_quietly",
    "write_npz",
    "write_text",
]
