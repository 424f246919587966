// RUN: gir-opt %S/Inputs/host_level/scan.mlir -p gpu-expand-scan | gir-translate --to-cuda - | filecheck %s
// RUN: not gir-translate --to-cuda %S/Inputs/host_level/scan.mlir 2>&1 | filecheck %s --check-prefix=UNEXPANDED

// The kernels of a device-wide scan: each block scans its elements in a __shared__
// tile (Hillis-Steele, every thread reaching every __syncthreads), one block scans
// the block sums with a carry, and a third kernel adds them back. In place is
// fine: each thread reads its input element before the scan and writes it after.

// CHECK:      extern "C" __global__ void scan_i32_b256_blocks(
// CHECK-NEXT:     const int* input,
// CHECK-NEXT:     int* output,
// CHECK-NEXT:     int* sums,
// CHECK-NEXT:     int count) {
// CHECK-NEXT:   __shared__ int tile[256];
// CHECK:        bool inside = gid < count;
// CHECK:        if (inside) {
// CHECK-NEXT:     int loaded = input[gid];
// CHECK-NEXT:     value = loaded;
// CHECK-NEXT:   } else {
// CHECK-NEXT:     value = 0;
// CHECK-NEXT:   }
// CHECK-NEXT:   tile[thread] = value;
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   int inclusive = value;
// CHECK-NEXT:   for (int round_ = 0; round_ < 8; round_ += 1) {
// CHECK-NEXT:     int offset = 1 << round_;
// CHECK:          __syncthreads();
// CHECK-NEXT:     int added = inclusive + lower;
// CHECK-NEXT:     tile[thread] = added;
// CHECK-NEXT:     __syncthreads();
// CHECK-NEXT:     inclusive = added;
// CHECK-NEXT:   }
// CHECK-NEXT:   int exclusive = inclusive - value;
// CHECK-NEXT:   if (inside) {
// CHECK-NEXT:     output[gid] = exclusive;
// CHECK-NEXT:   }
// CHECK-NEXT:   bool is_last = thread == 255;
// CHECK-NEXT:   if (is_last) {
// CHECK-NEXT:     sums[block] = inclusive;
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK:      extern "C" __global__ void scan_i32_b256_sums(int* sums, int count) {
// CHECK-NEXT:   __shared__ int tile[256];
// CHECK-NEXT:   int thread = (int)threadIdx.x;
// CHECK-NEXT:   int carry = 0;
// CHECK-NEXT:   for (int start = 0; start < count; start += 256) {
// CHECK:          int total = tile[255];
// CHECK-NEXT:     int exclusive = inclusive - value;
// CHECK-NEXT:     int scanned = exclusive + carry;
// CHECK:          __syncthreads();
// CHECK-NEXT:     int next_carry = carry + total;
// CHECK-NEXT:     carry = next_carry;
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK:      extern "C" __global__ void scan_i32_b256_add(int* output, const int* sums, int count) {
// CHECK:          output[gid] = sum;
// CHECK:      extern "C" __global__ void scan_i64_b256_blocks(
// CHECK-NEXT:     const long long* input,
// CHECK:        __shared__ long long tile[256];
// CHECK:      extern "C" __global__ void scan_i64_b256_sums(long long* sums, int count) {
// CHECK:        long long carry = 0LL;
// CHECK:      extern "C" __global__ void scan_i64_b256_add(
// CHECK-NEXT:     long long* output,
// CHECK-NEXT:     const long long* sums,
// CHECK-NEXT:     int count) {

// UNEXPANDED: error: gir_gpu.exclusive_scan has no kernels yet; expand it first with gir-opt -p gpu-expand-scan (the end of lower-to-gpu)
// UNEXPANDED-NOT: Traceback
