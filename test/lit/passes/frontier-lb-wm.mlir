// RUN: gir-opt %S/Inputs/warp_mapped.mlir -p 'frontier-lower-load-balance{only=WM}' | filecheck %s
// RUN: gir-opt %S/Inputs/warp_mapped.mlir -p 'frontier-lower-load-balance{only=WM},frontier-to-gpu' | filecheck %s --check-prefix=GPU
// RUN: gir-opt %S/Inputs/bfs_wm.gt -p lower-to-gpu | filecheck %s --check-prefix=BFS

// The traversal becomes an edge map: its body is the work of one edge (the
// neighbor and weight of the edge position, the `to` filter, the edge function).
// CHECK:      %out = frontier.edge_map WM CSR %e : !graph.edgeset<i32> from %in : !frontier.queue into %empty : !frontier.queue dedup -> !frontier.queue attributes {label = "s1"} {
// CHECK-NEXT: ^bb0(%src: !graph.vertex, %edge: index):
// CHECK-NEXT:   %dst = frontier.neighbor CSR %e[%edge] : !graph.edgeset<i32>
// CHECK-NEXT:   %weight = frontier.edge_weight CSR %e[%edge] : !graph.edgeset<i32> -> i32
// CHECK-NEXT:   %p = graph.load @parent[%dst] : !graph.vertex -> i32
// CHECK:        scf.if %unvisited {
// CHECK:          %lowered = graph.reduce min %new, @dist[%dst] atomic : !graph.vertex, i32
// CHECK:      frontier.edge_map WM CSR %e : !graph.edgeset<i32> from %all : !frontier.all {
// CHECK-NOT:  frontier.edge_traverse

// The kernel (G2's WM_load_balance): one thread per frontier item; each warp
// numbers its 32 items' edges by a sub-group exclusive sum of the degrees, and
// lane l takes edge numbers l, l + 32, ..., each found by binary search over the
// warp's 32 sums (work-group slots [32 w, 32 w + 32)). No warp_totals array:
// warps do not share.
// GPU-LABEL: gir_gpu.kernel @map_s1(%queue: memref<?xi32>, %row_ptr: memref<?xi32>,
// GPU-DAG:     %[[W:.*]] = arith.constant 32 : i32
// GPU-DAG:     %[[LAST:.*]] = arith.constant 31 : i32
// GPU:         %range_vertex = gir_gpu.shared_alloc : memref<256xi32, #gir_gpu.workgroup>
// GPU-NEXT:    %range_begin = gir_gpu.shared_alloc : memref<256xi32, #gir_gpu.workgroup>
// GPU-NEXT:    %range_first = gir_gpu.shared_alloc : memref<256xi32, #gir_gpu.workgroup>
// GPU-NOT:     warp_totals
// GPU:         %count = arith.subi %end, %begin : i32
// GPU:         %first = gir_gpu.subgroup_exclusive_sum %count : i32
// GPU-NEXT:    %[[THROUGH:.*]] = arith.addi %first, %count : i32
// GPU-NEXT:    %total = gir_gpu.subgroup_broadcast %[[THROUGH]], %[[LAST]] : i32
// GPU-NEXT:    memref.store %first, %range_first
// GPU-NEXT:    gir_gpu.barrier
// GPU-NEXT:    %[[LANE:.*]] = gir_gpu.id lane
// GPU-NEXT:    %[[WARP:.*]] = gir_gpu.id subgroup
// GPU-NEXT:    %warp_base = arith.muli %[[WARP]], %[[W]] : i32
// GPU-NEXT:    %[[HIGH:.*]] = arith.addi %warp_base, %[[W]] : i32
// GPU-NEXT:    scf.for %[[K:.*]] = %[[LANE]] to %total step %[[W]] : i32 {
// GPU-NEXT:      %item, %{{.*}} = scf.while (%{{.*}} = %warp_base, %{{.*}} = %[[HIGH]])
// GPU:           %edge = arith.index_cast
// GPU-NEXT:      %dst = memref.load %col_idx[%edge] : memref<?xi32>
// GPU:           gir_gpu.atomic_rmw min
// GPU:         gir_gpu.return

// Host: one thread per item, in blocks of 256.
// GPU-LABEL: func.func @main() {
// GPU:         host.launch @map_s1 grid

// BFS scheduled with configLoadBalance(WM): the parent claim is a CAS since the
// warp shares a source.
// BFS-LABEL: gir_gpu.kernel @map_search_expand(%wave_size: i32,
// BFS:         %first = gir_gpu.subgroup_exclusive_sum
// BFS:         scf.for %{{.*}} = %{{.*}} to %total step %{{.*}} : i32 {
// BFS:           gir_gpu.atomic_cas %pred
