// RUN: gir-opt %s -p frontier-track-changes | filecheck %s

builtin.module {
  graph.global @parent : !graph.vector<i32>
  graph.global @dist : !graph.vector<i32>
  graph.global @seen : !graph.vector<i32>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %w = graph.load_edges {argv = 2 : i64} : !graph.edgeset<i32>
    %z = arith.constant 0 : i32
    %in = frontier.new %z : i32 -> !frontier.queue
    %empty = frontier.new %z : i32 -> !frontier.queue

    // BFS: enqueue the destination when this thread's CAS set its parent; such a
    // CAS succeeds once per destination, so dedup is redundant and goes.
    %bfs = frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %in : !frontier.queue into %empty : !frontier.queue tracked @parent dedup {label = "bfs"} apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      %id = graph.vertex_id %src : i32
      %m1 = arith.constant -1 : i32
      %won = graph.compare_and_swap @parent[%dst], %m1, %id : !graph.vertex, i32
      frontier.yield
    } -> !frontier.queue

    // CHECK-LABEL: %bfs = frontier.edge_traverse
    // CHECK-NOT:     dedup
    // CHECK-SAME:    {label = "bfs"} apply {
    // CHECK:           %won = graph.compare_and_swap @parent[%dst], %m1, %id : !graph.vertex, i32
    // CHECK-NEXT:      scf.if %won {
    // CHECK-NEXT:        frontier.enqueue %dst
    // CHECK-NEXT:      }
    // CHECK-NEXT:      frontier.yield

    // Several updates of the destination's entry (one inside an scf.if, one
    // plain store): one enqueue, on their or.
    %sssp = frontier.edge_traverse PUSH VERTEX_BASED CSR %w : !graph.edgeset<i32> from %in : !frontier.queue into %empty : !frontier.queue tracked @dist dedup {label = "sssp"} apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex, %weight : i32):
      %d = graph.load @dist[%src] : !graph.vertex -> i32
      %new = arith.addi %d, %weight : i32
      %positive = arith.cmpi sgt, %weight, %z : i32
      scf.if %positive {
        %lowered = graph.reduce min %new, @dist[%dst] atomic : !graph.vertex, i32
      }
      graph.store %new, @seen[%dst] : !graph.vertex, i32
      graph.store %new, @dist[%dst] : !graph.vertex, i32
      frontier.yield
    } -> !frontier.queue

    // CHECK-LABEL: %sssp = frontier.edge_traverse
    // CHECK-SAME:    dedup {label = "sssp"} apply {
    // CHECK:           %[[IF:.*]] = scf.if %positive -> (i1) {
    // CHECK-NEXT:        %lowered = graph.reduce min %new, @dist[%dst_1] atomic : !graph.vertex, i32
    // CHECK-NEXT:        scf.yield %lowered : i1
    // CHECK-NEXT:      } else {
    // CHECK-NEXT:        %[[FALSE:.*]] = arith.constant false
    // CHECK-NEXT:        scf.yield %[[FALSE]] : i1
    // CHECK-NEXT:      }
    // CHECK-NEXT:      graph.store %new, @seen[%dst_1] : !graph.vertex, i32
    // CHECK-NEXT:      graph.store %new, @dist[%dst_1] : !graph.vertex, i32
    // CHECK-NEXT:      %[[TRUE:.*]] = arith.constant true
    // CHECK-NEXT:      %[[EITHER:.*]] = arith.ori %[[IF]], %[[TRUE]] : i1
    // CHECK-NEXT:      scf.if %[[EITHER]] {
    // CHECK-NEXT:        frontier.enqueue %dst_1
    // CHECK-NEXT:      }
    // CHECK-NEXT:      frontier.yield
    // A min= update can lower one destination's value several times in one
    // traversal: the output is deduplicated even though the program did not ask,
    // so no frontier repeats a vertex and the queue cannot overflow.
    %hook = frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %in : !frontier.queue into %empty : !frontier.queue tracked @dist {label = "cc"} apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      %l = graph.load @dist[%src] : !graph.vertex -> i32
      %c = graph.reduce min %l, @dist[%dst] atomic : !graph.vertex, i32
      frontier.yield
    } -> !frontier.queue

    // CHECK-LABEL: %hook = frontier.edge_traverse
    // CHECK-SAME:    dedup {label = "cc"} apply {
    // CHECK:           %c = graph.reduce min %l, @dist[%dst{{.*}}] atomic
    // CHECK-NEXT:      scf.if %c {
    // CHECK-NEXT:        frontier.enqueue %dst

    // The same update with unfused deduplication (a frontier.dedup follows): the
    // traversal enqueues without deduplicating; the separate step removes repeats.
    %cc_raw = frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %in : !frontier.queue into %empty : !frontier.queue tracked @dist {label = "cc_unfused"} apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      %l = graph.load @dist[%src] : !graph.vertex -> i32
      %c = graph.reduce min %l, @dist[%dst] atomic : !graph.vertex, i32
      frontier.yield
    } -> !frontier.queue
    %cc_unfused = frontier.dedup %cc_raw : !frontier.queue
    frontier.free %cc_unfused : !frontier.queue

    // CHECK-LABEL: %cc_raw = frontier.edge_traverse
    // CHECK-NOT:     dedup
    // CHECK-SAME:    {label = "cc_unfused"} apply {
    // CHECK:         %cc_unfused = frontier.dedup %cc_raw : !frontier.queue
    // CHECK-NEXT:    frontier.free %cc_unfused : !frontier.queue

    // BFS with unfused deduplication: its CAS succeeds once per destination, so
    // the separate step is redundant and goes.
    %bfs_raw = frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %in : !frontier.queue into %empty : !frontier.queue tracked @parent {label = "bfs_unfused"} apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      %id = graph.vertex_id %src : i32
      %m1 = arith.constant -1 : i32
      %won = graph.compare_and_swap @parent[%dst], %m1, %id : !graph.vertex, i32
      frontier.yield
    } -> !frontier.queue
    %bfs_unfused = frontier.dedup %bfs_raw : !frontier.queue
    frontier.free %bfs_unfused : !frontier.queue

    // CHECK-LABEL: %bfs_raw = frontier.edge_traverse
    // CHECK-SAME:    {label = "bfs_unfused"} apply {
    // CHECK:         } -> !frontier.queue
    // CHECK-NEXT:    frontier.free %bfs_raw : !frontier.queue

    // CC's hook: an update of another vertex's entry (the root of each end)
    // enqueues that vertex right after it took effect, as G2 enqueues the index
    // of every tracked update; nothing is or-ed into a destination flag.
    %roots = frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %in : !frontier.queue into %empty : !frontier.queue tracked @parent {label = "cc_roots"} apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      %ls = graph.load @parent[%src] : !graph.vertex -> i32
      %lu = graph.to_vertex %ls : i32
      %ld = graph.load @parent[%dst] : !graph.vertex -> i32
      %lw = graph.to_vertex %ld : i32
      %hooked = graph.reduce min %ls, @parent[%lw] atomic : !graph.vertex, i32
      frontier.yield
    } -> !frontier.queue
    frontier.free %hook : !frontier.queue

    // CHECK-LABEL: %roots = frontier.edge_traverse
    // CHECK-SAME:    dedup {label = "cc_roots"} apply {
    // CHECK:           %hooked = graph.reduce min %ls, @parent[%lw] atomic : !graph.vertex, i32
    // CHECK-NEXT:      scf.if %hooked {
    // CHECK-NEXT:        frontier.enqueue %lw
    // CHECK-NEXT:      }
    // CHECK-NEXT:      frontier.yield

    // BC's level claim: a CAS from one constant writes a level, not a vertex id,
    // so it could write the -1 it expects and change nothing: its flag is its
    // success and `desired != expected`. The entry changes once (from -1), so
    // dedup goes here too.
    %claim = frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %in : !frontier.queue into %empty : !frontier.queue tracked @seen dedup {label = "claim"} apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      %l = graph.load @seen[%src] : !graph.vertex -> i32
      %one = arith.constant 1 : i32
      %below = arith.addi %l, %one : i32
      %unseen = arith.constant -1 : i32
      %claimed = graph.compare_and_swap @seen[%dst], %unseen, %below : !graph.vertex, i32
      frontier.yield
    } -> !frontier.queue

    // CHECK-LABEL: %claim = frontier.edge_traverse
    // CHECK-NOT:     dedup
    // CHECK-SAME:    {label = "claim"} apply {
    // CHECK:           %claimed = graph.compare_and_swap @seen[%dst{{.*}}], %unseen, %below : !graph.vertex, i32
    // CHECK-NEXT:      %[[DIFFERS:.*]] = arith.cmpi ne, %below, %unseen : i32
    // CHECK-NEXT:      %[[CHANGED:.*]] = arith.andi %claimed, %[[DIFFERS]] : i1
    // CHECK-NEXT:      scf.if %[[CHANGED]] {
    // CHECK-NEXT:        frontier.enqueue %dst
    // CHECK-NEXT:      }

    // Swaps from two different constants can change an entry twice: dedup stays.
    %twice = frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %in : !frontier.queue into %empty : !frontier.queue tracked @seen dedup {label = "twice"} apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      %a = arith.constant -1 : i32
      %b = arith.constant -2 : i32
      %first = graph.compare_and_swap @seen[%dst], %a, %b : !graph.vertex, i32
      %c = arith.constant 7 : i32
      %second = graph.compare_and_swap @seen[%dst], %b, %c : !graph.vertex, i32
      frontier.yield
    } -> !frontier.queue

    // CHECK-LABEL: %twice = frontier.edge_traverse
    // CHECK-SAME:    dedup {label = "twice"} apply {

    func.return
  }
}
