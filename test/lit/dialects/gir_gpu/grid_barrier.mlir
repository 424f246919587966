// gir_gpu.grid_barrier: round trip in a persistent kernel, and its verifier.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK: gir_gpu.kernel @fused(%sync: memref<?xi32>) attributes {gir_gpu.persistent} {
// CHECK-NEXT: gir_gpu.grid_barrier %sync : memref<?xi32>
builtin.module {
  gir_gpu.kernel @fused(%sync: memref<?xi32>) attributes {gir_gpu.persistent} {
    gir_gpu.grid_barrier %sync : memref<?xi32>
    gir_gpu.return
  }
}

// -----

builtin.module {
  gir_gpu.kernel @plain(%sync: memref<?xi32>) {
    // expected-error @+1 {{gir_gpu.grid_barrier is only valid in a persistent kernel}}
    gir_gpu.grid_barrier %sync : memref<?xi32>
    gir_gpu.return
  }
}

// -----

builtin.module {
  gir_gpu.kernel @by_block(%sync: memref<?xi32>) attributes {gir_gpu.persistent} {
    %block = gir_gpu.id block
    %c0 = arith.constant 0 : i32
    %first = arith.cmpi eq, %block, %c0 : i32
    scf.if %first {
      // expected-error @+1 {{must be reached by every block, but it is under an 'scf.if' that depends on the block id}}
      gir_gpu.grid_barrier %sync : memref<?xi32>
    }
    gir_gpu.return
  }
}
