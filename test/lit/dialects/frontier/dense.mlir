// The dense frontier types (bitmap, boolmap) and frontier.contains round-trip.
// RUN: gir-opt %s | filecheck %s
// RUN: gir-opt %s | gir-opt | filecheck %s
// RUN: gir-opt %s --print-op-generic | gir-opt | filecheck %s
// RUN: gir-opt %s -o %t.1.mlir && gir-opt %t.1.mlir -o %t.2.mlir && cmp %t.1.mlir %t.2.mlir

builtin.module {
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %z = arith.constant 0 : i32
    %bits = frontier.new %z : i32 -> !frontier.bitmap
    %bits2 = frontier.add %z, %bits : i32, !frontier.bitmap
    %bools = frontier.convert %bits2 : !frontier.bitmap -> !frontier.boolmap
    %n = frontier.size %bools : !frontier.boolmap -> i32
    %empty = frontier.new %z : i32 -> !frontier.boolmap
    %out = frontier.vertex_map %bools : !frontier.boolmap into %empty : !frontier.boolmap -> !frontier.boolmap {
    ^bb0(%v : !graph.vertex):
      %in = frontier.contains %bits2[%v] : !frontier.bitmap
      scf.if %in {
        frontier.enqueue %v
      }
      frontier.yield
    }
    %q = frontier.convert %out : !frontier.boolmap -> !frontier.queue
    %cleared = frontier.clear %bits2 : !frontier.bitmap
    frontier.free %cleared : !frontier.bitmap
    frontier.free %q : !frontier.queue
    func.return
  }
}

// CHECK:      %bits = frontier.new %z : i32 -> !frontier.bitmap
// CHECK-NEXT: %bits2 = frontier.add %z, %bits : i32, !frontier.bitmap
// CHECK-NEXT: %bools = frontier.convert %bits2 : !frontier.bitmap -> !frontier.boolmap
// CHECK-NEXT: %n = frontier.size %bools : !frontier.boolmap -> i32
// CHECK:      %out = frontier.vertex_map %bools : !frontier.boolmap into %empty : !frontier.boolmap -> !frontier.boolmap {
// CHECK:        %in = frontier.contains %bits2[%v] : !frontier.bitmap
// CHECK:      %q = frontier.convert %out : !frontier.boolmap -> !frontier.queue
// CHECK:      %cleared = frontier.clear %bits2 : !frontier.bitmap
