// RUN: gir-opt %s -p frontier-lower-priority-queues | filecheck %s

// k-core's queue: every vertex starts in its bucket (no start vertex), so the
// bucket end starts at 0 and dequeue refills an empty bucket itself (no
// finished() before it). updatePrioritySum is a compare-and-swap loop that
// enqueues a vertex only when it moves into the current bucket from a later one;
// updatePriorityMax an atomic max that enqueues below the bucket's end.
builtin.module {
  graph.global @core : !graph.vector<i32>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %delta = arith.constant 1 : i32
    %pq = frontier.pq_new @core, %delta : !frontier.priority_queue<i32>
    %c0 = arith.constant 0 : i32
    %c9 = arith.constant 9 : i32
    scf.for %i = %c0 to %c9 step %delta : i32 {
      %ready = frontier.pq_dequeue %pq : !frontier.priority_queue<i32> -> !frontier.queue
      frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %ready : !frontier.queue apply {
      ^bb0(%u: !graph.vertex, %w: !graph.vertex):
        %k = frontier.pq_current_priority %pq : !frontier.priority_queue<i32>
        %m1 = arith.constant -1 : i32
        %s = frontier.pq_update_sum %pq, %w, %m1, %k : !frontier.priority_queue<i32>
        %x = frontier.pq_update_max %pq, %w, %k : !frontier.priority_queue<i32>
        frontier.yield
      }
      frontier.free %ready : !frontier.queue
    }
    frontier.pq_free %pq : !frontier.priority_queue<i32>
    func.return
  }
}

// CHECK:       %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:  %[[EMPTY:.*]] = frontier.new %[[ZERO]] : i32 -> !frontier.queue
// CHECK-NEXT:  %[[LOWEST:.*]] = arith.constant 0 : i32
// CHECK-NOT:   frontier.add
// CHECK:       scf.for %i = %c0 to %c9 step %delta iter_args(%[[W:.*]] = %[[LOWEST]], %[[P:.*]] = %[[EMPTY]]) -> (i32, !frontier.queue)  : i32 {
// CHECK:         %[[N:.*]] = frontier.size %[[P]] : !frontier.queue -> i32
// CHECK:         %[[DRAINED:.*]] = arith.cmpi eq, %[[N]]
// CHECK:         %[[W2:.*]], %[[READY:.*]] = scf.if %[[DRAINED]] -> (i32, !frontier.queue) {
// CHECK:           frontier.vertex_map %{{.*}} : !frontier.all attributes {label = "next_bucket"}
// CHECK:         frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %[[READY]] : !frontier.queue into %{{.*}} : !frontier.queue apply {
// CHECK:           %[[K:.*]] = arith.subi %[[W2]], %delta : i32
// CHECK:           %[[CHANGED:.*]], %[[WAS:.*]], %[[NOW:.*]] = scf.while () : () -> (i1, i32, i32) {
// CHECK-NEXT:        %[[OLD:.*]] = graph.load @core[%w] : !graph.vertex -> i32
// CHECK-NEXT:        %[[ABOVE:.*]] = arith.cmpi sgt, %[[OLD]], %[[K]] : i32
// CHECK-NEXT:        %[[SUM:.*]] = arith.addi %[[OLD]], %m1 : i32
// CHECK-NEXT:        %[[NEW:.*]] = arith.maxsi %[[SUM]], %[[K]] : i32
// CHECK-NEXT:        %[[WON:.*]] = scf.if %[[ABOVE]] -> (i1) {
// CHECK-NEXT:          graph.compare_and_swap @core[%w], %[[OLD]], %[[NEW]] : !graph.vertex, i32
// CHECK:             scf.condition(%{{.*}}) %[[WON]], %[[OLD]], %[[NEW]] : i1, i32, i32
// CHECK:           %[[LATER:.*]] = arith.cmpi sge, %[[WAS]], %[[W2]] : i32
// CHECK-NEXT:      %[[INTO:.*]] = arith.cmpi slt, %[[NOW]], %[[W2]] : i32
// CHECK-NEXT:      %[[LANDED:.*]] = arith.andi %[[LATER]], %[[INTO]] : i1
// CHECK-NEXT:      %[[BOTH:.*]] = arith.andi %[[CHANGED]], %[[LANDED]] : i1
// CHECK-NEXT:      scf.if %[[BOTH]] {
// CHECK-NEXT:        frontier.enqueue %w
// CHECK:           %[[RAISED:.*]] = graph.reduce max %[[K]], @core[%w] atomic : !graph.vertex, i32
// CHECK-NEXT:      %[[BELOW:.*]] = arith.cmpi slt, %[[K]], %[[W2]] : i32
// CHECK-NEXT:      %[[BOTH2:.*]] = arith.andi %[[RAISED]], %[[BELOW]] : i1
// CHECK-NEXT:      scf.if %[[BOTH2]] {
// CHECK-NEXT:        frontier.enqueue %w
// CHECK-NOT:   frontier.pq_
