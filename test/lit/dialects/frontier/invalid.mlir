// Invalid frontier-dialect IR: one diagnostic per chunk.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s

builtin.module {
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %all = frontier.all_vertices : !frontier.all
    frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %all : !frontier.all apply {
    ^bb0(%src : !graph.vertex):
      frontier.yield
    }
    func.return
  }
}
// CHECK: the apply region takes (src, dst[, weight]) of types (!graph.vertex, !graph.vertex), got (!graph.vertex)

// -----

builtin.module {
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %all = frontier.all_vertices : !frontier.all
    frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %all : !frontier.all apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      frontier.enqueue %dst
      frontier.yield
    }
    func.return
  }
}
// CHECK: frontier.enqueue in a frontier.edge_traverse without output

// -----

builtin.module {
  graph.global @parent : !graph.vector<i32>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %all = frontier.all_vertices : !frontier.all
    frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %all : !frontier.all tracked @parent apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      frontier.yield
    }
    func.return
  }
}
// CHECK: tracked and dedup need an output frontier

// -----

builtin.module {
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %z = arith.constant 0 : i32
    %q = frontier.new %z : i32 -> !frontier.queue
    %all = frontier.all_vertices : !frontier.all
    %o = frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %all : !frontier.all into %q : !frontier.queue to {
    ^bb0(%v : !graph.vertex):
      %c = arith.constant 1 : i32
      frontier.yield %c : i32
    } apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      frontier.yield
    } -> !frontier.queue
    func.return
  }
}
// CHECK: the to filter yields an i1

// -----

builtin.module {
  func.func @main() {
    %all = frontier.all_vertices : !frontier.all
    frontier.vertex_map %all : !frontier.all {
    ^bb0(%v : !graph.vertex):
      frontier.enqueue %v
      frontier.yield
    }
    func.return
  }
}
// CHECK: frontier.enqueue in a frontier.vertex_map without output

// -----

builtin.module {
  func.func @main() {
    %all = frontier.all_vertices : !frontier.all
    frontier.vertex_map %all : !frontier.all {
    ^bb0(%v : i32):
      frontier.yield
    }
    func.return
  }
}
// CHECK: a vertex map's body takes one !graph.vertex

// -----

builtin.module {
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %all = frontier.all_vertices : !frontier.all
    frontier.vertex_map %all : !frontier.all {
    ^bb0(%v : !graph.vertex):
      %b, %end = frontier.edge_range CSR %e[%v] : !graph.edgeset
      %w = frontier.edge_weight CSR %e[%b] : !graph.edgeset -> i32
      frontier.yield
    }
    func.return
  }
}
// CHECK: frontier.edge_weight of an unweighted edgeset

// -----

builtin.module {
  func.func @main() {
    %v = arith.constant 0 : i32
    %all = frontier.all_vertices : !frontier.all
    %a = frontier.add %v, %all : i32, !frontier.all
    func.return
  }
}
// CHECK: !frontier.all should be of attribute subclassing `MutableFrontierType`

// -----

builtin.module {
  func.func @main(%v : !graph.vertex) {
    %z = arith.constant 0 : i32
    %bits = frontier.new %z : i32 -> !frontier.bitmap
    %in = frontier.contains %bits[%v] : !frontier.bitmap
    func.return
  }
}
// CHECK: frontier.contains must be inside a frontier.vertex_map, frontier.edge_map or frontier.edge_traverse

// -----

builtin.module {
  func.func @main() {
    %z = arith.constant 0 : i32
    %bits = frontier.new %z : i32 -> !frontier.bitmap
    %same = frontier.convert %bits : !frontier.bitmap -> !frontier.bitmap
    func.return
  }
}
// CHECK: frontier.convert from !frontier.bitmap to itself

// -----

builtin.module {
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %all = frontier.all_vertices : !frontier.all
    frontier.edge_traverse PUSH VERTEX_BASED CSR %e : !graph.edgeset from %all : !frontier.all {edge_sample = 0 : i64} apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      frontier.yield
    }
    func.return
  }
}
// CHECK: edge_sample takes at least one edge of each vertex
