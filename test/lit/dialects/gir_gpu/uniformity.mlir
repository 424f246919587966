// Barriers and sub-group ops need their whole work-group. Accepted: control flow
// whose conditions and bounds are the same for every thread of a block (kernel
// arguments, block ids, loads at uniform indices, values carried by uniform
// loops). Rejected: the same loop once its bound is loaded at the thread's index.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// gir-opt prints diagnostics first, then the modules that verified.
// CHECK: gir_gpu.barrier in kernel @divergent must be reached by every thread of the work-group, but it is under an 'scf.for' whose bounds depend on the thread id

// CHECK-LABEL: gir_gpu.kernel @uniform
// CHECK:         scf.for
// CHECK:           gir_gpu.barrier
// CHECK:         scf.while
// CHECK:           gir_gpu.subgroup_ballot
// CHECK:           gir_gpu.barrier
// CHECK:         scf.if
// CHECK:           gir_gpu.subgroup_exclusive_sum
builtin.module {
  gir_gpu.kernel @uniform(%counts: memref<?xi32>, %rounds: i32) {
    %tile = gir_gpu.shared_alloc : memref<32xi32, #gir_gpu.workgroup>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant 0 : index
    %thread = gir_gpu.id thread
    %block = gir_gpu.id block
    %t = arith.index_cast %thread : i32 to index
    scf.for %k = %c0 to %rounds step %c1 : i32 {
      memref.store %k, %tile[%t] : memref<32xi32, #gir_gpu.workgroup>
      gir_gpu.barrier
    }
    %left = scf.while (%x = %rounds) : (i32) -> i32 {
      %head = memref.load %tile[%z] : memref<32xi32, #gir_gpu.workgroup>
      %more = arith.cmpi slt, %head, %x : i32
      scf.condition(%more) %x : i32
    } do {
    ^bb0(%y: i32):
      %odd = arith.cmpi ne, %thread, %c0 : i32
      %mask = gir_gpu.subgroup_ballot %odd
      memref.store %mask, %tile[%t] : memref<32xi32, #gir_gpu.workgroup>
      gir_gpu.barrier
      %next = arith.subi %y, %c1 : i32
      scf.yield %next : i32
    }
    %b = arith.index_cast %block : i32 to index
    %count = memref.load %counts[%b] : memref<?xi32>
    %some = arith.cmpi sgt, %count, %left : i32
    scf.if %some {
      %s = gir_gpu.subgroup_exclusive_sum %thread : i32
    }
    gir_gpu.return
  }
}

// -----

builtin.module {
  gir_gpu.kernel @divergent(%counts: memref<?xi32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %thread = gir_gpu.id thread
    %t = arith.index_cast %thread : i32 to index
    %count = memref.load %counts[%t] : memref<?xi32>
    scf.for %k = %c0 to %count step %c1 : i32 {
      gir_gpu.barrier
    }
    gir_gpu.return
  }
}
