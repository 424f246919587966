// PageRank (GraphIt's pagerank.gt) at the graph level: 20 iterations of
// computeContrib, new_rank[dst] += contrib[src] over every edge (float add),
// updateVertex; scalar globals damp and beta_score; getOutDegrees.
builtin.module {
  graph.global @edges : !graph.edgeset
  graph.global @vertices : !graph.vertexset
  graph.global @old_rank : !graph.vector<f32>
  graph.global @new_rank : !graph.vector<f32>
  graph.global @out_degree : !graph.vector<i32>
  graph.global @contrib : !graph.vector<f32>
  graph.global @error : !graph.vector<f32>
  graph.global @damp : f32
  graph.global @beta_score : f32
  func.func @computeContrib(%v : !graph.vertex) {
    %0 = graph.load @old_rank[%v] : !graph.vertex -> f32
    %1 = graph.load @out_degree[%v] : !graph.vertex -> i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.divf %0, %2 : f32
    graph.store %3, @contrib[%v] : !graph.vertex, f32
    func.return
  }
  func.func @updateEdge(%src : !graph.vertex, %dst : !graph.vertex) {
    %0 = graph.load @contrib[%src] : !graph.vertex -> f32
    %1 = graph.reduce add %0, @new_rank[%dst] : !graph.vertex, f32
    func.return
  }
  func.func @updateVertex(%v : !graph.vertex) {
    %beta = graph.global_load @beta_score : f32
    %damp = graph.global_load @damp : f32
    %0 = graph.load @new_rank[%v] : !graph.vertex -> f32
    %1 = arith.mulf %damp, %0 : f32
    %2 = arith.addf %beta, %1 : f32
    graph.store %2, @new_rank[%v] : !graph.vertex, f32
    %old = graph.load @old_rank[%v] : !graph.vertex -> f32
    %3 = arith.subf %2, %old : f32
    %4 = math.absf %3 : f32
    graph.store %4, @error[%v] : !graph.vertex, f32
    graph.store %2, @old_rank[%v] : !graph.vertex, f32
    %zero = arith.constant 0.0 : f32
    graph.store %zero, @new_rank[%v] : !graph.vertex, f32
    func.return
  }
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    graph.global_store %e, @edges : !graph.edgeset
    %e0 = graph.global_load @edges : !graph.edgeset
    %all = graph.get_vertices %e0 : !graph.edgeset
    graph.global_store %all, @vertices : !graph.vertexset
    %vs = graph.global_load @vertices : !graph.vertexset
    %n = graph.vertexset_size %vs : i32
    %nf = arith.sitofp %n : i32 to f32
    %one = arith.constant 1.0 : f32
    %init = arith.divf %one, %nf : f32
    graph.vector_fill @old_rank, %init : f32
    %zero = arith.constant 0.0 : f32
    graph.vector_fill @new_rank, %zero : f32
    %e1 = graph.global_load @edges : !graph.edgeset
    graph.out_degrees %e1 into @out_degree : !graph.edgeset
    graph.vector_fill @contrib, %zero : f32
    graph.vector_fill @error, %zero : f32
    %d = arith.constant 0.85 : f32
    graph.global_store %d, @damp : f32
    %d1 = graph.global_load @damp : f32
    %rest = arith.subf %one, %d1 : f32
    %beta = arith.divf %rest, %nf : f32
    graph.global_store %beta, @beta_score : f32
    graph.start_timer
    %lo = arith.constant 0 : i32
    %hi = arith.constant 20 : i32
    %step = arith.constant 1 : i32
    scf.for %i = %lo to %hi step %step : i32 {
      %vs2 = graph.global_load @vertices : !graph.vertexset
      graph.vertexset_apply %vs2, @computeContrib
      %e2 = graph.global_load @edges : !graph.edgeset
      graph.edgeset_apply %e2 apply @updateEdge {label = "s1"} : !graph.edgeset
      %vs3 = graph.global_load @vertices : !graph.vertexset
      graph.vertexset_apply %vs3, @updateVertex
      scf.yield
    }
    %t = graph.stop_timer : f32
    graph.print "elapsed time: "
    graph.print %t : f32
    func.return
  }
}
