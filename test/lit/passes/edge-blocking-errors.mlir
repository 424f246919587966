// RUN: not gir-opt %S/Inputs/blocked-from-frontier.gt -p lower-to-gpu 2>&1 | filecheck %s --check-prefix=FRONTIER
// RUN: not gir-opt %S/Inputs/blocked-two-sizes.gt -p lower-to-gpu 2>&1 | filecheck %s --check-prefix=SIZES
// RUN: not gir-opt %S/Inputs/blocked-vertex-based.gt -p lower-to-gpu 2>&1 | filecheck %s --check-prefix=VERTEX
// RUN: sed 's/BLOCKED,/BLOCKED_SWEEP,/' %S/Inputs/blocked-from-frontier.gt > %t.frontier.gt
// RUN: not gir-opt %t.frontier.gt -p lower-to-gpu 2>&1 | filecheck %s --check-prefix=SWEEP-FRONTIER
// RUN: sed 's/BLOCKED, 128/BLOCKED_SWEEP, 128/' %S/Inputs/blocked-two-sizes.gt > %t.sizes.gt
// RUN: not gir-opt %t.sizes.gt -p lower-to-gpu 2>&1 | filecheck %s --check-prefix=SIZES
// RUN: sed 's/BLOCKED,/BLOCKED_SWEEP,/' %S/Inputs/blocked-vertex-based.gt > %t.vertex.gt
// RUN: not gir-opt %t.vertex.gt -p lower-to-gpu 2>&1 | filecheck %s --check-prefix=SWEEP-VERTEX

// Where edge blocking does not compose, graph-default-schedule (or the schedule's
// verifier, at the schedule's location) says why in one line, with no traceback:
// blocking walks every edge once, so it needs a traversal over all vertices; the
// edges are reordered once at load, so a program blocks them by one size; and
// only one thread per edge (EDGE_ONLY) walks a vertex's edges spread over blocks.
// BLOCKED_SWEEP reads the same layout, so the same rules hold, under its name
// (and a sweep and a barrier walk still share one size).

// FRONTIER:      error: edge blocking (BLOCKED) of statement 's1' walks every edge of the graph, so it needs a traversal over all vertices (edges.apply), not one from a frontier
// FRONTIER-NOT:  Traceback
// SIZES:         error: edge blocking of statement 's2' by 128 vertices, but statement 's1' blocks by 64: a program's edges are blocked once, by one size
// SIZES-NOT:     Traceback
// VERTEX:        blocked-vertex-based.gt:15:{{[0-9]+}}: error: invalid schedule: edge blocking (BLOCKED) requires load balance EDGE_ONLY, got VERTEX_BASED (blocking spreads a vertex's edges over blocks; only one thread per edge walks them)
// VERTEX-NOT:    Traceback
// SWEEP-FRONTIER: error: edge blocking (BLOCKED_SWEEP) of statement 's1' walks every edge of the graph, so it needs a traversal over all vertices (edges.apply), not one from a frontier
// SWEEP-FRONTIER-NOT: Traceback
// SWEEP-VERTEX:  {{.*}}.vertex.gt:15:{{[0-9]+}}: error: invalid schedule: edge blocking (BLOCKED_SWEEP) requires load balance EDGE_ONLY, got VERTEX_BASED (blocking spreads a vertex's edges over blocks; only one thread per edge walks them)
// SWEEP-VERTEX-NOT: Traceback
