// RUN: gir-opt %s -p graph-default-schedule,graph-insert-atomics | filecheck %s

// Under EDGE_ONLY one thread runs per edge, so a source's edges are spread over
// many threads: its elements are shared even when the traversal starts from
// every vertex once (VERTEX_BASED keeps them private: graph-insert-atomics.mlir),
// and clustered: the threads sharing one are neighbours.
builtin.module {
  graph.global @count : !graph.vector<i32>
  func.func @degree(%src : !graph.vertex, %dst : !graph.vertex) {
    %one = arith.constant 1 : i32
    %0 = graph.reduce add %one, @count[%src] : !graph.vertex, i32
    func.return
  }
  // CHECK-LABEL: func.func @degree
  // CHECK:         graph.reduce add %one, @count[%src] atomic clustered : !graph.vertex, i32

  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    graph.edgeset_apply %e apply @degree {schedule = #graph.simple_schedule<load_balance = EDGE_ONLY>} : !graph.edgeset
    func.return
  }
}
