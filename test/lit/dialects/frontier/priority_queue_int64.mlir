// Round trip of a queue of 64-bit priorities (int64, uint_64): its delta, its
// updates' priorities and its current priority are i64.
// RUN: gir-opt %s | gir-opt | filecheck %s

builtin.module {
  graph.global @dist : !graph.vector<i64>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset<i32>
    %s = arith.constant 0 : i32
    %d = arith.constant 8589934592 : i64
    %pq = frontier.pq_new @dist, %d, %s : !frontier.priority_queue<i64>
    %ready = frontier.pq_dequeue %pq : !frontier.priority_queue<i64> -> !frontier.queue
    frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset<i32> from %ready : !frontier.queue apply {
    ^bb0(%u: !graph.vertex, %w: !graph.vertex, %len: i32):
      %far = arith.extsi %len : i32 to i64
      %c = frontier.pq_update_min %pq, %w, %far : !frontier.priority_queue<i64>
      frontier.yield
    }
    %p = frontier.pq_current_priority %pq : !frontier.priority_queue<i64>
    graph.print %p : i64
    func.return
  }
}

// CHECK:      %pq = frontier.pq_new @dist, %d, %s : !frontier.priority_queue<i64>
// CHECK:        %c = frontier.pq_update_min %pq, %w, %far : !frontier.priority_queue<i64>
// CHECK:      %p = frontier.pq_current_priority %pq : !frontier.priority_queue<i64>
// CHECK-NEXT: graph.print %p : i64
