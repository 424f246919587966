// A verifier error names the line and column of the op that fails.
// RUN: not gir-opt %s 2>&1 | filecheck %s
// RUN: not gir-translate --to-opencl %s 2>&1 | filecheck %s

builtin.module {
  graph.global @rank : !graph.vector<f32>
  func.func @main() {
    %c = arith.constant 0 : i32
    graph.vector_fill @rank, %c : i32
    func.return
  }
}
// CHECK: verify.mlir:9:5: error: 'graph.vector_fill': cannot fill '@rank' of f32 with i32
