// RUN: gir-opt %s -p graph-to-host-io | filecheck %s

// Lists of numbers become the host dialect's namesakes, in loops too; the
// extern call over the list is left to frontier-host-setup.

builtin.module {
  func.func private @total(!host.number_list<i64>) -> i64
  func.func @main() {
    %l = graph.number_list_new : !host.number_list<i64>
    %c0 = arith.constant 0 : i32
    %c3 = arith.constant 3 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %c3 step %c1 : i32 {
      %x = arith.extsi %i : i32 to i64
      graph.number_list_append %l, %x : !host.number_list<i64>, i64
      scf.yield
    }
    %n = graph.number_list_size %l : !host.number_list<i64>
    %t = graph.call_extern @total(%l) vectors [] : (!host.number_list<i64>) -> i64
    %last = graph.number_list_pop %l : !host.number_list<i64> -> i64
    graph.print %last : i64
    func.return
  }
}

// CHECK:      %l = host.number_list_new : !host.number_list<i64>
// CHECK:      scf.for %i = %c0 to %c3 step %c1 : i32 {
// CHECK-NEXT:   %x = arith.extsi %i : i32 to i64
// CHECK-NEXT:   host.number_list_append %l, %x : !host.number_list<i64>, i64
// CHECK:      %n = host.number_list_size %l : !host.number_list<i64>
// CHECK-NEXT: %t = graph.call_extern @total(%l) vectors [] : (!host.number_list<i64>) -> i64
// CHECK-NEXT: %last = host.number_list_pop %l : !host.number_list<i64> -> i64
// CHECK-NEXT: host.print %last : i64
