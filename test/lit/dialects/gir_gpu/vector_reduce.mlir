// gir_gpu.vector_reduce round-trips; it is host-called, over a device buffer,
// with a result of the buffer's element type, and adds, takes the min or the max.

// RUN: gir-opt %s | filecheck %s
// RUN: gir-opt %s --print-op-generic | gir-opt | filecheck %s

builtin.module {
  func.func @main(%a: memref<?xi32>, %f: memref<?xf64>, %n: i32) {
    %sum = gir_gpu.vector_reduce add %a, %n : memref<?xi32>, i32 -> i32
    %top = gir_gpu.vector_reduce max %f, %n : memref<?xf64>, i32 -> f64
    %low = gir_gpu.vector_reduce min %f, %n : memref<?xf64>, i32 -> f64
    func.return
  }
}
// CHECK:      %sum = gir_gpu.vector_reduce add %a, %n : memref<?xi32>, i32 -> i32
// CHECK-NEXT: %top = gir_gpu.vector_reduce max %f, %n : memref<?xf64>, i32 -> f64
// CHECK-NEXT: %low = gir_gpu.vector_reduce min %f, %n : memref<?xf64>, i32 -> f64
