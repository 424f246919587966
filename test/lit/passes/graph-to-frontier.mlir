// RUN: gir-opt %s -p graph-default-schedule,graph-to-frontier | filecheck %s

builtin.module {
  graph.global @edges : !graph.edgeset
  graph.global @vertices : !graph.vertexset
  graph.global @parent : !graph.vector<i32>
  graph.global @rank : !graph.vector<f32>
  graph.global @damp : f32
  func.func @toFilter(%v : !graph.vertex) -> i1 {
    %0 = graph.load @parent[%v] : !graph.vertex -> i32
    %c = arith.constant -1 : i32
    %1 = arith.cmpi eq, %0, %c : i32
    func.return %1 : i1
  }
  func.func @updateEdge(%src : !graph.vertex, %dst : !graph.vertex) {
    %0 = graph.vertex_id %src : i32
    %c = arith.constant -1 : i32
    %1 = graph.compare_and_swap @parent[%dst], %c, %0 : !graph.vertex, i32
    func.return
  }
  func.func @scale(%v : !graph.vertex) {
    %d = graph.global_load @damp : f32
    %0 = graph.load @rank[%v] : !graph.vertex -> f32
    %1 = arith.mulf %d, %0 : f32
    graph.store %1, @rank[%v] : !graph.vertex, f32
    func.return
  }
  func.func @reached(%v : !graph.vertex) -> i1 {
    %0 = graph.load @parent[%v] : !graph.vertex -> i32
    %c = arith.constant -1 : i32
    %1 = arith.cmpi ne, %0, %c : i32
    func.return %1 : i1
  }
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    graph.global_store %e, @edges : !graph.edgeset
    %e0 = graph.global_load @edges : !graph.edgeset
    %all = graph.get_vertices %e0 : !graph.edgeset
    graph.global_store %all, @vertices : !graph.vertexset
    %half = arith.constant 0.5 : f32
    graph.global_store %half, @damp : f32
    %z = arith.constant 0 : i32
    %f = graph.vertexset_new %z : i32
    %s = graph.argv_int argv[2] : i32
    graph.add_vertex %f, %s : i32
    %n0 = graph.vertexset_size %f : i32
    %r = scf.while (%fr = %f) : (!graph.vertexset) -> !graph.vertexset {
      %n = graph.vertexset_size %fr : i32
      %c = arith.cmpi ne, %n, %z : i32
      scf.condition(%c) %fr : !graph.vertexset
    } do {
    ^bb0(%fr2 : !graph.vertexset):
      %e2 = graph.global_load @edges : !graph.edgeset
      %o = graph.edgeset_apply %e2 from %fr2 apply_modified @updateEdge {to_filter = @toFilter, tracked = @parent, dedup, label = "s1"} : !graph.edgeset -> !graph.vertexset
      graph.delete %fr2 : !graph.vertexset
      scf.yield %o : !graph.vertexset
    }
    graph.delete %r : !graph.vertexset
    %vs = graph.global_load @vertices : !graph.vertexset
    graph.vertexset_apply %vs, @scale
    %visited = graph.vertexset_filter %vs, @reached
    %size = graph.vertexset_size %visited : i32
    graph.print %size : i32
    func.return
  }
}

// The user functions and the non-vector globals are gone.
// CHECK:      builtin.module {
// CHECK-NEXT:   graph.global @parent : !graph.vector<i32>
// CHECK-NEXT:   graph.global @rank : !graph.vector<f32>
// CHECK-NEXT:   func.func @main() {
// CHECK-NEXT:     %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
// CHECK-NEXT:     %all = frontier.all_vertices : !frontier.all
// CHECK-NEXT:     %half = arith.constant 5.000000e-01 : f32

// addVertex returns the changed queue, which later statements use.
// CHECK:          %f = frontier.new %z : i32 -> !frontier.queue
// CHECK-NEXT:     %s = graph.argv_int argv[2] : i32
// CHECK-NEXT:     %[[ADDED:.*]] = frontier.add %s, %f : i32, !frontier.queue
// CHECK-NEXT:     %n0 = frontier.size %[[ADDED]] : !frontier.queue -> i32
// CHECK-NEXT:     %r = scf.while (%fr = %[[ADDED]]) : (!frontier.queue) -> !frontier.queue {
// CHECK-NEXT:       %n = frontier.size %fr : !frontier.queue -> i32

// The traversal carries the schedule's axes, the layout, a fresh output queue,
// the tracked vector and the inlined functions.
// CHECK:          ^bb0(%fr2: !frontier.queue):
// CHECK-NEXT:       %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:       %empty = frontier.new %[[ZERO]] : i32 -> !frontier.queue
// CHECK-NEXT:       %o = frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %fr2 : !frontier.queue into %empty : !frontier.queue tracked @parent dedup {label = "s1"} to {
// CHECK-NEXT:       ^bb0(%v: !graph.vertex):
// CHECK-NEXT:         %{{.*}} = graph.load @parent[%v] : !graph.vertex -> i32
// CHECK:              frontier.yield %{{.*}} : i1
// CHECK-NEXT:       } apply {
// CHECK-NEXT:       ^bb0(%src: !graph.vertex, %dst: !graph.vertex):
// CHECK-NEXT:         %{{.*}} = graph.vertex_id %src : i32
// CHECK:              graph.compare_and_swap @parent[%dst]
// CHECK-NEXT:         frontier.yield
// CHECK-NEXT:       } -> !frontier.queue
// CHECK-NEXT:       frontier.free %fr2 : !frontier.queue
// CHECK-NEXT:       scf.yield %o : !frontier.queue
// CHECK-NEXT:     }
// CHECK-NEXT:     frontier.free %r : !frontier.queue

// getVertices() is every vertex; the scalar global is the value main stored.
// CHECK-NEXT:     frontier.vertex_map %all : !frontier.all attributes {label = "scale"} {
// CHECK-NEXT:     ^bb0(%v_1: !graph.vertex):
// CHECK-NEXT:       %{{.*}} = graph.load @rank[%v_1] : !graph.vertex -> f32
// CHECK-NEXT:       %{{.*}} = arith.mulf %half, %{{.*}} : f32

// A filter fills a fresh queue with the vertices it keeps.
// CHECK:          %empty_1 = frontier.new %{{.*}} : i32 -> !frontier.queue
// CHECK-NEXT:     %visited = frontier.vertex_map %all : !frontier.all into %empty_1 : !frontier.queue -> !frontier.queue attributes {label = "reached"} {
// CHECK-NEXT:     ^bb0(%v_2: !graph.vertex):
// CHECK:            scf.if %{{.*}} {
// CHECK-NEXT:         frontier.enqueue %v_2
// CHECK-NEXT:       }
// CHECK-NEXT:       frontier.yield
// CHECK-NEXT:     }
// CHECK-NEXT:     %size = frontier.size %visited : !frontier.queue -> i32
