// Work-group primitives: a shared array written, a barrier, and a uniform loop
// (its bounds come from a kernel argument) around sub-group ballot, exclusive
// sums of every width and broadcasts; lane and sub-group ids.
builtin.module {
  gir_gpu.kernel @workgroup(%in: memref<?xi32>, %out: memref<?xi32>, %wide: memref<?xi64>, %reals: memref<?xf32>, %doubles: memref<?xf64>, %rounds: i32) {
    %tile = gir_gpu.shared_alloc : memref<256xi32, #gir_gpu.workgroup>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %thread = gir_gpu.id thread
    %gid = gir_gpu.id global
    %lane = gir_gpu.id lane
    %warp = gir_gpu.id subgroup
    %width = gir_gpu.id subgroup_size
    %t = arith.index_cast %thread : i32 to index
    %g = arith.index_cast %gid : i32 to index
    %x = memref.load %in[%g] : memref<?xi32>
    memref.store %x, %tile[%t] : memref<256xi32, #gir_gpu.workgroup>
    gir_gpu.barrier
    %sum = scf.for %round = %c0 to %rounds step %c1 iter_args(%acc = %x) -> (i32) : i32 {
      %odd = arith.andi %acc, %c1 : i32
      %set = arith.cmpi ne, %odd, %c0 : i32
      %mask = gir_gpu.subgroup_ballot %set
      %before = gir_gpu.subgroup_exclusive_sum %acc : i32
      %first = gir_gpu.subgroup_broadcast %before, %c0 : i32
      %next = arith.addi %before, %mask : i32
      %next2 = arith.addi %next, %first : i32
      gir_gpu.barrier
      scf.yield %next2 : i32
    }
    %neighbour = memref.load %tile[%t] : memref<256xi32, #gir_gpu.workgroup>
    %both = arith.addi %sum, %neighbour : i32
    %ids = arith.addi %lane, %warp : i32
    %ids2 = arith.addi %ids, %width : i32
    %total = arith.addi %both, %ids2 : i32
    memref.store %total, %out[%g] : memref<?xi32>
    %x64 = arith.extsi %x : i32 to i64
    %s64 = gir_gpu.subgroup_exclusive_sum %x64 : i64
    %b64 = gir_gpu.subgroup_broadcast %s64, %lane : i64
    memref.store %b64, %wide[%g] : memref<?xi64>
    %xf = arith.sitofp %x : i32 to f32
    %sf = gir_gpu.subgroup_exclusive_sum %xf : f32
    %bf = gir_gpu.subgroup_broadcast %sf, %c1 : f32
    memref.store %bf, %reals[%g] : memref<?xf32>
    %xd = arith.sitofp %x : i32 to f64
    %sd = gir_gpu.subgroup_exclusive_sum %xd : f64
    %bd = gir_gpu.subgroup_broadcast %sd, %c1 : f64
    memref.store %bd, %doubles[%g] : memref<?xf64>
    gir_gpu.return
  }
}
