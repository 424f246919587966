// RUN: gir-opt %s -p gpu-hoist-constants | filecheck %s

builtin.module {
  gir_gpu.kernel @k(%n : i32, %out : memref<?xi32>) {
    %gid = gir_gpu.id global
    %c1 = arith.constant 1 : i32
    %a = arith.addi %gid, %c1 : i32
    %ok = arith.cmpi slt, %gid, %n : i32
    scf.if %ok {
      %c1_again = arith.constant 1 : i32
      %unused = arith.constant 7 : i32
      %b = arith.addi %a, %c1_again : i32
      %i = arith.index_cast %gid : i32 to index
      memref.store %b, %out[%i] : memref<?xi32>
    }
    gir_gpu.return
  }
  gir_gpu.kernel @changed(%n : i32, %low : memref<?xi32>) {
    %gid = gir_gpu.id global
    %zero = arith.constant 0 : index
    %current = memref.load %low[%zero] : memref<?xi32>
    %lower = arith.cmpi slt, %gid, %current : i32
    %changed, %old = scf.if %lower -> (i1, i32) {
      %was = gir_gpu.atomic_rmw min %gid, %low[%zero] : i32, memref<?xi32>, index
      %fell = arith.cmpi sgt, %was, %gid : i32
      scf.yield %fell, %was : i1, i32
    } else {
      %no = arith.constant false
      scf.yield %no, %current : i1, i32
    }
    %keep = arith.addi %old, %n : i32
    memref.store %keep, %low[%zero] : memref<?xi32>
    gir_gpu.return
  }
  gir_gpu.kernel @spelled(%out : memref<?xi64>) {
    %zero = arith.constant 0 : index
    %one = arith.constant 1 : index
    %signed = arith.constant -1 : i64
    memref.store %signed, %out[%zero] : memref<?xi64>
    %unsigned = arith.constant {graph.unsigned_literal} -1 : i64
    memref.store %unsigned, %out[%one] : memref<?xi64>
    gir_gpu.return
  }
  func.func @main() {
    %dead = arith.constant 3 : i32
    %g = host.load_graph {argv = 1 : i64}
    %n = host.graph_size %g vertices : i32
    %c1 = arith.constant 1 : i32
    %buf = host.alloc %n : i32 -> memref<?xi32>
    %c1_b = arith.constant 1 : i32
    host.launch @k grid %c1 block %c1_b (%n, %buf) : i32, memref<?xi32>
    func.return
  }
}

// Each distinct constant once, at the top of its kernel or of main; unused ones go.
// CHECK-LABEL: gir_gpu.kernel @k(%n: i32, %out: memref<?xi32>) {
// CHECK-NEXT:    %c1 = arith.constant 1 : i32
// CHECK-NEXT:    %gid = gir_gpu.id global
// CHECK-NEXT:    %a = arith.addi %gid, %c1 : i32
// CHECK:           %b = arith.addi %a, %c1 : i32
// CHECK-NOT:     arith.constant 7
// An scf.if loses the results nothing reads (here the "changed" flag of a
// min reduction), and its branches the code that only computed them.
// CHECK-LABEL: gir_gpu.kernel @changed(
// CHECK:         %old = scf.if %lower -> (i32) {
// CHECK-NEXT:      %was = gir_gpu.atomic_rmw min %gid, %low[%{{.*}}] : i32, memref<?xi32>, index
// CHECK-NEXT:      scf.yield %was : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %current : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %keep = arith.addi %old, %n : i32
// The same bits spelled signed and unsigned (18446744073709551615 as a uint_64)
// stay two constants, each printed as the program wrote it.
// CHECK-LABEL: gir_gpu.kernel @spelled(
// CHECK-DAG:     %signed = arith.constant -1 : i64
// CHECK-DAG:     %unsigned = arith.constant {graph.unsigned_literal} -1 : i64
// CHECK:         memref.store %signed
// CHECK:         memref.store %unsigned
// CHECK-LABEL: func.func @main() {
// CHECK-NEXT:    %c1 = arith.constant 1 : i32
// CHECK-NEXT:    %g = host.load_graph {argv = 1 : i64}
// CHECK-NOT:     arith.constant
// CHECK:         host.launch @k grid %c1 block %c1 (%n, %buf) : i32, memref<?xi32>
