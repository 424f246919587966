// Every gir_gpu op round-trips: print -> parse -> print gives the same text, in
// the custom and in the generic syntax.
// RUN: gir-opt %s > %t.1.mlir && gir-opt %t.1.mlir > %t.2.mlir && cmp %t.1.mlir %t.2.mlir
// RUN: gir-opt %s --print-op-generic | gir-opt > %t.3.mlir && cmp %t.1.mlir %t.3.mlir
// RUN: filecheck %s --input-file=%t.1.mlir

// CHECK-LABEL: gir_gpu.kernel @device_ops(%buffer: memref<?xi32>, %reals: memref<?xf32>, %n: i32) {
// CHECK-NEXT:    %tile = gir_gpu.shared_alloc : memref<64xi32, #gir_gpu.workgroup>
// CHECK-NEXT:    %thread = gir_gpu.id thread
// CHECK-NEXT:    %block = gir_gpu.id block
// CHECK-NEXT:    %block_dim = gir_gpu.id block_dim
// CHECK-NEXT:    %grid_dim = gir_gpu.id grid_dim
// CHECK-NEXT:    %gid = gir_gpu.id global
// CHECK-NEXT:    %lane = gir_gpu.id lane
// CHECK-NEXT:    %subgroup = gir_gpu.id subgroup
// CHECK-NEXT:    %width = gir_gpu.id subgroup_size
// CHECK:         gir_gpu.barrier
// CHECK:         %mask = gir_gpu.subgroup_ballot %odd
// CHECK-NEXT:    %offset = gir_gpu.subgroup_exclusive_sum %gid : i32
// CHECK:         %wide = gir_gpu.subgroup_exclusive_sum %gid64 : i64
// CHECK:         %real = gir_gpu.subgroup_exclusive_sum %x : f32
// CHECK-NEXT:    %first = gir_gpu.subgroup_broadcast %offset, %lane : i32
// CHECK-NEXT:    %old = gir_gpu.atomic_rmw add %n, %buffer[%i] : i32, memref<?xi32>, index
// CHECK-NEXT:    %old_1 = gir_gpu.atomic_rmw min %n, %buffer[%i] : i32, memref<?xi32>, index
// CHECK-NEXT:    %old_2 = gir_gpu.atomic_rmw max %n, %buffer[%i] : i32, memref<?xi32>, index
// CHECK-NEXT:    %old_3 = gir_gpu.atomic_rmw exch %n, %buffer[%i] : i32, memref<?xi32>, index
// CHECK-NEXT:    %old_4 = gir_gpu.atomic_rmw or %n, %buffer[%i] : i32, memref<?xi32>, index
// CHECK-NEXT:    %shared_old = gir_gpu.atomic_rmw add %n, %tile[%i] : i32, memref<64xi32, #gir_gpu.workgroup>, index
// CHECK-NEXT:    %cas = gir_gpu.atomic_cas %buffer[%i], %n, %gid : memref<?xi32>, index, i32
// CHECK:         gir_gpu.return
// CHECK-LABEL: func.func @main() {
// CHECK-NEXT:    %graph = gir_gpu.load_graph {argv = 1 : i64}
// CHECK-NEXT:    %file = gir_gpu.load_graph {path = "graph.el", weighted}
// CHECK-NEXT:    %row_ptr = gir_gpu.graph_array %graph row_ptr : memref<?xi32>
// CHECK-NEXT:    %n = gir_gpu.graph_size %graph vertices : i32
// CHECK-NEXT:    %m = gir_gpu.graph_size %graph edges : i32
// CHECK-NEXT:    %buffer = gir_gpu.alloc %n : i32 -> memref<?xi32>
// CHECK-NEXT:    %reals = gir_gpu.alloc %n : i32 -> memref<?xf32>
// CHECK-NEXT:    %copy = gir_gpu.alloc %n : i32 -> memref<?xi32>
// CHECK:         gir_gpu.fill %buffer, %zero, %n : memref<?xi32>, i32, i32
// CHECK-NEXT:    gir_gpu.copy %buffer, %copy, %n : memref<?xi32>, i32
// CHECK-NEXT:    gir_gpu.write %m, %buffer[%zero] : i32, memref<?xi32>, i32
// CHECK-NEXT:    %first = gir_gpu.read %buffer[%zero] : memref<?xi32>, i32 -> i32
// CHECK-NEXT:    gir_gpu.bind_global %copy as "copy" : memref<?xi32>
// CHECK-NEXT:    gir_gpu.launch @device_ops grid %n block %m (%buffer, %reals, %first) : memref<?xi32>, memref<?xf32>, i32
// CHECK-NEXT:    gir_gpu.free %buffer : memref<?xi32>

builtin.module {
  gir_gpu.kernel @device_ops(%buffer: memref<?xi32>, %reals: memref<?xf32>, %n: i32) {
    %tile = gir_gpu.shared_alloc : memref<64xi32, #gir_gpu.workgroup>
    %thread = gir_gpu.id thread
    %block = gir_gpu.id block
    %block_dim = gir_gpu.id block_dim
    %grid_dim = gir_gpu.id grid_dim
    %gid = gir_gpu.id global
    %lane = gir_gpu.id lane
    %subgroup = gir_gpu.id subgroup
    %width = gir_gpu.id subgroup_size
    %i = arith.index_cast %thread : i32 to index
    memref.store %gid, %tile[%i] : memref<64xi32, #gir_gpu.workgroup>
    gir_gpu.barrier
    %c1 = arith.constant 1 : i32
    %bit = arith.andi %gid, %c1 : i32
    %odd = arith.cmpi ne, %bit, %c1 : i32
    %mask = gir_gpu.subgroup_ballot %odd
    %offset = gir_gpu.subgroup_exclusive_sum %gid : i32
    %gid64 = arith.extsi %gid : i32 to i64
    %wide = gir_gpu.subgroup_exclusive_sum %gid64 : i64
    %x = memref.load %reals[%i] : memref<?xf32>
    %real = gir_gpu.subgroup_exclusive_sum %x : f32
    %first = gir_gpu.subgroup_broadcast %offset, %lane : i32
    %old = gir_gpu.atomic_rmw add %n, %buffer[%i] : i32, memref<?xi32>, index
    %old_1 = gir_gpu.atomic_rmw min %n, %buffer[%i] : i32, memref<?xi32>, index
    %old_2 = gir_gpu.atomic_rmw max %n, %buffer[%i] : i32, memref<?xi32>, index
    %old_3 = gir_gpu.atomic_rmw exch %n, %buffer[%i] : i32, memref<?xi32>, index
    %old_4 = gir_gpu.atomic_rmw or %n, %buffer[%i] : i32, memref<?xi32>, index
    %shared_old = gir_gpu.atomic_rmw add %n, %tile[%i] : i32, memref<64xi32, #gir_gpu.workgroup>, index
    %cas = gir_gpu.atomic_cas %buffer[%i], %n, %gid : memref<?xi32>, index, i32
    gir_gpu.return
  }
  func.func @main() {
    %graph = gir_gpu.load_graph {argv = 1 : i64}
    %file = gir_gpu.load_graph {path = "graph.el", weighted}
    %row_ptr = gir_gpu.graph_array %graph row_ptr : memref<?xi32>
    %n = gir_gpu.graph_size %graph vertices : i32
    %m = gir_gpu.graph_size %graph edges : i32
    %buffer = gir_gpu.alloc %n : i32 -> memref<?xi32>
    %reals = gir_gpu.alloc %n : i32 -> memref<?xf32>
    %copy = gir_gpu.alloc %n : i32 -> memref<?xi32>
    %zero = arith.constant 0 : i32
    gir_gpu.fill %buffer, %zero, %n : memref<?xi32>, i32, i32
    gir_gpu.copy %buffer, %copy, %n : memref<?xi32>, i32
    gir_gpu.write %m, %buffer[%zero] : i32, memref<?xi32>, i32
    %first = gir_gpu.read %buffer[%zero] : memref<?xi32>, i32 -> i32
    gir_gpu.bind_global %copy as "copy" : memref<?xi32>
    gir_gpu.launch @device_ops grid %n block %m (%buffer, %reals, %first) : memref<?xi32>, memref<?xf32>, i32
    gir_gpu.free %buffer : memref<?xi32>
    func.return
  }
}
