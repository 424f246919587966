// RUN: not gir-translate --to-cuda %s 2>&1 | filecheck %s
// RUN: not gir-translate --to-opencl %s 2>&1 | filecheck %s --check-prefix=OPENCL
// RUN: rm -f %t.cu && not gir-translate --to-cuda %s -o %t.cu && not test -e %t.cu

// What a target cannot do is one line on stderr, exit status 1, and no output file.

// CHECK:      error: CUDA has no atomic add on i8 (atomics need 32- or 64-bit elements)
// CHECK-NOT:  Traceback
// OPENCL:     error: OpenCL has no atomic add on i8 (atomics need 32- or 64-bit elements)

builtin.module {
  gir_gpu.kernel @bytes(%flags: memref<?xi8>, %one: i8) {
    %c0 = arith.constant 0 : index
    %old = gir_gpu.atomic_rmw add %one, %flags[%c0] : i8, memref<?xi8>, index
    gir_gpu.return
  }
}
