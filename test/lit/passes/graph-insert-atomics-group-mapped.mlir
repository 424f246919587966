// RUN: gir-opt %s -p graph-default-schedule,graph-insert-atomics | filecheck %s

// Under WM a warp, under CM a block shares the edges of one source: its elements
// are shared even when the traversal starts from every vertex once, and clustered.
builtin.module {
  graph.global @count : !graph.vector<i32>
  func.func @warp_degree(%src : !graph.vertex, %dst : !graph.vertex) {
    %one = arith.constant 1 : i32
    %0 = graph.reduce add %one, @count[%src] : !graph.vertex, i32
    func.return
  }
  // CHECK-LABEL: func.func @warp_degree
  // CHECK:         graph.reduce add %one, @count[%src] atomic clustered : !graph.vertex, i32

  func.func @block_degree(%src : !graph.vertex, %dst : !graph.vertex) {
    %one = arith.constant 1 : i32
    %0 = graph.reduce add %one, @count[%src] : !graph.vertex, i32
    func.return
  }
  // CHECK-LABEL: func.func @block_degree
  // CHECK:         graph.reduce add %one, @count[%src] atomic clustered : !graph.vertex, i32

  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    graph.edgeset_apply %e apply @warp_degree {schedule = #graph.simple_schedule<load_balance = WM>} : !graph.edgeset
    graph.edgeset_apply %e apply @block_degree {schedule = #graph.simple_schedule<load_balance = CM>} : !graph.edgeset
    func.return
  }
}
