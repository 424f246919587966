// The blocked graph arrays (edge blocking) take their blocking size and round-trip,
// also through the generic form.
// RUN: gir-opt %s > %t.1 && gir-opt -f mlir %t.1 > %t.2 && cmp %t.1 %t.2
// RUN: gir-opt %s --print-op-generic | gir-opt -f mlir > %t.3 && cmp %t.1 %t.3
// RUN: filecheck %s --check-prefix=OPS < %t.1

builtin.module {
  func.func @main() {
    %g = host.load_graph {argv = 1 : i64, weighted}
    %offsets = host.graph_array %g block_offsets {blocking_size = 1024 : i64} : memref<?xi32>
    %src = host.graph_array %g blocked_src {blocking_size = 1024 : i64} : memref<?xi32>
    %dst = host.graph_array %g blocked_dst {blocking_size = 1024 : i64} : memref<?xi32>
    %weights = host.graph_array %g blocked_weights {blocking_size = 1024 : i64} : memref<?xf32>
    func.return
  }
}
// OPS:      %offsets = host.graph_array %g block_offsets {blocking_size = 1024 : i64} : memref<?xi32>
// OPS-NEXT: %src = host.graph_array %g blocked_src {blocking_size = 1024 : i64} : memref<?xi32>
// OPS-NEXT: %dst = host.graph_array %g blocked_dst {blocking_size = 1024 : i64} : memref<?xi32>
// OPS-NEXT: %weights = host.graph_array %g blocked_weights {blocking_size = 1024 : i64} : memref<?xf32>
