"""gir's passes: one module per pass, registered here with one line each.

Adding a pass: write `gir/passes/<name>.py` with a `ModulePass` subclass whose
docstring starts with a one-line summary followed by a before/after example, add
one `register_pass(...)` line below, and a lit test `test/lit/passes/<name>.mlir`.
A load-balance strategy is a pass named `frontier-lb-<strategy>`: registering it
makes the strategy accepted by `graph-default-schedule` and part of `lower-to-gpu`.
"""

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
register_pass("frontier-lb-vertex-based", "frontier_lb_vertex_based", "FrontierLbVertexBased")

# Frontier level -> GPU level.
register_pass("graph-to-host-io", "graph_to_host_io", "GraphToHostIo")
register_pass("frontier-to-gpu", "frontier_to_gpu", "FrontierToGpu")

# GPU-level rewrites.
register_pass("gpu-expand-scan", "gpu_expand_scan", "GpuExpandScan")

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
            *sorted(name for name in PASSES if name.startswith("frontier-lb-")),
            "graph-to-host-io",
            "frontier-to-gpu",
            "gpu-expand-scan",
        ]
    ),
)
