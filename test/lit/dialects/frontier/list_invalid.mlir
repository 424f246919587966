// Invalid list IR: lists hold sparse queues only.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s

builtin.module {
  func.func @main() {
    %z = arith.constant 0 : i32
    %b = frontier.new %z : i32 -> !frontier.bitmap
    %l = frontier.list_new : !frontier.list
    frontier.list_insert %l, %b : !frontier.bitmap
    func.return
  }
}
// CHECK: !frontier.bitmap should be of base attribute frontier.queue

// -----

builtin.module {
  func.func @main() {
    %all = frontier.all_vertices : !frontier.all
    %l = frontier.list_new : !frontier.list
    %g = "frontier.list_retrieve"(%l, %all) : (!frontier.list, !frontier.all) -> !frontier.queue
    func.return
  }
}
// CHECK: !frontier.all should be of base attribute frontier.queue
