// graph.intersect_neighbors round-trips (print -> parse -> print is identical),
// with a vertex or an integer id for either endpoint and either registered method.
// RUN: gir-opt %s | filecheck %s
// RUN: gir-opt %s | gir-opt | filecheck %s

builtin.module {
  graph.global @edges : !graph.edgeset
  graph.global @counts : !graph.vector<i64> unsigned
  func.func @count(%src : !graph.vertex, %dst : !graph.vertex) {
    %e = graph.global_load @edges : !graph.edgeset
    %n = graph.intersect_neighbors "merge" %e[%src, %dst] : !graph.edgeset, !graph.vertex, !graph.vertex -> i64
    %id = graph.vertex_id %dst : i32
    %m = graph.intersect_neighbors "binary_search" %e[%src, %id] : !graph.edgeset, !graph.vertex, i32 -> i32
    %c = graph.reduce add %n, @counts[%src] : !graph.vertex, i64
    func.return
  }
}

// CHECK:      %n = graph.intersect_neighbors "merge" %e[%src, %dst] : !graph.edgeset, !graph.vertex, !graph.vertex -> i64
// CHECK:      %m = graph.intersect_neighbors "binary_search" %e[%src, %id] : !graph.edgeset, !graph.vertex, i32 -> i32
