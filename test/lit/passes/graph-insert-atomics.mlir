// RUN: gir-opt %s -p graph-default-schedule,graph-insert-atomics | filecheck %s

// PUSH, VERTEX_BASED: one thread per source vertex of the frontier.

builtin.module {
  graph.global @parent : !graph.vector<i32>
  graph.global @dist : !graph.vector<i32>
  graph.global @IDs : !graph.vector<i32>
  graph.global @rank : !graph.vector<f32>
  graph.global @count : !graph.vector<i32>
  graph.global @total : !graph.vector<1 x f64>
  graph.global @removed : !graph.vector<i1>

  // BFS: the store guarded by the `to` filter parent[v] == -1 becomes a CAS.
  func.func @toFilter(%v : !graph.vertex) -> i1 {
    %0 = graph.load @parent[%v] : !graph.vertex -> i32
    %c = arith.constant -1 : i32
    %1 = arith.cmpi eq, %0, %c : i32
    func.return %1 : i1
  }
  func.func @bfsEdge(%src : !graph.vertex, %dst : !graph.vertex) {
    %0 = graph.vertex_id %src : i32
    graph.store %0, @parent[%dst] : !graph.vertex, i32
    func.return
  }
  // CHECK-LABEL: func.func @bfsEdge
  // CHECK-NEXT:    %0 = graph.vertex_id %src : i32
  // CHECK-NEXT:    %1 = arith.constant -1 : i32
  // CHECK-NEXT:    %2 = graph.compare_and_swap @parent[%dst], %1, %0 : !graph.vertex, i32
  // CHECK-NEXT:    func.return

  // hyperkcore: a guarded store to a bool vector stays plain (no GPU has a
  // byte-wide compare-and-swap); change tracking deduplicates its output.
  func.func @notRemoved(%v : !graph.vertex) -> i1 {
    %0 = graph.load @removed[%v] : !graph.vertex -> i1
    %c = arith.constant false
    %1 = arith.cmpi eq, %0, %c : i1
    func.return %1 : i1
  }
  func.func @removeEdge(%src : !graph.vertex, %dst : !graph.vertex) {
    %0 = arith.constant true
    graph.store %0, @removed[%dst] : !graph.vertex, i1
    func.return
  }
  // CHECK-LABEL: func.func @removeEdge
  // CHECK-NEXT:    %0 = arith.constant true
  // CHECK-NEXT:    graph.store %0, @removed[%dst] : !graph.vertex, i1
  // CHECK-NEXT:    func.return

  // Without a `to` filter a store stays plain (the last writer wins).
  func.func @lastWriter(%src : !graph.vertex, %dst : !graph.vertex) {
    %0 = graph.vertex_id %src : i32
    graph.store %0, @parent[%dst] : !graph.vertex, i32
    func.return
  }
  // CHECK-LABEL: func.func @lastWriter
  // CHECK-NEXT:    %0 = graph.vertex_id %src : i32
  // CHECK-NEXT:    graph.store %0, @parent[%dst] : !graph.vertex, i32

  // SSSP: min= on the destination is atomic.
  func.func @relax(%src : !graph.vertex, %dst : !graph.vertex, %w : i32) {
    %0 = graph.load @dist[%src] : !graph.vertex -> i32
    %1 = arith.addi %0, %w : i32
    %2 = graph.reduce min %1, @dist[%dst] : !graph.vertex, i32
    func.return
  }
  // CHECK-LABEL: func.func @relax
  // CHECK:         graph.reduce min %1, @dist[%dst] atomic : !graph.vertex, i32

  // CC: elements indexed by loaded values are shared, on either side.
  func.func @hook(%src : !graph.vertex, %dst : !graph.vertex) {
    %0 = graph.load @IDs[%src] : !graph.vertex -> i32
    %1 = graph.load @IDs[%dst] : !graph.vertex -> i32
    %2 = graph.load @IDs[%0] : i32 -> i32
    %3 = graph.reduce min %2, @IDs[%1] : i32, i32
    %4 = graph.load @IDs[%1] : i32 -> i32
    %5 = graph.reduce min %4, @IDs[%0] : i32, i32
    func.return
  }
  // CHECK-LABEL: func.func @hook
  // CHECK:         graph.reduce min %2, @IDs[%1] atomic : i32, i32
  // CHECK:         graph.reduce min %4, @IDs[%0] atomic : i32, i32

  // The source's element is shared when the frontier may repeat a vertex...
  func.func @fromFrontier(%src : !graph.vertex, %dst : !graph.vertex) {
    %0 = graph.load @count[%dst] : !graph.vertex -> i32
    %1 = graph.reduce add %0, @count[%src] : !graph.vertex, i32
    func.return
  }
  // CHECK-LABEL: func.func @fromFrontier
  // CHECK:         graph.reduce add %0, @count[%src] atomic : !graph.vertex, i32

  // ... and private when the traversal starts from every vertex once.
  func.func @fromAll(%src : !graph.vertex, %dst : !graph.vertex) {
    %0 = graph.load @rank[%src] : !graph.vertex -> f32
    %1 = graph.reduce add %0, @rank[%dst] : !graph.vertex, f32
    %2 = graph.load @count[%dst] : !graph.vertex -> i32
    %3 = graph.reduce add %2, @count[%src] : !graph.vertex, i32
    func.return
  }
  // CHECK-LABEL: func.func @fromAll
  // CHECK:         graph.reduce add %0, @rank[%dst] atomic : !graph.vertex, f32
  // CHECK:         graph.reduce add %2, @count[%src] : !graph.vertex, i32

  // Vertex apply: the vertex's own element is private, others are shared.
  func.func @sum(%v : !graph.vertex) {
    %0 = graph.load @rank[%v] : !graph.vertex -> f32
    %1 = arith.extf %0 : f32 to f64
    %c0 = arith.constant 0 : i32
    %2 = graph.reduce add %1, @total[%c0] : i32, f64
    %3 = graph.reduce max %0, @rank[%v] : !graph.vertex, f32
    func.return
  }
  // CHECK-LABEL: func.func @sum
  // CHECK:         graph.reduce add %1, @total[%c0] atomic : i32, f64
  // CHECK-NEXT:    graph.reduce max %0, @rank[%v] : !graph.vertex, f32

  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %w = graph.load_edges {argv = 2 : i64} : !graph.edgeset<i32>
    %z = arith.constant 0 : i32
    %f = graph.vertexset_new %z : i32
    %a = graph.edgeset_apply %e from %f apply_modified @bfsEdge {to_filter = @toFilter, tracked = @parent, dedup} : !graph.edgeset -> !graph.vertexset
    graph.edgeset_apply %e from %f apply @lastWriter : !graph.edgeset
    %r = graph.edgeset_apply %e from %f apply_modified @removeEdge {to_filter = @notRemoved, tracked = @removed} : !graph.edgeset -> !graph.vertexset
    %b = graph.edgeset_apply %w from %f apply_modified @relax {tracked = @dist} : !graph.edgeset<i32> -> !graph.vertexset
    %c = graph.edgeset_apply %e from %f apply_modified @hook {tracked = @IDs} : !graph.edgeset -> !graph.vertexset
    graph.edgeset_apply %e from %f apply @fromFrontier : !graph.edgeset
    graph.edgeset_apply %e apply @fromAll : !graph.edgeset
    %all = graph.get_vertices %e : !graph.edgeset
    graph.vertexset_apply %all, @sum
    func.return
  }
}
