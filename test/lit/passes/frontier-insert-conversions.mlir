// RUN: gir-opt %s -p frontier-insert-conversions | filecheck %s

// A loop carries a queue; its body fills a bitmap (UNFUSED_BITMAP creation):
// the bitmap becomes the next queue where it is yielded, and is freed then.
// CHECK-LABEL: func.func @unfused
// CHECK:         %out = frontier.vertex_map %in : !frontier.queue into %empty : !frontier.bitmap -> !frontier.bitmap
// CHECK:         %[[Q:.*]] = frontier.convert %out : !frontier.bitmap -> !frontier.queue
// CHECK-NEXT:    frontier.free %out : !frontier.bitmap
// CHECK-NEXT:    scf.yield %[[Q]] : !frontier.queue

// A value with other uses is converted but not freed; the types that agree
// are left alone.
// CHECK-LABEL: func.func @kept
// CHECK:         %[[B:.*]] = frontier.convert %bools : !frontier.boolmap -> !frontier.bitmap
// CHECK-NOT:     frontier.free %bools
// CHECK:         scf.condition(%{{.*}}) %[[B]] : !frontier.bitmap
// CHECK-NOT:     frontier.convert

// An edge map whose input is dense reads it as a queue, freed after the map.
// CHECK-LABEL: func.func @edge_map
// CHECK:         %[[IN:.*]] = frontier.convert %bits : !frontier.bitmap -> !frontier.queue
// CHECK-NEXT:    frontier.edge_map EDGE_ONLY CSR %e : !graph.edgeset from %[[IN]] : !frontier.queue
// CHECK:         frontier.free %[[IN]] : !frontier.queue
// CHECK-NEXT:    frontier.free %bits : !frontier.bitmap

builtin.module {
  func.func @unfused(%start : !frontier.queue) {
    %z = arith.constant 0 : i32
    %r = scf.while (%f = %start) : (!frontier.queue) -> !frontier.queue {
      %n = frontier.size %f : !frontier.queue -> i32
      %go = arith.cmpi ne, %n, %z : i32
      scf.condition(%go) %f : !frontier.queue
    } do {
    ^bb0(%in : !frontier.queue):
      %empty = frontier.new %z : i32 -> !frontier.bitmap
      %out = frontier.vertex_map %in : !frontier.queue into %empty : !frontier.bitmap -> !frontier.bitmap {
      ^bb1(%v : !graph.vertex):
        frontier.enqueue %v
        frontier.yield
      }
      frontier.free %in : !frontier.queue
      scf.yield %out : !frontier.bitmap
    }
    frontier.free %r : !frontier.queue
    func.return
  }
  func.func @kept(%start : !frontier.bitmap) {
    %z = arith.constant 0 : i32
    %r = scf.while (%f = %start) : (!frontier.bitmap) -> !frontier.bitmap {
      %bools = frontier.convert %f : !frontier.bitmap -> !frontier.boolmap
      %n = frontier.size %bools : !frontier.boolmap -> i32
      %go = arith.cmpi ne, %n, %z : i32
      scf.condition(%go) %bools : !frontier.boolmap
    } do {
    ^bb0(%in : !frontier.bitmap):
      scf.yield %in : !frontier.bitmap
    }
    frontier.free %r : !frontier.bitmap
    func.return
  }
  func.func @edge_map(%bits : !frontier.bitmap) {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    frontier.edge_map EDGE_ONLY CSR %e : !graph.edgeset from %bits : !frontier.bitmap {
    ^bb0(%src : !graph.vertex, %edge : index):
      frontier.yield
    }
    frontier.free %bits : !frontier.bitmap
    func.return
  }
}
