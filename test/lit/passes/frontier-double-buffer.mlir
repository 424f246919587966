// RUN: gir-opt %s -p frontier-double-buffer | filecheck %s

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
