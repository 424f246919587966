// RUN: gir-opt %S/Inputs/cta_mapped.mlir -p 'frontier-lower-load-balance{only=CM}' | filecheck %s
// RUN: gir-opt %S/Inputs/cta_mapped.mlir -p 'frontier-lower-load-balance{only=CM},frontier-to-gpu' | filecheck %s --check-prefix=GPU
// RUN: gir-opt %S/Inputs/bfs_cm.gt -p lower-to-gpu | filecheck %s --check-prefix=BFS

// The traversal becomes an edge map: its body is the work of one edge (the
// neighbor and weight of the edge position, the `to` filter, the edge function).
// CHECK:      %out = frontier.edge_map CM CSR %e : !graph.edgeset<i32> from %in : !frontier.queue into %empty : !frontier.queue dedup -> !frontier.queue attributes {label = "s1"} {
// CHECK-NEXT: ^bb0(%src: !graph.vertex, %edge: index):
// CHECK-NEXT:   %dst = frontier.neighbor CSR %e[%edge] : !graph.edgeset<i32>
// CHECK-NEXT:   %weight = frontier.edge_weight CSR %e[%edge] : !graph.edgeset<i32> -> i32
// CHECK-NEXT:   %p = graph.load @parent[%dst] : !graph.vertex -> i32
// CHECK:        scf.if %unvisited {
// CHECK:          %lowered = graph.reduce min %new, @dist[%dst] atomic : !graph.vertex, i32
// CHECK:      frontier.edge_map CM CSR %e : !graph.edgeset<i32> from %all : !frontier.all {
// CHECK-NOT:  frontier.edge_traverse

// The kernel (G2's CM_load_balance): one thread per frontier item; the block
// publishes its items' edge ranges in work-group memory, numbers its edges by a
// block-wide exclusive sum of the degrees, and thread t takes edge numbers t,
// t + 256, ..., each found by binary search over the block's 256 sums.
// GPU-LABEL: gir_gpu.kernel @map_s1(%queue: memref<?xi32>, %row_ptr: memref<?xi32>,
// GPU-SAME:    attributes {gir_gpu.spread_items}
// GPU-DAG:     %[[B:.*]] = arith.constant 256 : i32
// GPU:         %range_vertex = gir_gpu.shared_alloc : memref<256xi32, #gir_gpu.workgroup>
// GPU-NEXT:    %range_begin = gir_gpu.shared_alloc : memref<256xi32, #gir_gpu.workgroup>
// GPU-NEXT:    %range_first = gir_gpu.shared_alloc : memref<256xi32, #gir_gpu.workgroup>
// GPU-NEXT:    %warp_totals = gir_gpu.shared_alloc : memref<8xi32, #gir_gpu.workgroup>
// The blocks share the items evenly, P = min(256, ceil(count / grid)) each, so
// that on a larger grid than count / 256 blocks (a fused loop's) a block takes
// fewer items and its threads fewer edges.
// GPU-NEXT:    %thread = gir_gpu.id thread
// GPU-NEXT:    %[[BID:.*]] = gir_gpu.id block
// GPU-NEXT:    %[[GRIDDIM:.*]] = gir_gpu.id grid_dim
// GPU-NEXT:    %[[BELOW:.*]] = arith.subi %[[COUNT:.*]], %{{.*}} : i32
// GPU-NEXT:    %[[SHARE:.*]] = arith.divsi %[[BELOW]], %[[GRIDDIM]] : i32
// GPU-NEXT:    %[[CEIL:.*]] = arith.addi %[[SHARE]], %{{.*}} : i32
// GPU-NEXT:    %per_block = arith.minsi %[[CEIL]], %[[B]] : i32
// GPU-NEXT:    %[[FIRSTITEM:.*]] = arith.muli %[[BID]], %per_block : i32
// GPU-NEXT:    %gid = arith.addi %[[FIRSTITEM]], %thread : i32
// GPU-NEXT:    %[[MINE:.*]] = arith.cmpi slt, %thread, %per_block : i32
// GPU-NEXT:    %[[IN:.*]] = arith.cmpi slt, %gid, %[[COUNT]] : i32
// GPU-NEXT:    %active = arith.andi %[[MINE]], %[[IN]] : i1
// GPU-NEXT:    %vertex, %begin, %end = scf.if %active -> (i32, i32, i32) {
// GPU:           memref.load %queue
// GPU:         %count = arith.subi %end, %begin : i32
// GPU:         memref.store %vertex, %range_vertex
// GPU-NEXT:    memref.store %begin, %range_begin
// GPU-NEXT:    %rank = gir_gpu.subgroup_exclusive_sum %count : i32
// GPU:         gir_gpu.barrier
// GPU:         %total = gir_gpu.subgroup_broadcast
// GPU-NEXT:    %first = arith.addi %{{.*}}, %rank : i32
// GPU-NEXT:    memref.store %first, %range_first
// GPU-NEXT:    gir_gpu.barrier
// GPU-NEXT:    %[[T:.*]] = gir_gpu.id thread
// GPU-NEXT:    %[[HIGH:.*]] = arith.addi %z, %[[B]] : i32
// GPU-NEXT:    scf.for %[[K:.*]] = %[[T]] to %total step %[[B]] : i32 {
// GPU-NEXT:      %item, %{{.*}} = scf.while (%{{.*}} = %z, %{{.*}} = %[[HIGH]])
// GPU:             memref.load %range_first
// GPU:           %[[OWNER:.*]] = arith.index_cast %item : i32 to index
// GPU-NEXT:      %[[SRC:.*]] = memref.load %range_vertex[%[[OWNER]]]
// GPU-NEXT:      %[[BEGIN:.*]] = memref.load %range_begin[%[[OWNER]]]
// GPU-NEXT:      %[[FIRST:.*]] = memref.load %range_first[%[[OWNER]]]
// GPU-NEXT:      %[[RANK:.*]] = arith.subi %[[K]], %[[FIRST]] : i32
// GPU-NEXT:      %[[POS:.*]] = arith.addi %[[BEGIN]], %[[RANK]] : i32
// GPU-NEXT:      %edge = arith.index_cast %[[POS]] : i32 to index
// GPU-NEXT:      %dst = memref.load %col_idx[%edge] : memref<?xi32>
// GPU-NEXT:      %weight = memref.load %weights[%edge] : memref<?xi32>
// GPU:           gir_gpu.atomic_rmw min
// GPU:         gir_gpu.return

// Over every vertex the item is the thread's vertex.
// GPU-LABEL: gir_gpu.kernel @map_vertices(%num_vertices: i32, %row_ptr: memref<?xi32>,
// GPU:         %{{.*}} = arith.cmpi slt, %gid, %num_vertices : i32

// Host: one thread per item, in blocks of 256.
// GPU-LABEL: func.func @main() {
// GPU:         host.launch @map_s1 grid

// BFS scheduled with configLoadBalance(CM) and configBlockSize(128): the
// block's arrays hold 128 ranges; the parent claim is a CAS since the block
// shares a source; one thread per item of the wave.
// BFS-LABEL: gir_gpu.kernel @map_search_expand(%wave_size: i32,
// BFS:         %range_first = gir_gpu.shared_alloc : memref<128xi32, #gir_gpu.workgroup>
// BFS:         %warp_totals = gir_gpu.shared_alloc : memref<4xi32, #gir_gpu.workgroup>
// BFS:         scf.for %{{.*}} = %{{.*}} to %total step %{{.*}} : i32 {
// BFS:           gir_gpu.atomic_cas %pred
// BFS-LABEL: func.func @main() {
// BFS:         %[[BLOCKS:.*]] = arith.divsi %{{.*}}, %[[BLOCK:.*]] : i32
// BFS-NEXT:    %[[GRID:.*]] = arith.maxsi %[[BLOCKS]], %{{.*}} : i32
// BFS-NEXT:    host.launch @map_search_expand grid %[[GRID]] block %[[BLOCK]] (%wave_size_1,
