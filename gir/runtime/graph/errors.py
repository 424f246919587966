"""The error every graph input problem raises, and the limits of gir's graph arrays."""

from __future__ import annotations

import os

import numpy as np

from gir.diagnostics import UserError

INT32_MAX = int(np.iinfo(np.int32).max)
INT32_MIN = int(np.iinfo(np.int32).min)
MAX_VERTICES = INT32_MAX  # ids are int32, so the largest id is INT32_MAX - 1


class GraphError(UserError):
    """A user error about a graph input: a missing, malformed or truncated file, or a bad spec.

    `str(error)` is one line: `path:line: error: message` when the error comes from a
    line of a text file, `path: error: message` for a whole file, `error: message`
    otherwise. `path` and `line` are kept as attributes (None when not known).
    """

    def __init__(
        self, message: str, *, path: str | os.PathLike[str] | None = None, line: int | None = None
    ):
        location = (
            "" if path is None else f"{os.fspath(path)}:" + ("" if line is None else f"{line}:")
        )
        super().__init__(f"{location}{' ' if location else ''}error: {message}")
        self.path = None if path is None else os.fspath(path)
        self.line = line
        self.message = message
