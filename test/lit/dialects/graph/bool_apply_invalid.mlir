// Invalid applies of bool edge functions: one diagnostic per chunk.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s

builtin.module {
  graph.global @edges : !graph.edgeset
  func.func @u(%s : !graph.vertex, %d : !graph.vertex) {
    func.return
  }
  func.func @main() {
    %e = graph.global_load @edges : !graph.edgeset
    %o = graph.edgeset_apply %e apply @u : !graph.edgeset -> !graph.vertexset
    func.return
  }
}
// CHECK: edge function '@u' must have type (!graph.vertex, !graph.vertex) -> (i1), got (!graph.vertex, !graph.vertex) -> ()

// -----

builtin.module {
  graph.global @edges : !graph.edgeset
  func.func @u(%s : !graph.vertex, %d : !graph.vertex) -> i1 {
    %t = arith.constant true
    func.return %t : i1
  }
  func.func @main() {
    %e = graph.global_load @edges : !graph.edgeset
    graph.edgeset_apply %e apply @u : !graph.edgeset
    func.return
  }
}
// CHECK: edge function '@u' must have type (!graph.vertex, !graph.vertex) -> (), got (!graph.vertex, !graph.vertex) -> i1

// -----

builtin.module {
  graph.global @edges : !graph.edgeset
  func.func @u(%s : !graph.vertex, %d : !graph.vertex) {
    func.return
  }
  func.func @main() {
    %e = graph.global_load @edges : !graph.edgeset
    %o = graph.edgeset_apply %e apply_update_priority @u : !graph.edgeset -> !graph.vertexset
    func.return
  }
}
// CHECK: apply_update_priority returns nothing
