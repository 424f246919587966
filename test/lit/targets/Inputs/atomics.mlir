// Every atomic kind on every element type GPU targets support, plus
// compare-and-swap; results used (old values) and unused.
builtin.module {
  gir_gpu.kernel @atomics(%ints: memref<?xi32>, %longs: memref<?xi64>, %floats: memref<?xf32>, %doubles: memref<?xf64>, %i: i32, %l: i64, %f: f32, %d: f64) {
    %c0 = arith.constant 0 : index
    %a1 = gir_gpu.atomic_rmw add %i, %ints[%c0] : i32, memref<?xi32>, index
    %a2 = gir_gpu.atomic_rmw min %a1, %ints[%c0] : i32, memref<?xi32>, index
    %a3 = gir_gpu.atomic_rmw max %a2, %ints[%c0] : i32, memref<?xi32>, index
    %a4 = gir_gpu.atomic_rmw exch %a3, %ints[%c0] : i32, memref<?xi32>, index
    %a5 = gir_gpu.atomic_rmw or %a4, %ints[%c0] : i32, memref<?xi32>, index
    %a6 = gir_gpu.atomic_cas %ints[%c0], %a5, %i : memref<?xi32>, index, i32
    %l1 = gir_gpu.atomic_rmw add %l, %longs[%c0] : i64, memref<?xi64>, index
    %l2 = gir_gpu.atomic_rmw min %l1, %longs[%c0] : i64, memref<?xi64>, index
    %l3 = gir_gpu.atomic_rmw max %l2, %longs[%c0] : i64, memref<?xi64>, index
    %l4 = gir_gpu.atomic_rmw exch %l3, %longs[%c0] : i64, memref<?xi64>, index
    %l5 = gir_gpu.atomic_rmw or %l4, %longs[%c0] : i64, memref<?xi64>, index
    %l6 = gir_gpu.atomic_cas %longs[%c0], %l5, %l : memref<?xi64>, index, i64
    %f1 = gir_gpu.atomic_rmw add %f, %floats[%c0] : f32, memref<?xf32>, index
    %f2 = gir_gpu.atomic_rmw min %f1, %floats[%c0] : f32, memref<?xf32>, index
    %f3 = gir_gpu.atomic_rmw max %f2, %floats[%c0] : f32, memref<?xf32>, index
    %f4 = gir_gpu.atomic_rmw exch %f3, %floats[%c0] : f32, memref<?xf32>, index
    %f5 = gir_gpu.atomic_cas %floats[%c0], %f4, %f : memref<?xf32>, index, f32
    %d1 = gir_gpu.atomic_rmw add %d, %doubles[%c0] : f64, memref<?xf64>, index
    %d2 = gir_gpu.atomic_rmw min %d1, %doubles[%c0] : f64, memref<?xf64>, index
    %d3 = gir_gpu.atomic_rmw max %d2, %doubles[%c0] : f64, memref<?xf64>, index
    %d4 = gir_gpu.atomic_rmw exch %d3, %doubles[%c0] : f64, memref<?xf64>, index
    %d5 = gir_gpu.atomic_cas %doubles[%c0], %d4, %d : memref<?xf64>, index, f64
    %c1 = arith.constant 1 : index
    %unused = gir_gpu.atomic_rmw add %i, %ints[%c1] : i32, memref<?xi32>, index
    memref.store %a6, %ints[%c1] : memref<?xi32>
    memref.store %l6, %longs[%c1] : memref<?xi64>
    memref.store %f5, %floats[%c1] : memref<?xf32>
    memref.store %d5, %doubles[%c1] : memref<?xf64>
    gir_gpu.return
  }
}
