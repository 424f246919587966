// RUN: not gir-opt %s -p lower-to-gpu 2>&1 | filecheck %s
// RUN: not gir-opt %s -p graph-default-schedule 2>&1 | filecheck %s

// What the GPU lowering does not realize yet is one line on stderr naming the
// option and the statement, exit status 1, no traceback.

// CHECK:          error: edge blocking (BLOCKED) of statement 's0:s1' walks every edge of the graph, so it needs a traversal over all vertices (edges.apply), not one from a frontier
// CHECK-NOT:      Traceback

builtin.module {
  graph.global @edges : !graph.edgeset
  graph.global @vertices : !graph.vertexset
  graph.global @parent : !graph.vector<i32>
  func.func @toFilter(%v : !graph.vertex) -> i1 {
    %0 = graph.load @parent[%v] : !graph.vertex -> i32
    %c = arith.constant -1 : i32
    %1 = arith.cmpi eq, %0, %c : i32
    func.return %1 : i1
  }
  func.func @updateEdge(%src : !graph.vertex, %dst : !graph.vertex) {
    %0 = graph.vertex_id %src : i32
    graph.store %0, @parent[%dst] : !graph.vertex, i32
    func.return
  }
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    graph.global_store %e, @edges : !graph.edgeset
    %e0 = graph.global_load @edges : !graph.edgeset
    %all = graph.get_vertices %e0 : !graph.edgeset
    graph.global_store %all, @vertices : !graph.vertexset
    %m1 = arith.constant -1 : i32
    graph.vector_fill @parent, %m1 : i32
    %z = arith.constant 0 : i32
    %f = graph.vertexset_new %z : i32
    %s = graph.argv_int argv[2] : i32
    graph.add_vertex %f, %s : i32
    graph.store %s, @parent[%s] : i32, i32
    graph.start_timer
    %r = scf.while (%fr = %f) : (!graph.vertexset) -> !graph.vertexset {
      %n = graph.vertexset_size %fr : i32
      %c = arith.cmpi ne, %n, %z : i32
      scf.condition(%c) %fr : !graph.vertexset
    } do {
    ^bb0(%fr2 : !graph.vertexset):
      %e2 = graph.global_load @edges : !graph.edgeset
      %o = graph.edgeset_apply %e2 from %fr2 apply_modified @updateEdge {to_filter = @toFilter, tracked = @parent, dedup, label = "s0:s1", schedule = #graph.simple_schedule<direction = PULL, load_balance = EDGE_ONLY, edge_blocking = BLOCKED, blocking_size = 64>} : !graph.edgeset -> !graph.vertexset
      graph.delete %fr2 : !graph.vertexset
      scf.yield %o : !graph.vertexset
    } attributes {graph.label = "s0"}
    graph.delete %r : !graph.vertexset
    %t = graph.stop_timer : f32
    graph.print %t : f32
    func.return
  }
}
