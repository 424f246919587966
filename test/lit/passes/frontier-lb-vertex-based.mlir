// RUN: gir-opt %s -p 'frontier-lower-load-balance{only=VERTEX_BASED}' | filecheck %s

builtin.module {
  graph.global @parent : !graph.vector<i32>
  graph.global @dist : !graph.vector<i32>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset<i32>
    %z = arith.constant 0 : i32
    %in = frontier.new %z : i32 -> !frontier.queue
    %empty = frontier.new %z : i32 -> !frontier.queue
    %out = frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset<i32> from %in : !frontier.queue into %empty : !frontier.queue dedup {label = "s1"} to {
    ^bb0(%v : !graph.vertex):
      %p = graph.load @parent[%v] : !graph.vertex -> i32
      %m1 = arith.constant -1 : i32
      %unvisited = arith.cmpi eq, %p, %m1 : i32
      frontier.yield %unvisited : i1
    } apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex, %weight : i32):
      %d = graph.load @dist[%src] : !graph.vertex -> i32
      %new = arith.addi %d, %weight : i32
      %lowered = graph.reduce min %new, @dist[%dst] atomic : !graph.vertex, i32
      scf.if %lowered {
        frontier.enqueue %dst
      }
      frontier.yield
    } -> !frontier.queue
    %all = frontier.all_vertices : !frontier.all
    frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset<i32> from %all : !frontier.all apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      %id = graph.vertex_id %src : i32
      graph.store %id, @parent[%dst] : !graph.vertex, i32
      frontier.yield
    }
    func.return
  }
}

// One thread per frontier vertex (the source) walks its CSR row; the `to`
// filter guards the edge function on each neighbor.
// CHECK:      %out = frontier.vertex_map %in : !frontier.queue into %empty : !frontier.queue dedup -> !frontier.queue attributes {label = "s1"} {
// CHECK-NEXT: ^bb0(%src: !graph.vertex):
// CHECK-NEXT:   %begin, %end = frontier.edge_range CSR %e[%src] : !graph.edgeset<i32>
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:   scf.for %edge = %begin to %end step %[[ONE]] {
// CHECK-NEXT:     %dst = frontier.neighbor CSR %e[%edge] : !graph.edgeset<i32>
// CHECK-NEXT:     %weight = frontier.edge_weight CSR %e[%edge] : !graph.edgeset<i32> -> i32
// CHECK-NEXT:     %p = graph.load @parent[%dst] : !graph.vertex -> i32
// CHECK-NEXT:     %m1 = arith.constant -1 : i32
// CHECK-NEXT:     %unvisited = arith.cmpi eq, %p, %m1 : i32
// CHECK-NEXT:     scf.if %unvisited {
// CHECK-NEXT:       %d = graph.load @dist[%src] : !graph.vertex -> i32
// CHECK-NEXT:       %new = arith.addi %d, %weight : i32
// CHECK-NEXT:       %lowered = graph.reduce min %new, @dist[%dst] atomic : !graph.vertex, i32
// CHECK-NEXT:       scf.if %lowered {
// CHECK-NEXT:         frontier.enqueue %dst
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   frontier.yield
// CHECK-NEXT: }

// Without an output and a filter; the weight is not read when unused.
// CHECK:      frontier.vertex_map %all : !frontier.all {
// CHECK-NEXT: ^bb0(%src_1: !graph.vertex):
// CHECK-NEXT:   %begin_1, %end_1 = frontier.edge_range CSR %e[%src_1] : !graph.edgeset<i32>
// CHECK:        scf.for %edge_1 = %begin_1 to %end_1 step %{{.*}} {
// CHECK-NEXT:     %dst_1 = frontier.neighbor CSR %e[%edge_1] : !graph.edgeset<i32>
// CHECK-NEXT:     %id = graph.vertex_id %src_1 : i32
// CHECK-NEXT:     graph.store %id, @parent[%dst_1] : !graph.vertex, i32
// CHECK-NEXT:   }
