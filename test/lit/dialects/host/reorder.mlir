// A reordered graph's host ops round-trip: the load's ordering, vertex
// arguments and the bindings of vertex vectors.
// RUN: gir-opt %s | filecheck %s
// RUN: gir-opt %s | gir-opt | filecheck %s

builtin.module {
  func.func @main() {
    %g = host.load_graph {argv = 1 : i64, reorder = "RCM"}
    %n = host.graph_size %g vertices : i32
    %root = host.argv_int argv[2] vertex : i32
    %parent = host.alloc %n : i32 -> memref<?xi32>
    host.bind_global %parent as "parent" vertex_indexed vertex_values : memref<?xi32>
    %rank = host.alloc %n : i32 -> memref<?xf32>
    host.bind_global %rank as "rank" vertex_indexed : memref<?xf32>
    func.return
  }
}

// CHECK:      %g = host.load_graph {argv = 1 : i64, reorder = "RCM"}
// CHECK:      %root = host.argv_int argv[2] vertex : i32
// CHECK:      host.bind_global %parent as "parent" vertex_indexed vertex_values : memref<?xi32>
// CHECK:      host.bind_global %rank as "rank" vertex_indexed : memref<?xf32>
