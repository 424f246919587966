// REQUIRES: nvcc
// The CUDA of the edge-blocked programs (G2's PageRank schedule, pushing, and
// its timed twins; a weighted blocked traversal) compiles with nvcc for sm_90,
// and the blocked kernel synchronizes its block after each tile of edges.
// RUN: gir-translate --to-cuda %S/../../programs/pagerank_blocked.gt -o %t.pr.cu
// RUN: gir-translate --to-cuda %S/../passes/frontier-edge-blocking.gt -o %t.w.cu
// RUN: gir-translate --to-cuda %S/../../programs/pagerank_timed_blocked.gt -o %t.tb.cu
// RUN: gir-translate --to-cuda %S/../../programs/pagerank_timed_unblocked.gt -o %t.tu.cu
// RUN: %nvcc-batch -arch=sm_90 -std=c++17 -- %t.pr.cu %t.w.cu %t.tb.cu %t.tu.cu
// RUN: filecheck %s < %t.pr.cu
// RUN: gir-translate --to-opencl %S/../../programs/pagerank_blocked.gt | filecheck %s --check-prefix=CL

// CHECK:     __global__ void map_gather(
// CHECK:       __syncthreads();
// CL:        __kernel void map_gather(
// CL:          barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
