// The verifier wants a blocking size exactly on the blocked graph arrays.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ERR

builtin.module {
  func.func @main() {
    %g = host.load_graph {argv = 1 : i64}
    %src = host.graph_array %g blocked_src : memref<?xi32>
    func.return
  }
}
// ERR: host.graph_array: blocked_src needs a blocking_size

// -----

builtin.module {
  func.func @main() {
    %g = host.load_graph {argv = 1 : i64}
    %col = host.graph_array %g col_idx {blocking_size = 1024 : i64} : memref<?xi32>
    func.return
  }
}
// ERR: host.graph_array: col_idx takes no blocking_size

// -----

builtin.module {
  func.func @main() {
    %g = host.load_graph {argv = 1 : i64}
    %src = host.graph_array %g blocked_src {blocking_size = 0 : i64} : memref<?xi32>
    func.return
  }
}
// ERR: host.graph_array: blocking_size must be in [1, 2^31-1]

// -----

builtin.module {
  func.func @main() {
    %g = host.load_graph {argv = 1 : i64}
    %offsets = host.graph_array %g block_offsets {blocking_size = 8 : i64} : memref<?xf32>
    func.return
  }
}
// ERR: host.graph_array: block_offsets is memref<?xi32> (the module's edge index type), not memref<?xf32>
