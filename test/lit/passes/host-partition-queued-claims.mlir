// host-partition sends a kernel's claims with its queue where the queue lists
// exactly the elements the kernel changed: a buffer written only by
// compare-and-swaps, each of which appends its index where it changed the
// element (`old == expected`, with `desired != expected` where the CAS could
// write its expected value back), bounded only by the queue's capacity, into a
// queue that gets no other entries and was emptied just before the launch.
// There the claimed buffer gets no clone and no claim all-reduce, in every
// exchange format; elsewhere it keeps both.
// RUN: gir-opt %s -p host-partition | filecheck %s
// RUN: gir-opt %s -p 'host-partition{exchange=auto}' | filecheck %s --check-prefix=AUTO
// RUN: gir-opt %programs/bfs_timed_edge_only.gt -p lower-to-gpu,host-partition | filecheck %s --check-prefix=BFS
// RUN: gir-opt %programs/bfs.gt -p lower-to-gpu,host-partition | filecheck %s --check-prefix=BFS

builtin.module {
  // BFS's expand: claim pred[dst] for the source, append dst where it was claimed.
  gir_gpu.kernel @expand(%n : i32, %col_idx : memref<?xi32>, %pred : memref<?xi32>, %size : memref<?xi32>, %capacity : i32, %items : memref<?xi32>) {
    %gid = gir_gpu.id global
    %i = arith.index_cast %gid : i32 to index
    %zero = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %unseen = arith.constant -1 : i32
    %dst = memref.load %col_idx[%i] : memref<?xi32>
    %d = arith.index_cast %dst : i32 to index
    %was = gir_gpu.atomic_cas %pred[%d], %unseen, %gid : memref<?xi32>, index, i32
    %won = arith.cmpi eq, %was, %unseen : i32
    scf.if %won {
      %at = gir_gpu.atomic_rmw add %one, %size[%zero] : i32, memref<?xi32>, index
      %room = arith.cmpi slt, %at, %capacity : i32
      scf.if %room {
        %p = arith.index_cast %at : i32 to index
        memref.store %dst, %items[%p] : memref<?xi32>
      }
    }
    gir_gpu.return
  }
  // A stamp that may equal the expected value: appended where it changed the element.
  gir_gpu.kernel @stamp(%n : i32, %col_idx : memref<?xi32>, %level : memref<?xi32>, %round : i32, %size : memref<?xi32>, %capacity : i32, %items : memref<?xi32>) {
    %gid = gir_gpu.id global
    %i = arith.index_cast %gid : i32 to index
    %zero = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %unseen = arith.constant -1 : i32
    %dst = memref.load %col_idx[%i] : memref<?xi32>
    %d = arith.index_cast %dst : i32 to index
    %was = gir_gpu.atomic_cas %level[%d], %unseen, %round : memref<?xi32>, index, i32
    %won = arith.cmpi eq, %was, %unseen : i32
    %other = arith.cmpi ne, %round, %unseen : i32
    %changed = arith.andi %won, %other : i1
    scf.if %changed {
      %at = gir_gpu.atomic_rmw add %one, %size[%zero] : i32, memref<?xi32>, index
      %room = arith.cmpi slt, %at, %capacity : i32
      scf.if %room {
        %p = arith.index_cast %at : i32 to index
        memref.store %dst, %items[%p] : memref<?xi32>
      }
    }
    gir_gpu.return
  }
  // The same stamp without `round != -1`: a CAS that succeeds without a change appends too.
  gir_gpu.kernel @stamp_unchecked(%n : i32, %col_idx : memref<?xi32>, %level : memref<?xi32>, %size : memref<?xi32>, %capacity : i32, %items : memref<?xi32>) {
    %gid = gir_gpu.id global
    %i = arith.index_cast %gid : i32 to index
    %zero = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %unseen = arith.constant -1 : i32
    %again = arith.constant -1 : i32
    %dst = memref.load %col_idx[%i] : memref<?xi32>
    %d = arith.index_cast %dst : i32 to index
    %was = gir_gpu.atomic_cas %level[%d], %unseen, %again : memref<?xi32>, index, i32
    %won = arith.cmpi eq, %was, %unseen : i32
    scf.if %won {
      %at = gir_gpu.atomic_rmw add %one, %size[%zero] : i32, memref<?xi32>, index
      %p = arith.index_cast %at : i32 to index
      memref.store %dst, %items[%p] : memref<?xi32>
    }
    gir_gpu.return
  }
  // The append does not wait for the CAS: the queue lists every destination.
  gir_gpu.kernel @unguarded(%n : i32, %col_idx : memref<?xi32>, %pred : memref<?xi32>, %size : memref<?xi32>, %capacity : i32, %items : memref<?xi32>) {
    %gid = gir_gpu.id global
    %i = arith.index_cast %gid : i32 to index
    %zero = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %unseen = arith.constant -1 : i32
    %dst = memref.load %col_idx[%i] : memref<?xi32>
    %d = arith.index_cast %dst : i32 to index
    %was = gir_gpu.atomic_cas %pred[%d], %unseen, %gid : memref<?xi32>, index, i32
    %at = gir_gpu.atomic_rmw add %one, %size[%zero] : i32, memref<?xi32>, index
    %p = arith.index_cast %at : i32 to index
    memref.store %dst, %items[%p] : memref<?xi32>
    gir_gpu.return
  }
  // pred is also written by a plain store, which appends nothing.
  gir_gpu.kernel @also_stored(%n : i32, %col_idx : memref<?xi32>, %pred : memref<?xi32>, %size : memref<?xi32>, %capacity : i32, %items : memref<?xi32>) {
    %gid = gir_gpu.id global
    %i = arith.index_cast %gid : i32 to index
    %zero = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %unseen = arith.constant -1 : i32
    %dst = memref.load %col_idx[%i] : memref<?xi32>
    %d = arith.index_cast %dst : i32 to index
    %was = gir_gpu.atomic_cas %pred[%d], %unseen, %gid : memref<?xi32>, index, i32
    %won = arith.cmpi eq, %was, %unseen : i32
    scf.if %won {
      %at = gir_gpu.atomic_rmw add %one, %size[%zero] : i32, memref<?xi32>, index
      %p = arith.index_cast %at : i32 to index
      memref.store %dst, %items[%p] : memref<?xi32>
    }
    memref.store %gid, %pred[%i] : memref<?xi32>
    gir_gpu.return
  }
  func.func @main() {
    %b = arith.constant 256 : i32
    %zero = arith.constant 0 : i32
    %g = host.load_graph {argv = 1 : i64}
    %n = host.graph_size %g vertices : i32
    %col_idx = host.graph_array %g col_idx : memref<?xi32>
    %pred = host.alloc %n : i32 -> memref<?xi32>
    %size = host.alloc %n : i32 -> memref<?xi32>
    %items = host.alloc %n : i32 -> memref<?xi32>
    %round = host.argv_int argv[2] : i32
    host.write %zero, %size[%zero] : i32, memref<?xi32>, i32
    host.launch @expand grid %n block %b (%n, %col_idx, %pred, %size, %n, %items) : i32, memref<?xi32>, memref<?xi32>, memref<?xi32>, i32, memref<?xi32>
    host.write %zero, %size[%zero] : i32, memref<?xi32>, i32
    host.launch @stamp grid %n block %b (%n, %col_idx, %pred, %round, %size, %n, %items) : i32, memref<?xi32>, memref<?xi32>, i32, memref<?xi32>, i32, memref<?xi32>
    host.write %zero, %size[%zero] : i32, memref<?xi32>, i32
    host.launch @stamp_unchecked grid %n block %b (%n, %col_idx, %pred, %size, %n, %items) : i32, memref<?xi32>, memref<?xi32>, memref<?xi32>, i32, memref<?xi32>
    host.write %zero, %size[%zero] : i32, memref<?xi32>, i32
    host.launch @unguarded grid %n block %b (%n, %col_idx, %pred, %size, %n, %items) : i32, memref<?xi32>, memref<?xi32>, memref<?xi32>, i32, memref<?xi32>
    host.write %zero, %size[%zero] : i32, memref<?xi32>, i32
    host.launch @also_stored grid %n block %b (%n, %col_idx, %pred, %size, %n, %items) : i32, memref<?xi32>, memref<?xi32>, memref<?xi32>, i32, memref<?xi32>
    // The queue keeps what the last launch appended: the claims cannot go with it.
    host.launch @expand grid %n block %b (%n, %col_idx, %pred, %size, %n, %items) : i32, memref<?xi32>, memref<?xi32>, memref<?xi32>, i32, memref<?xi32>
    // Emptied, but the items buffer is copied in between (it could be the counter).
    host.write %zero, %size[%zero] : i32, memref<?xi32>, i32
    host.copy %pred, %items, %n : memref<?xi32>, i32
    host.launch @expand grid %n block %b (%n, %col_idx, %pred, %size, %n, %items) : i32, memref<?xi32>, memref<?xi32>, memref<?xi32>, i32, memref<?xi32>
    func.return
  }
}

// CHECK-LABEL: func.func @main
// CHECK-NOT: host.clone
// CHECK: host.launch @expand
// CHECK-NEXT: host.allgather %items, %size claims(%pred : memref<?xi32>) : memref<?xi32>, memref<?xi32>
// CHECK-NEXT: host.write
// CHECK-NEXT: host.launch @stamp
// CHECK-NEXT: host.allgather %items, %size claims(%pred : memref<?xi32>) : memref<?xi32>, memref<?xi32>
// CHECK-NEXT: host.write
// CHECK-NEXT: %[[UNCHECKED:.*]] = host.clone %pred
// CHECK-NEXT: host.launch @stamp_unchecked
// CHECK-NEXT: host.allgather %items, %size : memref<?xi32>, memref<?xi32>
// CHECK-NEXT: host.allreduce %pred claim base %[[UNCHECKED]] : memref<?xi32>
// CHECK-NEXT: host.free %[[UNCHECKED]]
// CHECK-NEXT: host.write
// CHECK-NEXT: %[[UNGUARDED:.*]] = host.clone %pred
// CHECK-NEXT: host.launch @unguarded
// CHECK-NEXT: host.allgather %items, %size : memref<?xi32>, memref<?xi32>
// CHECK-NEXT: host.allreduce %pred claim base %[[UNGUARDED]] : memref<?xi32>
// CHECK-NEXT: host.free %[[UNGUARDED]]
// CHECK-NEXT: host.write
// CHECK-NEXT: %[[STORED:.*]] = host.clone %pred
// CHECK-NEXT: host.launch @also_stored
// CHECK-NEXT: host.allgather %items, %size : memref<?xi32>, memref<?xi32>
// CHECK-NEXT: host.allreduce %pred claim base %[[STORED]] : memref<?xi32>
// CHECK-NEXT: host.free %[[STORED]]
// CHECK-NEXT: %[[KEPT:.*]] = host.clone %pred
// CHECK-NEXT: host.launch @expand
// CHECK-NEXT: host.allgather %items, %size : memref<?xi32>, memref<?xi32>
// CHECK-NEXT: host.allreduce %pred claim base %[[KEPT]] : memref<?xi32>
// CHECK-NEXT: host.free %[[KEPT]]
// CHECK-NEXT: host.write
// CHECK-NEXT: host.copy
// CHECK-NEXT: %[[COPIED:.*]] = host.clone %pred
// CHECK-NEXT: host.launch @expand
// CHECK-NEXT: host.allgather %items, %size : memref<?xi32>, memref<?xi32>
// CHECK-NEXT: host.allreduce %pred claim base %[[COPIED]] : memref<?xi32>

// AUTO: host.launch @expand
// AUTO-NEXT: host.allgather %items, %size claims(%pred : memref<?xi32>) : memref<?xi32>, memref<?xi32>
// AUTO: host.launch @stamp_unchecked
// AUTO: host.allreduce %pred claim base %{{.*}} exchange auto : memref<?xi32>

// BFS: host.write %{{.*}}, %queue_size[%{{.*}}]
// BFS-NOT: host.clone
// BFS: host.launch @map_search_expand
// BFS-NEXT: host.allgather %spare_items{{.*}}, %queue_size claims(%pred : memref<?xi32>) : memref<?xi32>, memref<?xi32>
// BFS-NOT: host.allreduce %pred
// BFS-NOT: host.clone %pred
