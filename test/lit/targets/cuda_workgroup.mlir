// RUN: gir-translate --to-cuda %S/Inputs/workgroup.mlir | filecheck %s

// Work-group arrays are __shared__ arrays at kernel scope; the sub-group is the
// 32-lane warp: ballot and broadcast are full-warp intrinsics, the exclusive sum
// a __shfl_up_sync ladder (integers add as unsigned, so overflow wraps), one
// helper per element type.

// CHECK:      __device__ __forceinline__ int gir_subgroup_exclusive_sum_i32(int value) {
// CHECK-NEXT:   int lane = (int)(threadIdx.x % 32);
// CHECK-NEXT:   unsigned int sum = (unsigned int)value;
// CHECK-NEXT:   for (int offset = 1; offset < 32; offset <<= 1) {
// CHECK-NEXT:     unsigned int lower = __shfl_up_sync(0xffffffffu, sum, offset);
// CHECK-NEXT:     if (lane >= offset) {
// CHECK-NEXT:       sum += lower;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   unsigned int below = __shfl_up_sync(0xffffffffu, sum, 1);
// CHECK-NEXT:   return lane == 0 ? (int)0 : (int)below;
// CHECK-NEXT: }
// CHECK:      long long gir_subgroup_exclusive_sum_i64(long long value) {
// CHECK:        unsigned long long sum = (unsigned long long)value;
// CHECK:      float gir_subgroup_exclusive_sum_f32(float value) {
// CHECK:        float sum = (float)value;
// CHECK:      double gir_subgroup_exclusive_sum_f64(double value) {
// CHECK:      extern "C" __global__ void workgroup(
// CHECK:        __shared__ int tile[256];
// CHECK-NEXT:   int thread = (int)threadIdx.x;
// CHECK-NEXT:   int gid = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   int lane = (int)(threadIdx.x % 32);
// CHECK-NEXT:   int warp = (int)(threadIdx.x / 32);
// CHECK-NEXT:   int width = 32;
// CHECK-NEXT:   int x = in[gid];
// CHECK-NEXT:   tile[thread] = x;
// CHECK-NEXT:   __syncthreads();
// CHECK:        for (int round_ = 0; round_ < rounds; round_ += 1) {
// CHECK:          int mask = (int)__ballot_sync(0xffffffffu, set);
// CHECK-NEXT:     int before = gir_subgroup_exclusive_sum_i32(sum);
// CHECK-NEXT:     int first = __shfl_sync(0xffffffffu, before, 0);
// CHECK:          __syncthreads();
// CHECK:        int neighbour = tile[thread];
// CHECK:        long long s64 = gir_subgroup_exclusive_sum_i64(x64);
// CHECK-NEXT:   long long b64 = __shfl_sync(0xffffffffu, s64, lane);
// CHECK:        float bf = __shfl_sync(0xffffffffu, sf, 1);
// CHECK:        double bd = __shfl_sync(0xffffffffu, sd, 1);
