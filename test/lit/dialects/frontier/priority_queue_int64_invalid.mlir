// A priority update's priority has its queue's priority type: an i32 one on a
// queue of i64 priorities does not verify.
// RUN: not gir-opt %s 2>&1 | filecheck %s

builtin.module {
  graph.global @dist : !graph.vector<i64>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset<i32>
    %s = arith.constant 0 : i32
    %d = arith.constant 1 : i64
    %pq = frontier.pq_new @dist, %d, %s : !frontier.priority_queue<i64>
    %ready = frontier.pq_dequeue %pq : !frontier.priority_queue<i64> -> !frontier.queue
    frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset<i32> from %ready : !frontier.queue apply {
    ^bb0(%u: !graph.vertex, %w: !graph.vertex, %len: i32):
      %c = "frontier.pq_update_min"(%pq, %w, %len) : (!frontier.priority_queue<i64>, !graph.vertex, i32) -> i1
      frontier.yield
    }
    func.return
  }
}

// CHECK: priority_queue_int64_invalid.mlir:15:7: error: 'frontier.pq_update_min': operand 'new' at position 2 does not verify
