// Invalid graph.vector_reduce and graph.vector_copy IR: one diagnostic per chunk.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ERR

builtin.module {
  graph.global @rank : !graph.vector<f64>
  func.func @main() {
    %total = graph.vector_reduce add @rank : f32
    func.return
  }
}
// ERR: '@rank' holds f64, not f32

// -----

builtin.module {
  graph.global @seen : !graph.vector<i1>
  func.func @main() {
    %any = graph.vector_reduce max @seen : i1
    func.return
  }
}
// ERR: bool vectors have no sum, max or min

// -----

builtin.module {
  graph.global @deg : !graph.vector<i32>
  graph.global @few : !graph.vector<4 x i32>
  func.func @main() {
    graph.vector_copy @few, @deg
    func.return
  }
}
// ERR: cannot copy a !graph.vector<i32> into a !graph.vector<4 x i32>
