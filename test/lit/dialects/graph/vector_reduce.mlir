// graph.vector_reduce and graph.vector_copy round-trip; their verifiers reject a
// result of another type than the elements, bool vectors, and copies between
// vectors of different types.

// RUN: gir-opt %s | filecheck %s
// RUN: gir-opt %s --print-op-generic | gir-opt | filecheck %s

builtin.module {
  graph.global @deg : !graph.vector<i32>
  graph.global @copy : !graph.vector<i32>
  graph.global @rank : !graph.vector<f64>
  graph.global @few : !graph.vector<4 x f32>
  func.func @main() {
    %total = graph.vector_reduce add @deg : i32
    %top = graph.vector_reduce max @rank : f64
    %low = graph.vector_reduce min @few : f32
    graph.vector_copy @copy, @deg
    func.return
  }
}
// CHECK:      %total = graph.vector_reduce add @deg : i32
// CHECK-NEXT: %top = graph.vector_reduce max @rank : f64
// CHECK-NEXT: %low = graph.vector_reduce min @few : f32
// CHECK-NEXT: graph.vector_copy @copy, @deg
