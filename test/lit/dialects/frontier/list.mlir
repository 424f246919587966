// Lists of frontiers round-trip (generic and custom syntax).
// RUN: gir-opt %s | filecheck %s
// RUN: gir-opt %s | gir-opt | filecheck %s
// RUN: gir-opt %s --print-op-generic | gir-opt | filecheck %s

builtin.module {
  func.func @main() {
    %z = arith.constant 0 : i32
    %f = frontier.new %z : i32 -> !frontier.queue
    %l = frontier.list_new : !frontier.list
    frontier.list_insert %l, %f : !frontier.queue
    %g = frontier.list_retrieve %l into %f : !frontier.queue
    %h = frontier.list_retrieve %l : !frontier.queue
    func.return
  }
}

// CHECK-LABEL: func.func @main() {
// CHECK:         %l = frontier.list_new : !frontier.list
// CHECK-NEXT:    frontier.list_insert %l, %f : !frontier.queue
// CHECK-NEXT:    %g = frontier.list_retrieve %l into %f : !frontier.queue
// CHECK-NEXT:    %h = frontier.list_retrieve %l : !frontier.queue
