// Host ops the end-to-end programs use less often, for the CUDA host printer:
// a graph path given in the IR, weighted and blocked graph arrays as floats,
// float argv, copies, fills with infinities, float reads and writes, a
// persistent kernel's resident grid, timers, bit casts, unsigned minimum, and
// strings (print text, global names, paths) that C must only see as data.
builtin.module {
  gir_gpu.kernel @spin(%data: memref<?xf32>, %n: i32) attributes {gir_gpu.persistent} {
    gir_gpu.return
  }
  gir_gpu.kernel @std_user(%data: memref<?xf32>) {
    gir_gpu.return
  }
  func.func @main() {
    %g = host.load_graph {path = "g\"raph\\n*/.wel", weighted}
    %n = host.graph_size %g vertices : i32
    %m = host.graph_size %g edges : i32
    %w = host.graph_array %g blocked_weights {blocking_size = 1024 : i64} : memref<?xf32>
    %off = host.graph_array %g block_offsets {blocking_size = 1024 : i64} : memref<?xi32>
    %alpha = host.argv_int argv[2] : f64
    %std = host.alloc %m : i32 -> memref<?xf32>
    host.bind_global %std as "we\"ird */ name" : memref<?xf32>
    %inf = arith.constant 0x7F800000 : f32
    host.fill %std, %inf, %m : memref<?xf32>, f32, i32
    host.copy %w, %std, %m : memref<?xf32>, i32
    %c0 = arith.constant 0 : i32
    %c256 = arith.constant 256 : i32
    host.start_timer
    %grid = host.resident_blocks @spin block %c256 per_sm 2
    host.launch @spin grid %grid block %c256 (%std, %n) : memref<?xf32>, i32
    %t = host.stop_timer : f32
    host.print %t : f32
    %first = host.read %std[%c0] : memref<?xf32>, i32 -> f32
    %bits = arith.bitcast %first : f32 to i32
    %low = arith.minui %bits, %m : i32
    host.print %low : i32
    %first_offset = host.read %off[%c0] : memref<?xi32>, i32 -> i32
    host.print %first_offset : i32
    %alpha32 = arith.truncf %alpha : f64 to f32
    host.write %alpha32, %std[%c0] : f32, memref<?xf32>, i32
    host.print "tab\tquote\" ??= end"
    host.free %std : memref<?xf32>
    func.return
  }
}
