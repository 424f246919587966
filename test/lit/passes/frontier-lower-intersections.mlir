// RUN: gir-opt %s -p graph-default-schedule,graph-to-frontier,frontier-lower-intersections | filecheck %s
// RUN: gir-opt %s -p graph-default-schedule,graph-to-frontier,frontier-lower-intersections,frontier-lower-load-balance,frontier-insert-conversions,graph-to-host-io,frontier-to-gpu | filecheck %s --check-prefix=GPU

// Triangle counting's edge function: each graph.intersect_neighbors becomes the
// loop of its method over the two CSR lists, bounded by dst's id.

builtin.module {
  graph.global @edges : !graph.edgeset
  graph.global @by_merge : !graph.vector<i64> unsigned
  graph.global @by_search : !graph.vector<i64> unsigned
  func.func @merged(%src : !graph.vertex, %dst : !graph.vertex) {
    %e = graph.global_load @edges : !graph.edgeset
    %n = graph.intersect_neighbors "merge" %e[%src, %dst] : !graph.edgeset, !graph.vertex, !graph.vertex -> i64
    %c = graph.reduce add %n, @by_merge[%src] : !graph.vertex, i64
    func.return
  }
  func.func @searched(%src : !graph.vertex, %dst : !graph.vertex) {
    %e = graph.global_load @edges : !graph.edgeset
    %n = graph.intersect_neighbors "binary_search" %e[%src, %dst] : !graph.edgeset, !graph.vertex, !graph.vertex -> i64
    %c = graph.reduce add %n, @by_search[%src] : !graph.vertex, i64
    func.return
  }
  func.func @main() {
    %edges = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    graph.global_store %edges, @edges : !graph.edgeset
    %zero = arith.constant 0 : i64
    graph.vector_fill @by_merge, %zero : i64
    graph.vector_fill @by_search, %zero : i64
    %e = graph.global_load @edges : !graph.edgeset
    graph.edgeset_apply %e apply @merged : !graph.edgeset
    graph.edgeset_apply %e apply @searched : !graph.edgeset
    func.return
  }
}

// CHECK-NOT:   graph.intersect_neighbors
// merge: one loop over both lists, advancing the smaller head
// CHECK:       frontier.edge_traverse PUSH VERTEX_BASED CSR %edges
// CHECK:         %[[A:.*]], %[[A_END:.*]] = frontier.edge_range CSR %edges[%src] : !graph.edgeset
// CHECK-NEXT:    %[[B:.*]], %[[B_END:.*]] = frontier.edge_range CSR %edges[%dst] : !graph.edgeset
// CHECK-NEXT:    %[[LIMIT:.*]] = graph.vertex_id %dst : i32
// CHECK:         scf.while ({{.*}} = %[[A]], {{.*}} = %[[B]], {{.*}}) : (index, index, i64) -> (index, index, i64) {
// CHECK:           arith.cmpi sle, %{{.*}}, %[[LIMIT]] : i32
// CHECK:         } do {
// CHECK:           arith.cmpi eq
// CHECK-NEXT:      arith.extui %{{.*}} : i1 to i64
// CHECK:         graph.reduce add %{{.*}}, @by_merge[%src] : !graph.vertex, i64
// binary_search: a loop over dst's list with a lower-bound search in src's
// CHECK:       frontier.edge_traverse PUSH VERTEX_BASED CSR %edges
// CHECK:         %[[A2:.*]], %[[A2_END:.*]] = frontier.edge_range CSR %edges[%src_1] : !graph.edgeset
// CHECK-NEXT:    %[[B2:.*]], %[[B2_END:.*]] = frontier.edge_range CSR %edges[%dst_1] : !graph.edgeset
// CHECK:         scf.while ({{.*}} = %[[B2]], {{.*}} = %[[A2]], {{.*}}) : (index, index, i64) -> (index, index, i64) {
// CHECK:         } do {
// CHECK:           scf.while ({{.*}}, {{.*}} = %[[A2_END]]) : (index, index) -> (index, index) {
// CHECK:             arith.shrui
// CHECK:         graph.reduce add %{{.*}}, @by_search[%src_1] : !graph.vertex, i64

// On the GPU level the lists are the graph's CSR arrays.
// GPU-NOT:     graph.intersect_neighbors
// GPU-NOT:     frontier.neighbor
// GPU:         memref.load %row_ptr
// GPU:         memref.load %col_idx
