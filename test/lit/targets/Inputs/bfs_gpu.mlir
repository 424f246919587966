// BFS (push, VERTEX_BASED, fused sparse output queue) at the GPU level, written
// by hand: the contract between the lowering passes and the printers.
builtin.module {
  gir_gpu.kernel @apply_s1(%row_ptr: memref<?xi32>, %col_idx: memref<?xi32>, %in_items: memref<?xi32>, %in_size: i32, %out_items: memref<?xi32>, %out_size: memref<?xi32>, %parent: memref<?xi32>) {
      %gid32 = gir_gpu.id global
      %gid = arith.index_cast %gid32 : i32 to index
      %active = arith.cmpi slt, %gid32, %in_size : i32
      scf.if %active {
        %src = memref.load %in_items[%gid] : memref<?xi32>
        %srci = arith.index_cast %src : i32 to index
        %c1 = arith.constant 1 : index
        %srcn = arith.addi %srci, %c1 : index
        %begin = memref.load %row_ptr[%srci] : memref<?xi32>
        %end = memref.load %row_ptr[%srcn] : memref<?xi32>
        %b = arith.index_cast %begin : i32 to index
        %e = arith.index_cast %end : i32 to index
        scf.for %edge = %b to %e step %c1 {
          %dst = memref.load %col_idx[%edge] : memref<?xi32>
          %dsti = arith.index_cast %dst : i32 to index
          %pd = memref.load %parent[%dsti] : memref<?xi32>
          %m1 = arith.constant -1 : i32
          %unvisited = arith.cmpi eq, %pd, %m1 : i32
          scf.if %unvisited {
            %old = gir_gpu.atomic_cas %parent[%dsti], %m1, %src : memref<?xi32>, index, i32
            %won = arith.cmpi eq, %old, %m1 : i32
            scf.if %won {
              %zero = arith.constant 0 : index
              %one = arith.constant 1 : i32
              %pos = gir_gpu.atomic_rmw add %one, %out_size[%zero] : i32, memref<?xi32>, index
              %posi = arith.index_cast %pos : i32 to index
              memref.store %dst, %out_items[%posi] : memref<?xi32>
            }
          }
        }
      }
      gir_gpu.return
  }
  func.func @main() {
    %g = host.load_graph {argv = 1 : i64}
    %n = host.graph_size %g vertices : i32
    %m = host.graph_size %g edges : i32
    %row_ptr = host.graph_array %g row_ptr : memref<?xi32>
    %col_idx = host.graph_array %g col_idx : memref<?xi32>
    %parent = host.alloc %n : i32 -> memref<?xi32>
    host.bind_global %parent as "parent" : memref<?xi32>
    %m1 = arith.constant -1 : i32
    host.fill %parent, %m1, %n : memref<?xi32>, i32, i32
    %start = host.argv_int argv[2] : i32
    host.write %start, %parent[%start] : i32, memref<?xi32>, i32
    %cap = arith.maxsi %n, %m : i32
    %q0 = host.alloc %cap : i32 -> memref<?xi32>
    %q1 = host.alloc %cap : i32 -> memref<?xi32>
    %c1 = arith.constant 1 : i32
    %out_size = host.alloc %c1 : i32 -> memref<?xi32>
    %c0 = arith.constant 0 : i32
    host.write %start, %q0[%c0] : i32, memref<?xi32>, i32
    host.start_timer
    %r:3 = scf.while (%in = %q0, %out = %q1, %size = %c1) : (memref<?xi32>, memref<?xi32>, i32) -> (memref<?xi32>, memref<?xi32>, i32) {
      %more = arith.cmpi ne, %size, %c0 : i32
      scf.condition(%more) %in, %out, %size : memref<?xi32>, memref<?xi32>, i32
    } do {
    ^bb0(%in2: memref<?xi32>, %out2: memref<?xi32>, %size2: i32):
      host.write %c0, %out_size[%c0] : i32, memref<?xi32>, i32
      %block = arith.constant 256 : i32
      %bm1 = arith.constant 255 : i32
      %t = arith.addi %size2, %bm1 : i32
      %grid = arith.divsi %t, %block : i32
      host.launch @apply_s1 grid %grid block %block (%row_ptr, %col_idx, %in2, %size2, %out2, %out_size, %parent) : memref<?xi32>, memref<?xi32>, memref<?xi32>, i32, memref<?xi32>, memref<?xi32>, memref<?xi32>
      %next = host.read %out_size[%c0] : memref<?xi32>, i32 -> i32
      scf.yield %out2, %in2, %next : memref<?xi32>, memref<?xi32>, i32
    }
    %t = host.stop_timer : f32
    host.print %t : f32
    func.return
  }
}
