// host-partition marks the graph load partitioned and, after each launch that
// reads an edge array, combines what the kernel wrote: atomic min -> min, a
// queue append -> allgather, a CAS claim -> claim against a clone, a pull's
// load-add-store -> sum against a clone. By default every all-reduce is dense
// (the whole vector), whether the launch runs over a frontier (its grid read
// from the device) or the whole graph, and min needs no clone. Launches of
// vertex maps (no edge arrays) run replicated and get no exchange.
// `exchange=FORMAT` gives every all-reduce that format, against a clone.
// RUN: gir-opt %s -p host-partition | filecheck %s
// RUN: gir-opt %s -p 'host-partition{exchange=bitmap}' | filecheck %s --check-prefix=FORCED
// RUN: not gir-opt %s -p 'host-partition{exchange=sparse}' 2>&1 | filecheck %s --check-prefix=BAD

builtin.module {
  gir_gpu.kernel @relax(%n : i32, %row_ptr : memref<?xi32>, %col_idx : memref<?xi32>, %dist : memref<?xi32>, %pred : memref<?xi32>, %size : memref<?xi32>, %items : memref<?xi32>) {
    %gid = gir_gpu.id global
    %i = arith.index_cast %gid : i32 to index
    %zero = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %dst = memref.load %col_idx[%i] : memref<?xi32>
    %d = arith.index_cast %dst : i32 to index
    %old = gir_gpu.atomic_rmw min %gid, %dist[%d] : i32, memref<?xi32>, index
    %was = gir_gpu.atomic_cas %pred[%d], %one, %gid : memref<?xi32>, index, i32
    %at = gir_gpu.atomic_rmw add %one, %size[%zero] : i32, memref<?xi32>, index
    %p = arith.index_cast %at : i32 to index
    memref.store %dst, %items[%p] : memref<?xi32>
    gir_gpu.return
  }
  gir_gpu.kernel @gather(%csc_ptr : memref<?xi32>, %sum : memref<?xf32>) {
    %gid = gir_gpu.id global
    %i = arith.index_cast %gid : i32 to index
    %x = arith.constant 1.0 : f32
    %s = memref.load %sum[%i] : memref<?xf32>
    %t = arith.addf %s, %x : f32
    memref.store %t, %sum[%i] : memref<?xf32>
    gir_gpu.return
  }
  gir_gpu.kernel @reset(%n : i32, %dist : memref<?xi32>) {
    %gid = gir_gpu.id global
    %i = arith.index_cast %gid : i32 to index
    memref.store %gid, %dist[%i] : memref<?xi32>
    gir_gpu.return
  }
  func.func @main() {
    %b = arith.constant 256 : i32
    %g = host.load_graph {argv = 1 : i64}
    %n = host.graph_size %g vertices : i32
    %row_ptr = host.graph_array %g row_ptr : memref<?xi32>
    %col_idx = host.graph_array %g col_idx : memref<?xi32>
    %csc_ptr = host.graph_array %g csc_ptr : memref<?xi32>
    %dist = host.alloc %n : i32 -> memref<?xi32>
    %pred = host.alloc %n : i32 -> memref<?xi32>
    %size = host.alloc %n : i32 -> memref<?xi32>
    %items = host.alloc %n : i32 -> memref<?xi32>
    %sum = host.alloc %n : i32 -> memref<?xf32>
    host.launch @reset grid %n block %b (%n, %dist) : i32, memref<?xi32>
    %zero = arith.constant 0 : i32
    %frontier = host.read %size[%zero] : memref<?xi32>, i32 -> i32
    host.launch @relax grid %frontier block %b (%n, %row_ptr, %col_idx, %dist, %pred, %size, %items) : i32, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>
    host.launch @relax grid %n block %b (%n, %row_ptr, %col_idx, %dist, %pred, %size, %items) : i32, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>
    host.launch @gather grid %n block %b (%csc_ptr, %sum) : memref<?xi32>, memref<?xf32>
    func.return
  }
}

// CHECK: %g = host.load_graph {argv = 1 : i64, partitioned}
// CHECK: host.launch @reset
// CHECK: %[[FRONTIER_PRED:.*]] = host.clone %pred : memref<?xi32>
// CHECK-NEXT: host.launch @relax grid %frontier
// CHECK-NEXT: host.allgather %items, %size : memref<?xi32>, memref<?xi32>
// CHECK-NEXT: host.allreduce %dist min : memref<?xi32>
// CHECK-NEXT: host.allreduce %pred claim base %[[FRONTIER_PRED]] : memref<?xi32>
// CHECK-NEXT: host.free %[[FRONTIER_PRED]] : memref<?xi32>
// CHECK-NEXT: %[[PRED:.*]] = host.clone %pred : memref<?xi32>
// CHECK-NEXT: host.launch @relax grid %n
// CHECK-NEXT: host.allgather %items, %size : memref<?xi32>, memref<?xi32>
// CHECK-NEXT: host.allreduce %dist min : memref<?xi32>
// CHECK-NEXT: host.allreduce %pred claim base %[[PRED]] : memref<?xi32>
// CHECK-NEXT: host.free %[[PRED]] : memref<?xi32>
// CHECK-NEXT: %[[SUM:.*]] = host.clone %sum : memref<?xf32>
// CHECK-NEXT: host.launch @gather
// CHECK-NEXT: host.allreduce %sum sum base %[[SUM]] : memref<?xf32>
// CHECK-NEXT: host.free %[[SUM]] : memref<?xf32>

// FORCED: host.launch @relax grid %frontier
// FORCED: host.allreduce %dist min base %{{.*}} exchange bitmap : memref<?xi32>
// FORCED: host.launch @relax grid %n
// FORCED: host.allreduce %dist min base %{{.*}} exchange bitmap : memref<?xi32>
// FORCED: host.allreduce %pred claim base %{{.*}} exchange bitmap : memref<?xi32>
// FORCED: host.launch @gather
// FORCED-NEXT: host.allreduce %sum sum base %{{.*}} exchange bitmap : memref<?xf32>

// BAD: error: host-partition{exchange=sparse}: expected one of dense, pairs, bitmap, auto
