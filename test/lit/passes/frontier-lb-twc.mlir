// RUN: sed 's/EDGE_ONLY/TWC/g' %S/Inputs/edge_only.mlir | gir-opt -p 'frontier-lower-load-balance{only=TWC}' | filecheck %s
// RUN: sed 's/EDGE_ONLY/TWC/g' %S/Inputs/edge_only.mlir | gir-opt -p 'frontier-lower-load-balance{only=TWC},frontier-to-gpu' | filecheck %s --check-prefix=GPU
// RUN: sed 's/EDGE_ONLY/TWC/g; s/label = "s1"/label = "s1", block_size = 1024 : i32/' %S/Inputs/edge_only.mlir | gir-opt -p 'frontier-lower-load-balance{only=TWC},frontier-to-gpu' | filecheck %s --check-prefix=B1024

// The traversal becomes an edge map whose body is the work of one edge.
// CHECK:      %out = frontier.edge_map TWC CSR %e : !graph.edgeset<i32> from %in : !frontier.queue into %empty : !frontier.queue dedup -> !frontier.queue attributes {label = "s1"} {
// CHECK-NEXT: ^bb0(%src: !graph.vertex, %edge: index):
// CHECK-NEXT:   %dst = frontier.neighbor CSR %e[%edge] : !graph.edgeset<i32>
// CHECK:      frontier.edge_map TWC CSR %e : !graph.edgeset<i32> from %all : !frontier.all {
// CHECK-NOT:  frontier.edge_traverse

// One kernel, one thread per frontier item; the block and warp queues are
// work-group arrays sized by the block (256).
// GPU-LABEL: gir_gpu.kernel @map_s1(
// GPU:         %queued = gir_gpu.shared_alloc : memref<2xi32, #gir_gpu.workgroup>
// GPU-COUNT-6: gir_gpu.shared_alloc : memref<256xi32, #gir_gpu.workgroup>
// GPU-NOT:     gir_gpu.shared_alloc
// Threads past the frontier get an empty edge range; the barriers sit at the
// kernel's top level, reached by every thread.
// GPU:         %vertex, %begin, %end = scf.if %active -> (i32, i32, i32) {
// GPU:         } else {
// GPU-NEXT:      scf.yield %z, %z, %z : i32, i32, i32
// GPU-NEXT:    }
// GPU:         {{^    }}gir_gpu.barrier
// The tiers by degree: >= 256 to the block queue, [32, 256) to the warp queue.
// GPU-NEXT:    %degree = arith.subi %end, %begin : i32
// GPU-NEXT:    %large = arith.cmpi sge, %degree, %[[B:.*]] : i32
// GPU-NEXT:    scf.if %large {
// GPU-NEXT:      arith.index_cast
// GPU-NEXT:      %slot = gir_gpu.atomic_rmw add %{{.*}}, %queued[%{{.*}}] : i32, memref<2xi32, #gir_gpu.workgroup>, index
// GPU:           memref.store %end, %block_end[%{{.*}}]
// GPU:         %wide = arith.cmpi sge, %degree, %[[WARP_SIZE:.*]] : i32
// GPU-NEXT:    %small = arith.xori %wide, %{{.*}} : i1
// GPU-NEXT:    %medium = arith.xori %wide, %large : i1
// GPU-NEXT:    scf.if %medium {
// GPU:           memref.store %end, %warp_end[%{{.*}}]
// GPU:         {{^    }}gir_gpu.barrier
// Block tier: all threads stride by 256 over each entry's edges.
// GPU-NEXT:    arith.index_cast
// GPU-NEXT:    %block_entries = memref.load %queued[%{{.*}}]
// GPU:         scf.for %{{.*}} = %z to %block_entries step %{{.*}} : i32 {
// GPU:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[B]] : i32 {
// GPU:             %dst = memref.load %col_idx[%edge] : memref<?xi32>
// Warp tier: warp w takes entries w, w + 8, ...; its lanes stride by 32.
// GPU:         %warp_entries = memref.load %queued[%{{.*}}]
// GPU-NEXT:    %[[WARP:.*]] = gir_gpu.id subgroup
// GPU-NEXT:    %[[LANE:.*]] = gir_gpu.id lane
// GPU-NEXT:    scf.for %{{.*}} = %[[WARP]] to %warp_entries step %{{.*}} : i32 {
// GPU:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[WARP_SIZE]] : i32 {
// GPU:             %dst_1 = memref.load %col_idx[%edge_1] : memref<?xi32>
// Thread tier: degree below 32, the thread walks its own edges.
// GPU:         %own_end = arith.select %small, %end, %begin : i32
// GPU-NEXT:    scf.for %{{.*}} = %begin to %own_end step %{{.*}} : i32 {
// GPU:           %dst_2 = memref.load %col_idx[%edge_2] : memref<?xi32>
// GPU:         gir_gpu.return
// GPU-LABEL: gir_gpu.kernel @map_vertices(
// GPU-LABEL: func.func @main()
// GPU:         host.launch @map_s1 grid %{{.*}} block %{{.*}} (

// At 1024 threads per block the queues hold 1024 entries.
// B1024-LABEL: gir_gpu.kernel @map_s1(
// B1024-COUNT-6: gir_gpu.shared_alloc : memref<1024xi32, #gir_gpu.workgroup>
// B1024:         %large = arith.cmpi sge, %degree, %[[B:.*]] : i32
// B1024:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[B]] : i32 {
