"""gir's passes: one module per pass, registered here with one line each.

Adding a pass: write `gir/passes/<name>.py` with a `ModulePass` subclass whose
docstring starts with a one-line summary followed by a before/after example, add
one `register_pass(...)` line below, and a lit test `test/lit/passes/<name>.mlir`.
"""

from gir.passes.registry import PIPELINES, Pipeline, register_pass

# Graph-level rewrites.

# Named pipelines.
