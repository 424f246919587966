// RUN: gir-opt %S/Inputs/warp_mapped.mlir -p frontier-lb-wm | filecheck %s
// RUN: gir-opt %S/Inputs/warp_mapped.mlir -p frontier-lb-wm,frontier-to-gpu | filecheck %s --check-prefix=GPU
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

// The kernel: warp gid/32 takes frontier items warp, warp + warps, ... (warps =
// the launch's warps: 8 per block of 256), lane gid%32 takes every 32nd edge of
// the item's vertex from begin + lane. No barrier, no guard other than the loops.
// GPU-LABEL: gir_gpu.kernel @map_s1(%queue: memref<?xi32>, %row_ptr: memref<?xi32>,
// GPU-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// GPU-DAG:     %[[PER_BLOCK:.*]] = arith.constant 8 : i32
// GPU-DAG:     %[[STEP:.*]] = arith.constant 32 : index
// GPU:         %gid = gir_gpu.id global
// GPU-NEXT:    %warp = arith.divui %gid, %[[C32]] : i32
// GPU-NEXT:    %lane = arith.remui %gid, %[[C32]] : i32
// GPU-NEXT:    %[[GRID:.*]] = gir_gpu.id grid_dim
// GPU-NEXT:    %warps = arith.muli %[[GRID]], %[[PER_BLOCK]] : i32
// GPU-NEXT:    scf.for %item = %warp to %{{.*}} step %warps : i32 {
// GPU-NEXT:      %[[ITEM:.*]] = arith.index_cast %item : i32 to index
// GPU-NEXT:      %vertex = memref.load %queue[%[[ITEM]]] : memref<?xi32>
// GPU:           %[[BEGIN:.*]] = memref.load %row_ptr
// GPU:           %[[END:.*]] = memref.load %row_ptr
// GPU-NEXT:      %[[BEGIN_I:.*]] = arith.index_cast %[[BEGIN]] : i32 to index
// GPU-NEXT:      %[[END_I:.*]] = arith.index_cast %[[END]] : i32 to index
// GPU-NEXT:      %[[LANE:.*]] = arith.index_cast %lane : i32 to index
// GPU-NEXT:      %[[FIRST:.*]] = arith.addi %[[BEGIN_I]], %[[LANE]] : index
// GPU-NEXT:      scf.for %edge = %[[FIRST]] to %[[END_I]] step %[[STEP]] {
// GPU-NEXT:        %dst = memref.load %col_idx[%edge] : memref<?xi32>
// GPU-NEXT:        %weight = memref.load %weights[%edge] : memref<?xi32>
// GPU:             gir_gpu.atomic_rmw min
// GPU-NOT:     gir_gpu.barrier
// GPU:         gir_gpu.return

// Over every vertex the item is the vertex itself.
// GPU-LABEL: gir_gpu.kernel @map_vertices(%num_vertices: i32, %row_ptr: memref<?xi32>,
// GPU:         scf.for %item = %warp to %num_vertices step %warps : i32 {
// GPU-NEXT:      %[[ROW:.*]] = arith.index_cast %item : i32 to index

// Host: 32 threads per item, at most 2^26 threads (2^21 items, then warps stride).
// GPU-LABEL: func.func @main() {
// GPU-DAG:     %[[CAP:.*]] = arith.constant 2097152 : i32
// GPU-DAG:     %[[WIDTH:.*]] = arith.constant 32 : i32
// GPU:         %[[GROUPS:.*]] = arith.minsi %{{.*}}, %[[CAP]] : i32
// GPU-NEXT:    %threads = arith.muli %[[GROUPS]], %[[WIDTH]] : i32
// GPU:         host.launch @map_s1 grid

// BFS scheduled with configLoadBalance(WM) and configBlockSize(128): blocks of
// 128 threads (4 warps), ceil(min(wave, 2^21) * 32 / 128) of them; the parent
// claim is a CAS since 32 threads share a source.
// BFS-LABEL: gir_gpu.kernel @map_search_expand(%wave_size: i32,
// BFS:         %[[PER_BLOCK:.*]] = arith.constant 4 : i32
// BFS:         %warps = arith.muli %{{.*}}, %[[PER_BLOCK]] : i32
// BFS-NEXT:    scf.for %item = %warp to %wave_size step %warps : i32 {
// BFS:           gir_gpu.atomic_cas %pred
// BFS-LABEL: func.func @main() {
// BFS-DAG:     %[[CAP:.*]] = arith.constant 2097152 : i32
// BFS-DAG:     %[[WIDTH:.*]] = arith.constant 32 : i32
// BFS-DAG:     %[[BLOCK:.*]] = arith.constant 128 : i32
// BFS-DAG:     %[[ROUND:.*]] = arith.constant 127 : i32
// BFS:         %[[GROUPS:.*]] = arith.minsi %wave_size_1, %[[CAP]] : i32
// BFS-NEXT:    %threads = arith.muli %[[GROUPS]], %[[WIDTH]] : i32
// BFS:         %[[PADDED:.*]] = arith.addi %threads, %[[ROUND]] : i32
// BFS-NEXT:    %[[BLOCKS:.*]] = arith.divsi %[[PADDED]], %[[BLOCK]] : i32
// BFS-NEXT:    %[[GRID:.*]] = arith.maxsi %[[BLOCKS]], %{{.*}} : i32
// BFS-NEXT:    host.launch @map_search_expand grid %[[GRID]] block %[[BLOCK]] (%wave_size_1,
