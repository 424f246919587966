// An intersection method that no strategy registers is refused, naming those that are.
// RUN: gir-opt %s --verify-diagnostics | filecheck %s

builtin.module {
  graph.global @edges : !graph.edgeset
  func.func @count(%src : !graph.vertex, %dst : !graph.vertex) {
    %e = graph.global_load @edges : !graph.edgeset
    %n = graph.intersect_neighbors "hash" %e[%src, %dst] : !graph.edgeset, !graph.vertex, !graph.vertex -> i64
    func.return
  }
}
// CHECK: unknown intersection 'hash', expected one of merge, binary_search
