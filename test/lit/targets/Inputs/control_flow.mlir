// scf.if with results and an else, scf.for with loop-carried values (one pair
// swapped each iteration), and scf.while in both shapes: forwarding its own
// variables, and forwarding computed values.
builtin.module {
  gir_gpu.kernel @control_flow(%row_ptr: memref<?xi32>, %values: memref<?xi32>, %out: memref<?xi32>, %n: i32) {
    %gid32 = gir_gpu.id global
    %gid = arith.index_cast %gid32 : i32 to index
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %i1 = arith.constant 1 : index
    %inside = arith.cmpi slt, %gid32, %n : i32
    %clamped = scf.if %inside -> (i32) {
      scf.yield %gid32 : i32
    } else {
      %last = arith.subi %n, %c1 : i32
      scf.yield %last : i32
    }
    %v = arith.index_cast %clamped : i32 to index
    %next = arith.addi %v, %i1 : index
    %begin32 = memref.load %row_ptr[%v] : memref<?xi32>
    %end32 = memref.load %row_ptr[%next] : memref<?xi32>
    %begin = arith.index_cast %begin32 : i32 to index
    %end = arith.index_cast %end32 : i32 to index
    %total, %a, %b = scf.for %edge = %begin to %end step %i1 iter_args(%acc = %c0, %x = %c0, %y = %c1) -> (i32, i32, i32) {
      %value = memref.load %values[%edge] : memref<?xi32>
      %acc2 = arith.addi %acc, %value : i32
      scf.yield %acc2, %y, %x : i32, i32, i32
    }
    %steps = scf.while (%k = %total) : (i32) -> i32 {
      %more = arith.cmpi sgt, %k, %c0 : i32
      scf.condition(%more) %k : i32
    } do {
    ^bb0(%k2: i32):
      %half = arith.divsi %k2, %c1 : i32
      %smaller = arith.subi %half, %c1 : i32
      scf.yield %smaller : i32
    }
    %found = scf.while (%j = %c0) : (i32) -> i32 {
      %j1 = arith.addi %j, %c1 : i32
      %go = arith.cmpi slt, %j1, %n : i32
      scf.condition(%go) %j1 : i32
    } do {
    ^bb0(%j2: i32):
      scf.yield %j2 : i32
    }
    %r = arith.addi %steps, %found : i32
    %r2 = arith.addi %r, %a : i32
    %r3 = arith.addi %r2, %b : i32
    memref.store %r3, %out[%gid] : memref<?xi32>
    gir_gpu.return
  }
}
