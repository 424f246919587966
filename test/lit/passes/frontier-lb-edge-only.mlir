// RUN: gir-opt %S/Inputs/edge_only.mlir -p 'frontier-lower-load-balance{only=EDGE_ONLY}' | filecheck %s
// RUN: gir-opt %S/Inputs/edge_only.mlir -p 'frontier-lower-load-balance{only=EDGE_ONLY},frontier-to-gpu' | filecheck %s --check-prefix=GPU

// The traversal becomes an edge map: its body is the work of one edge (the
// neighbor and weight of the edge position, the `to` filter, the edge function).
// CHECK:      %out = frontier.edge_map EDGE_ONLY CSR %e : !graph.edgeset<i32> from %in : !frontier.queue into %empty : !frontier.queue dedup -> !frontier.queue attributes {label = "s1"} {
// CHECK-NEXT: ^bb0(%src: !graph.vertex, %edge: index):
// CHECK-NEXT:   %dst = frontier.neighbor CSR %e[%edge] : !graph.edgeset<i32>
// CHECK-NEXT:   %weight = frontier.edge_weight CSR %e[%edge] : !graph.edgeset<i32> -> i32
// CHECK-NEXT:   %p = graph.load @parent[%dst] : !graph.vertex -> i32
// CHECK:        scf.if %unvisited {
// CHECK:          %lowered = graph.reduce min %new, @dist[%dst] atomic : !graph.vertex, i32
// CHECK:      frontier.edge_map EDGE_ONLY CSR %e : !graph.edgeset<i32> from %all : !frontier.all {
// CHECK-NOT:  frontier.edge_traverse

// Kernels: one thread per frontier item counts its degree...
// GPU-LABEL: gir_gpu.kernel @edge_only_degrees_s1(
// GPU:         %vertex = memref.load %queue[%{{.*}}] : memref<?xi32>
// GPU:         %[[DEGREE:.*]] = arith.subi
// GPU:         memref.store %{{.*}}, %degrees[%{{.*}}] : memref<?xi32>

// ...and one thread per frontier edge finds its item by binary search over the
// scanned offsets, then its edge.
// GPU-LABEL: gir_gpu.kernel @map_s1(%frontier_edges: i32, %offsets: memref<?xi32>,
// GPU:         %[[ACTIVE:.*]] = arith.cmpi slt, %gid, %frontier_edges : i32
// GPU-NEXT:    scf.if %[[ACTIVE]] {
// GPU-NEXT:      %item, %{{.*}} = scf.while
// GPU:             %[[OFFSET:.*]] = memref.load %offsets[%{{.*}}] : memref<?xi32>
// GPU-NEXT:        %[[AT_MOST:.*]] = arith.cmpi sle, %[[OFFSET]], %gid : i32
// GPU:           %vertex = memref.load %queue[%{{.*}}] : memref<?xi32>
// GPU:           %[[FIRST:.*]] = memref.load %offsets[%{{.*}}] : memref<?xi32>
// GPU-NEXT:      %[[RANK:.*]] = arith.subi %gid, %[[FIRST]] : i32
// GPU-NEXT:      %[[RANK_INDEX:.*]] = arith.index_cast %[[RANK]] : i32 to index
// GPU-NEXT:      %edge = arith.addi %{{.*}}, %[[RANK_INDEX]] : index
// GPU-NEXT:      %dst = memref.load %col_idx[%edge] : memref<?xi32>

// Over all vertices, thread t walks edge position t of the layout and reads
// the vertex it iterates from the per-edge source array: no search.
// GPU-LABEL: gir_gpu.kernel @map_vertices(%num_edges: i32, %coo_src: memref<?xi32>, %col_idx: memref<?xi32>, %parent: memref<?xi32>) {
// GPU:         %[[IN:.*]] = arith.cmpi slt, %gid, %num_edges : i32
// GPU-NEXT:    scf.if %[[IN]] {
// GPU-NEXT:      %edge = arith.index_cast %gid : i32 to index
// GPU-NEXT:      %vertex = memref.load %coo_src[%edge] : memref<?xi32>
// GPU-NEXT:      %dst = memref.load %col_idx[%edge] : memref<?xi32>
// GPU-NEXT:      %[[DST:.*]] = arith.index_cast %dst : i32 to index
// GPU-NEXT:      memref.store %vertex, %parent[%[[DST]]] : memref<?xi32>

// Host: degrees, a 0 in the extra slot, the scan, the total, the edge kernel.
// GPU-LABEL: func.func @main() {
// GPU:         host.launch @edge_only_degrees_s1
// GPU-NEXT:    host.write %{{.*}}, %degrees[%[[COUNT:.*]]] : i32, memref<?xi32>, i32
// GPU-NEXT:    %[[SLOTS:.*]] = arith.addi %[[COUNT]], %{{.*}} : i32
// GPU-NEXT:    gir_gpu.exclusive_scan %degrees, %offsets, %[[SLOTS]] : memref<?xi32>, memref<?xi32>, i32
// GPU-NEXT:    %frontier_edges = host.read %offsets[%[[COUNT]]] : memref<?xi32>, i32 -> i32
// GPU:         host.launch @map_s1 grid %{{.*}} block %{{.*}} (%frontier_edges, %offsets,
// Over all vertices: no degrees, no scan, no read-back; E threads.
// GPU-NOT:     edge_only_degrees
// GPU-NOT:     gir_gpu.exclusive_scan
// GPU:         %[[THREADS:.*]] = arith.addi %num_edges,
// GPU:         host.launch @map_vertices grid %{{.*}} block %{{.*}} (%num_edges, %coo_src, %col_idx, %parent)
// GPU-NEXT:    func.return
