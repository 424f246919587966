"""User-facing errors: what the tools print as one line, with no traceback."""


class UserError(Exception):
    """An error in what the user gave gir (a program, IR, schedule, graph or flag).

    `str(error)` is the whole message, starting with `file:line:col:` when the error
    has a source location. Tools print it to stderr and exit with status 1.
    """


class SourceError(UserError):
    """A user error at a position of a source file."""

    def __init__(self, filename: str, line: int, column: int, message: str):
        super().__init__(f"{filename}:{line}:{column}: error: {message}")
        self.filename = filename
        self.line = line
        self.column = column
        self.message = message
