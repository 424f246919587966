// RUN: gir-opt %s -p frontier-host-setup,frontier-lower-device-ops | filecheck %s

// The CSC layout (registered for frontier-lower-device-ops): a vertex's in-edges
// are read from the transpose's arrays, csc_ptr / csc_idx / csc_weights.
builtin.module {
  graph.global @sum : !graph.vector<i32>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset<i32>
    %z = arith.constant 0 : i32
    graph.vector_fill @sum, %z : i32
    %all = frontier.all_vertices : !frontier.all
    frontier.vertex_map %all : !frontier.all attributes {label = "gather"} {
    ^bb0(%dst : !graph.vertex):
      %begin, %end = frontier.edge_range CSC %e[%dst] : !graph.edgeset<i32>
      %one = arith.constant 1 : index
      scf.for %i = %begin to %end step %one {
        %src = frontier.neighbor CSC %e[%i] : !graph.edgeset<i32>
        %w = frontier.edge_weight CSC %e[%i] : !graph.edgeset<i32> -> i32
        %s = graph.reduce add %w, @sum[%dst] : !graph.vertex, i32
      }
      frontier.yield
    }
    func.return
  }
}

// CHECK:      %csc_ptr = host.graph_array %{{.*}} csc_ptr {setup} : memref<?xi32>
// CHECK:      %csc_idx = host.graph_array %{{.*}} csc_idx {setup} : memref<?xi32>
// CHECK:      %csc_weights = host.graph_array %{{.*}} csc_weights {setup} : memref<?xi32>
// CHECK:      frontier.vertex_map %all : !frontier.all
// CHECK:        %[[ROW:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK:        %{{.*}} = memref.load %csc_ptr[%[[ROW]]] : memref<?xi32>
// CHECK:        %{{.*}} = memref.load %csc_ptr[%{{.*}}] : memref<?xi32>
// CHECK:        scf.for %i = %begin to %end step %one {
// CHECK-NEXT:     %src = memref.load %csc_idx[%i] : memref<?xi32>
// CHECK:          %w = memref.load %csc_weights[%i] : memref<?xi32>
// CHECK-NOT:    row_ptr
