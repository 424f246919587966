// Invalid host-dialect IR: one diagnostic per chunk.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s

builtin.module {
  func.func @main() {
    %g = host.load_graph
    func.return
  }
}
// CHECK: host.load_graph needs exactly one of argv or path

// -----

builtin.module {
  func.func @main() {
    %g = host.load_graph {argv = 1 : i64, path = "a.el"}
    func.return
  }
}
// CHECK: host.load_graph needs exactly one of argv or path

// -----

builtin.module {
  func.func @main() {
    %g = host.load_graph {argv = -1 : i64}
    func.return
  }
}
// CHECK: host.load_graph: argv index -1 is negative

// -----

builtin.module {
  func.func @main() {
    %s = host.argv_int argv[-2] : i32
    func.return
  }
}
// CHECK: host.argv_int: argv index -2 is negative

// -----

builtin.module {
  func.func @main() {
    %c = arith.constant 1 : i32
    host.print %c : i32 "both"
    func.return
  }
}
// CHECK: host.print prints exactly one value or text

// -----

builtin.module {
  func.func @main() {
    %c = arith.constant 1 : i32
    host.launch @main grid %c block %c ()
    func.return
  }
}
// CHECK: '@main' is not a gir_gpu.kernel

// -----

builtin.module {
  gir_gpu.kernel @k(%b: memref<?xi32>, %n: i32) {
    gir_gpu.return
  }
  func.func @main() {
    %c = arith.constant 1 : i32
    %b = host.alloc %c : i32 -> memref<?xf32>
    host.launch @k grid %c block %c (%b, %c) : memref<?xf32>, i32
    func.return
  }
}
// CHECK: launch of '@k' passes (memref<?xf32>, i32), kernel takes (memref<?xi32>, i32)

// -----

builtin.module {
  gir_gpu.kernel @k(%b: memref<?xi32>, %n: i32) {
    host.start_timer
    gir_gpu.return
  }
}
// CHECK: 'host.start_timer' is a host op: it cannot be inside a gir_gpu.kernel

// -----

builtin.module {
  func.func @main() {
    %g = host.load_graph {argv = 1 : i64}
    %r = host.graph_array %g row_ptr : memref<?xi64>
    func.return
  }
}
// CHECK: host.graph_array: row_ptr is memref<?xi32> (the module's edge index type), not memref<?xi64>

// -----

builtin.module {
  func.func @main() {
    %c = arith.constant 4 : i32
    %b = host.alloc %c : i32 -> memref<4xi32>
    func.return
  }
}
// CHECK: host.alloc: a device buffer is memref<?xT>, not memref<4xi32>

// -----

builtin.module {
  func.func @main() {
    %c = arith.constant 4 : i32
    %b = host.alloc %c : i32 -> memref<?xindex>
    func.return
  }
}
// CHECK: host.alloc: device buffers hold integers or floats, not index

// -----

builtin.module {
  func.func @main() {
    %c = arith.constant 4 : i32
    %b = host.alloc %c : i32 -> memref<?xi32>
    %f = arith.constant 1.0 : f32
    host.fill %b, %f, %c : memref<?xi32>, f32, i32
    func.return
  }
}
// CHECK: host.fill: buffer holds i32, value is f32

// -----

builtin.module {
  func.func @main() {
    %c = arith.constant 4 : i32
    %b = host.alloc %c : i32 -> memref<?xi32>
    %x = host.read %b[%c] : memref<?xi32>, i32 -> i64
    func.return
  }
}
// CHECK: host.read: buffer holds i32, value is i64

// -----

builtin.module {
  func.func @main() {
    %c = arith.constant 4 : i32
    %b = host.alloc %c : i32 -> memref<?xi32>
    %f = arith.constant 1.0 : f64
    host.write %f, %b[%c] : f64, memref<?xi32>, i32
    func.return
  }
}
// CHECK: host.write: buffer holds i32, value is f64

// -----

builtin.module {
  func.func @main() {
    %c = arith.constant 4 : i32
    %a = host.alloc %c : i32 -> memref<?xi32>
    %b = host.alloc %c : i32 -> memref<?xf32>
    "host.copy"(%a, %b, %c) : (memref<?xi32>, memref<?xf32>, i32) -> ()
    func.return
  }
}
// CHECK: operand 'target' at position 1 does not verify

// -----

builtin.module {
  func.func @main(%b: memref<2x?xi32>) {
    host.free %b : memref<2x?xi32>
    func.return
  }
}
// CHECK: host.free: a device buffer is memref<?xT>, not memref<2x?xi32>

// -----

builtin.module {
  func.func @main(%b: memref<3xi32>) {
    host.bind_global %b as "v" : memref<3xi32>
    func.return
  }
}
// CHECK: host.bind_global: a device buffer is memref<?xT>, not memref<3xi32>

// -----

builtin.module {
  func.func @main() {
    %n = arith.constant 4 : i32
    %a = host.alloc %n : i32 -> memref<?xi32>
    host.bind_global %a as "degree" : memref<?xi32>
    %b = host.alloc %n : i32 -> memref<?xf64>
    host.bind_global %b as "degree" : memref<?xf64>
    func.return
  }
}
// CHECK: host.bind_global: the name 'degree' is already bound to another buffer
