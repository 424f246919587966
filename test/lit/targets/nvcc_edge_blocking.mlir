// The CUDA of the edge-blocked programs (G2's PageRank schedule, pushing, and
// its timed twins; a weighted blocked traversal; a pull walked in one sweep,
// BLOCKED_SWEEP) compiles with nvcc for sm_90, and the blocked kernel
// synchronizes its block after each tile of edges, while the sweep's kernel
// deals chunks of edges to its blocks in turn, each block's threads striding
// over one chunk, with no barrier. The sweep asks for full occupancy
// (`gir_gpu.resident_blocks`): CUDA bounds it to blocks of its 256 threads, 8 a
// multiprocessor (never more than 32 blocks, whatever their size); OpenCL has
// no such bound. Each edge's own elements of the layout are loaded once
// (`gir_gpu.streaming`): CUDA reads them with `__ldcs`, OpenCL, which has no
// such hint, plainly; the shares, read at random, are plain loads on both.
// (targets/nvcc_builds.gt compiles it with nvcc, with the other programs the target tests print.)
// RUN: gir-translate --to-cuda %S/../../programs/pagerank_blocked.gt -o %t.pr.cu
// RUN: gir-translate --to-cuda %S/../passes/frontier-edge-blocking-sweep.gt -o %t.sw.cu
// RUN: filecheck %s < %t.pr.cu
// RUN: filecheck %s --check-prefix=SWEEP < %t.sw.cu
// RUN: sed 's/s.configDirection(PULL);/s.configDirection(PULL); s.configBlockSize(32);/' %S/../passes/frontier-edge-blocking-sweep.gt > %t.sw32.gt
// RUN: gir-translate --to-cuda %t.sw32.gt | filecheck %s --check-prefix=SWEEP32
// RUN: sed 's/s.configDirection(PULL);/s.configDirection(PULL); s.configBlockSize(1024);/' %S/../passes/frontier-edge-blocking-sweep.gt > %t.sw1024.gt
// RUN: gir-translate --to-cuda %t.sw1024.gt | filecheck %s --check-prefix=SWEEP1024
// RUN: gir-translate --to-opencl %S/../../programs/pagerank_blocked.gt | filecheck %s --check-prefix=CL
// RUN: gir-translate --to-opencl %S/../passes/frontier-edge-blocking-sweep.gt | filecheck %s --check-prefix=CL-SWEEP

// CHECK:     __global__ void map_gather(
// CHECK:       __syncthreads();
// CL:        __kernel void map_gather(
// CL:          barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);

// SWEEP:     __global__ void __launch_bounds__(256, 8) map_gather(
// SWEEP:       int [[BEGIN:.*]] = csc_block_offsets[0];
// SWEEP-NEXT:  int [[END:.*]] = csc_block_offsets[blocks];
// SWEEP-NEXT:  int [[BLOCK:.*]] = (int)blockIdx.x;
// SWEEP-NEXT:  int [[THREAD:.*]] = (int)threadIdx.x;
// SWEEP:       int chunk = {{.*}};
// SWEEP:       for (int number = [[BLOCK]]; number < chunks; number += {{.*}}) {
// SWEEP-NEXT:    int [[CHUNK_BEGIN:.*]] = number * chunk;
// SWEEP-NEXT:    int [[FIRST:.*]] = [[BEGIN]] + [[CHUNK_BEGIN]];
// SWEEP-NEXT:    int [[LEFT:.*]] = [[END]] - [[FIRST]];
// SWEEP-NEXT:    int [[TAKEN:.*]] = min(chunk, [[LEFT]]);
// SWEEP-NEXT:    int [[LAST:.*]] = [[FIRST]] + [[TAKEN]];
// SWEEP-NEXT:    int [[MINE:.*]] = [[FIRST]] + [[THREAD]];
// SWEEP-NEXT:    for (int edge = [[MINE]]; edge < [[LAST]]; edge += {{.*}}) {
// SWEEP-NEXT:      int dst = __ldcs(&csc_blocked_dst[edge]);
// SWEEP-NEXT:      int src = __ldcs(&csc_blocked_src[edge]);
// SWEEP-NEXT:      float {{.*}} = share[src];
// SWEEP-NOT:   for (
// SWEEP-NOT:   __syncthreads
// SWEEP:     {{^}$}}
// SWEEP:       map_gather<<<{{.*}}, 256>>>(csc_block_offsets, blocks,
// Blocks of 32 threads: at most 32 of them resident, not 2048 / 32; of 1024: two.
// SWEEP32:   __global__ void __launch_bounds__(32, 32) map_gather(
// SWEEP1024: __global__ void __launch_bounds__(1024, 2) map_gather(
// CL-SWEEP:  __kernel void map_gather(
// CL-SWEEP:    for (int number = {{.*}}; number < chunks; number += {{.*}}) {
// CL-SWEEP:      for (int edge = {{.*}}; edge < {{.*}}; edge += {{.*}}) {
// CL-SWEEP-NEXT:    int dst = csc_blocked_dst[edge];
// CL-SWEEP-NEXT:    int src = csc_blocked_src[edge];
// CL-SWEEP-NOT: barrier(
// CL-SWEEP:  {{^}$}}
