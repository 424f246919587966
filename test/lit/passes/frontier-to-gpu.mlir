// RUN: gir-opt %S/Inputs/sssp_frontier.mlir -p frontier-to-gpu | filecheck %s

// The whole frontier -> GPU pipeline (frontier-host-setup, frontier-lower-device-ops,
// frontier-to-host-values, frontier-maps-to-kernels, gpu-hoist-constants).

// `new vertexset(n)` fills a queue with 0..n-1.
// CHECK-LABEL: gir_gpu.kernel @frontier_queue_iota(%items: memref<?xi32>, %count: i32)

// The traversal's kernel: thread gid takes the gid-th vertex of the input queue,
// walks its CSR row, updates dist atomically and appends each destination once.
// CHECK-LABEL: gir_gpu.kernel @map_s1(
// CHECK-SAME:      %in_size: i32, %in_items: memref<?xi32>, %row_ptr: memref<?xi32>, %col_idx: memref<?xi32>, %weights: memref<?xi32>, %dist: memref<?xi32>, %enqueued: memref<?xi32>, %queue_size: memref<?xi32>, %queue_capacity: i32, %sp2_items: memref<?xi32>) {
// CHECK:         %gid = gir_gpu.id global
// CHECK-NEXT:    %[[ACTIVE:.*]] = arith.cmpi slt, %gid, %in_size : i32
// CHECK-NEXT:    scf.if %[[ACTIVE]] {
// CHECK:           %vertex = memref.load %in_items[%{{.*}}] : memref<?xi32>
// CHECK:           %[[BEGIN:.*]] = memref.load %row_ptr[%{{.*}}] : memref<?xi32>
// CHECK:           scf.for %i = %begin to %end step %{{.*}} {
// CHECK-NEXT:        %dst = memref.load %col_idx[%i] : memref<?xi32>
// CHECK-NEXT:        %w = memref.load %weights[%i] : memref<?xi32>
// CHECK:             %current = memref.load %dist[%{{.*}}] : memref<?xi32>
// CHECK-NEXT:        %[[WORTH:.*]] = arith.cmpi slt, %new, %current : i32
// CHECK-NEXT:        %lowered = scf.if %[[WORTH]] -> (i1) {
// CHECK-NEXT:          %[[OLD:.*]] = gir_gpu.atomic_rmw min %new, %dist[%{{.*}}] : i32, memref<?xi32>, index
// CHECK-NEXT:          arith.cmpi sgt, %[[OLD]], %new : i32
// CHECK:             scf.if %lowered {
// CHECK:               %[[WAS:.*]] = gir_gpu.atomic_cas %enqueued[%{{.*}}], %[[ZERO:.*]], %{{.*}} : memref<?xi32>, index, i32
// CHECK-NEXT:          %[[FIRST:.*]] = arith.cmpi eq, %[[WAS]], %[[ZERO]] : i32
// CHECK-NEXT:          scf.if %[[FIRST]] {
// CHECK:                 %position = gir_gpu.atomic_rmw add %{{.*}}, %queue_size[%{{.*}}] : i32, memref<?xi32>, index
// CHECK-NEXT:            %[[FITS:.*]] = arith.cmpi slt, %position, %queue_capacity : i32
// CHECK-NEXT:            scf.if %[[FITS]] {
// CHECK-NEXT:              %[[AT:.*]] = arith.index_cast %position : i32 to index
// CHECK-NEXT:              memref.store %dst, %sp2_items[%[[AT]]] : memref<?xi32>

// After each traversal a helper kernel resets the flags of the appended vertices.
// CHECK-LABEL: gir_gpu.kernel @frontier_queue_reset_dedup(%items: memref<?xi32>, %first: i32, %enqueued: memref<?xi32>, %count: i32)

// A vertex map over every vertex has no queue; the f32 host value is an argument;
// the bool vector is stored as i8.
// CHECK-LABEL: gir_gpu.kernel @map_mark(%num_vertices: i32, %dist: memref<?xi32>, %limit: f32, %done: memref<?xi8>) {
// CHECK:         %near = arith.cmpf olt, %df, %limit : f32
// CHECK-NEXT:    %[[BYTE:.*]] = arith.extui %near : i1 to i8
// CHECK:         memref.store %[[BYTE]], %done[%{{.*}}] : memref<?xi8>

// Host: the graph is loaded once, every vector is a named device buffer.
// CHECK-LABEL: func.func @main() {
// CHECK:         %graph = host.load_graph {argv = 1 : i64, weighted}
// CHECK-NEXT:    %num_vertices = host.graph_size %graph vertices : i32
// CHECK-NEXT:    %num_edges = host.graph_size %graph edges : i32
// CHECK-NEXT:    %dist = host.alloc %num_vertices : i32 -> memref<?xi32>
// CHECK-NEXT:    host.bind_global %dist as "dist" : memref<?xi32>
// CHECK-NEXT:    %done = host.alloc %num_vertices : i32 -> memref<?xi8>
// CHECK-NEXT:    host.bind_global %done as "done" : memref<?xi8>
// CHECK-NEXT:    host.fill %done, %{{.*}}, %num_vertices : memref<?xi8>, i8, i32
// CHECK-NEXT:    %degree = host.alloc %num_vertices : i32 -> memref<?xi32>
// CHECK-NEXT:    host.bind_global %degree as "degree" : memref<?xi32>
// CHECK-DAG:     %out_degrees = host.graph_array %graph out_degrees : memref<?xi32>
// CHECK-DAG:     %queue_capacity = arith.maxsi %num_vertices, %num_edges : i32
// CHECK:         host.fill %dist, %inf, %num_vertices : memref<?xi32>, i32, i32
// CHECK-NEXT:    host.copy %out_degrees, %degree, %num_vertices : memref<?xi32>, i32
// CHECK-NEXT:    host.write %z, %dist[%s] : i32, memref<?xi32>, i32

// Queues are (items buffer, host size) pairs, carried as such by the loop.
// CHECK-NEXT:    %queue = host.alloc %queue_capacity : i32 -> memref<?xi32>
// CHECK-NEXT:    host.write %s, %queue[%z] : i32, memref<?xi32>, i32
// CHECK-NEXT:    %[[SIZE:.*]] = arith.addi %z, %{{.*}} : i32
// CHECK-NEXT:    %queue_1 = host.alloc %queue_capacity : i32 -> memref<?xi32>
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %[[SPARE:.*]], %{{.*}} = scf.while (%fr_items = %queue, %fr_size = %[[SIZE]], %sp_items = %queue_1, %sp_size = %z) : (memref<?xi32>, i32, memref<?xi32>, i32) -> (memref<?xi32>, i32, memref<?xi32>, i32) {
// CHECK-NEXT:      %c = arith.cmpi ne, %fr_size, %z : i32
// CHECK-NEXT:      scf.condition(%c) %fr_items, %fr_size, %sp_items, %sp_size : memref<?xi32>, i32, memref<?xi32>, i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%in_items: memref<?xi32>, %in_size: i32, %sp2_items: memref<?xi32>, %sp2_size: i32):

// Before the launch the output's size goes to the device counter; after it, the
// counter is the only value read back.
// CHECK-NEXT:      host.write %z, %queue_size[%z] : i32, memref<?xi32>, i32
// CHECK:           host.launch @map_s1 grid %{{.*}} block %{{.*}} (%in_size, %in_items, %row_ptr, %col_idx, %weights, %dist, %enqueued, %queue_size, %queue_capacity, %sp2_items)
// CHECK-NEXT:      %[[READ:.*]] = host.read %queue_size[%z] : memref<?xi32>, i32 -> i32
// CHECK-NEXT:      %size = arith.minsi %[[READ]], %queue_capacity : i32
// CHECK:           host.launch @frontier_queue_reset_dedup
// CHECK-NEXT:      scf.yield %sp2_items, %size, %in_items, %in_size : memref<?xi32>, i32, memref<?xi32>, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    host.free %[[SPARE]] : memref<?xi32>
// CHECK-NEXT:    host.free %{{.*}} : memref<?xi32>
// CHECK:         host.launch @map_mark grid %{{.*}} block %{{.*}} (%num_vertices, %dist, %limit, %done)
// CHECK:         host.launch @frontier_queue_iota grid %{{.*}} block %{{.*}} (%queue_2, %num_vertices)
// CHECK-NEXT:    %[[BYTE:.*]] = host.read %done[%z] : memref<?xi8>, i32 -> i8
// CHECK-NEXT:    %first = arith.trunci %[[BYTE]] : i8 to i1
// CHECK-NEXT:    scf.if %first {
// CHECK-NEXT:      host.print %num_vertices : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    host.free %queue_2 : memref<?xi32>
