// RUN: gir-opt %S/Inputs/cta_mapped.mlir -p frontier-lb-cm | filecheck %s
// RUN: gir-opt %S/Inputs/cta_mapped.mlir -p frontier-lb-cm,frontier-to-gpu | filecheck %s --check-prefix=GPU
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

// The kernel: block b takes frontier items b, b + blocks, ...; thread t of the
// block takes every 256th edge of the item's vertex from begin + t. The item
// loop's bounds are the same for the whole block; no barrier.
// GPU-LABEL: gir_gpu.kernel @map_s1(%queue: memref<?xi32>, %row_ptr: memref<?xi32>,
// GPU-DAG:     %[[STEP:.*]] = arith.constant 256 : index
// GPU:         %block = gir_gpu.id block
// GPU-NEXT:    %thread = gir_gpu.id thread
// GPU-NEXT:    %blocks = gir_gpu.id grid_dim
// GPU-NEXT:    scf.for %item = %block to %{{.*}} step %blocks : i32 {
// GPU-NEXT:      %[[ITEM:.*]] = arith.index_cast %item : i32 to index
// GPU-NEXT:      %vertex = memref.load %queue[%[[ITEM]]] : memref<?xi32>
// GPU:           %[[BEGIN:.*]] = memref.load %row_ptr
// GPU:           %[[END:.*]] = memref.load %row_ptr
// GPU-NEXT:      %[[BEGIN_I:.*]] = arith.index_cast %[[BEGIN]] : i32 to index
// GPU-NEXT:      %[[END_I:.*]] = arith.index_cast %[[END]] : i32 to index
// GPU-NEXT:      %[[THREAD:.*]] = arith.index_cast %thread : i32 to index
// GPU-NEXT:      %[[FIRST:.*]] = arith.addi %[[BEGIN_I]], %[[THREAD]] : index
// GPU-NEXT:      scf.for %edge = %[[FIRST]] to %[[END_I]] step %[[STEP]] {
// GPU-NEXT:        %dst = memref.load %col_idx[%edge] : memref<?xi32>
// GPU-NEXT:        %weight = memref.load %weights[%edge] : memref<?xi32>
// GPU:             gir_gpu.atomic_rmw min
// GPU-NOT:     gir_gpu.barrier
// GPU:         gir_gpu.return

// Over every vertex the item is the vertex itself.
// GPU-LABEL: gir_gpu.kernel @map_vertices(%num_vertices: i32, %row_ptr: memref<?xi32>,
// GPU:         scf.for %item = %block to %num_vertices step %blocks : i32 {
// GPU-NEXT:      %[[ROW:.*]] = arith.index_cast %item : i32 to index

// Host: a block of 256 threads per item, at most 2^26 threads (2^18 blocks,
// which then stride over the items).
// GPU-LABEL: func.func @main() {
// GPU-DAG:     %[[CAP:.*]] = arith.constant 262144 : i32
// GPU-DAG:     %[[WIDTH:.*]] = arith.constant 256 : i32
// GPU:         %[[GROUPS:.*]] = arith.minsi %{{.*}}, %[[CAP]] : i32
// GPU-NEXT:    %threads = arith.muli %[[GROUPS]], %[[WIDTH]] : i32
// GPU:         host.launch @map_s1 grid

// BFS scheduled with configLoadBalance(CM) and configBlockSize(128): one block
// of 128 threads per item of the wave (at least one block, at most 2^19); the
// parent claim is a CAS since the block shares a source.
// BFS-LABEL: gir_gpu.kernel @map_search_expand(%wave_size: i32,
// BFS:         %[[STEP:.*]] = arith.constant 128 : index
// BFS:         scf.for %item = %block to %wave_size step %blocks : i32 {
// BFS:           scf.for %edge = %{{.*}} to %{{.*}} step %[[STEP]] {
// BFS:             gir_gpu.atomic_cas %pred
// BFS-LABEL: func.func @main() {
// BFS-DAG:     %[[CAP:.*]] = arith.constant 524288 : i32
// BFS-DAG:     %[[BLOCK:.*]] = arith.constant 128 : i32
// BFS-DAG:     %[[ROUND:.*]] = arith.constant 127 : i32
// BFS:         %[[GROUPS:.*]] = arith.minsi %wave_size_1, %[[CAP]] : i32
// BFS-NEXT:    %threads = arith.muli %[[GROUPS]], %[[BLOCK]] : i32
// BFS:         %[[PADDED:.*]] = arith.addi %threads, %[[ROUND]] : i32
// BFS-NEXT:    %[[BLOCKS:.*]] = arith.divsi %[[PADDED]], %[[BLOCK]] : i32
// BFS-NEXT:    %[[GRID:.*]] = arith.maxsi %[[BLOCKS]], %{{.*}} : i32
// BFS-NEXT:    host.launch @map_search_expand grid %[[GRID]] block %[[BLOCK]] (%wave_size_1,
