// The program's exchange format (`gir.exchange_format`, which
// `program->configExchange(NAME)` sets) gives every all-reduce that format,
// against a clone; the pass's own `exchange=` option wins over it.
// RUN: gir-opt %s -p host-partition | filecheck %s
// RUN: gir-opt %s -p 'host-partition{exchange=dense}' | filecheck %s --check-prefix=OPTION

builtin.module attributes {gir.exchange_format = "pairs"} {
  gir_gpu.kernel @relax(%row_ptr : memref<?xi32>, %col_idx : memref<?xi32>, %dist : memref<?xi32>) {
    %gid = gir_gpu.id global
    %i = arith.index_cast %gid : i32 to index
    %dst = memref.load %col_idx[%i] : memref<?xi32>
    %d = arith.index_cast %dst : i32 to index
    %old = gir_gpu.atomic_rmw min %gid, %dist[%d] : i32, memref<?xi32>, index
    gir_gpu.return
  }
  func.func @main() {
    %g = host.load_graph {argv = 1 : i64}
    %row_ptr = host.graph_array %g row_ptr : memref<?xi32>
    %col_idx = host.graph_array %g col_idx : memref<?xi32>
    %n = host.graph_size %g vertices : i32
    %dist = host.alloc %n : i32 -> memref<?xi32>
    %b = arith.constant 256 : i32
    host.launch @relax grid %n block %b (%row_ptr, %col_idx, %dist) : memref<?xi32>, memref<?xi32>, memref<?xi32>
    func.return
  }
}

// CHECK:      %[[BASE:.*]] = host.clone %dist : memref<?xi32>
// CHECK-NEXT: host.launch @relax
// CHECK-NEXT: host.allreduce %dist min base %[[BASE]] exchange pairs : memref<?xi32>
// CHECK-NEXT: host.free %[[BASE]] : memref<?xi32>

// OPTION-NOT: host.clone
// OPTION:     host.launch @relax
// OPTION-NEXT: host.allreduce %dist min : memref<?xi32>
