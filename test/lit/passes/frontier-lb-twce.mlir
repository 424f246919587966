// RUN: sed 's/EDGE_ONLY/TWCE/g' %S/Inputs/edge_only.mlir | gir-opt -p 'frontier-lower-load-balance{only=TWCE}' | filecheck %s
// RUN: sed 's/EDGE_ONLY/TWCE/g' %S/Inputs/edge_only.mlir | gir-opt -p 'frontier-lower-load-balance{only=TWCE},frontier-to-gpu' | filecheck %s --check-prefix=GPU
// RUN: sed 's/EDGE_ONLY/TWCE/g; s/label = "s1"/label = "s1", block_size = 32 : i32/' %S/Inputs/edge_only.mlir | gir-opt -p 'frontier-lower-load-balance{only=TWCE},frontier-to-gpu' | filecheck %s --check-prefix=B32

// The traversal becomes an edge map whose body is the work of one edge.
// CHECK:      %out = frontier.edge_map TWCE CSR %e : !graph.edgeset<i32> from %in : !frontier.queue into %empty : !frontier.queue dedup -> !frontier.queue attributes {label = "s1"} {
// CHECK-NEXT: ^bb0(%src: !graph.vertex, %edge: index):
// CHECK-NEXT:   %dst = frontier.neighbor CSR %e[%edge] : !graph.edgeset<i32>
// CHECK:      frontier.edge_map TWCE CSR %e : !graph.edgeset<i32> from %all : !frontier.all {
// CHECK-NOT:  frontier.edge_traverse

// One kernel, one thread per frontier item. Work-group arrays sized by the
// block (256): the block and warp queues, the remainders, the warp totals.
// GPU-LABEL: gir_gpu.kernel @map_s1(
// GPU:         %queued = gir_gpu.shared_alloc : memref<2xi32, #gir_gpu.workgroup>
// GPU-COUNT-9: gir_gpu.shared_alloc : memref<256xi32, #gir_gpu.workgroup>
// GPU-NEXT:    %warp_totals = gir_gpu.shared_alloc : memref<8xi32, #gir_gpu.workgroup>
// Threads past the frontier get an empty edge range, so every thread runs the
// barriers, which sit at the kernel's top level.
// GPU:         %vertex, %begin, %end = scf.if %active -> (i32, i32, i32) {
// GPU:         } else {
// GPU-NEXT:      scf.yield %z, %z, %z : i32, i32, i32
// GPU-NEXT:    }
// GPU:         {{^    }}gir_gpu.barrier
// The split: a multiple of 256 edges for the block, then of 32 for a warp.
// GPU:         %[[SIZE:.*]] = arith.subi %end, %begin : i32
// GPU-NEXT:    %[[BLOCK_PART:.*]] = arith.andi %[[SIZE]], %{{.*}} : i32
// GPU-NEXT:    %[[WARP_BEGIN:.*]] = arith.addi %begin, %[[BLOCK_PART]] : i32
// GPU-NEXT:    %[[REST:.*]] = arith.subi %[[SIZE]], %[[BLOCK_PART]] : i32
// GPU-NEXT:    %[[WARP_PART:.*]] = arith.andi %[[REST]], %{{.*}} : i32
// GPU-NEXT:    %remainder_begin = arith.addi %[[WARP_BEGIN]], %[[WARP_PART]] : i32
// GPU:           %slot = gir_gpu.atomic_rmw add %{{.*}}, %queued[%{{.*}}] : i32, memref<2xi32, #gir_gpu.workgroup>, index
// GPU:           memref.store %[[WARP_BEGIN]], %block_end[%{{.*}}]
// GPU:           %slot_1 = gir_gpu.atomic_rmw add
// GPU:           memref.store %remainder_begin, %warp_end[%{{.*}}]
// The remainders' block-wide numbering: sub-group sums and a barrier.
// GPU:         %count = arith.subi %end, %remainder_begin : i32
// GPU:         {{^    }}%rank = gir_gpu.subgroup_exclusive_sum %count : i32
// GPU:         {{^    }}gir_gpu.barrier
// GPU:         {{^    }}%{{.*}} = gir_gpu.subgroup_exclusive_sum
// GPU:         {{^    }}%total = gir_gpu.subgroup_broadcast %{{.*}}, %{{.*}} : i32
// GPU:         {{^    }}gir_gpu.barrier
// Stage 1: every block-queue entry, all threads striding by 256.
// GPU:         %block_entries = memref.load %queued[%{{.*}}]
// GPU:         scf.for %[[I:.*]] = %z to %block_entries step %{{.*}} : i32 {
// GPU:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[B:.*]] : i32 {
// GPU:             %dst = memref.load %col_idx[%edge] : memref<?xi32>
// Stage 2: warp w takes entries w, w + 8, ...; its lanes stride by 32.
// GPU:         %warp_entries = memref.load %queued[%{{.*}}]
// GPU:         %[[WARP:.*]] = gir_gpu.id subgroup
// GPU:         scf.for %{{.*}} = %[[WARP]] to %warp_entries step %{{.*}} : i32 {
// GPU:             %dst_1 = memref.load %col_idx[%edge_1] : memref<?xi32>
// Stage 3: the remainder edges, evenly; each finds its owner by binary search.
// GPU:         scf.for %[[K:.*]] = %{{.*}} to %total step %[[B]] : i32 {
// GPU-NEXT:      %item, %{{.*}} = scf.while
// GPU:             memref.load %range_first[%{{.*}}] : memref<256xi32, #gir_gpu.workgroup>
// GPU:           %dst_2 = memref.load %col_idx[%edge_2] : memref<?xi32>
// GPU:         gir_gpu.return
// GPU-LABEL: gir_gpu.kernel @map_vertices(

// At 32 threads per block the arrays shrink and one warp total remains.
// B32-LABEL: gir_gpu.kernel @map_s1(
// B32-COUNT-9: gir_gpu.shared_alloc : memref<32xi32, #gir_gpu.workgroup>
// B32-NEXT:    %warp_totals = gir_gpu.shared_alloc : memref<1xi32, #gir_gpu.workgroup>
// B32-LABEL: func.func @main()
// B32:         host.launch @map_s1 grid %{{.*}} block %{{.*}} (
