// RUN: gir-opt %s -p graph-specialize-udfs | filecheck %s

// @relax is applied by two statements: the second gets its own copy, named
// after its label. The call inside @relax is inlined; @helper, then unused, goes.

builtin.module {
  graph.global @dist : !graph.vector<i32>
  func.func @helper(%v : !graph.vertex) -> i32 {
    %0 = graph.load @dist[%v] : !graph.vertex -> i32
    func.return %0 : i32
  }
  func.func @relax(%src : !graph.vertex, %dst : !graph.vertex) {
    %0 = func.call @helper(%src) : (!graph.vertex) -> i32
    %1 = graph.reduce min %0, @dist[%dst] : !graph.vertex, i32
    func.return
  }
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %z = arith.constant 0 : i32
    %f = graph.vertexset_new %z : i32
    %a = graph.edgeset_apply %e from %f apply_modified @relax {tracked = @dist, label = "s1"} : !graph.edgeset -> !graph.vertexset
    %b = graph.edgeset_apply %e from %a apply_modified @relax {tracked = @dist, label = "s0:s2"} : !graph.edgeset -> !graph.vertexset
    func.return
  }
}

// CHECK-NOT:  func.func @helper
// CHECK:      func.func @relax(%src: !graph.vertex, %dst: !graph.vertex) {
// CHECK-NEXT:   %0 = graph.load @dist[%src] : !graph.vertex -> i32
// CHECK-NEXT:   %1 = graph.reduce min %0, @dist[%dst] : !graph.vertex, i32
// CHECK-NEXT:   func.return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @relax_s0_s2(%src: !graph.vertex, %dst: !graph.vertex) {
// CHECK-NEXT:   %0 = graph.load @dist[%src] : !graph.vertex -> i32
// CHECK-NEXT:   %1 = graph.reduce min %0, @dist[%dst] : !graph.vertex, i32
// CHECK-NEXT:   func.return
// CHECK-NEXT: }
// CHECK:      graph.edgeset_apply %e from %f apply_modified @relax {tracked = @dist, label = "s1"}
// CHECK-NEXT: graph.edgeset_apply %e from %a apply_modified @relax_s0_s2 {tracked = @dist, label = "s0:s2"}
