// REQUIRES: nvcc
// The delta-stepping programs (priority queues lowered by
// frontier-lower-priority-queues) print CUDA that compiles with nvcc for sm_90.
// RUN: gir-translate --to-cuda %S/../../programs/sssp_delta_argv.gt -o %t.argv.cu
// RUN: gir-translate --to-cuda %S/../../programs/sssp_delta_timed.gt -o %t.timed.cu
// RUN: gir-translate --to-cuda %S/../../programs/sssp_delta_timed.gt | filecheck %s

// CHECK: __global__ void
// CHECK: atomicMin

// k-core (updatePrioritySum: a compare-and-swap loop in the traversal kernel).
// RUN: gir-translate --to-cuda %S/../../programs/kcore.gt -o %t.kcore.cu
// RUN: %nvcc-batch -arch=sm_90 -std=c++17 -- %t.argv.cu %t.timed.cu %t.kcore.cu
// RUN: gir-translate --to-cuda %S/../../programs/kcore.gt | filecheck %s --check-prefix=KCORE
// KCORE: __global__ void
// KCORE: atomicCAS
