// The verifier wants the values before the writes for sum and claim (the other
// combines take them optionally, and so do the exchange formats that send the
// changed elements), and integers for the bitwise and unsigned combines; a
// queue union claims device buffers other than its own, each once.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ERR

builtin.module {
  func.func @main() {
    %n = arith.constant 8 : i32
    %rank = host.alloc %n : i32 -> memref<?xf32>
    host.allreduce %rank sum : memref<?xf32>
    func.return
  }
}
// ERR: host.allreduce: sum needs the values before the writes (base)

// -----

builtin.module {
  func.func @main() {
    %n = arith.constant 8 : i32
    %pred = host.alloc %n : i32 -> memref<?xi32>
    host.allreduce %pred claim : memref<?xi32>
    func.return
  }
}
// ERR: host.allreduce: claim needs the values before the writes (base)

// -----

builtin.module {
  func.func @main() {
    %n = arith.constant 8 : i32
    %dist = host.alloc %n : i32 -> memref<?xi32>
    host.allreduce %dist min exchange pairs : memref<?xi32>
    func.return
  }
}
// ERR: host.allreduce: exchange pairs sends the changed elements and needs a base

// -----

builtin.module {
  func.func @main() {
    %n = arith.constant 8 : i32
    %rank = host.alloc %n : i32 -> memref<?xf32>
    host.allreduce %rank or : memref<?xf32>
    func.return
  }
}
// ERR: host.allreduce: or combines integers, not f32

// -----

builtin.module {
  func.func @main() {
    %n = arith.constant 8 : i32
    %rank = host.alloc %n : i32 -> memref<?xf32>
    %size = host.alloc %n : i32 -> memref<?xi32>
    host.allgather %rank, %size : memref<?xf32>, memref<?xi32>
    func.return
  }
}
// ERR: host.allgather: lists hold i32 arrays, not memref<?xf32>

// -----

builtin.module {
  func.func @main() {
    %n = arith.constant 8 : i32
    %pred = host.alloc %n : i32 -> memref<?xi32>
    %items = host.alloc %n : i32 -> memref<?xi32>
    %size = host.alloc %n : i32 -> memref<?xi32>
    host.allgather %items, %size claims(%pred, %pred : memref<?xi32>, memref<?xi32>) : memref<?xi32>, memref<?xi32>
    func.return
  }
}
// ERR: host.allgather: a buffer is claimed twice

// -----

builtin.module {
  func.func @main() {
    %n = arith.constant 8 : i32
    %items = host.alloc %n : i32 -> memref<?xi32>
    %size = host.alloc %n : i32 -> memref<?xi32>
    host.allgather %items, %size claims(%size : memref<?xi32>) : memref<?xi32>, memref<?xi32>
    func.return
  }
}
// ERR: host.allgather: the queue's own buffers cannot be claimed

// -----

builtin.module {
  func.func @main() {
    %n = arith.constant 8 : i32
    %items = host.alloc %n : i32 -> memref<?xi32>
    %size = host.alloc %n : i32 -> memref<?xi32>
    %tile = memref.alloc() : memref<4x4xi32>
    host.allgather %items, %size claims(%tile : memref<4x4xi32>) : memref<?xi32>, memref<?xi32>
    func.return
  }
}
// ERR: host.allgather: a device buffer is memref<?xT>, not memref<4x4xi32>
