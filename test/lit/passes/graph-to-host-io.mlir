// RUN: gir-opt %s -p graph-to-host-io | filecheck %s

// The command line, output and timers become host ops inside and outside loops;
// every other op is left alone.

builtin.module {
  func.func @main() {
    %s = graph.argv_int argv[2] : i32
    %w = graph.argv_int argv[3] : i64
    graph.start_timer
    %c0 = arith.constant 0 : i32
    %c3 = arith.constant 3 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %c3 step %c1 : i32 {
      graph.print %i : i32
      scf.yield
    }
    %t = graph.stop_timer : f64
    graph.print %t : f64
    graph.print %w : i64
    graph.print "done"
    %sum = arith.addi %s, %c1 : i32
    graph.print %sum : i32
    func.return
  }
}

// CHECK:      func.func @main() {
// CHECK-NEXT:   %s = host.argv_int argv[2] : i32
// CHECK-NEXT:   %w = host.argv_int argv[3] : i64
// CHECK-NEXT:   host.start_timer
// CHECK:        scf.for %i = %c0 to %c3 step %c1 : i32 {
// CHECK-NEXT:     host.print %i : i32
// CHECK:        %t = host.stop_timer : f64
// CHECK-NEXT:   host.print %t : f64
// CHECK-NEXT:   host.print %w : i64
// CHECK-NEXT:   host.print "done"
// CHECK-NEXT:   %sum = arith.addi %s, %c1 : i32
// CHECK-NEXT:   host.print %sum : i32
// CHECK-NOT:    graph.

// Strings: literals, argv as written and their comparison become host ops; a
// string printed or carried by a loop keeps its !host.string type.

builtin.module {
  func.func @main() {
    %name = graph.argv_string argv[2] : !host.string
    %gir = graph.string_constant "gir" : !host.string
    %same = graph.string_eq %name, %gir
    graph.print %same : i1
    %n = graph.string_to_int %name : i64
    graph.print %n : i64
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %c1 = arith.constant 1 : i32
    %last = scf.for %i = %c0 to %c2 step %c1 iter_args(%s = %name) -> (!host.string) : i32 {
      graph.print %s : !host.string
      scf.yield %gir : !host.string
    }
    graph.print %last : !host.string
    func.return
  }
}

// CHECK:      %name = host.argv_string argv[2] : !host.string
// CHECK-NEXT: %gir = host.string_constant "gir" : !host.string
// CHECK-NEXT: %same = host.string_eq %name, %gir
// CHECK-NEXT: host.print %same : i1
// CHECK-NEXT: %n = host.string_to_int %name : i64
// CHECK-NEXT: host.print %n : i64
// CHECK:      %last = scf.for %i = %c0 to %c2 step %c1 iter_args(%s = %name) -> (!host.string) : i32 {
// CHECK-NEXT:   host.print %s : !host.string
// CHECK-NEXT:   scf.yield %gir : !host.string
// CHECK:      host.print %last : !host.string
