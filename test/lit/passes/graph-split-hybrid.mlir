// RUN: gir-opt %s -p graph-split-hybrid | filecheck %s
// RUN: gir-opt %s -p graph-split-hybrid,graph-specialize-udfs | filecheck %s --check-prefix=CLONES

// A hybrid apply becomes an scf.if on |input| < threshold * |V| choosing between
// two copies of the apply, each with one part of the hybrid and its own label;
// a threshold "argv[N]" is read as a float at run time.
builtin.module {
  graph.global @parent : !graph.vector<i32>
  func.func @unseen(%v : !graph.vertex) -> i1 {
    %0 = graph.load @parent[%v] : !graph.vertex -> i32
    %c = arith.constant -1 : i32
    %1 = arith.cmpi eq, %0, %c : i32
    func.return %1 : i1
  }
  func.func @claim(%src : !graph.vertex, %dst : !graph.vertex) {
    %0 = graph.vertex_id %src : i32
    graph.store %0, @parent[%dst] : !graph.vertex, i32
    func.return
  }
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %z = arith.constant 0 : i32
    %f = graph.vertexset_new %z : i32
    %o = graph.edgeset_apply %e from %f apply_modified @claim {to_filter = @unseen, tracked = @parent, label = "s1", schedule = #graph.hybrid_schedule<INPUT_VERTEXSET_SIZE, threshold = 0.25, #graph.simple_schedule<load_balance = EDGE_ONLY>, #graph.simple_schedule<direction = PULL, pull_frontier = BITMAP>>} : !graph.edgeset -> !graph.vertexset
    %p = graph.edgeset_apply %e from %o apply_modified @claim {to_filter = @unseen, tracked = @parent, label = "s2", schedule = #graph.hybrid_schedule<INPUT_VERTEXSET_SIZE, threshold = #graph.argv<3>, #graph.simple_schedule, #graph.simple_schedule<load_balance = EDGE_ONLY>>} : !graph.edgeset -> !graph.vertexset
    func.return
  }
}

// CHECK:      %[[ALL:.*]] = graph.get_vertices %e : !graph.edgeset
// CHECK-NEXT: %vertex_count = graph.vertexset_size %[[ALL]] : i32
// CHECK-NEXT: %input_size = graph.vertexset_size %f : i32
// CHECK-NEXT: %threshold = arith.constant 2.500000e-01 : f64
// CHECK-NEXT: %[[SIZE:.*]] = arith.sitofp %input_size : i32 to f64
// CHECK-NEXT: %[[COUNT:.*]] = arith.sitofp %vertex_count : i32 to f64
// CHECK-NEXT: %[[LIMIT:.*]] = arith.mulf %threshold, %[[COUNT]] : f64
// CHECK-NEXT: %small_input = arith.cmpf olt, %[[SIZE]], %[[LIMIT]] : f64
// CHECK-NEXT: %o = scf.if %small_input -> (!graph.vertexset) {
// CHECK-NEXT:   %[[FIRST:.*]] = graph.edgeset_apply %e from %f apply_modified @claim {{.*}}label = "s1:first", schedule = #graph.simple_schedule<direction = PUSH, {{.*}}load_balance = EDGE_ONLY{{.*}}
// CHECK-NEXT:   scf.yield %[[FIRST]] : !graph.vertexset
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[SECOND:.*]] = graph.edgeset_apply %e from %f apply_modified @claim {{.*}}label = "s1:second", schedule = #graph.simple_schedule<direction = PULL, pull_frontier = BITMAP, load_balance = VERTEX_BASED{{.*}}
// CHECK-NEXT:   scf.yield %[[SECOND]] : !graph.vertexset
// CHECK-NEXT: }
// CHECK:      %threshold_1 = graph.argv_int argv[3] : f64
// CHECK:      %p = scf.if

// Each branch is its own statement, with its own copy of the user functions.
// CLONES-DAG: func.func @claim_s1_second(
// CLONES-DAG: func.func @claim_s2_first(
// CLONES-DAG: func.func @claim_s2_second(
// CLONES-DAG: func.func @unseen_s1_second(
