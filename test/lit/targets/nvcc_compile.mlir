// REQUIRES: nvcc
// RUN: gir-translate --to-cuda %S/Inputs/bfs_gpu.mlir -o %t.cu
// RUN: gir-translate --to-cuda %S/Inputs/atomics.mlir -o %t.atomics.cu
// RUN: gir-translate --to-cuda %S/Inputs/arith.mlir -o %t.arith.cu
// RUN: gir-translate --to-cuda %S/Inputs/control_flow.mlir -o %t.cf.cu
// RUN: gir-translate --to-cuda %S/Inputs/kernel_signature.mlir -o %t.sig.cu
// RUN: gir-translate --to-cuda %S/Inputs/workgroup.mlir -o %t.wg.cu
// RUN: gir-opt %S/Inputs/host_level/scan.mlir -p gpu-expand-scan | gir-translate --to-cuda - -o %t.scan.cu
// RUN: %nvcc-batch -arch=sm_90 -std=c++17 -- %t.cu %t.atomics.cu %t.arith.cu %t.cf.cu %t.sig.cu %t.wg.cu %t.scan.cu

// The CUDA printed for every GPU-level construct compiles with nvcc for sm_90
// (compile only: no GPU needed).
