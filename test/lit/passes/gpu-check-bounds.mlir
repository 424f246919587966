// RUN: gir-opt %s -p gpu-check-bounds | filecheck %s
// RUN: gir-opt %s -p gpu-check-bounds,gpu-check-bounds | filecheck %s
// RUN: not gir-opt %S/Inputs/gpu-check-bounds-unknown-size.mlir -p gpu-check-bounds 2>&1 | filecheck %s --check-prefix=UNKNOWN

builtin.module {
  gir_gpu.kernel @k(%n : i32, %row_ptr : memref<?xi32>, %dist : memref<?xf32>, %items : memref<?xi32>) {
    %c1 = arith.constant 1 : i32
    %one = arith.constant 1.0 : f32
    %gid = gir_gpu.id global
    %i = arith.index_cast %gid : i32 to index
    %begin = memref.load %row_ptr[%i] : memref<?xi32>
    %d = memref.load %dist[%i] : memref<?xf32>
    %e = arith.addf %d, %one : f32
    memref.store %e, %dist[%i] : memref<?xf32>
    %old = gir_gpu.atomic_rmw add %c1, %items[%begin] : i32, memref<?xi32>, i32
    gir_gpu.return
  }
  func.func @main() {
    %c1 = arith.constant 1 : i32
    %g = host.load_graph {argv = 1 : i64}
    %n = host.graph_size %g vertices : i32
    %row_ptr = host.graph_array %g row_ptr : memref<?xi32>
    %dist = host.alloc %n : i32 -> memref<?xf32>
    host.bind_global %dist as "dist" : memref<?xf32>
    %cap = arith.addi %n, %c1 : i32
    %a = host.alloc %cap : i32 -> memref<?xi32>
    %b = host.alloc %cap : i32 -> memref<?xi32>
    %r:2 = scf.for %step = %c1 to %n step %c1 iter_args(%cur = %a, %next = %b) -> (memref<?xi32>, memref<?xi32>) : i32 {
      host.launch @k grid %c1 block %c1 (%n, %row_ptr, %dist, %cur) : i32, memref<?xi32>, memref<?xf32>, memref<?xi32>
      scf.yield %next, %cur : memref<?xi32>, memref<?xi32>
    } {graph.label = "rounds"}
    func.return
  }
}

// Every device buffer argument gets its element count, and the kernel the
// bounds record; the module lists the guarded sites in order, each with the
// source position of its access (running the pass twice changes nothing).
// CHECK:      builtin.module attributes {gir_gpu.bounds_sites = [
// CHECK-SAME: {kernel = "k", access = "loads", buffer = "graph array 'row_ptr'", label = "rounds", location = "{{.*}}gpu-check-bounds.mlir:11:5"},
// CHECK-SAME: {kernel = "k", access = "loads", buffer = "vector 'dist'", label = "rounds", location = "{{.*}}gpu-check-bounds.mlir:12:5"},
// CHECK-SAME: {kernel = "k", access = "stores", buffer = "vector 'dist'", label = "rounds", location = "{{.*}}gpu-check-bounds.mlir:14:5"},
// CHECK-SAME: {kernel = "k", access = "atomically updates", buffer = "frontier storage", label = "rounds", location = "{{.*}}gpu-check-bounds.mlir:15:5"}]}
// CHECK:      gir_gpu.kernel @k(%n: i32, %row_ptr: memref<?xi32>, %dist: memref<?xf32>, %items: memref<?xi32>, %row_ptr_size: i32, %dist_size: i32, %items_size: i32, %bounds: memref<?xi32>)
// CHECK-DAG:    %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG:    %[[SLOT0:.*]] = arith.constant 0 : index
// CHECK-DAG:    %[[SLOT1:.*]] = arith.constant 1 : index
// CHECK-DAG:    %[[SLOT2:.*]] = arith.constant 2 : index
// CHECK-DAG:    %[[DIST_SIZE:.*]] = arith.index_cast %dist_size : i32 to index
// CHECK-DAG:    %[[ROW_PTR_SIZE:.*]] = arith.index_cast %row_ptr_size : i32 to index

// A load yields the element when its index is in [0, count) (one unsigned
// compare), else 0; the first miss claims the record and stores index and count.
// CHECK:        %in_bounds = arith.cmpi ult, %i, %[[ROW_PTR_SIZE]] : index
// CHECK-NEXT:   %begin = scf.if %in_bounds -> (i32) {
// CHECK-NEXT:     %begin_1 = memref.load %row_ptr[%i] : memref<?xi32>
// CHECK-NEXT:     scf.yield %begin_1 : i32
// CHECK-NEXT:   } else {
// CHECK-NEXT:     %[[SITE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:     %[[OLD:.*]] = gir_gpu.atomic_cas %bounds[%[[SLOT0]]], %[[ZERO]], %[[SITE]] : memref<?xi32>, index, i32
// CHECK-NEXT:     %[[WON:.*]] = arith.cmpi eq, %[[OLD]], %[[ZERO]] : i32
// CHECK-NEXT:     scf.if %[[WON]] {
// CHECK-NEXT:       %[[INDEX:.*]] = arith.index_cast %i : index to i32
// CHECK-NEXT:       memref.store %[[INDEX]], %bounds[%[[SLOT1]]] : memref<?xi32>
// CHECK-NEXT:       memref.store %row_ptr_size, %bounds[%[[SLOT2]]] : memref<?xi32>
// CHECK-NEXT:     }
// CHECK-NEXT:     %[[NOTHING:.*]] = arith.constant 0 : i32
// CHECK-NEXT:     scf.yield %[[NOTHING]] : i32
// CHECK-NEXT:   }
// CHECK:        %d = scf.if %{{.*}} -> (f32) {
// CHECK:          arith.constant 2 : i32
// CHECK:          arith.constant 0.000000e+00 : f32

// A store is skipped.
// CHECK:        %[[STORE_OK:.*]] = arith.cmpi ult, %i, %[[DIST_SIZE]] : index
// CHECK-NEXT:   scf.if %[[STORE_OK]] {
// CHECK-NEXT:     memref.store %e, %dist[%i] : memref<?xf32>
// CHECK-NEXT:   } else {
// CHECK-NEXT:     arith.constant 3 : i32

// An atomic's i32 index is compared with the i32 count; an unused old value is
// not yielded.
// CHECK:        %[[ATOMIC_OK:.*]] = arith.cmpi ult, %begin, %items_size : i32
// CHECK-NEXT:   scf.if %[[ATOMIC_OK]] {
// CHECK-NEXT:     %old = gir_gpu.atomic_rmw add %c1, %items[%begin]
// CHECK-NEXT:   } else {
// CHECK:          arith.constant 4 : i32

// Main makes the zeroed record, bound as the global the runtime checks; a graph
// array's count comes from the graph, an allocation's is its count, also through
// the loop that swaps two allocations of one size.
// CHECK-LABEL:  func.func @main()
// CHECK:          %bounds = host.alloc %[[THREE:.*]] : i32 -> memref<?xi32>
// CHECK-NEXT:     host.fill %bounds, %{{.*}}, %[[THREE]] : memref<?xi32>, i32, i32
// CHECK-NEXT:     host.bind_global %bounds as "gir.bounds" : memref<?xi32>
// CHECK:          %row_ptr = host.graph_array %g row_ptr : memref<?xi32>
// CHECK-NEXT:     %[[V:.*]] = host.graph_size %g vertices : i32
// CHECK-NEXT:     %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:     %row_ptr_size = arith.addi %[[V]], %[[ONE]] : i32
// CHECK:          host.launch @k grid %c1 block %c1 (%n, %row_ptr, %dist, %cur, %row_ptr_size, %n, %cap, %bounds) : i32, memref<?xi32>, memref<?xf32>, memref<?xi32>, i32, i32, i32, memref<?xi32>

// UNKNOWN-NOT: Traceback
// UNKNOWN: error: gpu-check-bounds: cannot tell how many elements argument 0 of a launch of @k has (it is not one host.alloc or graph array, or buffers of different sizes flow into it)
