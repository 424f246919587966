// RUN: gir-opt %S/Inputs/strict.mlir -p 'frontier-lower-load-balance{only=STRICT}' | filecheck %s
// RUN: gir-opt %S/Inputs/strict.mlir -p 'frontier-lower-load-balance{only=STRICT},frontier-to-gpu' | filecheck %s --check-prefix=GPU
// RUN: gir-opt %S/Inputs/strict.mlir -p 'frontier-lower-load-balance{only=STRICT},frontier-to-gpu,gpu-expand-scan' -o %t.gpu.mlir
// RUN: gir-translate --to-cuda %t.gpu.mlir | filecheck %s --check-prefix=CUDA
// RUN: gir-translate --to-opencl %t.gpu.mlir | filecheck %s --check-prefix=OPENCL

// The traversal becomes an edge map whose body is the work of one edge, as
// with EDGE_ONLY; only the kernel differs.
// CHECK:      %out = frontier.edge_map STRICT CSR %e : !graph.edgeset<i32> from %in : !frontier.queue into %empty : !frontier.queue dedup -> !frontier.queue attributes {label = "s1"} {
// CHECK-NEXT: ^bb0(%src: !graph.vertex, %edge: index):
// CHECK-NEXT:   %dst = frontier.neighbor CSR %e[%edge] : !graph.edgeset<i32>
// CHECK-NEXT:   %weight = frontier.edge_weight CSR %e[%edge] : !graph.edgeset<i32> -> i32
// CHECK:      frontier.edge_map STRICT CSR %e : !graph.edgeset<i32> from %all : !frontier.all {
// CHECK-NOT:  frontier.edge_traverse

// The degree kernel of the shared edge offsets...
// GPU-LABEL: gir_gpu.kernel @strict_degrees_s1(
// GPU:         memref.store %{{.*}}, %degrees[%{{.*}}] : memref<?xi32>

// ...then blocks of 256 threads, each block a chunk of 256 * 4 frontier edges.
// Thread 0 finds the items the chunk spans (two searches over the offsets) and
// shares them; the barrier is at the kernel's top level.
// GPU-LABEL: gir_gpu.kernel @map_s1(%frontier_edges: i32, %offsets: memref<?xi32>,
// GPU-DAG:     %[[CHUNK:.*]] = arith.constant 1024 : i32
// GPU-DAG:     %[[PER_THREAD:.*]] = arith.constant 4 : i32
// GPU-DAG:     %[[BLOCK_SIZE:.*]] = arith.constant 256 : i32
// GPU:         %span = gir_gpu.shared_alloc : memref<2xi32, #gir_gpu.workgroup>
// GPU-NEXT:    %thread = gir_gpu.id thread
// GPU-NEXT:    %block = gir_gpu.id block
// GPU-NEXT:    %chunk_start = arith.muli %block, %[[CHUNK]] : i32
// GPU-NEXT:    %[[LIVE:.*]] = arith.cmpi slt, %chunk_start, %frontier_edges : i32
// GPU-NEXT:    %[[FIRST_THREAD:.*]] = arith.cmpi eq, %thread, %{{.*}} : i32
// GPU-NEXT:    %[[LEADER:.*]] = arith.andi %[[FIRST_THREAD]], %[[LIVE]] : i1
// GPU-NEXT:    scf.if %[[LEADER]] {
// GPU:           %item, %{{.*}} = scf.while
// GPU:           %item_1, %{{.*}} = scf.while (%{{.*}} = %item,
// GPU:           %[[STOP:.*]] = arith.addi %item_1, %{{.*}} : i32
// GPU-NEXT:      memref.store %item, %span[%{{.*}}] : memref<2xi32, #gir_gpu.workgroup>
// GPU-NEXT:      memref.store %[[STOP]], %span[%{{.*}}] : memref<2xi32, #gir_gpu.workgroup>
// GPU-NEXT:    }
// GPU-NEXT:    gir_gpu.barrier
// GPU-NEXT:    scf.if %[[LIVE]] {
// GPU-NEXT:      %first = memref.load %span
// GPU-NEXT:      %stop = memref.load %span
// GPU-NEXT:      %[[OWN:.*]] = arith.addi %chunk_start, %thread : i32
// Each thread walks 4 edges, one block size apart...
// GPU-NEXT:      scf.for %step = %{{.*}} to %[[PER_THREAD]] step %{{.*}} : i32 {
// GPU-NEXT:        %[[STRIDE:.*]] = arith.muli %step, %[[BLOCK_SIZE]] : i32
// GPU-NEXT:        %target = arith.addi %[[OWN]], %[[STRIDE]] : i32
// GPU-NEXT:        %[[IN:.*]] = arith.cmpi slt, %target, %frontier_edges : i32
// GPU-NEXT:        scf.if %[[IN]] {
// ...and finds each edge's item among the chunk's items only.
// GPU-NEXT:          %item_2, %{{.*}} = scf.while (%{{.*}} = %first, %{{.*}} = %stop)
// GPU:               %vertex = memref.load %queue[%{{.*}}] : memref<?xi32>
// GPU:               %edge = arith.addi
// GPU-NEXT:          %dst = memref.load %col_idx[%edge] : memref<?xi32>
// GPU:         gir_gpu.return

// Host: the degrees, the scan, the total read back, then ceil(total / 4) threads.
// GPU-LABEL: func.func @main() {
// GPU:         host.launch @strict_degrees_s1
// GPU:         gir_gpu.exclusive_scan %degrees, %offsets
// GPU-NEXT:    %frontier_edges = host.read %offsets[%{{.*}}] : memref<?xi32>, i32 -> i32
// GPU-NEXT:    %[[ROUND:.*]] = arith.addi %frontier_edges, %{{.*}} : i32
// GPU-NEXT:    %[[THREADS:.*]] = arith.divsi %[[ROUND]], %{{.*}} : i32
// GPU:         host.launch @map_s1 grid %{{.*}} block %{{.*}} (%frontier_edges, %offsets,

// Printed: a __shared__ array and __syncthreads() in CUDA, __local and barrier() in OpenCL.
// CUDA-LABEL: __global__ void map_s1(
// CUDA:         __shared__ int span[2];
// CUDA:         __syncthreads();
// CUDA:         for (int step = 0; step < 4; step += 1) {
// OPENCL-LABEL: __kernel void map_s1(
// OPENCL:         __local int span[2];
// OPENCL:         barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
// OPENCL:         for (int step = 0; step < 4; step += 1) {
