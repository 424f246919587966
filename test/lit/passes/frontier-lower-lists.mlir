// RUN: gir-opt %s -p frontier-host-setup,frontier-lower-device-ops,frontier-to-host-values,frontier-lower-lists | filecheck %s

// A list is a host list: insert pushes a copy of the queue's items (its size
// from the host), retrieve pops into the target queue's items and gives the
// popped size; pop without a target fills a fresh queue. A loop carries the
// host list where it carried the frontier list.
builtin.module {
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %z = arith.constant 0 : i32
    %s = arith.constant 3 : i32
    %f = frontier.new %z : i32 -> !frontier.queue
    %f1 = frontier.add %s, %f : i32, !frontier.queue
    %l = frontier.list_new : !frontier.list
    frontier.list_insert %l, %f1 : !frontier.queue
    %r = scf.for %i = %z to %s step %s iter_args(%carried = %l) -> (!frontier.list) : i32 {
      frontier.list_insert %carried, %f1 : !frontier.queue
      scf.yield %carried : !frontier.list
    }
    %g = frontier.list_retrieve %r into %f1 : !frontier.queue
    %n = frontier.size %g : !frontier.queue -> i32
    %h = frontier.list_retrieve %r : !frontier.queue
    %m = frontier.size %h : !frontier.queue -> i32
    graph.print %n : i32
    graph.print %m : i32
    func.return
  }
}

// CHECK-LABEL: func.func @main() {
// CHECK:         %queue = host.alloc %queue_capacity : i32 -> memref<?xi32>
// CHECK-NEXT:    host.write %s, %queue[%z] : i32, memref<?xi32>, i32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[SIZE:.*]] = arith.addi %z, %[[ONE]] : i32
// CHECK-NEXT:    %l = host.list_new : !host.list
// CHECK-NEXT:    host.list_push %l, %queue, %[[SIZE]] : memref<?xi32>, i32
// CHECK-NEXT:    %r = scf.for %i = %z to %s step %s iter_args(%carried = %l) -> (!host.list) : i32 {
// CHECK-NEXT:      host.list_push %carried, %queue, %[[SIZE]] : memref<?xi32>, i32
// CHECK-NEXT:      scf.yield %carried : !host.list
// CHECK-NEXT:    }
// CHECK-NEXT:    %size = host.list_pop %r, %queue : memref<?xi32>
// CHECK:         %[[FRESH:.*]] = host.alloc %queue_capacity : i32 -> memref<?xi32>
// CHECK-NEXT:    %size_1 = host.list_pop %r, %[[FRESH]] : memref<?xi32>
// CHECK-NEXT:    graph.print %size : i32
// CHECK-NEXT:    graph.print %size_1 : i32
// CHECK-NOT:     frontier.list
