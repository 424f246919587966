// A host function using every host op: argv, buffers, fills, copies, reads,
// writes, launches inside and outside loops, scf.for/scf.if with results on the
// host, C integer division, prints and bound globals (one freed before the end).
builtin.module {
  gir_gpu.kernel @scale_index(%out: memref<?xi32>, %n: i32, %scale: i32) {
    %gid = gir_gpu.id global
    %inside = arith.cmpi slt, %gid, %n : i32
    scf.if %inside {
      %v = arith.muli %gid, %scale : i32
      %i = arith.index_cast %gid : i32 to index
      memref.store %v, %out[%i] : memref<?xi32>
    }
    gir_gpu.return
  }
  func.func @main() {
    %n = host.argv_int argv[1] : i32
    %values = host.alloc %n : i32 -> memref<?xi32>
    host.bind_global %values as "values" : memref<?xi32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %block = arith.constant 64 : i32
    %grid = arith.ceildivsi %n, %block : i32
    host.launch @scale_index grid %grid block %block (%values, %n, %c1) : memref<?xi32>, i32, i32
    scf.for %scale = %c1 to %c3 step %c1 : i32 {
      host.launch @scale_index grid %grid block %block (%values, %n, %scale) : memref<?xi32>, i32, i32
    }
    %last = arith.subi %n, %c1 : i32
    %x = host.read %values[%last] : memref<?xi32>, i32 -> i32
    host.print %x : i32
    %m7 = arith.constant -7 : i32
    %q = arith.divsi %m7, %c2 : i32
    %r = arith.remsi %m7, %c2 : i32
    host.print %q : i32
    host.print %r : i32
    %big = arith.cmpi sgt, %x, %c3 : i32
    %flag = scf.if %big -> (i32) {
      scf.yield %c1 : i32
    } else {
      scf.yield %c0 : i32
    }
    host.print %flag : i32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %next = arith.addi %acc, %i : i32
      scf.yield %next : i32
    }
    host.print %sum : i32
    %f = arith.sitofp %sum : i32 to f32
    %h = arith.constant 0.5 : f32
    %fh = arith.mulf %f, %h : f32
    host.print %fh : f32
    host.print "done"
    %copy = host.alloc %n : i32 -> memref<?xi32>
    host.copy %values, %copy, %n : memref<?xi32>, i32
    host.fill %values, %c0, %n : memref<?xi32>, i32, i32
    host.write %c3, %copy[%c0] : i32, memref<?xi32>, i32
    host.bind_global %copy as "copy" : memref<?xi32>
    host.free %values : memref<?xi32>
    func.return
  }
}
