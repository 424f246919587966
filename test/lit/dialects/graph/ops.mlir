// Every graph-dialect op round-trips through its custom syntax and through the
// generic form.
// RUN: gir-opt %s | filecheck %s
// RUN: gir-opt %s | gir-opt | filecheck %s
// RUN: gir-opt %s --print-op-generic | gir-opt | filecheck %s
// RUN: gir-opt %s -o %t.1.mlir && gir-opt %t.1.mlir -o %t.2.mlir && cmp %t.1.mlir %t.2.mlir

builtin.module {
  graph.global @edges : !graph.edgeset<i32>
  graph.global @vertices : !graph.vertexset
  graph.global @dist : !graph.vector<i32>
  graph.global @rank : !graph.vector<f32>
  graph.global @flag : !graph.vector<1 x i32>
  graph.global @damp : f32
  graph.global @pq : !graph.priority_queue<i32>
  // CHECK:      graph.global @edges : !graph.edgeset<i32>
  // CHECK-NEXT: graph.global @vertices : !graph.vertexset
  // CHECK-NEXT: graph.global @dist : !graph.vector<i32>
  // CHECK-NEXT: graph.global @rank : !graph.vector<f32>
  // CHECK-NEXT: graph.global @flag : !graph.vector<1 x i32>
  // CHECK-NEXT: graph.global @damp : f32
  // CHECK-NEXT: graph.global @pq : !graph.priority_queue<i32>

  func.func @relax(%src : !graph.vertex, %dst : !graph.vertex, %w : i32) {
    %d = graph.load @dist[%src] : !graph.vertex -> i32
    %nd = arith.addi %d, %w : i32
    %changed = graph.reduce min %nd, @dist[%dst] : !graph.vertex, i32
    %a = graph.reduce min %nd, @dist[%dst] atomic : !graph.vertex, i32
    %pq = graph.global_load @pq : !graph.priority_queue<i32>
    %old = graph.load @dist[%dst] : !graph.vertex -> i32
    %u = graph.update_priority min %pq, %dst, %old, %nd : !graph.priority_queue<i32>, !graph.vertex, i32
    func.return
  }
  // CHECK-LABEL: func.func @relax
  // CHECK:       %{{.*}} = graph.reduce min %{{.*}}, @dist[%{{.*}}] : !graph.vertex, i32
  // CHECK:       %{{.*}} = graph.reduce min %{{.*}}, @dist[%{{.*}}] atomic : !graph.vertex, i32
  // CHECK:       graph.update_priority min %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !graph.priority_queue<i32>, !graph.vertex, i32

  func.func @cas(%src : !graph.vertex, %dst : !graph.vertex, %w : i32) {
    %id = graph.vertex_id %src : i32
    %v = graph.to_vertex %id : i32
    %m1 = arith.constant -1 : i32
    %ok = graph.compare_and_swap @dist[%dst], %m1, %id : !graph.vertex, i32
    graph.store %id, @dist[%v] : !graph.vertex, i32
    %r = graph.load @rank[%v] : !graph.vertex -> f32
    %s = graph.reduce add %r, @rank[%dst] : !graph.vertex, f32
    %c0 = arith.constant 0 : i32
    graph.store %c0, @flag[%c0] : i32, i32
    func.return
  }
  // CHECK-LABEL: func.func @cas
  // CHECK:       graph.compare_and_swap @dist[%{{.*}}], %{{.*}}, %{{.*}} : !graph.vertex, i32
  // CHECK:       graph.store %{{.*}}, @dist[%{{.*}}] : !graph.vertex, i32
  // CHECK:       graph.reduce add %{{.*}}, @rank[%{{.*}}] : !graph.vertex, f32
  // CHECK:       graph.store %{{.*}}, @flag[%{{.*}}] : i32, i32

  func.func @keep(%v : !graph.vertex) -> i1 {
    %t = arith.constant true
    func.return %t : i1
  }
  func.func @touch(%v : !graph.vertex) {
    func.return
  }

  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset<i32>
    graph.global_store %e, @edges : !graph.edgeset<i32>
    %f = graph.load_edges {path = "graph.wel"} : !graph.edgeset<i32>
    %all = graph.get_vertices %e : !graph.edgeset<i32>
    %t = graph.transpose %e : !graph.edgeset<i32>
    %big = arith.constant 2147483647 : i32
    graph.vector_fill @dist, %big : i32
    %start = graph.argv_int argv[2] : i32
    %n = graph.vertexset_size %all : i32
    %set = graph.vertexset_new %n : i32
    graph.add_vertex %set, %start : i32
    graph.vertexset_apply %set, @touch
    %kept = graph.vertexset_filter %set, @keep {label = "s2"}
    %out = graph.edgeset_apply %e from %set apply_modified @relax {tracked = @dist, dedup, label = "s1", schedule = #graph.simple_schedule<load_balance = CM, frontier_creation = UNFUSED_BITMAP>} : !graph.edgeset<i32> -> !graph.vertexset
    graph.edgeset_apply %t apply @relax {src_filter = @keep, dst_filter = @keep} : !graph.edgeset<i32>
    %pq = graph.pq_new @dist, %start {bucket_ordering = 1 : i64, dup_across_buckets = false, dup_within_bucket = false, init_bucket = false, priority_ordering = 2 : i64} : i32 -> !graph.priority_queue<i32>
    graph.global_store %pq, @pq : !graph.priority_queue<i32>
    %done = graph.pq_finished %pq : !graph.priority_queue<i32>
    %ready = graph.pq_dequeue_ready_set %pq : !graph.priority_queue<i32>
    graph.edgeset_apply %e from %ready apply_update_priority @relax {schedule = #graph.simple_schedule<delta = #graph.argv<3>>} : !graph.edgeset<i32>
    %prio = graph.pq_current_priority %pq : !graph.priority_queue<i32> -> i32
    graph.delete %ready : !graph.vertexset
    graph.delete %pq : !graph.priority_queue<i32>
    %l = graph.list_new
    graph.list_insert %l, %set
    %popped = graph.list_retrieve %l into %set
    %fresh = graph.list_retrieve %l
    graph.start_timer
    %secs = graph.stop_timer : f32
    graph.print %secs : f32
    graph.print "done"
    func.return
  }
  // CHECK-LABEL: func.func @main
  // CHECK:       graph.load_edges {argv = 1 : i64} : !graph.edgeset<i32>
  // CHECK:       graph.load_edges {path = "graph.wel"} : !graph.edgeset<i32>
  // CHECK:       graph.get_vertices %{{.*}} : !graph.edgeset<i32>
  // CHECK:       graph.transpose %{{.*}} : !graph.edgeset<i32>
  // CHECK:       graph.vector_fill @dist, %{{.*}} : i32
  // CHECK:       graph.argv_int argv[2] : i32
  // CHECK:       graph.vertexset_size %{{.*}} : i32
  // CHECK:       graph.vertexset_new %{{.*}} : i32
  // CHECK:       graph.add_vertex %{{.*}}, %{{.*}} : i32
  // CHECK:       graph.vertexset_apply %{{.*}}, @touch
  // CHECK:       graph.vertexset_filter %{{.*}}, @keep {label = "s2"}
  // CHECK:       graph.edgeset_apply %{{.*}} from %{{.*}} apply_modified @relax {tracked = @dist, dedup, label = "s1", schedule = #graph.simple_schedule<direction = PUSH, pull_frontier = BOOLMAP, load_balance = CM, edge_blocking = UNBLOCKED, blocking_size = 0, frontier_creation = UNFUSED_BITMAP, deduplication = DISABLED, dedup_strategy = FUSED, delta = 1, kernel_fusion = DISABLED, block_size = 256>} : !graph.edgeset<i32> -> !graph.vertexset
  // CHECK:       graph.edgeset_apply %{{.*}} apply @relax {src_filter = @keep, dst_filter = @keep} : !graph.edgeset<i32>
  // CHECK:       graph.pq_new @dist, %{{.*}} : i32 -> !graph.priority_queue<i32>
  // CHECK:       graph.pq_finished
  // CHECK:       graph.pq_dequeue_ready_set
  // CHECK:       apply_update_priority @relax {schedule = #graph.simple_schedule<{{.*}}delta = #graph.argv<3>, kernel_fusion = DISABLED, block_size = 256>}
  // CHECK:       graph.pq_current_priority %{{.*}} : !graph.priority_queue<i32> -> i32
  // CHECK:       graph.delete %{{.*}} : !graph.vertexset
  // CHECK:       graph.delete %{{.*}} : !graph.priority_queue<i32>
  // CHECK:       graph.list_new
  // CHECK:       graph.list_insert
  // CHECK:       %popped = graph.list_retrieve %l into %set
  // CHECK:       %fresh = graph.list_retrieve %l
  // CHECK:       graph.start_timer
  // CHECK:       graph.stop_timer : f32
  // CHECK:       graph.print %{{.*}} : f32
  // CHECK:       graph.print "done"
}
