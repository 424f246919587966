// Kernel parameters of every element and scalar type, thread coordinates,
// memref.load / memref.store on bool and i8 buffers, and a barrier.
builtin.module {
  gir_gpu.kernel @signature(%ids: memref<?xi32>, %weights: memref<?xf32>, %visited: memref<?xi1>, %flags: memref<?xi8>, %wide: memref<?xi64>, %dist: memref<?xf64>, %count: i32, %big: i64, %alpha: f32, %beta: f64, %enabled: i1, %tag: i8) {
    %thread = gir_gpu.id thread
    %block = gir_gpu.id block
    %block_dim = gir_gpu.id block_dim
    %grid_dim = gir_gpu.id grid_dim
    %gid32 = gir_gpu.id global
    %gid = arith.index_cast %gid32 : i32 to index
    %t = arith.index_cast %thread : i32 to index
    %b = arith.index_cast %block : i32 to index
    %w = memref.load %weights[%gid] : memref<?xf32>
    %scaled = arith.mulf %w, %alpha : f32
    memref.store %scaled, %weights[%t] : memref<?xf32>
    %seen = memref.load %visited[%gid] : memref<?xi1>
    %now = arith.ori %seen, %enabled : i1
    memref.store %now, %visited[%gid] : memref<?xi1>
    memref.store %tag, %flags[%b] : memref<?xi8>
    %id = memref.load %ids[%gid] : memref<?xi32>
    %sum = arith.addi %block_dim, %grid_dim : i32
    %total = arith.addi %sum, %id : i32
    %wide_total = arith.extsi %total : i32 to i64
    %plus = arith.addi %wide_total, %big : i64
    memref.store %plus, %wide[%gid] : memref<?xi64>
    %d = memref.load %dist[%gid] : memref<?xf64>
    %e = arith.addf %d, %beta : f64
    memref.store %e, %dist[%gid] : memref<?xf64>
    gir_gpu.barrier
    %c = arith.index_cast %count : i32 to index
    memref.store %count, %ids[%c] : memref<?xi32>
    gir_gpu.return
  }
}
