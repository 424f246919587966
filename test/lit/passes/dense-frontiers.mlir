// RUN: gir-opt %S/Inputs/dense_frontier.mlir -p frontier-to-gpu | filecheck %s

// The bitmap and boolmap representations (gir/passes/representations/bitmap.py,
// boolmap.py) as frontier-to-gpu lowers them.

// addVertex on a bitmap: a one-thread kernel sets the vertex's bit atomically.
// CHECK-LABEL: gir_gpu.kernel @frontier_bitmap_add(%storage: memref<?xi32>, %vertex: i32, %count: i32)
// CHECK:         arith.shrsi %vertex
// CHECK:         gir_gpu.atomic_rmw or %{{.*}}, %storage[%{{.*}}] : i32, memref<?xi32>, index

// The size of a boolmap: a thread per vertex tests its membership, a block-level
// sum (sub-group sums, the warps' totals in work-group memory, a barrier), and
// one atomic add per block.
// CHECK-LABEL: gir_gpu.kernel @frontier_boolmap_size(%num_vertices: i32, %{{.*}}: memref<?xi8>, %members: memref<?xi32>)
// CHECK:         %warp_totals = gir_gpu.shared_alloc : memref<8xi32, #gir_gpu.workgroup>
// CHECK:         %[[MEMBER:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK:           arith.extui
// CHECK:         gir_gpu.subgroup_exclusive_sum %[[MEMBER]] : i32
// CHECK:         gir_gpu.barrier
// CHECK:         %total = gir_gpu.subgroup_broadcast
// CHECK:         %[[THREAD:.*]] = gir_gpu.id thread
// CHECK:         scf.if
// CHECK-NEXT:      arith.index_cast
// CHECK-NEXT:      gir_gpu.atomic_rmw add %total, %members
// CHECK-NOT:     gir_gpu.atomic_rmw
// CHECK:         gir_gpu.return

// boolmap -> queue in one kernel: a block-level exclusive sum ranks the
// members, thread 0 reserves the block's slots with one atomic add and shares
// the base through work-group memory, members store at base + rank.
// CHECK-LABEL: gir_gpu.kernel @compact_boolmap(
// CHECK:         %block_base = gir_gpu.shared_alloc : memref<1xi32, #gir_gpu.workgroup>
// CHECK:         %[[FLAG:.*]] = arith.extui %{{.*}} : i1 to i32
// CHECK:         gir_gpu.subgroup_exclusive_sum %[[FLAG]] : i32
// CHECK:         gir_gpu.barrier
// CHECK:         %total = gir_gpu.subgroup_broadcast
// CHECK:         %first = arith.addi
// CHECK:         scf.if
// CHECK:           %[[BASE:.*]] = gir_gpu.atomic_rmw add %total, %compact_size
// CHECK:           memref.store %[[BASE]], %block_base
// CHECK:         gir_gpu.barrier
// CHECK:         scf.if
// CHECK:           %base = memref.load %block_base
// CHECK:           arith.addi %base, %first : i32
// CHECK:           memref.store %gid, %queue[%{{.*}}] : memref<?xi32>

// queue -> bitmap: a thread per queue item sets its bit.
// CHECK-LABEL: gir_gpu.kernel @convert_queue_to_bitmap(%size: i32, %queue: memref<?xi32>, %words: memref<?xi32>)
// CHECK:         %vertex = memref.load %queue
// CHECK:         gir_gpu.atomic_rmw or

// A vertex map over a bitmap: a thread per vertex, non-members skip the body;
// frontier.contains tests the bit; enqueueing into a boolmap stores a 1.
// CHECK-LABEL: gir_gpu.kernel @map_step(%num_vertices: i32, %words: memref<?xi32>, %seen: memref<?xi32>, %flags: memref<?xi8>)
// CHECK:         %[[HELD:.*]] = arith.cmpi ne, %{{.*}}, %z : i32
// CHECK-NEXT:    scf.if %[[HELD]] {
// CHECK:           %in = arith.cmpi ne
// CHECK:           memref.store %{{.*}}, %flags[%{{.*}}] : memref<?xi8>

// CHECK-LABEL: func.func @main()
// CHECK:         %bitmap_words = arith.divsi
// CHECK:         %words = host.alloc %bitmap_words : i32 -> memref<?xi32>
// CHECK-NEXT:    host.fill %words, %{{.*}}, %bitmap_words
// CHECK:         %flags = host.alloc %num_vertices : i32 -> memref<?xi8>
// CHECK:         host.launch @map_step
// CHECK:         %size = host.read %members
// CHECK:         host.write %{{.*}}, %compact_size
// CHECK:         host.launch @compact_boolmap
// CHECK:         %size_1 = host.read %compact_size
// CHECK:         host.launch @convert_queue_to_bitmap
// CHECK:         host.free %words : memref<?xi32>
// CHECK-NEXT:    host.free %flags : memref<?xi8>
