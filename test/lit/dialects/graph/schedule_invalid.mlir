// Invalid schedules are rejected when parsed or verified.
// RUN: gir-opt %s --split-input-file --verify-diagnostics --parsing-diagnostics | filecheck %s

builtin.module attributes {s = #graph.simple_schedule<load_balance = FAST>} {
}
// CHECK: unknown load balance 'FAST', expected one of VERTEX_BASED, EDGE_ONLY, TWC, TWCE, STRICT, MERGE_PATH, WM, CM

// -----

builtin.module attributes {s = #graph.simple_schedule<speed = 3>} {
}
// CHECK: unknown schedule field 'speed', expected one of direction, pull_frontier, load_balance, edge_blocking, blocking_size, frontier_creation, deduplication, dedup_strategy, delta, kernel_fusion

// -----

builtin.module attributes {s = #graph.simple_schedule<delta = 0>} {
}
// CHECK: delta must be a positive integer, got 0

// -----

builtin.module attributes {s = #graph.simple_schedule<edge_blocking = BLOCKED, load_balance = EDGE_ONLY>} {
}
// CHECK: edge blocking (BLOCKED) needs a positive size

// -----

builtin.module attributes {s = #graph.simple_schedule<edge_blocking = BLOCKED_SWEEP, load_balance = EDGE_ONLY>} {
}
// CHECK: edge blocking (BLOCKED_SWEEP) needs a positive size

// -----

builtin.module attributes {s = #graph.simple_schedule<edge_blocking = BLOCKED_SWEEP, load_balance = TWCE, blocking_size = 64>} {
}
// CHECK: edge blocking (BLOCKED_SWEEP) requires load balance EDGE_ONLY, got TWCE

// -----

builtin.module attributes {s = #graph.simple_schedule<edge_blocking = BLOCKED_SWEPT>} {
}
// CHECK: Expected `BLOCKED`, `BLOCKED_SWEEP`, or `UNBLOCKED`.

// -----

builtin.module attributes {s = #graph.hybrid_schedule<INPUT_VERTEXSET_SIZE, threshold = 0.1, #graph.simple_schedule<kernel_fusion = ENABLED, block_size = 256>, #graph.simple_schedule>} {
}
// CHECK: kernel fusion cannot be part of a hybrid schedule

// -----

builtin.module attributes {s = #graph.simple_schedule<direction = PUSH, direction = PULL>} {
}
// CHECK: schedule field 'direction' given twice

// -----

builtin.module attributes {s = #graph.simple_schedule<edge_blocking = BLOCKED, load_balance = EDGE_ONLY, blocking_size = 2147483648>} {
}
// CHECK: blocking size must be in [0, 2147483647], got 2147483648

// -----

builtin.module attributes {s = #graph.simple_schedule<edge_sample = -1>} {
}
// CHECK: an edge sample must take at least one edge of each vertex, got -1
