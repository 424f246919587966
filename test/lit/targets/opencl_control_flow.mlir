// RUN: gir-translate --to-opencl %S/Inputs/control_flow.mlir | filecheck %s

// Structured control flow prints the same in OpenCL C as in CUDA (one walker).

// CHECK:      __kernel void control_flow(
// CHECK-NEXT:     __global const int* row_ptr,
// CHECK-NEXT:     __global const int* values,
// CHECK-NEXT:     __global int* out,
// CHECK-NEXT:     int n) {
// CHECK:        int clamped;
// CHECK-NEXT:   if (inside) {
// CHECK:        for (int edge = begin32; edge < end32; edge += 1) {
// CHECK:          int next_a = b;
// CHECK-NEXT:     int next_b = a;
// CHECK:        while (true) {
// CHECK-NEXT:     bool more = k > 0;
// CHECK-NEXT:     if (!more) {
// CHECK-NEXT:       break;
// CHECK-NEXT:     }
// CHECK:        out[gid32] = r3;
// CHECK-NEXT: }
