// RUN: gir-opt %S/Inputs/bfs.mlir -p lower-to-gpu -o %t.mlir
// RUN: filecheck %s < %t.mlir
// RUN: gir-opt %t.mlir | filecheck %s

// The whole lowering of BFS (push, VERTEX_BASED, fused sparse queue): the shape
// of test/lit/targets/Inputs/bfs_gpu.mlir, which the printers accept.

// One kernel: a thread per frontier vertex walks its CSR row; a destination that
// passes the `to` filter is claimed with a CAS and appended by the winner only.
// CHECK-LABEL: gir_gpu.kernel @map_s1(
// CHECK-SAME:      %fr2_size: i32, %fr2_items: memref<?xi32>, %row_ptr: memref<?xi32>, %col_idx: memref<?xi32>, %parent: memref<?xi32>, %queue_size: memref<?xi32>, %queue_capacity: i32, %spare_items: memref<?xi32>) {
// CHECK:         %gid = gir_gpu.id global
// CHECK-NEXT:    %[[ACTIVE:.*]] = arith.cmpi slt, %gid, %fr2_size : i32
// CHECK-NEXT:    scf.if %[[ACTIVE]] {
// CHECK-NEXT:      %[[I:.*]] = arith.index_cast %gid : i32 to index
// CHECK-NEXT:      %vertex = memref.load %fr2_items[%[[I]]] : memref<?xi32>
// CHECK:           %[[B:.*]] = memref.load %row_ptr[%{{.*}}] : memref<?xi32>
// CHECK-NEXT:      %[[E:.*]] = memref.load %row_ptr[%{{.*}}] : memref<?xi32>
// CHECK-NEXT:      %begin = arith.index_cast %[[B]] : i32 to index
// CHECK-NEXT:      %end = arith.index_cast %[[E]] : i32 to index
// CHECK-NEXT:      scf.for %edge = %begin to %end step %{{.*}} {
// CHECK-NEXT:        %dst = memref.load %col_idx[%edge] : memref<?xi32>
// CHECK-NEXT:        %[[D:.*]] = arith.index_cast %dst : i32 to index
// CHECK-NEXT:        %[[P:.*]] = memref.load %parent[%[[D]]] : memref<?xi32>
// CHECK-NEXT:        %[[UNVISITED:.*]] = arith.cmpi eq, %[[P]], %c : i32
// CHECK-NEXT:        scf.if %[[UNVISITED]] {
// CHECK-NEXT:          %[[D2:.*]] = arith.index_cast %dst : i32 to index
// CHECK-NEXT:          %[[OLD:.*]] = gir_gpu.atomic_cas %parent[%[[D2]]], %c, %vertex : memref<?xi32>, index, i32
// CHECK-NEXT:          %[[WON:.*]] = arith.cmpi eq, %[[OLD]], %c : i32
// CHECK-NEXT:          scf.if %[[WON]] {
// CHECK:                 %position = gir_gpu.atomic_rmw add %{{.*}}, %queue_size[%{{.*}}] {gir_gpu.aggregated} : i32, memref<?xi32>, index
// CHECK:                   memref.store %dst, %spare_items[%{{.*}}] : memref<?xi32>
// CHECK:         gir_gpu.return

// Host: load, buffers, the start vertex, then the double-buffered loop that
// reads back only the output's size.
// CHECK-LABEL: func.func @main() {
// CHECK:         %graph = host.load_graph {argv = 1 : i64}
// CHECK-NEXT:    %num_vertices = host.graph_size %graph vertices : i32
// CHECK-NEXT:    %num_edges = host.graph_size %graph edges : i32
// CHECK-NEXT:    %parent = host.alloc %num_vertices : i32 -> memref<?xi32>
// CHECK-NEXT:    host.bind_global %parent as "parent" : memref<?xi32>
// CHECK-DAG:     %queue_capacity = arith.maxsi %num_vertices, %num_edges : i32
// CHECK-DAG:     %queue_size = host.alloc %{{.*}} : i32 -> memref<?xi32>
// CHECK-DAG:     %row_ptr = host.graph_array %graph row_ptr : memref<?xi32>
// CHECK-DAG:     %col_idx = host.graph_array %graph col_idx : memref<?xi32>
// CHECK:         host.fill %parent, %m1, %num_vertices : memref<?xi32>, i32, i32
// CHECK-NEXT:    %queue = host.alloc %queue_capacity : i32 -> memref<?xi32>
// CHECK-NEXT:    %s = host.argv_int argv[2] : i32
// CHECK-NEXT:    host.write %s, %queue[%z] : i32, memref<?xi32>, i32
// CHECK-NEXT:    %[[ONE:.*]] = arith.addi %z, %{{.*}} : i32
// CHECK-NEXT:    %queue_1 = host.alloc %queue_capacity : i32 -> memref<?xi32>
// CHECK-NEXT:    host.write %s, %parent[%s] : i32, memref<?xi32>, i32
// CHECK-NEXT:    host.start_timer
// CHECK-NEXT:    %[[Q:.*]], %{{.*}}, %[[SPARE:.*]], %{{.*}} = scf.while (%fr_items = %queue, %fr_size = %[[ONE]], %spare_items = %queue_1, %spare_size = %z) : (memref<?xi32>, i32, memref<?xi32>, i32) -> (memref<?xi32>, i32, memref<?xi32>, i32) {
// CHECK-NEXT:      %c = arith.cmpi ne, %fr_size, %z : i32
// CHECK-NEXT:      scf.condition(%c) %fr_items, %fr_size, %spare_items, %spare_size : memref<?xi32>, i32, memref<?xi32>, i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%fr2_items: memref<?xi32>, %fr2_size: i32, %spare_items_1: memref<?xi32>, %spare_size_1: i32):
// CHECK-NEXT:      host.write %z, %queue_size[%z] : i32, memref<?xi32>, i32
// CHECK:           host.launch @map_s1 grid %{{.*}} block %{{.*}} (%fr2_size, %fr2_items, %row_ptr, %col_idx, %parent, %queue_size, %queue_capacity, %spare_items_1)
// CHECK-NEXT:      %[[READ:.*]] = host.read %queue_size[%z] : memref<?xi32>, i32 -> i32
// CHECK-NEXT:      %size = arith.minsi %[[READ]], %queue_capacity : i32
// CHECK-NEXT:      scf.yield %spare_items_1, %size, %fr2_items, %fr2_size : memref<?xi32>, i32, memref<?xi32>, i32
// CHECK-NEXT:    } attributes {graph.label = "s0"}
// CHECK-NEXT:    host.free %[[SPARE]] : memref<?xi32>
// CHECK-NEXT:    host.free %[[Q]] : memref<?xi32>
// CHECK-NEXT:    %t = host.stop_timer : f32
// CHECK-NEXT:    host.print %t : f32
// CHECK-NEXT:    func.return
