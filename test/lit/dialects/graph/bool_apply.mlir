// An `apply` of a bool edge function returns the destinations it returned true
// for; it round-trips through its custom syntax and through the generic form.
// RUN: gir-opt %s | filecheck %s
// RUN: gir-opt %s | gir-opt | filecheck %s
// RUN: gir-opt %s --print-op-generic | gir-opt | filecheck %s

builtin.module {
  graph.global @edges : !graph.edgeset
  graph.global @parent : !graph.vector<i32>
  func.func @claim(%s : !graph.vertex, %d : !graph.vertex) -> i1 {
    %0 = graph.vertex_id %s : i32
    %c = arith.constant -1 : i32
    %1 = graph.compare_and_swap @parent[%d], %c, %0 : !graph.vertex, i32
    func.return %1 : i1
  }
  func.func @main() {
    %e = graph.global_load @edges : !graph.edgeset
    %all = graph.get_vertices %e : !graph.edgeset
    %o = graph.edgeset_apply %e from %all apply @claim {label = "s1"} : !graph.edgeset -> !graph.vertexset
    func.return
  }
}
// CHECK: %o = graph.edgeset_apply %e from %all apply @claim {label = "s1"} : !graph.edgeset -> !graph.vertexset
