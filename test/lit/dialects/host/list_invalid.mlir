// Invalid host-list IR: lists (and their device views) hold i32 device arrays.
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

// -----

builtin.module {
  func.func @main() {
    %n = arith.constant 8 : i32
    %l = host.list_new : !host.list
    %storage, %ends, %a, %b = host.list_export %l room %n : memref<?xf32>, memref<?xi32>
    func.return
  }
}
// CHECK: host.list_export: lists hold i32 arrays, not memref<?xf32>

// -----

builtin.module {
  func.func @main() {
    %n = arith.constant 8 : i32
    %values = "host.alloc"(%n) : (i32) -> memref<?xi8>
    %l = host.list_new : !host.list
    host.list_import %l, %values : memref<?xi8>
    func.return
  }
}
// CHECK: host.list_import: lists hold i32 arrays, not memref<?xi8>
