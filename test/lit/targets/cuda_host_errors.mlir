// RUN: not gir-translate --to-cuda %S/Inputs/cuda_host/argc_kernel.mlir 2>&1 | filecheck %s --check-prefix=ARGC
// RUN: gir-translate --to-cuda --kernels-only %S/Inputs/cuda_host/argc_kernel.mlir | filecheck %s --check-prefix=KERNELS
// RUN: not gir-translate --to-cuda --kernels-only %S/Inputs/cuda_host/std_kernel.mlir 2>&1 | filecheck %s --check-prefix=STD
// RUN: not gir-translate --to-opencl --kernels-only %S/Inputs/cuda_host/argc_kernel.mlir 2>&1 | filecheck %s --check-prefix=FLAG
// RUN: not gir-translate --to-cuda %S/Inputs/host_level/scan.mlir -o %t.cu 2>&1 | filecheck %s --check-prefix=SCAN
// RUN: not test -e %t.cu

// A complete program's errors are one line, and no partial .cu is written: a
// kernel name the host cannot use (a kernel named `std` is rejected already
// while parsing: nvcc rejects it in any .cu), --kernels-only without --to-cuda, and an op
// with no CUDA spelling yet (an unexpanded scan) named by the printer.

// ARGC:    error: kernel name 'argc' is reserved in a CUDA program's host code
// ARGC-NOT: Traceback
// KERNELS: extern "C" __global__ void argc(int n) {
// STD:     std_kernel.mlir:4:18: error: kernel name 'std' is declared by CUDA's or OpenCL's headers
// STD-NOT: Traceback
// FLAG:    error: --kernels-only goes with --to-cuda
// SCAN:    error: gir_gpu.exclusive_scan has no kernels yet; expand it first with gir-opt -p gpu-expand-scan
