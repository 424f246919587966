// Every gir_gpu op round-trips (the host dialect's ops have their own tests): print -> parse -> print gives the same text, in
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
// CHECK:         host.launch @device_ops grid %n block %n (%buffer, %reals, %n) : memref<?xi32>, memref<?xf32>, i32
// CHECK-NEXT:    gir_gpu.exclusive_scan %buffer, %offsets, %n : memref<?xi32>, memref<?xi32>, i32
// CHECK-NEXT:    gir_gpu.exclusive_scan %wide, %wide, %n : memref<?xi64>, memref<?xi64>, i32
// CHECK:         scf.if %flag {
// CHECK-NEXT:      gir_gpu.exclusive_scan %buffer, %buffer, %n : memref<?xi32>, memref<?xi32>, i32

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
    %n = host.argv_int argv[1] : i32
    %buffer = host.alloc %n : i32 -> memref<?xi32>
    %reals = host.alloc %n : i32 -> memref<?xf32>
    %offsets = host.alloc %n : i32 -> memref<?xi32>
    %wide = host.alloc %n : i32 -> memref<?xi64>
    host.launch @device_ops grid %n block %n (%buffer, %reals, %n) : memref<?xi32>, memref<?xf32>, i32
    gir_gpu.exclusive_scan %buffer, %offsets, %n : memref<?xi32>, memref<?xi32>, i32
    gir_gpu.exclusive_scan %wide, %wide, %n : memref<?xi64>, memref<?xi64>, i32
    %c0 = arith.constant 0 : i32
    %flag = arith.cmpi sgt, %n, %c0 : i32
    scf.if %flag {
      gir_gpu.exclusive_scan %buffer, %buffer, %n : memref<?xi32>, memref<?xi32>, i32
    }
    func.return
  }
}
