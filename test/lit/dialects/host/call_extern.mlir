// host.call_extern calls the user's host implementation of an extern function:
// it round-trips, also through the generic form.
// RUN: gir-opt %s > %t.1 && gir-opt -f mlir %t.1 > %t.2 && cmp %t.1 %t.2
// RUN: gir-opt %s --print-op-generic | gir-opt -f mlir > %t.3 && cmp %t.1 %t.3
// RUN: filecheck %s < %t.1

builtin.module {
  func.func private @spread(memref<?xi32>, i32) -> f64
  func.func private @log_line(!host.string)
  func.func @main() {
    %n = arith.constant 8 : i32
    %v = host.alloc %n : i32 -> memref<?xi32>
    %r = host.call_extern @spread(%v, %n) : (memref<?xi32>, i32) -> f64
    %s = host.string_constant "done" : !host.string
    host.call_extern @log_line(%s) : (!host.string) -> ()
    func.return
  }
}
// CHECK: %r = host.call_extern @spread(%v, %n) : (memref<?xi32>, i32) -> f64
// CHECK: host.call_extern @log_line(%s) : (!host.string) -> ()
