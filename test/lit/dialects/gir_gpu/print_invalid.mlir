// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s

builtin.module {
  gir_gpu.kernel @show(%x: i32) {
    "gir_gpu.print"() : () -> ()
    gir_gpu.return
  }
}
// CHECK: gir_gpu.print prints exactly one value or text

// -----

builtin.module {
  gir_gpu.kernel @show(%x: i32) {
    "gir_gpu.print"(%x) <{text = "both"}> : (i32) -> ()
    gir_gpu.return
  }
}
// CHECK: gir_gpu.print prints exactly one value or text
