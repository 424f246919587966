// RUN: gir-opt %s -p graph-default-schedule | filecheck %s

// Every edgeset apply gets an explicit schedule: G2's defaults where the program
// gave none, the given options otherwise (unsupported ones are errors, see
// lower-to-gpu-errors.mlir).

builtin.module {
  graph.global @parent : !graph.vector<i32>
  func.func @updateEdge(%src : !graph.vertex, %dst : !graph.vertex) {
    %0 = graph.vertex_id %src : i32
    graph.store %0, @parent[%dst] : !graph.vertex, i32
    func.return
  }
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %z = arith.constant 0 : i32
    %f = graph.vertexset_new %z : i32
    %a = graph.edgeset_apply %e from %f apply_modified @updateEdge {tracked = @parent, label = "s1"} : !graph.edgeset -> !graph.vertexset
    %b = graph.edgeset_apply %e from %f apply_modified @updateEdge {tracked = @parent, label = "s2", schedule = #graph.simple_schedule<deduplication = ENABLED>} : !graph.edgeset -> !graph.vertexset
    func.return
  }
}

// CHECK:      graph.edgeset_apply %e from %f apply_modified @updateEdge {tracked = @parent, label = "s1", schedule = #graph.simple_schedule<direction = PUSH, pull_frontier = BOOLMAP, load_balance = VERTEX_BASED, edge_blocking = UNBLOCKED, blocking_size = 0, frontier_creation = FUSED, deduplication = DISABLED, dedup_strategy = FUSED, delta = 1, kernel_fusion = DISABLED, block_size = 256>}
// CHECK-NEXT: graph.edgeset_apply %e from %f apply_modified @updateEdge {tracked = @parent, label = "s2", schedule = #graph.simple_schedule<direction = PUSH, pull_frontier = BOOLMAP, load_balance = VERTEX_BASED, edge_blocking = UNBLOCKED, blocking_size = 0, frontier_creation = FUSED, deduplication = ENABLED, dedup_strategy = FUSED, delta = 1, kernel_fusion = DISABLED, block_size = 256>}
