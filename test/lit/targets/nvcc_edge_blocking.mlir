// The CUDA of the edge-blocked programs (G2's PageRank schedule, pushing, and
// its timed twins; a weighted blocked traversal; a pull walked in one sweep,
// BLOCKED_SWEEP) compiles with nvcc for sm_90, and the blocked kernel
// synchronizes its block after each tile of edges, while the sweep's kernel is
// one loop over all the edges with no barrier, launched as any other kernel.
// Each edge's own elements of the layout are loaded once (`gir_gpu.streaming`):
// CUDA reads them with `__ldcs`, OpenCL, which has no such hint, plainly; the
// shares, read at random, are plain loads on both.
// (targets/nvcc_builds.gt compiles it with nvcc, with the other programs the target tests print.)
// RUN: gir-translate --to-cuda %S/../../programs/pagerank_blocked.gt -o %t.pr.cu
// RUN: gir-translate --to-cuda %S/../passes/frontier-edge-blocking-sweep.gt -o %t.sw.cu
// RUN: filecheck %s < %t.pr.cu
// RUN: filecheck %s --check-prefix=SWEEP < %t.sw.cu
// RUN: gir-translate --to-opencl %S/../../programs/pagerank_blocked.gt | filecheck %s --check-prefix=CL
// RUN: gir-translate --to-opencl %S/../passes/frontier-edge-blocking-sweep.gt | filecheck %s --check-prefix=CL-SWEEP

// CHECK:     __global__ void map_gather(
// CHECK:       __syncthreads();
// CL:        __kernel void map_gather(
// CL:          barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);

// SWEEP:     __global__ void map_gather(
// SWEEP:       int [[BEGIN:.*]] = csc_block_offsets[0];
// SWEEP-NEXT:  int [[END:.*]] = csc_block_offsets[blocks];
// SWEEP-NEXT:  int [[FIRST:.*]] = [[BEGIN]] + gid;
// SWEEP-NEXT:  for (int edge = [[FIRST]]; edge < [[END]]; edge += {{.*}}) {
// SWEEP-NEXT:    int dst = __ldcs(&csc_blocked_dst[edge]);
// SWEEP-NEXT:    int src = __ldcs(&csc_blocked_src[edge]);
// SWEEP-NEXT:    float {{.*}} = share[src];
// SWEEP-NOT:   for (
// SWEEP-NOT:   __syncthreads
// SWEEP:     {{^}$}}
// SWEEP:       map_gather<<<{{.*}}>>>(blocks, csc_block_offsets,
// CL-SWEEP:  __kernel void map_gather(
// CL-SWEEP:    for (int edge = {{.*}}; edge < {{.*}}; edge += {{.*}}) {
// CL-SWEEP-NEXT:  int dst = csc_blocked_dst[edge];
// CL-SWEEP-NEXT:  int src = csc_blocked_src[edge];
// CL-SWEEP-NOT: barrier(
// CL-SWEEP:  {{^}$}}
