// RUN: gir-opt %S/Inputs/sssp_frontier.mlir -p frontier-host-setup,frontier-lower-device-ops,frontier-to-host-values | filecheck %s

// A queue is its items buffer and its size: frontier.new allocates the items
// (capacity made once at setup), frontier.add writes on the host, the loop
// carries (items, size) pairs, frontier.size is the size.
// CHECK-LABEL: func.func @main() {
// CHECK:         %queue_capacity = arith.maxsi %num_vertices, %num_edges {setup = "queue_capacity"} : i32
// CHECK:         %queue = host.alloc %queue_capacity : i32 -> memref<?xi32>
// CHECK-NEXT:    host.write %s, %queue[%z] : i32, memref<?xi32>, i32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[SIZE:.*]] = arith.addi %z, %[[ONE]] : i32
// CHECK-NEXT:    %queue_1 = host.alloc %queue_capacity : i32 -> memref<?xi32>
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %[[SPARE:.*]], %{{.*}} = scf.while (%fr_items = %queue, %fr_size = %[[SIZE]], %sp_items = %queue_1, %sp_size = %z) : (memref<?xi32>, i32, memref<?xi32>, i32) -> (memref<?xi32>, i32, memref<?xi32>, i32) {
// CHECK-NEXT:      %c = arith.cmpi ne, %fr_size, %z : i32
// CHECK-NEXT:      scf.condition(%c) %fr_items, %fr_size, %sp_items, %sp_size : memref<?xi32>, i32, memref<?xi32>, i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%in_items: memref<?xi32>, %in_size: i32, %sp2_items: memref<?xi32>, %sp2_size: i32):

// The map keeps frontier-typed operands and result, bridged by casts.
// CHECK-NEXT:      %in = builtin.unrealized_conversion_cast %in_items, %in_size : memref<?xi32>, i32 to !frontier.queue
// CHECK-NEXT:      %[[CLEARED:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %empty = builtin.unrealized_conversion_cast %sp2_items, %[[CLEARED]] : memref<?xi32>, i32 to !frontier.queue
// CHECK-NEXT:      %out = frontier.vertex_map %in : !frontier.queue into %empty : !frontier.queue dedup
// CHECK:           %[[OUT0:.*]], %[[OUT1:.*]] = builtin.unrealized_conversion_cast %out : !frontier.queue to memref<?xi32>, i32
// CHECK-NEXT:      scf.yield %[[OUT0]], %[[OUT1]], %in_items, %in_size : memref<?xi32>, i32, memref<?xi32>, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    host.free %[[SPARE]] : memref<?xi32>

// Every vertex has no host values; its size is V.
// CHECK:         %all = builtin.unrealized_conversion_cast to !frontier.all
// CHECK:         frontier.vertex_map %all : !frontier.all
// CHECK:         %[[EVERY:.*]] = host.alloc %queue_capacity : i32 -> memref<?xi32>
// CHECK:         host.launch @frontier_queue_iota grid %{{.*}} block %{{.*}} (%[[EVERY]], %num_vertices) : memref<?xi32>, i32
// CHECK:         host.print %num_vertices : i32
// CHECK-NOT:     frontier.
