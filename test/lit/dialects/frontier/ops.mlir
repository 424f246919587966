// The frontier dialect's syntax round-trips (print -> parse -> print).
// RUN: gir-opt %s | filecheck %s
// RUN: gir-opt %s | gir-opt | filecheck %s
// RUN: gir-opt %s --print-op-generic | gir-opt | filecheck %s
// RUN: gir-opt %s -o %t.1.mlir && gir-opt %t.1.mlir -o %t.2.mlir && cmp %t.1.mlir %t.2.mlir

builtin.module {
  graph.global @parent : !graph.vector<i32>
  graph.global @dist : !graph.vector<i32>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %w = graph.load_edges {argv = 2 : i64} : !graph.edgeset<i32>
    %z = arith.constant 0 : i32
    %q = frontier.new %z : i32 -> !frontier.queue
    %q2 = frontier.add %z, %q : i32, !frontier.queue
    %empty = frontier.new %z : i32 -> !frontier.queue
    %all = frontier.all_vertices : !frontier.all
    %n = frontier.size %all : !frontier.all -> i32
    %out = frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %q2 : !frontier.queue into %empty : !frontier.queue tracked @parent dedup {label = "s1"} to {
    ^bb0(%v : !graph.vertex):
      %p = graph.load @parent[%v] : !graph.vertex -> i32
      %m1 = arith.constant -1 : i32
      %unvisited = arith.cmpi eq, %p, %m1 : i32
      frontier.yield %unvisited : i1
    } apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      %id = graph.vertex_id %src : i32
      graph.store %id, @parent[%dst] : !graph.vertex, i32
      frontier.yield
    } -> !frontier.queue
    frontier.edge_traverse PUSH VERTEX_BASED CSR %w : !graph.edgeset<i32> from %all : !frontier.all apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex, %weight : i32):
      %d = graph.reduce min %weight, @dist[%dst] atomic : !graph.vertex, i32
      frontier.yield
    }
    %cleared = frontier.clear %out : !frontier.queue
    %filled = frontier.vertex_map %q2 : !frontier.queue into %cleared : !frontier.queue dedup -> !frontier.queue attributes {label = "s2"} {
    ^bb0(%v : !graph.vertex):
      %begin, %end = frontier.edge_range CSR %w[%v] : !graph.edgeset<i32>
      %dst = frontier.neighbor CSR %w[%begin] : !graph.edgeset<i32>
      %weight = frontier.edge_weight CSR %w[%begin] : !graph.edgeset<i32> -> i32
      frontier.enqueue %dst
      frontier.yield
    }
    frontier.vertex_map %all : !frontier.all {
    ^bb0(%v : !graph.vertex):
      frontier.yield
    }
    %spread = frontier.edge_map EDGE_ONLY CSR %w : !graph.edgeset<i32> from %all : !frontier.all into %filled : !frontier.queue dedup -> !frontier.queue attributes {label = "s3"} {
    ^bb0(%src : !graph.vertex, %edge : index):
      %to = frontier.neighbor CSR %w[%edge] : !graph.edgeset<i32>
      frontier.enqueue %to
      frontier.yield
    }
    frontier.free %spread : !frontier.queue
    frontier.free %all : !frontier.all
    func.return
  }
}

// CHECK:      %q = frontier.new %z : i32 -> !frontier.queue
// CHECK-NEXT: %q2 = frontier.add %z, %q : i32, !frontier.queue
// CHECK:      %all = frontier.all_vertices : !frontier.all
// CHECK-NEXT: %n = frontier.size %all : !frontier.all -> i32
// CHECK-NEXT: %out = frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %q2 : !frontier.queue into %empty : !frontier.queue tracked @parent dedup {label = "s1"} to {
// CHECK-NEXT: ^bb0(%v: !graph.vertex):
// CHECK:        frontier.yield %unvisited : i1
// CHECK-NEXT: } apply {
// CHECK-NEXT: ^bb0(%src: !graph.vertex, %dst: !graph.vertex):
// CHECK:        frontier.yield
// CHECK-NEXT: } -> !frontier.queue
// CHECK-NEXT: frontier.edge_traverse PUSH VERTEX_BASED CSR %w : !graph.edgeset<i32> from %all : !frontier.all apply {
// CHECK-NEXT: ^bb0(%src_1: !graph.vertex, %dst_1: !graph.vertex, %weight: i32):
// CHECK:      %cleared = frontier.clear %out : !frontier.queue
// CHECK-NEXT: %filled = frontier.vertex_map %q2 : !frontier.queue into %cleared : !frontier.queue dedup -> !frontier.queue attributes {label = "s2"} {
// CHECK-NEXT: ^bb0(%v_1: !graph.vertex):
// CHECK-NEXT:   %begin, %end = frontier.edge_range CSR %w[%v_1] : !graph.edgeset<i32>
// CHECK-NEXT:   %dst_2 = frontier.neighbor CSR %w[%begin] : !graph.edgeset<i32>
// CHECK-NEXT:   %weight_1 = frontier.edge_weight CSR %w[%begin] : !graph.edgeset<i32> -> i32
// CHECK-NEXT:   frontier.enqueue %dst_2
// CHECK-NEXT:   frontier.yield
// CHECK-NEXT: }
// CHECK-NEXT: frontier.vertex_map %all : !frontier.all {
// CHECK:      %spread = frontier.edge_map EDGE_ONLY CSR %w : !graph.edgeset<i32> from %all : !frontier.all into %filled : !frontier.queue dedup -> !frontier.queue attributes {label = "s3"} {
// CHECK-NEXT: ^bb{{.*}}(%src{{.*}}: !graph.vertex, %edge: index):
// CHECK-NEXT:   %to = frontier.neighbor CSR %w[%edge] : !graph.edgeset<i32>
// CHECK-NEXT:   frontier.enqueue %to
// CHECK:      frontier.free %spread : !frontier.queue
// CHECK-NEXT: frontier.free %all : !frontier.all
