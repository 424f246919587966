// RUN: gir-opt %S/Inputs/sssp_frontier.mlir -p frontier-host-setup,frontier-lower-device-ops,frontier-to-host-values,frontier-maps-to-kernels | filecheck %s

// A vertex map over a queue: one thread per item, its vertex read from the
// items buffer; the host values the body uses are the kernel's arguments; the
// enqueue appends to the output queue (through the dedup flags); no cast is left.
// CHECK-LABEL: gir_gpu.kernel @map_s1(%in_size: i32, %in_items: memref<?xi32>, %row_ptr: memref<?xi32>, %col_idx: memref<?xi32>, %weights: memref<?xi32>, %dist: memref<?xi32>, %enqueued: memref<?xi32>, %queue_size: memref<?xi32>, %queue_capacity: i32, %sp2_items: memref<?xi32>) {
// CHECK:         %gid = gir_gpu.id global
// CHECK-NEXT:    %[[ACTIVE:.*]] = arith.cmpi slt, %gid, %in_size : i32
// CHECK-NEXT:    scf.if %[[ACTIVE]] {
// CHECK-NEXT:      %[[AT:.*]] = arith.index_cast %gid : i32 to index
// CHECK-NEXT:      %vertex = memref.load %in_items[%[[AT]]] : memref<?xi32>
// CHECK:           scf.if %lowered {
// CHECK:             %[[WAS:.*]] = gir_gpu.atomic_cas %enqueued[%{{.*}}], %[[ZERO:.*]], %{{.*}} : memref<?xi32>, index, i32
// CHECK-NEXT:        %[[FIRST:.*]] = arith.cmpi eq, %[[WAS]], %[[ZERO]] : i32
// CHECK-NEXT:        scf.if %[[FIRST]] {
// CHECK:               %position = gir_gpu.atomic_rmw add %{{.*}}, %queue_size[%{{.*}}] : i32, memref<?xi32>, index
// CHECK:                 memref.store %dst, %sp2_items[%{{.*}}] : memref<?xi32>
// CHECK:         gir_gpu.return

// A vertex map over every vertex: V threads, the thread id is the vertex.
// CHECK-LABEL: gir_gpu.kernel @map_mark(%num_vertices: i32, %dist: memref<?xi32>, %limit: f32, %done: memref<?xi8>) {
// CHECK:         %[[ACTIVE:.*]] = arith.cmpi slt, %gid, %num_vertices : i32
// CHECK-NEXT:    scf.if %[[ACTIVE]] {
// CHECK-NEXT:      %[[AT:.*]] = arith.index_cast %gid : i32 to index
// CHECK-NEXT:      %{{.*}} = memref.load %dist[%[[AT]]] : memref<?xi32>

// Host: the output's counter is set, the kernel launched, the size read back.
// CHECK-LABEL: func.func @main() {
// CHECK-NOT:     unrealized_conversion_cast
// CHECK:         host.write %{{.*}}, %queue_size[%{{.*}}] : i32, memref<?xi32>, i32
// CHECK:         host.launch @map_s1 grid %{{.*}} block %{{.*}} (%in_size, %in_items, %row_ptr, %col_idx, %weights, %dist, %enqueued, %queue_size, %queue_capacity, %sp2_items)
// CHECK:         %[[READ:.*]] = host.read %queue_size[%{{.*}}] : memref<?xi32>, i32 -> i32
// CHECK-NEXT:    %size = arith.minsi %[[READ]], %queue_capacity : i32
// CHECK:         host.launch @frontier_queue_reset_dedup
// CHECK:         host.launch @map_mark grid %{{.*}} block %{{.*}} (%num_vertices, %dist, %limit, %done)
// CHECK-NOT:     unrealized_conversion_cast
// CHECK-NOT:     {setup
