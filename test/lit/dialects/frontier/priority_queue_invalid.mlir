// Invalid priority-queue IR.
// RUN: gir-opt %s --verify-diagnostics | filecheck %s

builtin.module {
  graph.global @est : !graph.vector<i32>
  func.func @main() {
    %s = arith.constant 0 : i32
    %pq = frontier.pq_new @est, %s, %s : !frontier.priority_queue<i32>
    %v = graph.to_vertex %s : i32
    %c = frontier.pq_update_min %pq, %v, %s : !frontier.priority_queue<i32>
    func.return
  }
}

// CHECK: frontier.pq_update_min must be inside a frontier.edge_traverse
