// gir_gpu.print round-trips with a value or a text, and prints exactly one.
// RUN: gir-opt %s | gir-opt | filecheck %s
// RUN: gir-opt %s --print-op-generic | gir-opt | filecheck %s

builtin.module {
  gir_gpu.kernel @show(%x: i32, %f: f64) {
    gir_gpu.print %x : i32
    gir_gpu.print %f : f64
    gir_gpu.print "reached"
    gir_gpu.return
  }
}
// CHECK:      gir_gpu.print %x : i32
// CHECK-NEXT: gir_gpu.print %f : f64
// CHECK-NEXT: gir_gpu.print "reached"
