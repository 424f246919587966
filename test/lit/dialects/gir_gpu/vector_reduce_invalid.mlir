// Invalid gir_gpu.vector_reduce IR: one diagnostic per chunk.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ERR

builtin.module {
  func.func @main(%a: memref<?xi32>, %n: i32) {
    %x = gir_gpu.vector_reduce exch %a, %n : memref<?xi32>, i32 -> i32
    func.return
  }
}
// ERR: gir_gpu.vector_reduce adds, takes the min or the max, not exch

// -----

builtin.module {
  func.func @main(%a: memref<?xi32>, %n: i32) {
    %x = gir_gpu.vector_reduce add %a, %n : memref<?xi32>, i32 -> f32
    func.return
  }
}
// ERR: gir_gpu.vector_reduce: the input holds i32, not f32

// -----

builtin.module {
  func.func @main(%a: memref<8xi32>, %n: i32) {
    %x = gir_gpu.vector_reduce add %a, %n : memref<8xi32>, i32 -> i32
    func.return
  }
}
// ERR: gir_gpu.vector_reduce reduces a device buffer memref<?xT>, not memref<8xi32>

// -----

builtin.module {
  gir_gpu.kernel @k(%a: memref<?xi32>, %n: i32) {
    %x = gir_gpu.vector_reduce add %a, %n : memref<?xi32>, i32 -> i32
    gir_gpu.return
  }
}
// ERR: gir_gpu.vector_reduce is called by the host, not inside kernel @k
