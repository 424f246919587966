// Invalid host.call_extern: one diagnostic per chunk.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s

builtin.module {
  func.func private @spread(memref<?xi32>, i32) -> f64
  func.func @main() {
    %n = arith.constant 8 : i32
    %r = host.call_extern @spread(%n, %n) : (i32, i32) -> f64
    func.return
  }
}
// CHECK: host.call_extern of '@spread' is (i32, i32) -> f64, its declaration (memref<?xi32>, i32) -> f64

// -----

builtin.module {
  func.func @main() {
    host.call_extern @main() : () -> ()
    func.return
  }
}
// CHECK: '@main' is not an extern function
