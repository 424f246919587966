"""gir's passes: one module per pass, registered here with one line each.

Adding a pass: write `gir/passes/<name>.py` with a `ModulePass` subclass whose
docstring starts with a one-line summary followed by a before/after example, add
one `register_pass(...)` line below, and a lit test `test/lit/passes/<name>.mlir`.

A schedule axis value is one strategy file plus one line here: a load-balance
strategy (`register_load_balance`, `gir/passes/load_balance/`) is then accepted by
`graph-default-schedule` and its `frontier-lb-*` pass runs in `lower-to-gpu`.
"""

from gir.dialects.schedule import LoadBalance
from gir.passes.load_balance import LOAD_BALANCES, register_load_balance, rewrite_pass
from gir.passes.registry import PASSES, PIPELINES, Pipeline, register_pass

# Graph-level rewrites.
register_pass("graph-default-schedule", "graph_default_schedule", "GraphDefaultSchedule")
register_pass("graph-specialize-udfs", "graph_specialize_udfs", "GraphSpecializeUdfs")
register_pass("graph-insert-atomics", "graph_insert_atomics", "GraphInsertAtomics")

# Graph level -> frontier level.
register_pass("graph-to-frontier", "graph_to_frontier", "GraphToFrontier")

# Frontier-level rewrites.
register_pass("frontier-track-changes", "frontier_track_changes", "FrontierTrackChanges")
register_pass("frontier-double-buffer", "frontier_double_buffer", "FrontierDoubleBuffer")

# Load-balance strategies (one per G2 option value).
register_load_balance(LoadBalance.VERTEX_BASED, "frontier-lb-vertex-based", "vertex_based", "VertexBased")
for _value, _entry in LOAD_BALANCES.items():
    PASSES[_entry.pass_name] = rewrite_pass(_value)

# Frontier level -> GPU level.
register_pass("graph-to-host-io", "graph_to_host_io", "GraphToHostIo")
register_pass("frontier-to-gpu", "frontier_to_gpu", "FrontierToGpu")

# Named pipelines.
PIPELINES["lower-to-gpu"] = Pipeline(
    "Lower a graph-dialect program to the GPU level with its schedules",
    ",".join(
        [
            "graph-default-schedule",
            "graph-specialize-udfs",
            "graph-insert-atomics",
            "graph-to-frontier",
            "frontier-track-changes",
            "frontier-double-buffer",
            *(entry.pass_name for entry in LOAD_BALANCES.values()),
            "graph-to-host-io",
            "frontier-to-gpu",
        ]
    ),
)
