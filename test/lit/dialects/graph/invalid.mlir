// Invalid graph-dialect IR: one diagnostic per chunk.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s

builtin.module {
  graph.global @edges : !graph.edgeset
  graph.global @parent : !graph.vector<i32>
  func.func @f(%v : !graph.vertex) -> i32 {
    %0 = graph.load @parent[%v] : !graph.vertex -> i32
    func.return %0 : i32
  }
  func.func @u(%s : !graph.vertex, %d : !graph.vertex) {
    func.return
  }
  func.func @main() {
    %e = graph.global_load @edges : !graph.edgeset
    graph.edgeset_apply %e apply @u {to_filter = @f} : !graph.edgeset
    func.return
  }
}
// CHECK: to filter '@f' must have type (!graph.vertex) -> (i1), got (!graph.vertex) -> i32

// -----

builtin.module {
  graph.global @edges : !graph.edgeset
  func.func @u(%s : !graph.vertex, %d : !graph.vertex, %w : i32) {
    func.return
  }
  func.func @main() {
    %e = graph.global_load @edges : !graph.edgeset
    graph.edgeset_apply %e apply @u : !graph.edgeset
    func.return
  }
}
// CHECK: edge function '@u' takes a weight, but the edgeset is unweighted

// -----

builtin.module {
  graph.global @edges : !graph.edgeset
  graph.global @parent : !graph.vector<i32>
  graph.global @other : !graph.vector<i32>
  func.func @u(%s : !graph.vertex, %d : !graph.vertex) {
    %0 = graph.vertex_id %s : i32
    graph.store %0, @other[%d] : !graph.vertex, i32
    func.return
  }
  func.func @main() {
    %e = graph.global_load @edges : !graph.edgeset
    %all = graph.get_vertices %e : !graph.edgeset
    %o = graph.edgeset_apply %e from %all apply_modified @u {tracked = @parent} : !graph.edgeset -> !graph.vertexset
    func.return
  }
}
// CHECK: applyModified tracks '@parent', which edge function '@u' never writes

// -----

builtin.module {
  graph.global @edges : !graph.edgeset
  func.func @u(%s : !graph.vertex, %d : !graph.vertex) {
    func.return
  }
  func.func @main() {
    %e = graph.global_load @edges : !graph.edgeset
    graph.edgeset_apply %e apply @u {schedule = #graph.simple_schedule<delta = 4>} : !graph.edgeset
    func.return
  }
}
// CHECK: delta applies only to applyUpdatePriority (a priority-queue apply)

// -----

builtin.module {
  graph.global @edges : !graph.edgeset
  func.func @u(%s : !graph.vertex, %d : !graph.vertex) {
    func.return
  }
  func.func @main() {
    %e = graph.global_load @edges : !graph.edgeset
    graph.edgeset_apply %e apply @u {schedule = #graph.simple_schedule<kernel_fusion = ENABLED, block_size = 256>} : !graph.edgeset
    func.return
  }
}
// CHECK: kernel fusion applies to a while loop, not to an edgeset apply

// -----

builtin.module {
  graph.global @edges : !graph.edgeset
  func.func @u(%s : !graph.vertex, %d : !graph.vertex) {
    func.return
  }
  func.func @main() {
    %e = graph.global_load @edges : !graph.edgeset
    graph.edgeset_apply %e apply @u {schedule = #graph.simple_schedule<load_balance = TWCE, edge_blocking = BLOCKED, blocking_size = 1024>} : !graph.edgeset
    func.return
  }
}
// CHECK: edge blocking (BLOCKED) requires load balance EDGE_ONLY, got TWCE

// -----

builtin.module {
  graph.global @rank : !graph.vector<f32>
  func.func @main() {
    %c = arith.constant 0 : i32
    graph.vector_fill @rank, %c : i32
    func.return
  }
}
// CHECK: cannot fill '@rank' of f32 with i32

// -----

builtin.module {
  graph.global @rank : !graph.vector<f32>
  func.func @u(%v : !graph.vertex) {
    %c = arith.constant 0 : i32
    graph.store %c, @rank[%v] : !graph.vertex, i32
    func.return
  }
}
// CHECK: '@rank' holds f32, not i32

// -----

builtin.module {
  graph.global @x : !graph.vertex
}
// CHECK: global '@x' has type !graph.vertex, which is not an edgeset, vertexset, vector, scalar, list or priority queue

// -----

builtin.module {
  func.func @main() {
    %c = arith.constant 0 : i32
    %v = graph.load @missing[%c] : i32 -> i32
    func.return
  }
}
// CHECK: '@missing' is not a global vector of the program

// -----

builtin.module {
  graph.global @edges : !graph.edgeset
  graph.global @d : !graph.vector<i32>
  func.func @u(%s : !graph.vertex, %d : !graph.vertex) {
    %c = arith.constant 0 : i32
    %x = graph.reduce min %c, @d[%d] : !graph.vertex, i32
    func.return
  }
  func.func @main() {
    %e = graph.global_load @edges : !graph.edgeset
    graph.edgeset_apply %e apply @u {dedup} : !graph.edgeset
    func.return
  }
}
// CHECK: dedup applies only to apply_modified

// -----

builtin.module {
  func.func @main() {
    %e = graph.load_edges : !graph.edgeset
    func.return
  }
}
// CHECK: graph.load_edges needs exactly one of argv or path

// -----

builtin.module {
  graph.global @d : !graph.vector<0 x i32>
}
// CHECK: a fixed-size vector needs a positive size

// -----

builtin.module {
  func.func @main() {
    %x = graph.argv_int argv[-1] : i32
    func.return
  }
}
// CHECK: graph.argv_int: argv index -1 is negative

// -----

builtin.module {
  func.func @main() {
    %e = graph.load_edges {argv = -3 : i64} : !graph.edgeset
    func.return
  }
}
// CHECK: graph.load_edges: argv index -3 is negative
