// host-partition refuses a reordered graph: its part would need the relabelling too.
// RUN: not gir-opt %s -p host-partition 2>&1 | filecheck %s

builtin.module {
  func.func @main() {
    %g = host.load_graph {argv = 1 : i64, reorder = "DEGREE"}
    func.return
  }
}

// CHECK: host-partition-reordered.mlir:6:{{[0-9]+}}: error: a reordered graph (configReorder or relabel) cannot run on several devices yet: drop the reordering or run on one device
