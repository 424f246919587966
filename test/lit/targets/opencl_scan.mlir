// RUN: gir-opt %S/Inputs/host_level/scan.mlir -p gpu-expand-scan | gir-translate --to-opencl - | filecheck %s
// RUN: not gir-translate --to-opencl %S/Inputs/host_level/scan.mlir 2>&1 | filecheck %s --check-prefix=UNEXPANDED

// The scan kernels in OpenCL C: the tile is a kernel-scope __local array and every
// barrier is reached by the whole work-group (threads past the count scan zeros
// rather than return), as OpenCL requires. i64 is `long`: no extension needed.

// CHECK:      __kernel void scan_i32_b256_blocks(
// CHECK-NEXT:     __global const int* input,
// CHECK-NEXT:     __global int* output,
// CHECK-NEXT:     __global int* sums,
// CHECK-NEXT:     int count) {
// CHECK-NEXT:   __local int tile[256];
// CHECK:        tile[thread] = value;
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT:   int inclusive = value;
// CHECK-NEXT:   for (int round_ = 0; round_ < 8; round_ += 1) {
// CHECK:          barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT:     int added = inclusive + lower;
// CHECK-NEXT:     tile[thread] = added;
// CHECK-NEXT:     barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT:     inclusive = added;
// CHECK-NEXT:   }
// CHECK:      __kernel void scan_i32_b256_sums(__global int* sums, int count) {
// CHECK-NEXT:   __local int tile[256];
// CHECK:        for (int start = 0; start < count; start += 256) {
// CHECK:          int total = tile[255];
// CHECK:      __kernel void scan_i32_b256_add(
// CHECK-NEXT:     __global int* output,
// CHECK-NEXT:     __global const int* sums,
// CHECK-NEXT:     int count) {
// CHECK:      __kernel void scan_i64_b256_blocks(
// CHECK-NEXT:     __global const long* input,
// CHECK:        __local long tile[256];
// CHECK:      __kernel void scan_i64_b256_sums(__global long* sums, int count) {
// CHECK:        long carry = 0L;
// CHECK-NOT:  #pragma

// UNEXPANDED: error: gir_gpu.exclusive_scan has no kernels yet; expand it first with gir-opt -p gpu-expand-scan (the end of lower-to-gpu)
