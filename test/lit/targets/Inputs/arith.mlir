// Every arith op the printers know, casts, float ops and literals.
builtin.module {
  gir_gpu.kernel @arith(%ints: memref<?xi32>, %longs: memref<?xi64>, %floats: memref<?xf32>, %doubles: memref<?xf64>, %bools: memref<?xi1>, %a: i32, %b: i32, %x: f32, %y: f32) {
    %gid32 = gir_gpu.id global
    %gid = arith.index_cast %gid32 : i32 to index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %m1 = arith.constant -1 : i32
    %min_int = arith.constant -2147483648 : i32
    %huge = arith.constant 5000000000 : i64
    %tenth = arith.constant 0.1 : f32
    %inf = arith.constant 0x7F800000 : f32
    %half = arith.constant 0.5 : f64
    %true = arith.constant true
    %sum = arith.addi %a, %b : i32
    %diff = arith.subi %sum, %m1 : i32
    %prod = arith.muli %diff, %a : i32
    %quot = arith.divsi %prod, %b : i32
    %rem = arith.remsi %quot, %b : i32
    %uquot = arith.divui %rem, %b : i32
    %urem = arith.remui %uquot, %b : i32
    %and = arith.andi %urem, %a : i32
    %or = arith.ori %and, %b : i32
    %xor = arith.xori %or, %m1 : i32
    %shl = arith.shli %xor, %a : i32
    %shr = arith.shrsi %shl, %b : i32
    %ushr = arith.shrui %shr, %b : i32
    %smin = arith.minsi %ushr, %min_int : i32
    %smax = arith.maxsi %smin, %a : i32
    %umin = arith.minui %smax, %b : i32
    %umax = arith.maxui %umin, %a : i32
    memref.store %umax, %ints[%gid] : memref<?xi32>
    %fsum = arith.addf %x, %y : f32
    %fdiff = arith.subf %fsum, %tenth : f32
    %fprod = arith.mulf %fdiff, %x : f32
    %fquot = arith.divf %fprod, %y : f32
    %fneg = arith.negf %fquot : f32
    %fmax = arith.maximumf %fneg, %x : f32
    %fmin = arith.minimumf %fmax, %inf : f32
    %fabs = math.absf %fmin : f32
    %root = math.sqrt %fabs : f32
    memref.store %root, %floats[%gid] : memref<?xf32>
    %lt = arith.cmpi slt, %a, %b : i32
    %ult = arith.cmpi ult, %a, %b : i32
    %flt = arith.cmpf olt, %x, %y : f32
    %fne = arith.cmpf une, %x, %y : f32
    %both = arith.andi %lt, %ult : i1
    %either = arith.ori %both, %flt : i1
    %not = arith.xori %either, %true : i1
    %pick = arith.select %fne, %not, %lt : i1
    memref.store %pick, %bools[%gid] : memref<?xi1>
    %chosen = arith.select %lt, %a, %b : i32
    %as_float = arith.sitofp %chosen : i32 to f32
    %as_int = arith.fptosi %as_float : f32 to i32
    %zext = arith.extui %lt : i1 to i32
    %sext = arith.extsi %lt : i1 to i32
    %mixed = arith.addi %zext, %sext : i32
    %bits = arith.bitcast %x : f32 to i32
    %low = arith.trunci %bits : i32 to i1
    %ubig = arith.uitofp %as_int : i32 to f32
    memref.store %ubig, %floats[%c1] : memref<?xf32>
    memref.store %mixed, %ints[%c1] : memref<?xi32>
    memref.store %low, %bools[%c1] : memref<?xi1>
    %wide = arith.extsi %as_int : i32 to i64
    %wider = arith.addi %wide, %huge : i64
    %narrow = arith.trunci %wider : i64 to i32
    memref.store %wider, %longs[%gid] : memref<?xi64>
    memref.store %narrow, %ints[%c2] : memref<?xi32>
    %double = arith.extf %x : f32 to f64
    %dsum = arith.addf %double, %half : f64
    %single = arith.truncf %dsum : f64 to f32
    memref.store %dsum, %doubles[%gid] : memref<?xf64>
    memref.store %single, %floats[%c3] : memref<?xf32>
    %index = arith.index_cast %a : i32 to index
    %offset = arith.addi %index, %c4 : index
    %back = arith.index_cast %offset : index to i32
    memref.store %back, %ints[%c0] : memref<?xi32>
    gir_gpu.return
  }
}
