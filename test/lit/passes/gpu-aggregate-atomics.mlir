// RUN: gir-opt %s -p gpu-aggregate-atomics | filecheck %s
// RUN: gir-opt %s -p gpu-aggregate-atomics -t cuda | filecheck %s --check-prefix=CUDA
// RUN: gir-opt %s -p gpu-aggregate-atomics -t opencl | filecheck %s --check-prefix=OPENCL

// An enqueue's add of 1 to the queue's size counter is alike in every thread
// (counter, index 0, value 1): marked. A per-vertex count (index varies with the
// thread) and a thread-dependent addend stay one atomic per thread.
builtin.module {
  gir_gpu.kernel @k(%n : i32, %size : memref<?xi32>, %counts : memref<?xi32>, %items : memref<?xi32>) {
    %gid = gir_gpu.id global
    %zero = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %ok = arith.cmpi slt, %gid, %n : i32
    scf.if %ok {
      %position = gir_gpu.atomic_rmw add %one, %size[%zero] : i32, memref<?xi32>, index
      %i = arith.index_cast %position : i32 to index
      memref.store %gid, %items[%i] : memref<?xi32>
      %v = arith.index_cast %gid : i32 to index
      %c = gir_gpu.atomic_rmw add %one, %counts[%v] : i32, memref<?xi32>, index
      %s = gir_gpu.atomic_rmw add %gid, %size[%zero] : i32, memref<?xi32>, index
    }
    gir_gpu.return
  }
}

// CHECK:      %position = gir_gpu.atomic_rmw add %one, %size[%zero] {gir_gpu.aggregated} : i32, memref<?xi32>, index
// CHECK:      %c = gir_gpu.atomic_rmw add %one, %counts[%v] : i32, memref<?xi32>, index
// CHECK:      %s = gir_gpu.atomic_rmw add %gid, %size[%zero] : i32, memref<?xi32>, index

// CUDA:       __device__ __forceinline__ int gir_aggregated_add(int* address, int value) {
// CUDA-NEXT:    unsigned int arrived = __activemask();
// CUDA:         base = atomicAdd(address, value * __popc(arrived));
// CUDA:         base = __shfl_sync(arrived, base, leader);
// CUDA-NEXT:    return base + below * value;
// CUDA:       int position = gir_aggregated_add(&size[0], 1);
// CUDA:       atomicAdd(&counts[{{.*}}], 1);
// CUDA:       atomicAdd(&size[0], gid);

// OPENCL-NOT: aggregated
// OPENCL:     int position = atomic_add(&size[0], 1);
