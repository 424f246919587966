// A kernel name that is not a C identifier is one located error while parsing,
// before any printer could paste it into C.
// RUN: not gir-opt %s 2>&1 | filecheck %s
// RUN: not gir-translate --to-opencl %s 2>&1 | filecheck %s

// CHECK:      kernel_names.mlir:[[# @LINE + 2]]:18: error: kernel name 'map_seen"x' is not a C identifier ([A-Za-z_][A-Za-z0-9_]*)
builtin.module {
  gir_gpu.kernel @"map_seen\"x"(%n: i32) {
    gir_gpu.return
  }
}
