// Kernel names that nvcc or OpenCL C reject (C++ keywords, C++'s `std`
// namespace, the library functions and math builtins, a leading `__`) are one
// located error while parsing, before a printer could paste them into C.
// RUN: gir-opt %s --split-input-file --parsing-diagnostics 2>&1 | filecheck %s

// CHECK: kernel_names_reserved.mlir:[[# @LINE + 2]]:18: error: kernel name 'std' is declared by CUDA's or OpenCL's headers
builtin.module {
  gir_gpu.kernel @std(%n: i32) {
    gir_gpu.return
  }
}

// -----

// CHECK: kernel_names_reserved.mlir:[[# @LINE + 2]]:18: error: kernel name 'typeid' is reserved in CUDA or OpenCL C
builtin.module {
  gir_gpu.kernel @typeid(%n: i32) {
    gir_gpu.return
  }
}

// -----

// CHECK: kernel_names_reserved.mlir:[[# @LINE + 2]]:18: error: kernel name '__map' is reserved by C
builtin.module {
  gir_gpu.kernel @__map(%n: i32) {
    gir_gpu.return
  }
}
