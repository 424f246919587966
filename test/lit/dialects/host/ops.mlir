// The host dialect's syntax round-trips: print -> parse -> print gives the same
// text, also through the generic form.
// RUN: gir-opt %s > %t.1 && gir-opt -f mlir %t.1 > %t.2 && cmp %t.1 %t.2
// RUN: gir-opt %s --print-op-generic | gir-opt -f mlir > %t.3 && cmp %t.1 %t.3
// RUN: filecheck %s < %t.1

builtin.module {
  gir_gpu.kernel @scale(%out: memref<?xf32>, %n: i32) {
    gir_gpu.return
  }
  func.func @main() {
    %g = host.load_graph {argv = 1 : i64, weighted}
    %h = host.load_graph {path = "graphs/road.el"}
    %n = host.graph_size %g vertices : i32
    %m = host.graph_size %g edges : i32
    %row_ptr = host.graph_array %g row_ptr : memref<?xi32>
    %col_idx = host.graph_array %g col_idx : memref<?xi32>
    %weights = host.graph_array %g weights : memref<?xf32>
    %degrees = host.graph_array %h out_degrees : memref<?xi32>
    %start = host.argv_int argv[2] : i32
    %big = host.argv_int argv[3] : i64
    %c0 = arith.constant 0 : i32
    %f0 = arith.constant 0.0 : f32
    %buf = host.alloc %n : i32 -> memref<?xf32>
    %ints = host.alloc %m : i32 -> memref<?xi32>
    host.bind_global %buf as "rank" : memref<?xf32>
    host.fill %buf, %f0, %n : memref<?xf32>, f32, i32
    host.copy %row_ptr, %ints, %n : memref<?xi32>, i32
    host.write %start, %ints[%c0] : i32, memref<?xi32>, i32
    %x = host.read %buf[%c0] : memref<?xf32>, i32 -> f32
    host.start_timer
    host.launch @scale grid %n block %n (%buf, %n) : memref<?xf32>, i32
    %t = host.stop_timer : f64
    host.print %t : f64
    host.print %x : f32
    host.print "done"
    host.free %ints : memref<?xi32>
    func.return
  }
}

// CHECK:      %g = host.load_graph {argv = 1 : i64, weighted}
// CHECK-NEXT: %h = host.load_graph {path = "graphs/road.el"}
// CHECK-NEXT: %n = host.graph_size %g vertices : i32
// CHECK:      %weights = host.graph_array %g weights : memref<?xf32>
// CHECK:      %start = host.argv_int argv[2] : i32
// CHECK:      host.bind_global %buf as "rank" : memref<?xf32>
// CHECK:      host.launch @scale grid %n block %n (%buf, %n) : memref<?xf32>, i32
// CHECK:      host.print "done"
