// RUN: gir-opt %s -p gpu-expand-reduce | filecheck %s
// RUN: gir-opt %s -p 'gpu-expand-reduce{block-size=64}' | filecheck %s --check-prefix=B64
// RUN: not gir-opt %s -p 'gpu-expand-reduce{block-size=100}' 2>&1 | filecheck %s --check-prefix=BAD

// Each gir_gpu.vector_reduce becomes two launches of one block-reduction kernel
// (over the input into per-block partials, then over the partials on one
// block), a read of the result and the partials' free. The kernel is made once
// per operator, element type and block size and shared: the two sums of i32
// use one kernel. Every thread folds its grid-stride elements from the
// identity, so threads past the count reach every barrier.

// CHECK-LABEL: gir_gpu.kernel @reduce_add_i32_b256(%input: memref<?xi32>, %output: memref<?xi32>, %count: i32) {
// CHECK-NEXT:    %tile = gir_gpu.shared_alloc : memref<256xi32, #gir_gpu.workgroup>
// CHECK-NEXT:    %thread = gir_gpu.id thread
// CHECK-NEXT:    %block = gir_gpu.id block
// CHECK-NEXT:    %gid = gir_gpu.id global
// CHECK-NEXT:    %grid = gir_gpu.id grid_dim
// CHECK-NEXT:    %block_size = arith.constant 256 : i32
// CHECK-NEXT:    %stride = arith.muli %grid, %block_size : i32
// CHECK-NEXT:    %identity = arith.constant 0 : i32
// CHECK-NEXT:    %own = scf.for %position = %gid to %count step %stride iter_args(%partial = %identity) -> (i32) : i32 {
// CHECK:           %value = memref.load %input[%position_index] : memref<?xi32>
// CHECK-NEXT:      %combined = arith.addi %partial, %value : i32
// CHECK-NEXT:      scf.yield %combined : i32
// CHECK-NEXT:    }
// CHECK:         memref.store %own, %tile[%thread_index] : memref<256xi32, #gir_gpu.workgroup>
// CHECK-NEXT:    gir_gpu.barrier
// CHECK:         %half = arith.constant 128 : i32
// CHECK-NEXT:    %rounds = arith.constant 8 : i32
// CHECK-NEXT:    scf.for %round = %c0 to %rounds step %c1 : i32 {
// CHECK-NEXT:      %offset = arith.shrsi %half, %round : i32
// CHECK-NEXT:      %active = arith.cmpi slt, %thread, %offset : i32
// CHECK-NEXT:      scf.if %active {
// CHECK:             %combined_1 = arith.addi %mine, %theirs : i32
// CHECK-NEXT:        memref.store %combined_1, %tile[%thread_index] : memref<256xi32, #gir_gpu.workgroup>
// CHECK-NEXT:      }
// CHECK-NEXT:      gir_gpu.barrier
// CHECK-NEXT:    }
// CHECK:         %first = arith.cmpi eq, %thread, %c0_1 : i32
// CHECK:         %total = memref.load %tile[%c0_index] : memref<256xi32, #gir_gpu.workgroup>
// CHECK-NEXT:    scf.if %first {
// CHECK:           memref.store %total, %output[%block_index] : memref<?xi32>
// CHECK:       gir_gpu.kernel @reduce_max_f32_b256(
// CHECK:         %identity = arith.constant 0xff800000 : f32
// CHECK:         arith.maximumf
// CHECK:       gir_gpu.kernel @reduce_min_f64_b256(
// CHECK:         %identity = arith.constant 0x7ff0000000000000 : f64
// CHECK:         arith.minimumf
// CHECK-NOT:   gir_gpu.kernel
// CHECK-LABEL: func.func @main
// CHECK:         %block_size = arith.constant 256 : i32
// CHECK-NEXT:    %c1 = arith.constant 1 : i32
// CHECK-NEXT:    %wanted = arith.ceildivsi %n, %block_size : i32
// CHECK-NEXT:    %capped = arith.minsi %wanted, %block_size : i32
// CHECK-NEXT:    %blocks = arith.maxsi %capped, %c1 : i32
// CHECK-NEXT:    %partials = host.alloc %blocks : i32 -> memref<?xi32>
// CHECK-NEXT:    host.launch @reduce_add_i32_b256 grid %blocks block %block_size (%a, %partials, %n) : memref<?xi32>, memref<?xi32>, i32
// CHECK-NEXT:    host.launch @reduce_add_i32_b256 grid %c1 block %block_size (%partials, %partials, %blocks) : memref<?xi32>, memref<?xi32>, i32
// CHECK-NEXT:    %c0 = arith.constant 0 : i32
// CHECK-NEXT:    %sum = host.read %partials[%c0] : memref<?xi32>, i32 -> i32
// CHECK-NEXT:    host.free %partials : memref<?xi32>
// CHECK-NEXT:    host.print %sum : i32
// CHECK:         host.launch @reduce_add_i32_b256
// CHECK:         host.launch @reduce_max_f32_b256
// CHECK:         host.launch @reduce_min_f64_b256
// CHECK-NOT:     gir_gpu.vector_reduce

// B64: gir_gpu.kernel @reduce_add_i32_b64(
// B64:   %tile = gir_gpu.shared_alloc : memref<64xi32, #gir_gpu.workgroup>
// B64:   %half = arith.constant 32 : i32
// B64:   %rounds = arith.constant 6 : i32
// B64: host.launch @reduce_add_i32_b64 grid %blocks block %block_size

// BAD: error: gpu-expand-reduce: block-size is a power of two from 32 to 1024, not 100

builtin.module {
  func.func @main(%a: memref<?xi32>, %f: memref<?xf32>, %d: memref<?xf64>, %n: i32) {
    %sum = gir_gpu.vector_reduce add %a, %n : memref<?xi32>, i32 -> i32
    host.print %sum : i32
    %again = gir_gpu.vector_reduce add %a, %n : memref<?xi32>, i32 -> i32
    %top = gir_gpu.vector_reduce max %f, %n : memref<?xf32>, i32 -> f32
    %low = gir_gpu.vector_reduce min %d, %n : memref<?xf64>, i32 -> f64
    func.return
  }
}
