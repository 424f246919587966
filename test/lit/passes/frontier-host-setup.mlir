// RUN: gir-opt %S/Inputs/sssp_frontier.mlir -p frontier-host-setup | filecheck %s

// The graph is loaded where graph.load_edges was; each vector gets a named device
// buffer right after it (zero-filled unless main fills it first; bools as i8);
// main's own vector accesses become host ops; map bodies are left alone.
// CHECK-LABEL: func.func @main() {
// CHECK-NEXT:    %s = host.argv_int argv[2] : i32
// CHECK-NEXT:    %graph = host.load_graph {argv = 1 : i64, weighted}
// CHECK-NEXT:    %num_vertices = host.graph_size %graph vertices {setup} : i32
// CHECK-NEXT:    %num_edges = host.graph_size %graph edges {setup} : i32
// CHECK-NEXT:    %dist = host.alloc %num_vertices {setup} : i32 -> memref<?xi32>
// CHECK-NEXT:    host.bind_global %dist as "dist" {setup} : memref<?xi32>
// CHECK-NEXT:    %done = host.alloc %num_vertices {setup} : i32 -> memref<?xi8>
// CHECK-NEXT:    host.bind_global %done as "done" {setup} : memref<?xi8>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant {setup} 0 : i8
// CHECK-NEXT:    host.fill %done, %[[ZERO]], %num_vertices {setup} : memref<?xi8>, i8, i32
// CHECK-NEXT:    %degree = host.alloc %num_vertices {setup} : i32 -> memref<?xi32>
// CHECK-NEXT:    host.bind_global %degree as "degree" {setup} : memref<?xi32>
// CHECK-NEXT:    %out_degrees = host.graph_array %graph out_degrees {setup} : memref<?xi32>
// CHECK-NEXT:    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset<i32>
// CHECK-NEXT:    %inf = arith.constant 1000000 : i32
// CHECK-NEXT:    host.fill %dist, %inf, %num_vertices : memref<?xi32>, i32, i32
// CHECK-NEXT:    host.copy %out_degrees, %degree, %num_vertices : memref<?xi32>, i32
// CHECK-NEXT:    %z = arith.constant 0 : i32
// CHECK-NEXT:    host.write %z, %dist[%s] : i32, memref<?xi32>, i32
// CHECK-NEXT:    %f = frontier.new %z : i32 -> !frontier.queue

// Device code keeps its graph ops for frontier-lower-device-ops.
// CHECK:           %lowered = graph.reduce min %new, @dist[%dst] atomic : !graph.vertex, i32

// A bool read on the host: an i8 read, truncated.
// CHECK:         %[[BYTE:.*]] = host.read %done[%z] : memref<?xi8>, i32 -> i8
// CHECK-NEXT:    %first = arith.trunci %[[BYTE]] : i8 to i1
