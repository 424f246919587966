// RUN: gir-translate --to-opencl %S/Inputs/kernel_signature.mlir | filecheck %s

// A kernel's parameters in OpenCL C: __global pointers; no bool parameters or
// buffers (an i1 buffer holds uchar, an i1 scalar is an int); i8 is char, i64
// long; a double anywhere enables cl_khr_fp64.

// CHECK:      #pragma OPENCL EXTENSION cl_khr_fp64 : enable
// CHECK:      __kernel void signature(
// CHECK-NEXT:     __global int* ids,
// CHECK-NEXT:     __global float* weights,
// CHECK-NEXT:     __global uchar* visited,
// CHECK-NEXT:     __global char* flags,
// CHECK-NEXT:     __global long* wide,
// CHECK-NEXT:     __global double* dist,
// CHECK-NEXT:     int count,
// CHECK-NEXT:     long big,
// CHECK-NEXT:     float alpha,
// CHECK-NEXT:     double beta,
// CHECK-NEXT:     int enabled,
// CHECK-NEXT:     char tag) {
// CHECK-NEXT:   int thread = (int)get_local_id(0);
// CHECK-NEXT:   int block = (int)get_group_id(0);
// CHECK-NEXT:   int block_dim = (int)get_local_size(0);
// CHECK-NEXT:   int grid_dim = (int)get_num_groups(0);
// CHECK-NEXT:   int gid32 = (int)get_global_id(0);
// CHECK-NEXT:   float w = weights[gid32];
// CHECK-NEXT:   float scaled = w * alpha;
// CHECK-NEXT:   weights[thread] = scaled;
// CHECK-NEXT:   bool seen = visited[gid32];
// CHECK-NEXT:   bool now = seen || enabled;
// CHECK-NEXT:   visited[gid32] = now;
// CHECK-NEXT:   flags[block] = tag;
// CHECK:        long wide_total = (long)total;
// CHECK:        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT:   ids[count] = count;
// CHECK-NEXT: }
