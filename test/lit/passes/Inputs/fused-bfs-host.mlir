builtin.module {
  gir_gpu.kernel @map_search_expand(%wave_size: i32, %wave_items: memref<?xi32>, %row_ptr: memref<?xi32>, %col_idx: memref<?xi32>, %pred: memref<?xi32>, %queue_size: memref<?xi32>, %queue_capacity: i32, %spare_items: memref<?xi32>) {
    %0 = arith.constant 1 : index
    %1 = arith.constant -1 : i32
    %2 = arith.constant 1 : i32
    %3 = arith.constant 0 : i32
    %gid = gir_gpu.id global
    %4 = arith.cmpi slt, %gid, %wave_size : i32
    scf.if %4 {
      %5 = arith.index_cast %gid : i32 to index
      %vertex = memref.load %wave_items[%5] : memref<?xi32>
      %6 = arith.index_cast %vertex : i32 to index
      %7 = arith.addi %6, %0 : index
      %8 = memref.load %row_ptr[%6] : memref<?xi32>
      %9 = memref.load %row_ptr[%7] : memref<?xi32>
      %begin = arith.index_cast %8 : i32 to index
      %end = arith.index_cast %9 : i32 to index
      scf.for %edge = %begin to %end step %0 {
        %dst = memref.load %col_idx[%edge] : memref<?xi32>
        %10 = arith.index_cast %dst : i32 to index
        %11 = memref.load %pred[%10] : memref<?xi32>
        %fresh = arith.cmpi eq, %11, %1 : i32
        scf.if %fresh {
          %12 = arith.index_cast %dst : i32 to index
          %13 = gir_gpu.atomic_cas %pred[%12], %1, %vertex : memref<?xi32>, index, i32
          %14 = arith.cmpi eq, %13, %1 : i32
          scf.if %14 {
            %15 = arith.index_cast %3 : i32 to index
            %position = gir_gpu.atomic_rmw add %2, %queue_size[%15] : i32, memref<?xi32>, index
            %16 = arith.cmpi slt, %position, %queue_capacity : i32
            scf.if %16 {
              %17 = arith.index_cast %position : i32 to index
              memref.store %dst, %spare_items[%17] : memref<?xi32>
            }
          }
        }
      }
    }
    gir_gpu.return
  }
  gir_gpu.kernel @map_seen(%num_vertices: i32, %pred: memref<?xi32>, %queue_size: memref<?xi32>, %queue_capacity: i32, %queue: memref<?xi32>) {
    %0 = arith.constant -1 : i32
    %1 = arith.constant 1 : i32
    %2 = arith.constant 0 : i32
    %gid = gir_gpu.id global
    %3 = arith.cmpi slt, %gid, %num_vertices : i32
    scf.if %3 {
      %4 = arith.index_cast %gid : i32 to index
      %5 = memref.load %pred[%4] : memref<?xi32>
      %found = arith.cmpi ne, %5, %0 : i32
      scf.if %found {
        %6 = arith.index_cast %2 : i32 to index
        %position = gir_gpu.atomic_rmw add %1, %queue_size[%6] : i32, memref<?xi32>, index
        %7 = arith.cmpi slt, %position, %queue_capacity : i32
        scf.if %7 {
          %8 = arith.index_cast %position : i32 to index
          memref.store %gid, %queue[%8] : memref<?xi32>
        }
      }
    }
    gir_gpu.return
  }
  func.func @main() {
    %0 = arith.constant 1 : i32
    %1 = arith.constant -1 : i32
    %depth = arith.constant 0 : i32
    %2 = arith.constant 256 : i32
    %3 = arith.constant 255 : i32
    %graph = host.load_graph {argv = 1 : i64}
    %num_vertices = host.graph_size %graph vertices : i32
    %num_edges = host.graph_size %graph edges : i32
    %pred = host.alloc %num_vertices : i32 -> memref<?xi32>
    host.bind_global %pred as "pred" : memref<?xi32>
    %row_ptr = host.graph_array %graph row_ptr : memref<?xi32>
    %col_idx = host.graph_array %graph col_idx : memref<?xi32>
    %queue_capacity = arith.maxsi %num_vertices, %num_edges : i32
    %queue_size = host.alloc %0 : i32 -> memref<?xi32>
    host.fill %pred, %1, %num_vertices : memref<?xi32>, i32, i32
    %root = host.argv_int argv[2] : i32
    %queue = host.alloc %queue_capacity : i32 -> memref<?xi32>
    host.write %root, %queue[%depth] : i32, memref<?xi32>, i32
    %4 = arith.addi %depth, %0 : i32
    %queue_1 = host.alloc %queue_capacity : i32 -> memref<?xi32>
    host.write %root, %pred[%root] : i32, memref<?xi32>, i32
    %depth_1, %5, %6, %7, %8 = scf.while (%depth_2 = %depth, %wave_items = %queue, %wave_size = %4, %spare_items = %queue_1, %spare_size = %depth) : (i32, memref<?xi32>, i32, memref<?xi32>, i32) -> (i32, memref<?xi32>, i32, memref<?xi32>, i32) {
      %9 = arith.cmpi ne, %wave_size, %depth : i32
      scf.condition(%9) %depth_2, %wave_items, %wave_size, %spare_items, %spare_size : i32, memref<?xi32>, i32, memref<?xi32>, i32
    } do {
    ^bb0(%depth_3: i32, %wave_items_1: memref<?xi32>, %wave_size_1: i32, %spare_items_1: memref<?xi32>, %spare_size_1: i32):
      host.write %depth, %queue_size[%depth] : i32, memref<?xi32>, i32
      %10 = arith.addi %wave_size_1, %3 : i32
      %11 = arith.divsi %10, %2 : i32
      %12 = arith.maxsi %11, %0 : i32
      host.launch @map_search_expand grid %12 block %2 (%wave_size_1, %wave_items_1, %row_ptr, %col_idx, %pred, %queue_size, %queue_capacity, %spare_items_1) : i32, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>, i32, memref<?xi32>
      %13 = host.read %queue_size[%depth] : memref<?xi32>, i32 -> i32
      %size = arith.minsi %13, %queue_capacity : i32
      %depth_4 = arith.addi %depth_3, %0 : i32
      scf.yield %depth_4, %spare_items_1, %size, %wave_items_1, %wave_size_1 : i32, memref<?xi32>, i32, memref<?xi32>, i32
    } attributes {graph.label = "search", graph.schedule = #graph.simple_schedule<direction = PUSH, pull_frontier = BOOLMAP, load_balance = VERTEX_BASED, edge_blocking = UNBLOCKED, blocking_size = 0, frontier_creation = FUSED, deduplication = DISABLED, dedup_strategy = FUSED, delta = 1, kernel_fusion = ENABLED, block_size = 256>}
    host.free %7 : memref<?xi32>
    host.free %5 : memref<?xi32>
    %queue_2 = host.alloc %queue_capacity : i32 -> memref<?xi32>
    host.write %depth, %queue_size[%depth] : i32, memref<?xi32>, i32
    %14 = arith.addi %num_vertices, %3 : i32
    %15 = arith.divsi %14, %2 : i32
    %16 = arith.maxsi %15, %0 : i32
    host.launch @map_seen grid %16 block %2 (%num_vertices, %pred, %queue_size, %queue_capacity, %queue_2) : i32, memref<?xi32>, memref<?xi32>, i32, memref<?xi32>
    %17 = host.read %queue_size[%depth] : memref<?xi32>, i32 -> i32
    %size_1 = arith.minsi %17, %queue_capacity : i32
    host.print %size_1 : i32
    host.print %depth_1 : i32
    host.free %queue_2 : memref<?xi32>
    func.return
  }
}

