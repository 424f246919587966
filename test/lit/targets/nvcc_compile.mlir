// REQUIRES: nvcc
// RUN: gir-translate --to-cuda %S/Inputs/bfs_gpu.mlir -o %t.cu && nvcc -arch=sm_90 -std=c++17 -c %t.cu -o %t.o
// RUN: gir-translate --to-cuda %S/Inputs/atomics.mlir -o %t.atomics.cu && nvcc -arch=sm_90 -std=c++17 -c %t.atomics.cu -o %t.atomics.o
// RUN: gir-translate --to-cuda %S/Inputs/arith.mlir -o %t.arith.cu && nvcc -arch=sm_90 -std=c++17 -c %t.arith.cu -o %t.arith.o
// RUN: gir-translate --to-cuda %S/Inputs/control_flow.mlir -o %t.cf.cu && nvcc -arch=sm_90 -std=c++17 -c %t.cf.cu -o %t.cf.o
// RUN: gir-translate --to-cuda %S/Inputs/kernel_signature.mlir -o %t.sig.cu && nvcc -arch=sm_90 -std=c++17 -c %t.sig.cu -o %t.sig.o
// RUN: gir-translate --to-cuda %S/Inputs/workgroup.mlir -o %t.wg.cu && nvcc -arch=sm_90 -std=c++17 -c %t.wg.cu -o %t.wg.o
// RUN: gir-opt %S/Inputs/host_level/scan.mlir -p gpu-expand-scan | gir-translate --to-cuda - -o %t.scan.cu && nvcc -arch=sm_90 -std=c++17 -c %t.scan.cu -o %t.scan.o

// The CUDA printed for every GPU-level construct compiles with nvcc for sm_90
// (compile only: no GPU needed).
