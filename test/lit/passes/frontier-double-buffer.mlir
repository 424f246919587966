// RUN: gir-opt %s --split-input-file -p frontier-double-buffer | filecheck %s

builtin.module {
  graph.global @parent : !graph.vector<i32>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %z = arith.constant 0 : i32
    %f = frontier.new %z : i32 -> !frontier.queue
    %s = graph.argv_int argv[2] : i32
    %start = frontier.add %s, %f : i32, !frontier.queue
    graph.start_timer
    %r = scf.while (%fr = %start) : (!frontier.queue) -> !frontier.queue {
      %n = frontier.size %fr : !frontier.queue -> i32
      %c = arith.cmpi ne, %n, %z : i32
      scf.condition(%c) %fr : !frontier.queue
    } do {
    ^bb0(%in : !frontier.queue):
      %empty = frontier.new %z : i32 -> !frontier.queue
      %out = frontier.vertex_map %in : !frontier.queue into %empty : !frontier.queue -> !frontier.queue {
      ^bb0(%v : !graph.vertex):
        frontier.enqueue %v
        frontier.yield
      }
      frontier.free %in : !frontier.queue
      scf.yield %out : !frontier.queue
    }
    frontier.free %r : !frontier.queue
    func.return
  }
}

// The spare queue is allocated once, right after the loop's first frontier (so
// outside a timed region that starts before the loop), carried by the loop,
// cleared to receive each iteration's output, and swapped with the freed input.
// CHECK:      %start = frontier.add %s, %f : i32, !frontier.queue
// CHECK-NEXT: %{{.*}} = arith.constant 0 : i32
// CHECK-NEXT: %spare = frontier.new %{{.*}} : i32 -> !frontier.queue
// CHECK-NEXT: graph.start_timer
// CHECK-NEXT: %r, %[[LAST:.*]] = scf.while (%fr = %start, %[[B:.*]] = %spare) : (!frontier.queue, !frontier.queue) -> (!frontier.queue, !frontier.queue) {
// CHECK:        scf.condition(%c) %fr, %[[B]] : !frontier.queue, !frontier.queue
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%in: !frontier.queue, %[[S:.*]]: !frontier.queue):
// CHECK-NEXT:   %empty = frontier.clear %[[S]] : !frontier.queue
// CHECK-NEXT:   %out = frontier.vertex_map %in : !frontier.queue into %empty : !frontier.queue -> !frontier.queue {
// CHECK:        }
// CHECK-NEXT:   scf.yield %out, %in : !frontier.queue, !frontier.queue
// CHECK-NEXT: }
// CHECK-NEXT: frontier.free %[[LAST]] : !frontier.queue
// CHECK-NEXT: frontier.free %r : !frontier.queue
// CHECK-NOT:  frontier.new
// CHECK:      {{//}} -----

// -----

// A bitmap output converted to the loop's next queue and freed in the same
// iteration (UNFUSED_BITMAP creation) is a scratch: one bitmap, allocated
// before the loop, is cleared each iteration and freed after it. The queue the
// conversion makes is yielded, not a fresh empty one: it keeps its allocation.
builtin.module {
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %z = arith.constant 0 : i32
    %n = graph.argv_int argv[2] : i32
    %start = frontier.new %n : i32 -> !frontier.queue
    graph.start_timer
    %r = scf.while (%fr = %start) : (!frontier.queue) -> !frontier.queue {
      %size = frontier.size %fr : !frontier.queue -> i32
      %c = arith.cmpi ne, %size, %z : i32
      scf.condition(%c) %fr : !frontier.queue
    } do {
    ^bb0(%in : !frontier.queue):
      %empty = frontier.new %z : i32 -> !frontier.bitmap
      %out = frontier.vertex_map %in : !frontier.queue into %empty : !frontier.bitmap -> !frontier.bitmap {
      ^bb0(%v : !graph.vertex):
        frontier.enqueue %v
        frontier.yield
      }
      %once = frontier.dedup %out : !frontier.bitmap
      frontier.free %in : !frontier.queue
      %next = frontier.convert %once : !frontier.bitmap -> !frontier.queue
      frontier.free %once : !frontier.bitmap
      scf.yield %next : !frontier.queue
    }
    frontier.free %r : !frontier.queue
    func.return
  }
}

// CHECK:      %start = frontier.new %n : i32 -> !frontier.queue
// CHECK-NEXT: %{{.*}} = arith.constant 0 : i32
// CHECK-NEXT: %spare = frontier.new %{{.*}} : i32 -> !frontier.bitmap
// CHECK-NEXT: graph.start_timer
// CHECK-NEXT: %r, %[[LAST:.*]] = scf.while (%fr = %start, %[[B:.*]] = %spare) : (!frontier.queue, !frontier.bitmap) -> (!frontier.queue, !frontier.bitmap) {
// CHECK:        scf.condition(%c) %fr, %[[B]] : !frontier.queue, !frontier.bitmap
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%in: !frontier.queue, %[[S:.*]]: !frontier.bitmap):
// CHECK-NEXT:   %empty = frontier.clear %[[S]] : !frontier.bitmap
// CHECK-NEXT:   %out = frontier.vertex_map %in : !frontier.queue into %empty : !frontier.bitmap -> !frontier.bitmap {
// CHECK:        }
// CHECK-NEXT:   %once = frontier.dedup %out : !frontier.bitmap
// CHECK-NEXT:   frontier.free %in : !frontier.queue
// CHECK-NEXT:   %next = frontier.convert %once : !frontier.bitmap -> !frontier.queue
// CHECK-NEXT:   scf.yield %next, %once : !frontier.queue, !frontier.bitmap
// CHECK-NEXT: }
// CHECK-NEXT: frontier.free %[[LAST]] : !frontier.bitmap
// CHECK-NEXT: frontier.free %r : !frontier.queue
// CHECK-NOT:  frontier.new

// -----

// A list's entry retrieved into a fresh queue that becomes the next
// iteration's frontier (BC's backward pass: `levels.retrieve(above); delete
// current; current = above;`): the retrieve keeps the fresh queue's storage, so
// the queue is double-buffered like a traversal's output.
builtin.module {
  func.func @main() {
    %z = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %levels = frontier.list_new : !frontier.list
    %first = frontier.new %z : i32 -> !frontier.queue
    %start = frontier.list_retrieve %levels into %first : !frontier.queue
    %n = graph.argv_int argv[1] : i32
    %r:2 = scf.while (%fr = %start, %d = %n) : (!frontier.queue, i32) -> (!frontier.queue, i32) {
      %c = arith.cmpi sgt, %d, %z : i32
      scf.condition(%c) %fr, %d : !frontier.queue, i32
    } do {
    ^bb0(%in : !frontier.queue, %d1 : i32):
      %above = frontier.new %z : i32 -> !frontier.queue
      %popped = frontier.list_retrieve %levels into %above : !frontier.queue
      frontier.free %in : !frontier.queue
      %d2 = arith.subi %d1, %one : i32
      scf.yield %popped, %d2 : !frontier.queue, i32
    }
    frontier.free %r#0 : !frontier.queue
    func.return
  }
}

// CHECK:      %levels = frontier.list_new : !frontier.list
// CHECK:      %start = frontier.list_retrieve %levels into %first : !frontier.queue
// CHECK-NEXT: %{{.*}} = arith.constant 0 : i32
// CHECK-NEXT: %spare = frontier.new %{{.*}} : i32 -> !frontier.queue
// CHECK:      %r, %r_1, %[[LAST:.*]] = scf.while (%fr = %start, %d = %n, %[[B:.*]] = %spare) : (!frontier.queue, i32, !frontier.queue) -> (!frontier.queue, i32, !frontier.queue) {
// CHECK:      ^bb0(%in: !frontier.queue, %d1: i32, %[[S:.*]]: !frontier.queue):
// CHECK-NEXT:   %above = frontier.clear %[[S]] : !frontier.queue
// CHECK-NEXT:   %popped = frontier.list_retrieve %levels into %above : !frontier.queue
// CHECK-NEXT:   %d2 = arith.subi %d1, %one : i32
// CHECK-NEXT:   scf.yield %popped, %d2, %in : !frontier.queue, i32, !frontier.queue
// CHECK-NEXT: }
// CHECK-NEXT: frontier.free %[[LAST]] : !frontier.queue
// CHECK-NEXT: frontier.free %r : !frontier.queue
