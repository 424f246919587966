// RUN: not gir-opt %S/Inputs/blocked-from-frontier.gt -p lower-to-gpu 2>&1 | filecheck %s --check-prefix=FRONTIER
// RUN: not gir-opt %S/Inputs/blocked-two-sizes.gt -p lower-to-gpu 2>&1 | filecheck %s --check-prefix=SIZES
// RUN: not gir-opt %S/Inputs/blocked-vertex-based.gt -p lower-to-gpu 2>&1 | filecheck %s --check-prefix=VERTEX

// Where edge blocking does not compose, graph-default-schedule (or the schedule's
// verifier, at the schedule's location) says why in one line, with no traceback:
// blocking walks every edge once, so it needs a traversal over all vertices; the
// edges are reordered once at load, so a program blocks them by one size; and
// only one thread per edge (EDGE_ONLY) walks a vertex's edges spread over blocks.

// FRONTIER:      error: edge blocking (BLOCKED) of statement 's1' walks every edge of the graph, so it needs a traversal over all vertices (edges.apply), not one from a frontier
// FRONTIER-NOT:  Traceback
// SIZES:         error: edge blocking of statement 's2' by 128 vertices, but statement 's1' blocks by 64: a program's edges are blocked once, by one size
// SIZES-NOT:     Traceback
// VERTEX:        blocked-vertex-based.gt:15:{{[0-9]+}}: error: invalid schedule: edge blocking (BLOCKED) requires load balance EDGE_ONLY, got VERTEX_BASED (blocking spreads a vertex's edges over blocks; only one thread per edge walks them)
// VERTEX-NOT:    Traceback
