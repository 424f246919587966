// Invalid reorderings: one diagnostic per chunk.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s

builtin.module {
  func.func @main() {
    %g = host.load_graph {argv = 1 : i64, reorder = "SIDEWAYS"}
    func.return
  }
}
// CHECK: host.load_graph: unknown reordering 'SIDEWAYS', expected one of DEGREE, HUB_CLUSTER, DEGREE_GROUP, RCM

// -----

builtin.module {
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64, reorder = "degree"} : !graph.edgeset
    func.return
  }
}
// CHECK: graph.load_edges: unknown reordering 'degree', expected one of DEGREE, HUB_CLUSTER, DEGREE_GROUP, RCM

// -----

builtin.module {
  func.func @main() {
    %x = host.argv_int argv[2] vertex : f64
    func.return
  }
}
// CHECK: host.argv_int: a vertex argument is an integer
