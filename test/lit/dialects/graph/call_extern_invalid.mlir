// Invalid graph.call_extern: one diagnostic per chunk.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s

builtin.module {
  graph.global @rank : !graph.vector<f32>
  func.func private @normalize(!graph.vector<f32>, i32) -> f32
  func.func @main() {
    %n = arith.constant 8 : i32
    %r = graph.call_extern @normalize(%n) vectors [] : (i32) -> f32
    func.return
  }
}
// CHECK: graph.call_extern of '@normalize' does not match its declaration (!graph.vector<f32>, i32) -> f32

// -----

builtin.module {
  graph.global @count : !graph.vector<i32>
  func.func private @normalize(!graph.vector<f32>, i32) -> f32
  func.func @main() {
    %n = arith.constant 8 : i32
    %r = graph.call_extern @normalize(%n) vectors [@count] : (i32) -> f32
    func.return
  }
}
// CHECK: vector '@count' is not !graph.vector<f32>
