// frontier.dedup (unfused deduplication) round-trips on every mutable frontier.
// RUN: gir-opt %s | filecheck %s
// RUN: gir-opt %s | gir-opt | filecheck %s
// RUN: gir-opt %s --print-op-generic | gir-opt | filecheck %s
// RUN: gir-opt %s -o %t.1.mlir && gir-opt %t.1.mlir -o %t.2.mlir && cmp %t.1.mlir %t.2.mlir

builtin.module {
  func.func @main() {
    %z = arith.constant 0 : i32
    %q = frontier.new %z : i32 -> !frontier.queue
    %once = frontier.dedup %q : !frontier.queue
    %bits = frontier.new %z : i32 -> !frontier.bitmap
    %bits_once = frontier.dedup %bits : !frontier.bitmap
    frontier.free %once : !frontier.queue
    frontier.free %bits_once : !frontier.bitmap
    func.return
  }
}

// CHECK:      %once = frontier.dedup %q : !frontier.queue
// CHECK:      %bits_once = frontier.dedup %bits : !frontier.bitmap
// CHECK-NEXT: frontier.free %once : !frontier.queue
