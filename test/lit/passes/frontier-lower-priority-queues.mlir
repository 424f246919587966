// RUN: gir-opt %s -p frontier-lower-priority-queues | filecheck %s

// Delta-stepping: the queue becomes the bucket end and the pending queue, carried
// through the loop; finished() refills an empty bucket from the priorities, the
// update is an atomic min that enqueues into the current bucket only.
builtin.module {
  graph.global @est : !graph.vector<i32>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset<i32>
    %source = graph.argv_int argv[2] : i32
    %delta = graph.argv_int argv[3] : i32
    %pq = frontier.pq_new @est, %delta, %source : !frontier.priority_queue<i32>
    scf.while () : () -> () {
      %done = frontier.pq_finished %pq : !frontier.priority_queue<i32>
      %false = arith.constant false
      %go = arith.cmpi eq, %done, %false : i1
      scf.condition(%go)
    } do {
      %ready = frontier.pq_dequeue %pq : !frontier.priority_queue<i32> -> !frontier.queue
      frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset<i32> from %ready : !frontier.queue {label = "relax"} apply {
      ^bb0(%u: !graph.vertex, %w: !graph.vertex, %len: i32):
        %d = graph.load @est[%u] : !graph.vertex -> i32
        %via = arith.addi %d, %len : i32
        %changed = frontier.pq_update_min %pq, %w, %via : !frontier.priority_queue<i32>
        frontier.yield
      }
      frontier.free %ready : !frontier.queue
      scf.yield
    }
    %low = frontier.pq_current_priority %pq : !frontier.priority_queue<i32>
    graph.print %low : i32
    frontier.pq_free %pq : !frontier.priority_queue<i32>
    func.return
  }
}

// CHECK:       graph.global @est_next_priority : !graph.vector<1 x i32>
// CHECK:       %[[EMPTY:.*]] = frontier.new %{{.*}} : i32 -> !frontier.queue
// CHECK-NEXT:  %[[FIRST:.*]] = frontier.add %source, %[[EMPTY]] : i32, !frontier.queue
// CHECK:       %[[END:.*]], %[[LEFT:.*]] = scf.while (%[[W:.*]] = %delta, %[[P:.*]] = %[[FIRST]]) : (i32, !frontier.queue) -> (i32, !frontier.queue) {
// CHECK:         %[[N:.*]] = frontier.size %[[P]] : !frontier.queue -> i32
// CHECK:         %[[DRAINED:.*]] = arith.cmpi eq, %[[N]]
// CHECK:         %[[W2:.*]], %[[P2:.*]] = scf.if %[[DRAINED]] -> (i32, !frontier.queue) {
// CHECK:           graph.store %{{.*}}, @est_next_priority[%{{.*}}] : i32, i32
// CHECK:           frontier.vertex_map %{{.*}} : !frontier.all attributes {label = "next_bucket"} {
// CHECK:             arith.cmpi sge, %{{.*}}, %[[W]] : i32
// CHECK:             graph.reduce min %{{.*}}, @est_next_priority[%{{.*}}] atomic : i32, i32
// CHECK:           %[[LOWEST:.*]] = graph.load @est_next_priority[%{{.*}}] : i32 -> i32
// CHECK:           arith.remsi %[[LOWEST]], %delta : i32
// CHECK:           %[[NEXT:.*]] = arith.select
// CHECK:           %[[FILLED:.*]] = frontier.vertex_map %{{.*}} : !frontier.all into %[[P]] : !frontier.queue -> !frontier.queue attributes {label = "bucket"} {
// CHECK:             frontier.enqueue
// CHECK:           scf.yield %[[NEXT]], %[[FILLED]] : i32, !frontier.queue
// CHECK:         } else {
// CHECK-NEXT:      scf.yield %[[W]], %[[P]] : i32, !frontier.queue
// CHECK:         %[[LEFT2:.*]] = frontier.size %[[P2]] : !frontier.queue -> i32
// CHECK:         scf.condition(%{{.*}}) %[[W2]], %[[P2]] : i32, !frontier.queue
// CHECK:       } do {
// CHECK-NEXT:  ^{{.*}}(%[[W3:.*]]: i32, %[[READY:.*]]: !frontier.queue):
// CHECK:         %[[OUT:.*]] = frontier.new %{{.*}} : i32 -> !frontier.queue
// CHECK:         %[[FILLED2:.*]] = frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset<i32> from %[[READY]] : !frontier.queue into %[[OUT]] : !frontier.queue {label = "relax"} apply {
// CHECK:           %[[CHANGED:.*]] = graph.reduce min %via, @est[%w] atomic : !graph.vertex, i32
// CHECK-NEXT:      %[[NOW:.*]] = arith.cmpi slt, %via, %[[W3]] : i32
// CHECK-NEXT:      %[[BOTH:.*]] = arith.andi %[[CHANGED]], %[[NOW]] : i1
// CHECK-NEXT:      scf.if %[[BOTH]] {
// CHECK-NEXT:        frontier.enqueue %w
// CHECK:         } -> !frontier.queue
// CHECK:         frontier.free %[[READY]] : !frontier.queue
// CHECK-NEXT:    scf.yield %[[W3]], %[[FILLED2]] : i32, !frontier.queue
// CHECK:       %[[LOW:.*]] = arith.subi %[[END]], %delta : i32
// CHECK-NEXT:  graph.print %[[LOW]] : i32
// CHECK-NEXT:  frontier.free %[[LEFT]] : !frontier.queue
// CHECK-NOT:   frontier.pq_
