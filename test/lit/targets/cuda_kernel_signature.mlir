// RUN: gir-translate --to-cuda %S/Inputs/kernel_signature.mlir | filecheck %s

// A kernel's parameters in CUDA: buffers are pointers (const when only read),
// i1 buffers hold bool, i8 signed char, i64 long long; an i1 scalar is an int.
// Thread coordinates are CUDA's builtins; memref.load/store are array accesses.

// CHECK:      extern "C" __global__ void signature(
// CHECK-NEXT:     int* ids,
// CHECK-NEXT:     float* weights,
// CHECK-NEXT:     bool* visited,
// CHECK-NEXT:     signed char* flags,
// CHECK-NEXT:     long long* wide,
// CHECK-NEXT:     double* dist,
// CHECK-NEXT:     int count,
// CHECK-NEXT:     long long big,
// CHECK-NEXT:     float alpha,
// CHECK-NEXT:     double beta,
// CHECK-NEXT:     int enabled,
// CHECK-NEXT:     signed char tag) {
// CHECK-NEXT:   int thread = (int)threadIdx.x;
// CHECK-NEXT:   int block = (int)blockIdx.x;
// CHECK-NEXT:   int block_dim = (int)blockDim.x;
// CHECK-NEXT:   int grid_dim = (int)gridDim.x;
// CHECK-NEXT:   int gid32 = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   float w = weights[gid32];
// CHECK-NEXT:   float scaled = w * alpha;
// CHECK-NEXT:   weights[thread] = scaled;
// CHECK-NEXT:   bool seen = visited[gid32];
// CHECK-NEXT:   bool now = seen || enabled;
// CHECK-NEXT:   visited[gid32] = now;
// CHECK-NEXT:   flags[block] = tag;
// CHECK:        long long wide_total = (long long)total;
// CHECK:        __syncthreads();
// CHECK-NEXT:   ids[count] = count;
// CHECK-NEXT: }
