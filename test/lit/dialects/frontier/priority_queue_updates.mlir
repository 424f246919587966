// Round trip of the max and sum priority updates and of a queue that starts with
// every vertex bucketed (no start vertex).
// RUN: gir-opt %s | gir-opt | filecheck %s

builtin.module {
  graph.global @core : !graph.vector<i32>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %d = arith.constant 1 : i32
    %pq = frontier.pq_new @core, %d : !frontier.priority_queue<i32>
    %ready = frontier.pq_dequeue %pq : !frontier.priority_queue<i32> -> !frontier.queue
    frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %ready : !frontier.queue apply {
    ^bb0(%u: !graph.vertex, %w: !graph.vertex):
      %k = frontier.pq_current_priority %pq : !frontier.priority_queue<i32>
      %m1 = arith.constant -1 : i32
      %s = frontier.pq_update_sum %pq, %w, %m1, %k : !frontier.priority_queue<i32>
      %x = frontier.pq_update_max %pq, %w, %k : !frontier.priority_queue<i32>
      frontier.yield
    }
    frontier.pq_free %pq : !frontier.priority_queue<i32>
    func.return
  }
}

// CHECK:      %pq = frontier.pq_new @core, %d : !frontier.priority_queue<i32>{{$}}
// CHECK:        %s = frontier.pq_update_sum %pq, %w, %m1, %k : !frontier.priority_queue<i32>
// CHECK-NEXT:   %x = frontier.pq_update_max %pq, %w, %k : !frontier.priority_queue<i32>
