// BFS scheduled with TWC and with TWCE prints CUDA that nvcc compiles for sm_90:
// the work-group queues as __shared__ arrays, __syncthreads() at the kernel's top
// level, TWCE's sub-group sums as warp shuffles.
// (targets/nvcc_builds.gt compiles it with nvcc, with the other programs the target tests print.)
// RUN: sed 's/EDGE_ONLY/TWC/' %programs/bfs_timed_edge_only.gt > %t.twc.gt
// RUN: gir-translate --to-cuda %t.twc.gt -o %t.twc.cu
// RUN: filecheck %s --check-prefix=TWC < %t.twc.cu
// RUN: sed 's/EDGE_ONLY/TWCE/' %programs/bfs_timed_edge_only.gt > %t.twce.gt
// RUN: gir-translate --to-cuda %t.twce.gt -o %t.twce.cu
// RUN: filecheck %s --check-prefix=TWCE < %t.twce.cu

// TWC: __shared__ int block_vertex[256];
// TWC: {{^  }}__syncthreads();
// TWC: {{^  }}__syncthreads();
// TWCE: __shfl_up_sync
// TWCE: __shared__ int range_first[256];
// TWCE: gir_subgroup_exclusive_sum
// TWCE: {{^  }}__syncthreads();
// TWCE: __shfl_sync(0xffffffffu
