// RUN: gir-opt %s -p 'frontier-lower-load-balance{only=VERTEX_BASED}' | filecheck %s

// PULL with VERTEX_BASED: one thread per destination (a map over every vertex)
// walking its in-edges over CSC; the `to` filter is checked before each in-edge,
// so the loop leaves as soon as the destination is claimed (GraphIt's early exit).
builtin.module {
  graph.global @parent : !graph.vector<i32>
  graph.global @sum : !graph.vector<i32>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset<i32>
    %z = arith.constant 0 : i32
    %all = frontier.all_vertices : !frontier.all
    %empty = frontier.new %z : i32 -> !frontier.queue
    %out = frontier.edge_traverse PULL VERTEX_BASED CSC %e : !graph.edgeset<i32> from %all : !frontier.all into %empty : !frontier.queue {label = "claim"} to {
    ^bb0(%v : !graph.vertex):
      %p = graph.load @parent[%v] : !graph.vertex -> i32
      %m1 = arith.constant -1 : i32
      %unvisited = arith.cmpi eq, %p, %m1 : i32
      frontier.yield %unvisited : i1
    } apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      %id = graph.vertex_id %src : i32
      graph.store %id, @parent[%dst] : !graph.vertex, i32
      frontier.enqueue %dst
      frontier.yield
    } -> !frontier.queue
    frontier.edge_traverse PULL VERTEX_BASED CSC %e : !graph.edgeset<i32> from %all : !frontier.all {label = "gather"} apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex, %w : i32):
      %s = graph.reduce add %w, @sum[%dst] : !graph.vertex, i32
      frontier.yield
    }
    %wave = frontier.new %z : i32 -> !frontier.bitmap
    %next = frontier.new %z : i32 -> !frontier.bitmap
    %out2 = frontier.edge_traverse PULL VERTEX_BASED CSC %e : !graph.edgeset<i32> from %wave : !frontier.bitmap into %next : !frontier.bitmap {label = "expand"} apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex, %w : i32):
      %s = graph.reduce add %w, @sum[%dst] : !graph.vertex, i32
      frontier.enqueue %dst
      frontier.yield
    } -> !frontier.bitmap
    func.return
  }
}

// Over every vertex the input is the map's own.
// CHECK:      %out = frontier.vertex_map %all : !frontier.all into %empty : !frontier.queue -> !frontier.queue attributes {label = "claim"} {
// CHECK-NEXT: ^bb0(%dst: !graph.vertex):
// CHECK-NEXT:   %begin, %end = frontier.edge_range CSC %e[%dst] : !graph.edgeset<i32>
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:   %{{.*}} = scf.while (%edge = %begin) : (index) -> index {
// CHECK-NEXT:     %more = arith.cmpi ult, %edge, %end : index
// CHECK-NEXT:     %go = scf.if %more -> (i1) {
// CHECK-NEXT:       %p = graph.load @parent[%dst] : !graph.vertex -> i32
// CHECK-NEXT:       %m1 = arith.constant -1 : i32
// CHECK-NEXT:       %unvisited = arith.cmpi eq, %p, %m1 : i32
// CHECK-NEXT:       scf.yield %unvisited : i1
// CHECK-NEXT:     } else {
// CHECK-NEXT:       %{{.*}} = arith.constant false
// CHECK-NEXT:       scf.yield %{{.*}} : i1
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.condition(%go) %edge : index
// CHECK-NEXT:   } do {
// CHECK-NEXT:   ^bb0(%edge_1: index):
// CHECK-NEXT:     %[[NEXT:.*]] = arith.addi %edge_1, %[[ONE]] : index
// CHECK-NEXT:     %src = frontier.neighbor CSC %e[%edge_1] : !graph.edgeset<i32>
// CHECK-NEXT:     %id = graph.vertex_id %src : i32
// CHECK-NEXT:     graph.store %id, @parent[%dst] : !graph.vertex, i32
// CHECK-NEXT:     frontier.enqueue %dst
// CHECK-NEXT:     scf.yield %[[NEXT]] : index
// CHECK-NEXT:   }
// CHECK-NEXT:   frontier.yield
// CHECK-NEXT: }

// Without a `to` filter: a plain loop over the in-edges, weights read from CSC.
// CHECK:      frontier.vertex_map %{{.*}} : !frontier.all attributes {label = "gather"} {
// CHECK-NEXT: ^bb0(%dst_1: !graph.vertex):
// CHECK-NEXT:   %begin_1, %end_1 = frontier.edge_range CSC %e[%dst_1] : !graph.edgeset<i32>
// CHECK-NEXT:   %{{.*}} = arith.constant 1 : index
// CHECK-NEXT:   scf.for %edge_2 = %begin_1 to %end_1 step %{{.*}} {
// CHECK-NEXT:     %src_1 = frontier.neighbor CSC %e[%edge_2] : !graph.edgeset<i32>
// CHECK-NEXT:     %weight = frontier.edge_weight CSC %e[%edge_2] : !graph.edgeset<i32> -> i32
// CHECK-NEXT:     %s = graph.reduce add %weight, @sum[%dst_1] : !graph.vertex, i32

// From a bitmap: still every vertex a destination; an in-edge's work runs only
// when its source is in the input (tested before its weight is read).
// CHECK:      %every = frontier.all_vertices : !frontier.all
// CHECK-NEXT: %out2 = frontier.vertex_map %every : !frontier.all into %next : !frontier.bitmap -> !frontier.bitmap attributes {label = "expand"} {
// CHECK-NEXT: ^bb0(%dst_2: !graph.vertex):
// CHECK-NEXT:   %begin_2, %end_2 = frontier.edge_range CSC %e[%dst_2] : !graph.edgeset<i32>
// CHECK-NEXT:   %{{.*}} = arith.constant 1 : index
// CHECK-NEXT:   scf.for %edge_3 = %begin_2 to %end_2 step %{{.*}} {
// CHECK-NEXT:     %src_2 = frontier.neighbor CSC %e[%edge_3] : !graph.edgeset<i32>
// CHECK-NEXT:     %active = frontier.contains %wave[%src_2] : !frontier.bitmap
// CHECK-NEXT:     scf.if %active {
// CHECK-NEXT:       %weight_1 = frontier.edge_weight CSC %e[%edge_3] : !graph.edgeset<i32> -> i32
// CHECK-NEXT:       %s_1 = graph.reduce add %weight_1, @sum[%dst_2] : !graph.vertex, i32
// CHECK-NEXT:       frontier.enqueue %dst_2
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   frontier.yield
// CHECK-NEXT: }
