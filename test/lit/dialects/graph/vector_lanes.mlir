// Vectors whose elements are fixed-size vectors: `!graph.vector<vector<KxT>>`
// (GraphIt's vector{Vertex}(vector[K](T))) and `!graph.vector<N x vector<KxT>>`,
// addressed one lane at a time as @v[index][lane]; the text round-trips.
// RUN: gir-opt %s | filecheck %s
// RUN: gir-opt %s | gir-opt | filecheck %s

builtin.module {
  graph.global @latent : !graph.vector<vector<20xf32>>
  graph.global @table : !graph.vector<3 x vector<2xi32>>
  func.func @f(%v : !graph.vertex, %i : i32, %x : f32) {
    %0 = graph.load @latent[%v][%i] : !graph.vertex -> f32
    graph.store %0, @latent[%v][%i] : !graph.vertex, f32
    %1 = graph.reduce add %x, @latent[%v][%i] atomic : !graph.vertex, f32
    %2 = graph.compare_and_swap @latent[%v][%i], %x, %0 : !graph.vertex, f32
    %3 = graph.load @table[%i][%i] : i32 -> i32
    func.return
  }
}

// CHECK:      graph.global @latent : !graph.vector<vector<20xf32>>
// CHECK-NEXT: graph.global @table : !graph.vector<3 x vector<2xi32>>
// CHECK:      %0 = graph.load @latent[%v][%i] : !graph.vertex -> f32
// CHECK-NEXT: graph.store %0, @latent[%v][%i] : !graph.vertex, f32
// CHECK-NEXT: %1 = graph.reduce add %x, @latent[%v][%i] atomic : !graph.vertex, f32
// CHECK-NEXT: %2 = graph.compare_and_swap @latent[%v][%i], %x, %0 : !graph.vertex, f32
// CHECK-NEXT: %3 = graph.load @table[%i][%i] : i32 -> i32
