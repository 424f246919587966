// Schedule attributes: G2's defaults fill unspecified fields, every field prints,
// and the hybrid schedule nests two simple ones.
// RUN: gir-opt %s | filecheck %s
// RUN: gir-opt %s | gir-opt | filecheck %s

builtin.module {
  graph.global @default : i32 {s = #graph.simple_schedule}
  graph.global @twce : i32 {s = #graph.simple_schedule<load_balance = TWCE, deduplication = ENABLED, dedup_strategy = UNFUSED>}
  graph.global @pull : i32 {s = #graph.simple_schedule<direction = PULL, pull_frontier = BITMAP, frontier_creation = UNFUSED_BITMAP>}
  graph.global @blocked : i32 {s = #graph.simple_schedule<direction = PULL, load_balance = EDGE_ONLY, edge_blocking = BLOCKED, blocking_size = 270336>}
  graph.global @sweep : i32 {s = #graph.simple_schedule<direction = PULL, load_balance = EDGE_ONLY, edge_blocking = BLOCKED_SWEEP, blocking_size = 16384>}
  graph.global @delta : i32 {s = #graph.simple_schedule<delta = #graph.argv<3>, frontier_creation = UNFUSED_BOOLMAP>}
  graph.global @fused : i32 {s = #graph.simple_schedule<kernel_fusion = ENABLED, block_size = 256>}
  graph.global @hybrid : i32 {s = #graph.hybrid_schedule<INPUT_VERTEXSET_SIZE, threshold = 0.01, #graph.simple_schedule<load_balance = TWCE>, #graph.simple_schedule<direction = PULL>>}
  graph.global @hybrid_argv : i32 {s = #graph.hybrid_schedule<INPUT_VERTEXSET_SIZE, threshold = #graph.argv<3>, #graph.simple_schedule, #graph.simple_schedule>}
  graph.global @sampled : i32 {s = #graph.simple_schedule<edge_sample = 2>}
}
// CHECK: @default : i32 {s = #graph.simple_schedule<direction = PUSH, pull_frontier = BOOLMAP, load_balance = VERTEX_BASED, edge_blocking = UNBLOCKED, blocking_size = 0, frontier_creation = FUSED, deduplication = DISABLED, dedup_strategy = FUSED, delta = 1, kernel_fusion = DISABLED, block_size = 256>
// CHECK-NEXT: @twce : i32 {s = #graph.simple_schedule<{{.*}}load_balance = TWCE{{.*}}deduplication = ENABLED, dedup_strategy = UNFUSED
// CHECK-NEXT: @pull : i32 {s = #graph.simple_schedule<direction = PULL, pull_frontier = BITMAP{{.*}}frontier_creation = UNFUSED_BITMAP
// CHECK-NEXT: @blocked : i32 {s = #graph.simple_schedule<direction = PULL{{.*}}load_balance = EDGE_ONLY, edge_blocking = BLOCKED, blocking_size = 270336
// CHECK-NEXT: @sweep : i32 {s = #graph.simple_schedule<direction = PULL{{.*}}load_balance = EDGE_ONLY, edge_blocking = BLOCKED_SWEEP, blocking_size = 16384
// CHECK-NEXT: @delta : i32 {s = #graph.simple_schedule<{{.*}}frontier_creation = UNFUSED_BOOLMAP{{.*}}delta = #graph.argv<3>
// CHECK-NEXT: @fused : i32 {s = #graph.simple_schedule<{{.*}}kernel_fusion = ENABLED, block_size = 256>
// CHECK-NEXT: @hybrid : i32 {s = #graph.hybrid_schedule<INPUT_VERTEXSET_SIZE, threshold = 0.01, #graph.simple_schedule<{{.*}}load_balance = TWCE{{.*}}>, #graph.simple_schedule<direction = PULL{{.*}}>>
// CHECK-NEXT: @hybrid_argv : i32 {s = #graph.hybrid_schedule<INPUT_VERTEXSET_SIZE, threshold = #graph.argv<3>,
// An edge sample prints only when set (after the other fields).
// CHECK:      @sampled : i32 {s = #graph.simple_schedule<{{.*}}block_size = 256, edge_sample = 2>}
