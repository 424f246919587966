// Invalid frontier.dedup: every vertex of the graph (!frontier.all) has no
// storage to deduplicate.
// RUN: gir-opt %s --verify-diagnostics | filecheck %s

builtin.module {
  func.func @main() {
    %all = frontier.all_vertices : !frontier.all
    %once = frontier.dedup %all : !frontier.all
    func.return
  }
}
// CHECK: !frontier.all should be of attribute subclassing `MutableFrontierType`
