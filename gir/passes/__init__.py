"""gir's passes: one module per pass, registered here with one line each.

Adding a pass: write `gir/passes/<name>.py` with a `ModulePass` subclass whose
docstring starts with a one-line summary followed by a before/after example, add
one `register_pass(...)` line below, and a lit test `test/lit/passes/<name>.mlir`.

A schedule axis value is one strategy file plus one line here (the registries
are `gir.axes`'s; the schedule attributes verify their names against them):
- a load-balance strategy (`register_load_balance`, `gir/passes/load_balance/`) is
  then a valid `load_balance` of a schedule, and `frontier-lower-load-balance`
  (in `lower-to-gpu`) and `frontier-maps-to-kernels` dispatch to it;
- a frontier representation (`register_representation`,
  `gir/passes/representations/`) lowers its frontier type, and realizes the
  schedule's frontier creation and pull frontier it declares;
- a direction (`register_direction`, `gir/passes/directions/`) is then a valid
  `direction` of a schedule;
- a set intersection (`register_intersection`, `gir/passes/intersections/`) is
  then a valid `method` of `graph.intersect_neighbors`, which
  `frontier-lower-intersections` builds;
- a topology layout (`register_layout`, `gir/passes/layouts/`) lowers the layout
  ops that read it, and serves the traversals whose direction and edge blocking
  it declares.
"""

from gir.dialects.frontier import AllVerticesType, BitmapType, BoolmapType, SparseQueueType
from gir.passes.directions import register_direction
from gir.passes.intersections import register_intersection
from gir.passes.layouts import register_layout
from gir.passes.load_balance import register_load_balance
from gir.passes.registry import PASSES, PIPELINES, Pipeline, register_pass
from gir.passes.representations import register_representation

# Graph-level rewrites.
register_pass("graph-default-schedule", "graph_default_schedule", "GraphDefaultSchedule")
register_pass("graph-split-hybrid", "graph_split_hybrid", "GraphSplitHybrid")
register_pass("graph-specialize-udfs", "graph_specialize_udfs", "GraphSpecializeUdfs")
register_pass("graph-insert-atomics", "graph_insert_atomics", "GraphInsertAtomics")
register_pass("graph-fold-cas-filters", "graph_fold_cas_filters", "GraphFoldCasFilters")

# Graph level -> frontier level.
register_pass("graph-to-frontier", "graph_to_frontier", "GraphToFrontier")

# Frontier-level rewrites.
register_pass("frontier-insert-conversions", "frontier_insert_conversions", "FrontierInsertConversions")
register_pass("frontier-track-changes", "frontier_track_changes", "FrontierTrackChanges")
register_pass("frontier-double-buffer", "frontier_double_buffer", "FrontierDoubleBuffer")
register_pass("frontier-bucket-fusion", "frontier_bucket_fusion", "FrontierBucketFusion")
register_pass("frontier-lower-load-balance", "frontier_lower_load_balance", "FrontierLowerLoadBalance")
register_pass("frontier-lower-priority-queues", "frontier_lower_priority_queues", "FrontierLowerPriorityQueues")
register_pass("frontier-lower-intersections", "frontier_lower_intersections", "FrontierLowerIntersections")

# Directions.
register_direction("PUSH", "push", "Push")
register_direction("PULL", "pull", "Pull")

# Load-balance strategies (one per G2 option value).
register_load_balance("VERTEX_BASED", "vertex_based", "VertexBased")
register_load_balance("EDGE_ONLY", "edge_only", "EdgeOnly")
register_load_balance("TWC", "twc", "Twc")
register_load_balance("TWCE", "twce", "Twce")
register_load_balance("STRICT", "strict", "Strict")
register_load_balance("MERGE_PATH", "merge_path", "MergePath")
register_load_balance("WM", "warp_mapped", "WarpMapped")
register_load_balance("CM", "cta_mapped", "CtaMapped")

# Frontier representations and topology layouts.
register_representation(SparseQueueType, "sparse_queue", "SparseQueue")
register_representation(AllVerticesType, "all_vertices", "AllVertices")
register_representation(BoolmapType, "boolmap", "Boolmap")
register_representation(BitmapType, "bitmap", "Bitmap")
register_layout("CSR", "csr", "Csr")
register_layout("CSC", "csc", "Csc")
register_layout("BLOCKED", "blocked", "Blocked")
register_layout("BLOCKED_CSC", "blocked", "BlockedCsc")

# Set intersections (graph.intersect_neighbors: triangle counting).
register_intersection("merge", "merge", "Merge")
register_intersection("binary_search", "binary_search", "BinarySearch")

# Frontier level -> GPU level.
register_pass("graph-to-host-io", "graph_to_host_io", "GraphToHostIo")
register_pass("frontier-host-setup", "frontier_host_setup", "FrontierHostSetup")
register_pass("frontier-lower-device-ops", "frontier_lower_device_ops", "FrontierLowerDeviceOps")
register_pass("frontier-to-host-values", "frontier_to_host_values", "FrontierToHostValues")
register_pass("frontier-lower-lists", "frontier_lower_lists", "FrontierLowerLists")
register_pass("frontier-edge-blocking", "frontier_edge_blocking", "FrontierEdgeBlocking")
register_pass("frontier-maps-to-kernels", "frontier_maps_to_kernels", "FrontierMapsToKernels")
register_pass("gpu-hoist-constants", "gpu_hoist_constants", "GpuHoistConstants")

# GPU-level rewrites.
register_pass("gpu-expand-scan", "gpu_expand_scan", "GpuExpandScan")
register_pass("gpu-expand-reduce", "gpu_expand_reduce", "GpuExpandReduce")
register_pass("gpu-check-bounds", "gpu_check_bounds", "GpuCheckBounds")
register_pass("gpu-rotate-counters", "gpu_rotate_counters", "GpuRotateCounters")
register_pass("gpu-fuse-loops", "gpu_fuse_loops", "GpuFuseLoops")
register_pass("gpu-aggregate-atomics", "gpu_aggregate_atomics", "GpuAggregateAtomics")
register_pass("host-partition", "host_partition", "HostPartition")

# Named pipelines.
PIPELINES["frontier-to-gpu"] = Pipeline(
    "Lower the frontier level to GPU kernels and a host main",
    ",".join(
        [
            "frontier-host-setup",
            "frontier-lower-device-ops",
            "frontier-to-host-values",
            "frontier-lower-lists",
            "frontier-edge-blocking",
            "frontier-maps-to-kernels",
            "gpu-hoist-constants",
        ]
    ),
)
PIPELINES["lower-to-gpu"] = Pipeline(
    "Lower a graph-dialect program to the GPU level with its schedules",
    ",".join(
        [
            "graph-default-schedule",
            "graph-split-hybrid",
            "graph-specialize-udfs",
            "graph-insert-atomics",
            "graph-fold-cas-filters",
            "graph-to-frontier",
            "frontier-lower-intersections",
            "frontier-bucket-fusion",
            "frontier-lower-priority-queues",
            "frontier-insert-conversions",
            "frontier-track-changes",
            "frontier-double-buffer",
            "frontier-lower-load-balance",
            "frontier-insert-conversions",
            "graph-to-host-io",
            "frontier-to-gpu",
            "gpu-expand-scan",
            "gpu-expand-reduce",
            "gpu-rotate-counters",
            "gpu-fuse-loops",
            "gpu-aggregate-atomics",
        ]
    ),
)
