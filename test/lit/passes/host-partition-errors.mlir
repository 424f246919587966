// host-partition refuses a kernel whose writes to one buffer combine in two ways.
// RUN: not gir-opt %s -p host-partition 2>&1 | filecheck %s

builtin.module {
  gir_gpu.kernel @mixed(%col_idx : memref<?xi32>, %dist : memref<?xi32>) {
    %gid = gir_gpu.id global
    %i = arith.index_cast %gid : i32 to index
    %old = gir_gpu.atomic_rmw min %gid, %dist[%i] : i32, memref<?xi32>, index
    memref.store %gid, %dist[%i] : memref<?xi32>
    gir_gpu.return
  }
  func.func @main() {
    %b = arith.constant 256 : i32
    %g = host.load_graph {argv = 1 : i64}
    %n = host.graph_size %g vertices : i32
    %col_idx = host.graph_array %g col_idx : memref<?xi32>
    %dist = host.alloc %n : i32 -> memref<?xi32>
    host.launch @mixed grid %n block %b (%col_idx, %dist) : memref<?xi32>, memref<?xi32>
    func.return
  }
}

// CHECK: host-partition-errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: kernel 'mixed' writes 'dist' in ways that combine differently across devices (claim, min): it cannot run on several devices yet
