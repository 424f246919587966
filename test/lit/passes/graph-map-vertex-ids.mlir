// RUN: gir-opt %s -p graph-map-vertex-ids | filecheck %s
// RUN: sed 's/, reorder = "DEGREE"//' %s | gir-opt -p graph-map-vertex-ids | filecheck %s --check-prefix=PLAIN

// In a reordered program, the command-line integers used as vertices become
// vertex arguments (an index of a vertex vector, a vertex added to a set, a
// priority queue's start), and the vertex vectors written with vertex ids (of
// a vertex, a vertex argument, or read from such a vector) hold vertex values.
// A count read from argv, a vector of distances and a fixed-size vector stay
// as they were. Without `reorder` nothing changes.

builtin.module {
  graph.global @parent : !graph.vector<i32>
  graph.global @label : !graph.vector<i32>
  graph.global @copy : !graph.vector<i32>
  graph.global @dist : !graph.vector<i32>
  graph.global @flag : !graph.vector<1 x i32>
  graph.global @saved : !graph.vector<i32>
  func.func @claim(%u: !graph.vertex, %w: !graph.vertex) {
    %0 = graph.vertex_id %u : i32
    graph.store %0, @parent[%w] : !graph.vertex, i32
    %1 = graph.load @label[%u] : !graph.vertex -> i32
    graph.reduce min %1, @copy[%w] : !graph.vertex, i32
    func.return
  }
  func.func @main() {
    %links = graph.load_edges {argv = 1 : i64, reorder = "DEGREE"} : !graph.edgeset
    %root = graph.argv_int argv[2] : i32
    %other = graph.argv_int argv[3] : i32
    %count = graph.argv_int argv[4] : i32
    %seed = graph.argv_int argv[5] : i32
    %set = graph.vertexset_new %count : i32
    graph.add_vertex %set, %other : i32
    graph.store %root, @label[%root] : i32, i32
    graph.store %count, @dist[%seed] : i32, i32
    %c0 = arith.constant 0 : i32
    graph.store %count, @flag[%c0] : i32, i32
    graph.vector_copy @saved, @copy
    func.return
  }
}

// CHECK:      graph.global @parent : !graph.vector<i32> vertex_values
// CHECK-NEXT: graph.global @label : !graph.vector<i32> vertex_values
// CHECK-NEXT: graph.global @copy : !graph.vector<i32> vertex_values
// CHECK-NEXT: graph.global @dist : !graph.vector<i32>{{$}}
// CHECK-NEXT: graph.global @flag : !graph.vector<1 x i32>{{$}}
// CHECK-NEXT: graph.global @saved : !graph.vector<i32> vertex_values
// CHECK:      %root = graph.argv_int argv[2] vertex : i32
// CHECK-NEXT: %other = graph.argv_int argv[3] vertex : i32
// CHECK-NEXT: %count = graph.argv_int argv[4] : i32
// CHECK-NEXT: %seed = graph.argv_int argv[5] vertex : i32

// PLAIN-NOT: vertex_values
// PLAIN-NOT: vertex :
