// Invalid priority updates: only inside a traversal.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s

builtin.module {
  graph.global @core : !graph.vector<i32>
  func.func @main() {
    %s = arith.constant 0 : i32
    %pq = frontier.pq_new @core, %s : !frontier.priority_queue<i32>
    %v = graph.to_vertex %s : i32
    %c = frontier.pq_update_sum %pq, %v, %s, %s : !frontier.priority_queue<i32>
    func.return
  }
}

// CHECK: frontier.pq_update_sum must be inside a frontier.edge_traverse

// -----

builtin.module {
  graph.global @width : !graph.vector<i32>
  func.func @main() {
    %s = arith.constant 0 : i32
    %pq = frontier.pq_new @width, %s, %s : !frontier.priority_queue<i32>
    %v = graph.to_vertex %s : i32
    %c = frontier.pq_update_max %pq, %v, %s : !frontier.priority_queue<i32>
    func.return
  }
}

// CHECK: frontier.pq_update_max must be inside a frontier.edge_traverse
