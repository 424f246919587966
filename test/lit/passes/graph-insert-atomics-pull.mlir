// RUN: gir-opt %s -p graph-default-schedule,graph-specialize-udfs,graph-insert-atomics | filecheck %s
// RUN: sed -e "s/direction = PULL>/direction = PULL, load_balance = TWCE>/" %s | gir-opt -p graph-default-schedule,graph-specialize-udfs,graph-insert-atomics | filecheck %s --check-prefix=SHARED
// RUN: sed -e "s/direction = PULL>/direction = PULL, load_balance = TWC>/" %s | gir-opt -p graph-default-schedule,graph-specialize-udfs,graph-insert-atomics | filecheck %s --check-prefix=SHARED
// RUN: sed -e "s/direction = PULL>/direction = PULL, load_balance = WM>/" %s | gir-opt -p graph-default-schedule,graph-specialize-udfs,graph-insert-atomics | filecheck %s --check-prefix=SHARED
// RUN: sed -e "s/direction = PULL>/direction = PULL, load_balance = CM>/" %s | gir-opt -p graph-default-schedule,graph-specialize-udfs,graph-insert-atomics | filecheck %s --check-prefix=SHARED
// RUN: sed -e "s/direction = PULL>/direction = PULL, load_balance = STRICT>/" %s | gir-opt -p graph-default-schedule,graph-specialize-udfs,graph-insert-atomics | filecheck %s --check-prefix=SHARED
// RUN: sed -e "s/direction = PULL>/direction = PULL, load_balance = MERGE_PATH>/" %s | gir-opt -p graph-default-schedule,graph-specialize-udfs,graph-insert-atomics | filecheck %s --check-prefix=SHARED

// Atomics are decided per direction: a PULL thread owns its destination, so a
// reduction into the destination's element stays plain, even from a frontier;
// the same function applied in PUSH (its own clone, from graph-specialize-udfs)
// gets the atomic, and a reduction into the source's element is shared in PULL.
// A strategy that spreads a destination's in-edges over several threads (every
// load balance but VERTEX_BASED: `owns_iterated_vertex`) shares it: atomic,
// and `clustered`, since those threads are neighbours.
// SHARED-LABEL: func.func @gather(
// SHARED:         graph.reduce add %one, @sum[%dst] atomic clustered : !graph.vertex, i32
// SHARED:         graph.reduce add %one, @out[%src] atomic : !graph.vertex, i32
builtin.module {
  graph.global @sum : !graph.vector<i32>
  graph.global @out : !graph.vector<i32>
  func.func @gather(%src : !graph.vertex, %dst : !graph.vertex) {
    %one = arith.constant 1 : i32
    %0 = graph.reduce add %one, @sum[%dst] : !graph.vertex, i32
    %1 = graph.reduce add %one, @out[%src] : !graph.vertex, i32
    func.return
  }
  // CHECK-LABEL: func.func @gather(
  // CHECK:         graph.reduce add %one, @sum[%dst] : !graph.vertex, i32
  // CHECK:         graph.reduce add %one, @out[%src] atomic : !graph.vertex, i32
  // CHECK-LABEL: func.func @gather_pushed(
  // CHECK:         graph.reduce add %one, @sum[%dst] atomic : !graph.vertex, i32
  // CHECK:         graph.reduce add %one, @out[%src] : !graph.vertex, i32

  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    graph.edgeset_apply %e apply @gather {label = "pulled", schedule = #graph.simple_schedule<direction = PULL>} : !graph.edgeset
    graph.edgeset_apply %e apply @gather {label = "pushed"} : !graph.edgeset
    func.return
  }
}
