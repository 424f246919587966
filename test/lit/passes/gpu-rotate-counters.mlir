// RUN: gir-opt %S/Inputs/fused-bfs-host.mlir -p gpu-rotate-counters | filecheck %s
// The fused BFS level loop (bfs_fused.gt at the GPU level, before fusion) resets
// its queue's size counter each iteration. The counter gets two more buffers,
// carried by the loop in turn: the body resets `nxt` (the next iteration's
// counter), counts into `cur`, and the yield rotates cur, nxt, old -> nxt, old,
// cur. The first iteration's counter is reset before the loop. After the loop
// the original buffer is written before it is read again, as it was.

// CHECK:      %queue_size = host.alloc %[[ONE:.*]] : i32 -> memref<?xi32>
// CHECK-NEXT: %queue_size_1 = host.alloc %[[ONE]] : i32 -> memref<?xi32>
// CHECK-NEXT: %queue_size_2 = host.alloc %[[ONE]] : i32 -> memref<?xi32>
// CHECK:      host.write %[[ZERO:.*]], %queue_size[%[[ZERO]]]
// CHECK-NEXT: scf.while ({{.*}}, %{{.*}} = %queue_size, %{{.*}} = %queue_size_1, %{{.*}} = %queue_size_2)
// CHECK:      } do {
// CHECK-NEXT: ^bb0({{.*}}, %[[CUR:.*]]: memref<?xi32>, %[[NXT:.*]]: memref<?xi32>, %[[OLD:.*]]: memref<?xi32>):
// CHECK-NEXT:   host.write %[[ZERO]], %[[NXT]][%[[ZERO]]]
// CHECK:        host.launch @map_search_expand {{.*}}, %[[CUR]], %queue_capacity,
// CHECK-NEXT:   host.read %[[CUR]][%[[ZERO]]]
// CHECK:        scf.yield {{.*}}, %[[NXT]], %[[OLD]], %[[CUR]] :
// CHECK:      host.write %[[ZERO]], %queue_size[%[[ZERO]]]
// CHECK:      host.launch @map_seen {{.*}}, %queue_size,
