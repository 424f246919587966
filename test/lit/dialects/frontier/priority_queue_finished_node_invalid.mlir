// Invalid `pq.finishedNode(v)`: the node is a vertex or an integer id.
// RUN: gir-opt %s --verify-diagnostics | filecheck %s

builtin.module {
  graph.global @est : !graph.vector<i32>
  func.func @main() {
    %s = arith.constant 0 : i32
    %f = arith.constant 0.0 : f32
    %pq = frontier.pq_new @est, %s, %s : !frontier.priority_queue<i32>
    %done = frontier.pq_finished_node %pq, %f : !frontier.priority_queue<i32>, f32
    func.return
  }
}

// CHECK: Unexpected attribute f32
