// The delta-stepping programs (priority queues lowered by
// frontier-lower-priority-queues) print CUDA that compiles with nvcc for sm_90.
// (targets/nvcc_builds.gt compiles it with nvcc, with the other programs the target tests print.)
// RUN: gir-translate --to-cuda %S/../../programs/sssp_delta_timed.gt | filecheck %s

// CHECK: __global__ void
// CHECK: atomicMin

// k-core (updatePrioritySum: a compare-and-swap loop in the traversal kernel).
// RUN: gir-translate --to-cuda %S/../../programs/kcore.gt | filecheck %s --check-prefix=KCORE
// KCORE: __global__ void
// KCORE: atomicCAS
