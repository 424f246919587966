// Round trip of the frontier-level priority-queue ops.
// RUN: gir-opt %s | gir-opt | filecheck %s

builtin.module {
  graph.global @est : !graph.vector<i32>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset<i32>
    %s = arith.constant 0 : i32
    %d = arith.constant 8 : i32
    %pq = frontier.pq_new @est, %d, %s : !frontier.priority_queue<i32>
    %done = frontier.pq_finished %pq : !frontier.priority_queue<i32>
    %ready = frontier.pq_dequeue %pq : !frontier.priority_queue<i32> -> !frontier.queue
    frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset<i32> from %ready : !frontier.queue apply {
    ^bb0(%u: !graph.vertex, %w: !graph.vertex, %len: i32):
      %c = frontier.pq_update_min %pq, %w, %len : !frontier.priority_queue<i32>
      frontier.yield
    }
    %p = frontier.pq_current_priority %pq : !frontier.priority_queue<i32>
    frontier.pq_free %pq : !frontier.priority_queue<i32>
    func.return
  }
}

// CHECK:      %pq = frontier.pq_new @est, %d, %s : !frontier.priority_queue<i32>
// CHECK-NEXT: %done = frontier.pq_finished %pq : !frontier.priority_queue<i32>
// CHECK-NEXT: %ready = frontier.pq_dequeue %pq : !frontier.priority_queue<i32> -> !frontier.queue
// CHECK:        %c = frontier.pq_update_min %pq, %w, %len : !frontier.priority_queue<i32>
// CHECK:      %p = frontier.pq_current_priority %pq : !frontier.priority_queue<i32>
// CHECK-NEXT: frontier.pq_free %pq : !frontier.priority_queue<i32>

