// Round trip of the frontier-level priority-queue ops.
// RUN: gir-opt %s | gir-opt | filecheck %s

builtin.module {
  graph.global @est : !graph.vector<i32>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset<i32>
    %s = arith.constant 0 : i32
    %d = arith.constant 8 : i32
    %pq = frontier.pq_new @est, %d, %s
    %done = frontier.pq_finished %pq
    %ready = frontier.pq_dequeue %pq : !frontier.queue
    frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset<i32> from %ready : !frontier.queue apply {
    ^bb0(%u: !graph.vertex, %w: !graph.vertex, %len: i32):
      %c = frontier.pq_update_min %pq, %w, %len
      frontier.yield
    }
    %p = frontier.pq_current_priority %pq
    frontier.pq_free %pq
    func.return
  }
}

// CHECK:      %pq = frontier.pq_new @est, %d, %s
// CHECK-NEXT: %done = frontier.pq_finished %pq
// CHECK-NEXT: %ready = frontier.pq_dequeue %pq : !frontier.queue
// CHECK:        %c = frontier.pq_update_min %pq, %w, %len
// CHECK:      %p = frontier.pq_current_priority %pq
// CHECK-NEXT: frontier.pq_free %pq

