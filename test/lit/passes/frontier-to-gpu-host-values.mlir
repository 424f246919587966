// RUN: gir-opt %s -p frontier-to-gpu | filecheck %s

// A vertex function that reads a host frontier's size (GraphIt's
// `1.0 / vertices.size()`): the size is computed on the host before the launch
// and passed to the kernel as a scalar argument.
builtin.module {
  graph.global @rank : !graph.vector<f64>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %all = frontier.all_vertices : !frontier.all
    frontier.vertex_map %all : !frontier.all {
    ^bb0(%v : !graph.vertex):
      %n = frontier.size %all : !frontier.all -> i32
      %nf = arith.sitofp %n : i32 to f64
      %one = arith.constant 1.0 : f64
      %r = arith.divf %one, %nf : f64
      graph.store %r, @rank[%v] : !graph.vertex, f64
      frontier.yield
    }
    func.return
  }
}

// CHECK:      gir_gpu.kernel @[[KERNEL:.*]](%num_vertices: i32, %rank: memref<?xf64>) {
// CHECK:        scf.if
// CHECK-NEXT:     %nf = arith.sitofp %num_vertices : i32 to f64
// CHECK-NEXT:     %r = arith.divf %{{.*}}, %nf : f64
// CHECK:      func.func @main() {
// CHECK:        %num_vertices = host.graph_size %graph vertices : i32
// CHECK:        host.launch @[[KERNEL]] grid %{{.*}} block %{{.*}} (%num_vertices, %rank) : i32, memref<?xf64>
