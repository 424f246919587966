// RUN: sed -e 's/VERTEX_BASED/TWC/' %S/Inputs/pull.mlir | gir-opt -p 'frontier-lower-load-balance{only=TWC}' | filecheck %s
// RUN: sed -e 's/VERTEX_BASED/TWC/' %S/Inputs/pull.mlir | gir-opt -p 'frontier-lower-load-balance{only=TWC},frontier-to-gpu' | filecheck %s --check-prefix=GPU

// PULL with TWC: one thread per destination, whose in-edges go to its block, a warp or
// itself by in-degree.
// The edge map iterates every vertex as a destination (a pull from a bitmap
// wave tests each in-edge's source against it); the body checks the `to`
// filter on the destination before it reads the source, so a claimed
// destination costs its remaining in-edges no source or bitmap read. Several
// threads share a destination, so the claim stays a compare-and-swap.
// CHECK:      %every = frontier.all_vertices : !frontier.all
// CHECK-NEXT: %out = frontier.edge_map TWC CSC %e : !graph.edgeset<i32> from %every : !frontier.all into %empty : !frontier.queue -> !frontier.queue attributes {label = "claim"} {
// CHECK-NEXT: ^bb0(%dst: !graph.vertex, %edge: index):
// CHECK-NEXT:   %p = graph.load @parent[%dst] : !graph.vertex -> i32
// CHECK-NEXT:   %m1 = arith.constant -1 : i32
// CHECK-NEXT:   %unvisited = arith.cmpi eq, %p, %m1 : i32
// CHECK-NEXT:   scf.if %unvisited {
// CHECK-NEXT:     %src = frontier.neighbor CSC %e[%edge] : !graph.edgeset<i32>
// CHECK-NEXT:     %active = frontier.contains %wave[%src] : !frontier.bitmap
// CHECK-NEXT:     scf.if %active {
// CHECK-NEXT:       %weight = frontier.edge_weight CSC %e[%edge] : !graph.edgeset<i32> -> i32
// CHECK:            graph.compare_and_swap @parent[%dst]
// Over every vertex the input is the map's own: no membership test.
// CHECK:      frontier.edge_map TWC CSC %e : !graph.edgeset<i32> from %all : !frontier.all attributes {label = "gather"} {
// CHECK-NEXT: ^bb0(%dst_1: !graph.vertex, %edge_1: index):
// CHECK-NEXT:   %src_1 = frontier.neighbor CSC %e[%edge_1] : !graph.edgeset<i32>
// CHECK-NEXT:   %weight_1 = frontier.edge_weight CSC %e[%edge_1] : !graph.edgeset<i32> -> i32
// CHECK-NEXT:   graph.reduce add %weight_1, @sum[%dst_1] atomic
// CHECK-NOT:  frontier.edge_traverse

// The kernel walks in-edges (csc_ptr, csc_idx), tests the wave's bitmap words
// and claims with a CAS.
// GPU-LABEL: gir_gpu.kernel @map_claim(
// GPU-SAME:    %csc_ptr: memref<?xi32>
// GPU:         memref.load %parent[%{{.*}}] : memref<?xi32>
// GPU:         scf.if %{{.*}} {
// GPU-NEXT:      %{{.*}} = memref.load %csc_idx[%{{.*}}] : memref<?xi32>
// GPU:           memref.load %words[%{{.*}}] : memref<?xi32>
// GPU:           gir_gpu.atomic_cas %parent[%{{.*}}], %m1, %{{.*}} :
