// Invalid host-list IR: lists hold i32 device arrays.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s

builtin.module {
  func.func @main() {
    %n = arith.constant 8 : i32
    %values = host.alloc %n : i32 -> memref<?xf32>
    %l = host.list_new : !host.list
    host.list_push %l, %values, %n : memref<?xf32>, i32
    func.return
  }
}
// CHECK: host.list_push: lists hold i32 arrays, not memref<?xf32>

// -----

builtin.module {
  func.func @main() {
    %n = arith.constant 8 : i32
    %values = "host.alloc"(%n) : (i32) -> memref<?xi64>
    %l = host.list_new : !host.list
    %size = host.list_pop %l, %values : memref<?xi64>
    func.return
  }
}
// CHECK: host.list_pop: lists hold i32 arrays, not memref<?xi64>
