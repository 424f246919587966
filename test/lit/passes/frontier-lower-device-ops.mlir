// RUN: gir-opt %S/Inputs/sssp_frontier.mlir -p frontier-host-setup,frontier-lower-device-ops | filecheck %s

// The globals and the edgeset load are gone.
// CHECK-NOT:   graph.global
// CHECK-LABEL: func.func @main() {
// CHECK-NOT:     graph.load_edges

// Layout ops read the graph's arrays (made once, at setup); vector accesses and
// the atomic min become memref ops and gir_gpu.atomic_rmw on the buffers; the
// vertex block argument meets its i32 uses through casts.
// CHECK:         frontier.vertex_map %in : !frontier.queue into %empty : !frontier.queue dedup
// CHECK-NEXT:    ^bb0(%src: !graph.vertex):
// CHECK-NEXT:      %[[SRC:.*]] = builtin.unrealized_conversion_cast %src : !graph.vertex to i32
// CHECK-NEXT:      %[[ROW:.*]] = arith.index_cast %[[SRC]] : i32 to index
// CHECK:           %{{.*}} = memref.load %row_ptr[%[[ROW]]] : memref<?xi32>
// CHECK:           scf.for %i = %begin to %end step %one {
// CHECK-NEXT:        %dst = memref.load %col_idx[%i] : memref<?xi32>
// CHECK-NEXT:        %[[DST:.*]] = builtin.unrealized_conversion_cast %dst : i32 to !graph.vertex
// CHECK-NEXT:        %w = memref.load %weights[%i] : memref<?xi32>
// CHECK:             %d = memref.load %dist[%{{.*}}] : memref<?xi32>
// CHECK-NEXT:        %new = arith.addi %d, %w : i32
// CHECK-NEXT:        %[[AT:.*]] = arith.index_cast %dst : i32 to index
// CHECK-NEXT:        %current = memref.load %dist[%[[AT]]] : memref<?xi32>
// CHECK-NEXT:        %[[WORTH:.*]] = arith.cmpi slt, %new, %current : i32
// CHECK-NEXT:        %lowered = scf.if %[[WORTH]] -> (i1) {
// CHECK-NEXT:          %[[OLD:.*]] = gir_gpu.atomic_rmw min %new, %dist[%[[AT]]] : i32, memref<?xi32>, index
// CHECK-NEXT:          %[[DOWN:.*]] = arith.cmpi sgt, %[[OLD]], %new : i32
// CHECK-NEXT:          scf.yield %[[DOWN]] : i1
// CHECK-NEXT:        } else {
// CHECK-NEXT:          %[[NO:.*]] = arith.constant false
// CHECK-NEXT:          scf.yield %[[NO]] : i1
// CHECK-NEXT:        }
// CHECK-NEXT:        scf.if %lowered {
// CHECK-NEXT:          frontier.enqueue %[[DST]]

// A bool store: an i8 store.
// CHECK:           %[[BYTE:.*]] = arith.extui %near : i1 to i8
// CHECK:           memref.store %[[BYTE]], %done[%{{.*}}] : memref<?xi8>
