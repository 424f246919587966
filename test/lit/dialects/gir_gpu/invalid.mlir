// Invalid gir_gpu IR: every verifier error of the dialect, one diagnostic per chunk.
// RUN: gir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Kernel names in the custom syntax are checked while parsing (kernel_names.mlir);
// the generic syntax reaches the verifier.
builtin.module {
  "gir_gpu.kernel"() <{sym_name = "int", function_type = () -> ()}> ({
    gir_gpu.return
  }) : () -> ()
}
// CHECK: kernel name 'int' is reserved in CUDA or OpenCL C

// -----

builtin.module {
  "gir_gpu.kernel"() <{sym_name = "bad name", function_type = () -> ()}> ({
    gir_gpu.return
  }) : () -> ()
}
// CHECK: kernel name 'bad name' is not a C identifier ([A-Za-z_][A-Za-z0-9_]*)

// -----

builtin.module {
  "gir_gpu.kernel"() <{sym_name = "__hidden", function_type = () -> ()}> ({
    gir_gpu.return
  }) : () -> ()
}
// CHECK: kernel name '__hidden' is reserved by C (leading '__' or '_' and a capital)

// -----

builtin.module {
  "gir_gpu.kernel"() <{sym_name = "gir_atomic_min_f32", function_type = () -> ()}> ({
    gir_gpu.return
  }) : () -> ()
}
// CHECK: kernel name 'gir_atomic_min_f32' is in the 'gir_' namespace of gir's device helpers

// -----

builtin.module {
  "gir_gpu.kernel"() <{sym_name = "k", function_type = () -> i32}> ({
    gir_gpu.return
  }) : () -> ()
}
// CHECK: a kernel returns nothing

// -----

builtin.module {
  "gir_gpu.kernel"() <{sym_name = "k", function_type = (i32) -> ()}> ({
  ^bb0(%x: i64):
    gir_gpu.return
  }) : () -> ()
}
// CHECK: kernel arguments do not match its type

// -----

builtin.module {
  gir_gpu.kernel @k(%x: index) {
    gir_gpu.return
  }
}
// CHECK: kernel arguments are buffers or scalars, not index

// -----

builtin.module {
  gir_gpu.kernel @k(%x: memref<4xi32, #gir_gpu.workgroup>) {
    gir_gpu.return
  }
}
// CHECK: kernel arguments are device buffers; work-group arrays are made inside the kernel with gir_gpu.shared_alloc

// -----

builtin.module {
  func.func @main() {
    gir_gpu.return
  }
}
// CHECK: 'gir_gpu.return' expects parent op 'gir_gpu.kernel'

// -----

builtin.module {
  gir_gpu.kernel @k(%b: memref<?xi32>, %v: i64) {
    %c0 = arith.constant 0 : index
    %old = gir_gpu.atomic_rmw add %v, %b[%c0] : i64, memref<?xi32>, index
    gir_gpu.return
  }
}
// CHECK: gir_gpu.atomic_rmw: buffer holds i32, value is i64

// -----

builtin.module {
  gir_gpu.kernel @k(%b: memref<?xf32>, %v: i32) {
    %c0 = arith.constant 0 : index
    %old = gir_gpu.atomic_cas %b[%c0], %v, %v : memref<?xf32>, index, i32
    gir_gpu.return
  }
}
// CHECK: gir_gpu.atomic_cas: buffer holds f32, value is i32

// -----

builtin.module {
  gir_gpu.kernel @k() {
    %tile = gir_gpu.shared_alloc : memref<64xi32>
    gir_gpu.return
  }
}
// CHECK: a shared array is in the #gir_gpu.workgroup memory space

// -----

builtin.module {
  gir_gpu.kernel @k() {
    %tile = gir_gpu.shared_alloc : memref<64xi32, strided<[1]>, #gir_gpu.workgroup>
    gir_gpu.return
  }
}
// CHECK: a shared array has no layout

// -----

builtin.module {
  gir_gpu.kernel @k() {
    %tile = gir_gpu.shared_alloc : memref<?xi32, #gir_gpu.workgroup>
    gir_gpu.return
  }
}
// CHECK: a shared array has one static, positive size, not ?

// -----

builtin.module {
  gir_gpu.kernel @k() {
    %tile = gir_gpu.shared_alloc : memref<4x4xi32, #gir_gpu.workgroup>
    gir_gpu.return
  }
}
// CHECK: a shared array has one static, positive size, not 4x4

// -----

builtin.module {
  gir_gpu.kernel @k() {
    %tile = gir_gpu.shared_alloc : memref<4xindex, #gir_gpu.workgroup>
    gir_gpu.return
  }
}
// CHECK: a shared array holds scalars, not index

// -----

builtin.module {
  gir_gpu.kernel @k(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %tile = gir_gpu.shared_alloc : memref<4xi32, #gir_gpu.workgroup>
    }
    gir_gpu.return
  }
}
// CHECK: 'gir_gpu.shared_alloc' expects parent op 'gir_gpu.kernel'

// -----

builtin.module {
  gir_gpu.kernel @k(%x: i32) {
    %small = arith.trunci %x : i32 to i16
    %sum = gir_gpu.subgroup_exclusive_sum %small : i16
    gir_gpu.return
  }
}
// CHECK: gir_gpu.subgroup_exclusive_sum combines 32- or 64-bit values, not i16

// -----

builtin.module {
  gir_gpu.kernel @k(%x: i32) {
    %small = arith.trunci %x : i32 to i8
    %c0 = arith.constant 0 : i32
    %b = gir_gpu.subgroup_broadcast %small, %c0 : i8
    gir_gpu.return
  }
}
// CHECK: gir_gpu.subgroup_broadcast combines 32- or 64-bit values, not i8

// -----

builtin.module {
  func.func @main() {
    gir_gpu.barrier
    func.return
  }
}
// CHECK: gir_gpu.barrier is only valid inside a gir_gpu.kernel

// -----

builtin.module {
  gir_gpu.kernel @k() {
    "scf.execute_region"() ({
      gir_gpu.barrier
      scf.yield
    }) : () -> ()
    gir_gpu.return
  }
}
// CHECK: gir_gpu.barrier needs its whole work-group and cannot be inside 'scf.execute_region'

// -----

// A barrier under a condition on the thread's global id.
builtin.module {
  gir_gpu.kernel @k(%n: i32) {
    %gid = gir_gpu.id global
    %inside = arith.cmpi slt, %gid, %n : i32
    scf.if %inside {
      gir_gpu.barrier
    }
    gir_gpu.return
  }
}
// CHECK: gir_gpu.barrier in kernel @k must be reached by every thread of the work-group, but it is under an 'scf.if' whose condition depends on the thread id

// -----

// A ballot in a loop whose trip count is loaded at the thread's index.
builtin.module {
  gir_gpu.kernel @k(%counts: memref<?xi32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %thread = gir_gpu.id thread
    %i = arith.index_cast %thread : i32 to index
    %count = memref.load %counts[%i] : memref<?xi32>
    scf.for %k = %c0 to %count step %c1 : i32 {
      %true = arith.constant true
      %m = gir_gpu.subgroup_ballot %true
    }
    gir_gpu.return
  }
}
// CHECK: gir_gpu.subgroup_ballot in kernel @k must be reached by every thread of the work-group, but it is under an 'scf.for' whose bounds depend on the thread id

// -----

// A while loop whose exit depends on an atomic's old value, through a
// loop-carried value: the sub-group sum inside is divergent.
builtin.module {
  gir_gpu.kernel @k(%b: memref<?xi32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant 0 : index
    %last = scf.while (%x = %c0) : (i32) -> i32 {
      %more = arith.cmpi slt, %x, %c1 : i32
      scf.condition(%more) %x : i32
    } do {
    ^bb0(%y: i32):
      %s = gir_gpu.subgroup_exclusive_sum %y : i32
      %old = gir_gpu.atomic_rmw add %c1, %b[%z] : i32, memref<?xi32>, index
      scf.yield %old : i32
    }
    gir_gpu.return
  }
}
// CHECK: gir_gpu.subgroup_exclusive_sum in kernel @k must be reached by every thread of the work-group, but it is under an 'scf.while' whose condition depends on the thread id

// -----

// An scf.if result that depends on the lane decides a later condition.
builtin.module {
  gir_gpu.kernel @k(%flag: i1) {
    %c0 = arith.constant 0 : i32
    %lane = gir_gpu.id lane
    %v = scf.if %flag -> (i32) {
      scf.yield %lane : i32
    } else {
      scf.yield %c0 : i32
    }
    %zero = arith.cmpi eq, %v, %c0 : i32
    scf.if %zero {
      %b = gir_gpu.subgroup_broadcast %c0, %c0 : i32
    }
    gir_gpu.return
  }
}
// CHECK: gir_gpu.subgroup_broadcast in kernel @k must be reached by every thread of the work-group, but it is under an 'scf.if' whose condition depends on the thread id


// -----

// The scan is a host-side primitive.
builtin.module {
  gir_gpu.kernel @k(%b: memref<?xi32>, %n: i32) {
    gir_gpu.exclusive_scan %b, %b, %n : memref<?xi32>, memref<?xi32>, i32
    gir_gpu.return
  }
}
// CHECK: gir_gpu.exclusive_scan is called by the host, not inside kernel @k

// -----

builtin.module {
  func.func @main(%a: memref<?xi32>, %b: memref<?xi64>, %n: i32) {
    gir_gpu.exclusive_scan %a, %b, %n : memref<?xi32>, memref<?xi64>, i32
    func.return
  }
}
// CHECK: gir_gpu.exclusive_scan: input holds i32, output holds i64

// -----

builtin.module {
  func.func @main(%a: memref<?xf32>, %n: i32) {
    gir_gpu.exclusive_scan %a, %a, %n : memref<?xf32>, memref<?xf32>, i32
    func.return
  }
}
// CHECK: gir_gpu.exclusive_scan adds i32 or i64 elements, not f32

// -----

builtin.module {
  func.func @main(%a: memref<?xi16>, %n: i32) {
    gir_gpu.exclusive_scan %a, %a, %n : memref<?xi16>, memref<?xi16>, i32
    func.return
  }
}
// CHECK: gir_gpu.exclusive_scan adds i32 or i64 elements, not i16

// -----

// Work-group arrays and fixed-size memrefs are not device buffers.
builtin.module {
  func.func @main(%a: memref<?xi32>, %b: memref<8xi32>, %n: i32) {
    gir_gpu.exclusive_scan %a, %b, %n : memref<?xi32>, memref<8xi32>, i32
    func.return
  }
}
// CHECK: gir_gpu.exclusive_scan scans device buffers memref<?xT>, not memref<8xi32>

// -----

builtin.module {
  func.func @main(%a: memref<?xi32, #gir_gpu.workgroup>, %n: i32) {
    gir_gpu.exclusive_scan %a, %a, %n : memref<?xi32, #gir_gpu.workgroup>, memref<?xi32, #gir_gpu.workgroup>, i32
    func.return
  }
}
// CHECK: gir_gpu.exclusive_scan scans device buffers memref<?xT>, not memref<?xi32, #gir_gpu.workgroup>

// -----

builtin.module {
  func.func @main(%a: memref<?xi32>, %n: i64) {
    gir_gpu.exclusive_scan %a, %a, %n : memref<?xi32>, memref<?xi32>, i64
    func.return
  }
}
// CHECK: Expected attribute i32 but got i64
