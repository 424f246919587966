// RUN: gir-opt %S/Inputs/merge_path.mlir -p 'frontier-lower-load-balance{only=MERGE_PATH}' | filecheck %s
// RUN: gir-opt %S/Inputs/merge_path.mlir -p 'frontier-lower-load-balance{only=MERGE_PATH},frontier-to-gpu' | filecheck %s --check-prefix=GPU
// RUN: gir-opt %S/Inputs/merge_path.mlir -p 'frontier-lower-load-balance{only=MERGE_PATH},frontier-to-gpu,gpu-expand-scan' | gir-translate --to-opencl - | filecheck %s --check-prefix=OPENCL

// The traversal becomes an edge map whose body is the work of one edge, as
// with EDGE_ONLY; only the kernel differs.
// CHECK:      %out = frontier.edge_map MERGE_PATH CSR %e : !graph.edgeset<i32> from %in : !frontier.queue into %empty : !frontier.queue dedup -> !frontier.queue attributes {label = "s1"} {
// CHECK-NEXT: ^bb0(%src: !graph.vertex, %edge: index):
// CHECK-NEXT:   %dst = frontier.neighbor CSR %e[%edge] : !graph.edgeset<i32>
// CHECK-NEXT:   %weight = frontier.edge_weight CSR %e[%edge] : !graph.edgeset<i32> -> i32
// CHECK:      frontier.edge_map MERGE_PATH CSR %e : !graph.edgeset<i32> from %all : !frontier.all {
// CHECK-NOT:  frontier.edge_traverse

// The degree kernel of the shared edge offsets...
// GPU-LABEL: gir_gpu.kernel @merge_path_degrees_s1(
// GPU:         memref.store %{{.*}}, %degrees[%{{.*}}] : memref<?xi32>

// ...then one thread per 8 steps of the merge path of items and edges.
// GPU-LABEL: gir_gpu.kernel @map_s1(%path_threads: i32, %path: i32, %frontier_edges: i32, %offsets: memref<?xi32>,
// GPU-DAG:     %[[SHARE:.*]] = arith.constant 8 : i32
// GPU:         %[[ACTIVE:.*]] = arith.cmpi slt, %gid, %path_threads : i32
// GPU-NEXT:    scf.if %[[ACTIVE]] {
// GPU-NEXT:      %diagonal = arith.muli %gid, %[[SHARE]] : i32
// GPU-NEXT:      %[[NEXT_DIAGONAL:.*]] = arith.addi %diagonal, %[[SHARE]] : i32
// GPU-NEXT:      %share_end = arith.minsi %[[NEXT_DIAGONAL]], %path : i32
// The search along the diagonal: items in [max(0, d - edges), min(d, items)]...
// GPU-NEXT:      %[[BELOW:.*]] = arith.subi %diagonal, %frontier_edges : i32
// GPU-NEXT:      %[[LOW:.*]] = arith.maxsi %[[BELOW]], %{{.*}} : i32
// GPU-NEXT:      %[[HIGH:.*]] = arith.minsi %diagonal, %{{.*}} : i32
// GPU-NEXT:      %start_item, %{{.*}} = scf.while (%[[LO:.*]] = %[[LOW]], %[[HI:.*]] = %[[HIGH]])
// GPU:           ^bb0(%[[L:.*]]: i32, %[[H:.*]]: i32):
// GPU:             %[[PIVOT:.*]] = arith.divsi
// GPU-NEXT:        %[[AFTER_PIVOT:.*]] = arith.addi %[[PIVOT]], %{{.*}} : i32
// GPU-NEXT:        %[[AT:.*]] = arith.index_cast %[[AFTER_PIVOT]] : i32 to index
// GPU-NEXT:        %[[ITEM_END:.*]] = memref.load %offsets[%[[AT]]] : memref<?xi32>
// GPU-NEXT:        %[[ACROSS:.*]] = arith.subi %diagonal, %[[PIVOT]] : i32
// GPU-NEXT:        %[[EDGE:.*]] = arith.subi %[[ACROSS]], %{{.*}} : i32
// GPU-NEXT:        %{{.*}} = arith.cmpi sle, %[[ITEM_END]], %[[EDGE]] : i32
// GPU:           %start_edge = arith.subi %diagonal, %start_item : i32
// ...then the walk: item by item, each item's edges within the share.
// GPU-NEXT:      %{{.*}}, %{{.*}} = scf.while (%[[I:.*]] = %start_item, %[[J:.*]] = %start_edge)
// GPU-NEXT:        %[[STEP:.*]] = arith.addi %[[I]], %[[J]] : i32
// GPU-NEXT:        %[[MORE:.*]] = arith.cmpi slt, %[[STEP]], %share_end : i32
// GPU-NEXT:        scf.condition(%[[MORE]])
// GPU-NEXT:      } do {
// GPU-NEXT:      ^bb0(%item: i32, %next_edge: i32):
// GPU:             %item_end = memref.load %offsets
// GPU-NEXT:        %[[REACH:.*]] = arith.subi %share_end, %item : i32
// GPU-NEXT:        %[[STOP:.*]] = arith.minsi %item_end, %[[REACH]] : i32
// GPU:             %vertex = memref.load %queue[%{{.*}}] : memref<?xi32>
// GPU:             scf.for %edge = %{{.*}} to %{{.*}} step %{{.*}} {
// GPU-NEXT:          %dst = memref.load %col_idx[%edge] : memref<?xi32>
// GPU:             %[[FINISHED:.*]] = arith.cmpi eq, %[[STOP]], %item_end : i32
// GPU-NEXT:        %[[PAST:.*]] = arith.addi %item, %item_end : i32
// GPU-NEXT:        %[[IN_SHARE:.*]] = arith.cmpi slt, %[[PAST]], %share_end : i32
// GPU-NEXT:        %[[PASSED:.*]] = arith.andi %[[FINISHED]], %[[IN_SHARE]] : i1
// GPU-NEXT:        %[[NEXT:.*]] = arith.select %[[PASSED]], %{{.*}}, %item : i32
// GPU-NEXT:        scf.yield %[[NEXT]], %[[STOP]] : i32, i32
// GPU-NOT:     gir_gpu.barrier
// GPU:         gir_gpu.return

// Host: the degrees, the scan, the total read back, then ceil((items + edges) / 8) threads.
// GPU-LABEL: func.func @main() {
// GPU:         host.launch @merge_path_degrees_s1
// GPU:         gir_gpu.exclusive_scan %degrees, %offsets
// GPU-NEXT:    %frontier_edges = host.read %offsets[%[[COUNT:.*]]] : memref<?xi32>, i32 -> i32
// GPU-NEXT:    %path = arith.addi %[[COUNT]], %frontier_edges : i32
// GPU-NEXT:    %[[ROUND:.*]] = arith.addi %path, %{{.*}} : i32
// GPU-NEXT:    %path_threads = arith.divsi %[[ROUND]], %{{.*}} : i32
// GPU:         host.launch @map_s1 grid %{{.*}} block %{{.*}} (%path_threads, %path, %frontier_edges, %offsets,

// OpenCL prints the same loops (no local memory, no barrier).
// OPENCL-LABEL: __kernel void map_s1(
// OPENCL-NOT:     __local
// OPENCL:         int diagonal = gid * 8;
// OPENCL:         for (int edge = {{.*}}; edge < {{.*}}; edge += 1) {
// OPENCL-LABEL: __kernel void
