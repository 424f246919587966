// Bellman-Ford SSSP (GraphIt's sssp.gt) at the graph level: weighted edges,
// SP[dst] min= SP[src] + w, applyModified on SP (no dedup), at most n rounds.
builtin.module {
  graph.global @edges : !graph.edgeset<i32>
  graph.global @vertices : !graph.vertexset
  graph.global @SP : !graph.vector<i32>
  func.func @updateEdge(%src : !graph.vertex, %dst : !graph.vertex, %weight : i32) {
    %0 = graph.load @SP[%src] : !graph.vertex -> i32
    %1 = arith.addi %0, %weight : i32
    %2 = graph.reduce min %1, @SP[%dst] : !graph.vertex, i32
    func.return
  }
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset<i32>
    graph.global_store %e, @edges : !graph.edgeset<i32>
    %e0 = graph.global_load @edges : !graph.edgeset<i32>
    %all = graph.get_vertices %e0 : !graph.edgeset<i32>
    graph.global_store %all, @vertices : !graph.vertexset
    %inf = arith.constant 2147483647 : i32
    graph.vector_fill @SP, %inf : i32
    %vs = graph.global_load @vertices : !graph.vertexset
    %n = graph.vertexset_size %vs : i32
    %z = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %f = graph.vertexset_new %z : i32
    %s = graph.argv_int argv[2] : i32
    graph.add_vertex %f, %s : i32
    graph.store %z, @SP[%s] : i32, i32
    graph.start_timer
    %r:2 = scf.while (%fr = %f, %rounds = %z) : (!graph.vertexset, i32) -> (!graph.vertexset, i32) {
      %size = graph.vertexset_size %fr : i32
      %nonempty = arith.cmpi ne, %size, %z : i32
      %more = arith.cmpi slt, %rounds, %n : i32
      %c = arith.andi %nonempty, %more : i1
      scf.condition(%c) %fr, %rounds : !graph.vertexset, i32
    } do {
    ^bb0(%fr2 : !graph.vertexset, %rounds2 : i32):
      %e2 = graph.global_load @edges : !graph.edgeset<i32>
      %o = graph.edgeset_apply %e2 from %fr2 apply_modified @updateEdge {tracked = @SP, label = "s1"} : !graph.edgeset<i32> -> !graph.vertexset
      graph.delete %fr2 : !graph.vertexset
      %next = arith.addi %rounds2, %one : i32
      scf.yield %o, %next : !graph.vertexset, i32
    }
    %t = graph.stop_timer : f32
    graph.delete %r#0 : !graph.vertexset
    graph.print %r#1 : i32
    graph.print %t : f32
    func.return
  }
}
