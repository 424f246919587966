// Lane accesses must match the vector: a lane for vector elements, none for scalars.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s

builtin.module {
  graph.global @latent : !graph.vector<vector<4xf32>>
  func.func @f(%v : !graph.vertex) {
    %0 = graph.load @latent[%v] : !graph.vertex -> f32
    func.return
  }
}
// CHECK: '@latent' holds vector<4xf32> elements: address one lane as @v[index][lane]

// -----

builtin.module {
  graph.global @rank : !graph.vector<f32>
  func.func @f(%v : !graph.vertex, %i : i32, %x : f32) {
    graph.store %x, @rank[%v][%i] : !graph.vertex, f32
    func.return
  }
}
// CHECK: '@rank' holds scalars: it has no lanes to address

// -----

builtin.module {
  graph.global @latent : !graph.vector<vector<4xf32>>
  func.func @f(%v : !graph.vertex, %i : i32, %x : i32) {
    graph.store %x, @latent[%v][%i] : !graph.vertex, i32
    func.return
  }
}
// CHECK: '@latent' holds f32, not i32
