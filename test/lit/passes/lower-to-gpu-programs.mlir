// RUN: gir-opt %S/Inputs/sssp.mlir -p lower-to-gpu | filecheck %s --check-prefix=SSSP
// RUN: gir-opt %S/Inputs/cc.mlir -p lower-to-gpu | filecheck %s --check-prefix=CC
// RUN: gir-opt %S/Inputs/pagerank.mlir -p lower-to-gpu | filecheck %s --check-prefix=PR

// The other programs of the end-to-end tests lower to verified GPU-level IR.

// Bellman-Ford: weights from the CSR-ordered array, an atomic min on the
// destination, the destination enqueued when its distance went down.
// SSSP-LABEL: gir_gpu.kernel @map_s1(
// SSSP:         %weight = memref.load %weights[%edge] : memref<?xi32>
// SSSP:         %[[OLD:.*]] = gir_gpu.atomic_rmw min %[[NEW:.*]], %SP[%{{.*}}] : i32, memref<?xi32>, index
// SSSP-NEXT:    %[[DOWN:.*]] = arith.cmpi sgt, %[[OLD]], %[[NEW]] : i32
// SSSP-NEXT:    scf.yield %[[DOWN]] : i1
// SSSP:         scf.if %{{.*}} {
// SSSP:           memref.store %dst, %spare_items[%{{.*}}] : memref<?xi32>
// SSSP-LABEL: func.func @main() {
// SSSP:         %graph = host.load_graph {argv = 1 : i64, weighted}
// SSSP:         %weights = host.graph_array %graph weights : memref<?xi32>
// SSSP:         scf.while (%fr_items = %queue, %fr_size = %{{.*}}, %rounds = %z, %spare_items = %queue_1, %spare_size = %z)

// Connected components: every vertex starts in the frontier (a queue filled with 0..V-1), hooking
// updates roots atomically and enqueues each root whose label went down (G2
// enqueues the index of every tracked update), pointer jumping runs over every vertex until the
// update flag (a one-element buffer) stays 0, and the roots are counted.
// CC-LABEL: gir_gpu.kernel @frontier_queue_iota(%items: memref<?xi32>, %count: i32)
// CC-LABEL: gir_gpu.kernel @map_init(%num_vertices: i32, %IDs: memref<?xi32>)
// CC-LABEL: gir_gpu.kernel @map_s1(
// CC:         %[[OLD1:.*]] = gir_gpu.atomic_rmw min %[[NEW1:.*]], %IDs[%[[ROOT1:.*]]] : i32, memref<?xi32>, index
// CC-NEXT:    %[[LOWER1:.*]] = arith.cmpi sgt, %[[OLD1]], %[[NEW1]] : i32
// CC-NEXT:    scf.yield %[[LOWER1]] : i1
// CC:         scf.if
// CC:         gir_gpu.atomic_rmw min %{{.*}}, %IDs[%{{.*}}] : i32, memref<?xi32>, index
// CC-NEXT:    arith.cmpi sgt
// CC-LABEL: gir_gpu.kernel @map_s2(%num_vertices: i32, %IDs: memref<?xi32>, %update: memref<?xi32>)
// CC:         memref.store %one, %update[%{{.*}}] : memref<?xi32>
// CC-LABEL: gir_gpu.kernel @map_isRoot(
// CC-LABEL: func.func @main() {
// CC:         %update = host.alloc %c1 : i32 -> memref<?xi32>
// CC-NEXT:    host.bind_global %update as "update" : memref<?xi32>
// CC-NEXT:    host.fill %update, %z, %c1 : memref<?xi32>, i32, i32
// CC:         host.launch @frontier_queue_iota grid %{{.*}} block %{{.*}} (%queue, %num_vertices)
// CC:         host.launch @map_init
// CC:         scf.while (%fr_items = %queue, %fr_size = %num_vertices, %spare_items = %queue_1, %spare_size = %z)
// CC:           host.launch @map_s1
// CC:           host.write %c1, %update[%z] : i32, memref<?xi32>, i32
// CC-NEXT:      scf.while () : () -> () {
// CC-NEXT:        %u = host.read %update[%z] : memref<?xi32>, i32 -> i32
// CC:           } do {
// CC-NEXT:        host.write %z, %update[%z] : i32, memref<?xi32>, i32
// CC:             host.launch @map_s2
// CC:         host.launch @map_isRoot
// CC-NEXT:    %[[ROOTS:.*]] = host.read %queue_size[%z] : memref<?xi32>, i32 -> i32
// CC-NEXT:    %size_1 = arith.minsi %[[ROOTS]], %queue_capacity : i32
// CC-NEXT:    host.print %size_1 : i32

// PageRank: float atomic add over every edge (no frontier: one thread per
// vertex), the scalar global beta_score passed to the vertex kernel as an f32,
// damp (a constant) copied into it; 20 iterations of three launches.
// PR-LABEL: gir_gpu.kernel @map_computeContrib(%num_vertices: i32, %old_rank: memref<?xf32>, %out_degree: memref<?xi32>, %contrib: memref<?xf32>)
// PR-LABEL: gir_gpu.kernel @map_s1(%num_vertices: i32, %row_ptr: memref<?xi32>, %col_idx: memref<?xi32>, %contrib: memref<?xf32>, %new_rank: memref<?xf32>)
// PR:         gir_gpu.atomic_rmw add %{{.*}}, %new_rank[%{{.*}}] : f32, memref<?xf32>, index
// PR-LABEL: gir_gpu.kernel @map_updateVertex(%num_vertices: i32, %new_rank: memref<?xf32>, %beta: f32, %old_rank: memref<?xf32>, %error: memref<?xf32>)
// PR:         %d = arith.constant 8.500000e-01 : f32
// PR-LABEL: func.func @main() {
// PR:         host.copy %out_degrees, %out_degree, %num_vertices : memref<?xi32>, i32
// PR:         %beta = arith.divf %rest, %nf : f32
// PR:         scf.for %i = %lo to %hi step %step : i32 {
// PR-NEXT:      %{{.*}} = arith.addi %num_vertices, %{{.*}} : i32
// PR:           host.launch @map_computeContrib
// PR:           host.launch @map_s1
// PR:           host.launch @map_updateVertex grid %{{.*}} block %{{.*}} (%num_vertices, %new_rank, %beta, %old_rank, %error)
// PR-NEXT:    }
