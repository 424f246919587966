// Round trip of `pq.finishedNode(v)` at both levels, for a vertex and for an id.
// RUN: gir-opt %s | gir-opt | filecheck %s

builtin.module {
  graph.global @est : !graph.vector<i32>
  graph.global @far : !graph.vector<i64>
  func.func @main() {
    %s = arith.constant 0 : i32
    %d = arith.constant 8 : i64
    %v = graph.to_vertex %s : i32
    %gq = graph.pq_new @est, %s {bucket_ordering = 1 : i64, dup_across_buckets = false, dup_within_bucket = false, init_bucket = false, priority_ordering = 2 : i64} : i32 -> !graph.priority_queue<i32>
    %g_id = graph.pq_finished_node %gq, %s : !graph.priority_queue<i32>, i32
    %g_v = graph.pq_finished_node %gq, %v : !graph.priority_queue<i32>, !graph.vertex
    %pq = frontier.pq_new @far, %d, %s : !frontier.priority_queue<i64>
    %f_id = frontier.pq_finished_node %pq, %s : !frontier.priority_queue<i64>, i32
    %f_v = frontier.pq_finished_node %pq, %v : !frontier.priority_queue<i64>, !graph.vertex
    func.return
  }
}

// CHECK:      %g_id = graph.pq_finished_node %gq, %s : !graph.priority_queue<i32>, i32
// CHECK-NEXT: %g_v = graph.pq_finished_node %gq, %v : !graph.priority_queue<i32>, !graph.vertex
// CHECK:      %f_id = frontier.pq_finished_node %pq, %s : !frontier.priority_queue<i64>, i32
// CHECK-NEXT: %f_v = frontier.pq_finished_node %pq, %v : !frontier.priority_queue<i64>, !graph.vertex
