// The exchange ops of partitioned runs round-trip, and the host printers (Python
// and the complete CUDA program) turn each into one call of their runtime, the
// exchange format included, and a queue union's claims.
// RUN: gir-opt %s | filecheck %s
// RUN: gir-opt %s | gir-opt | filecheck %s
// RUN: gir-translate %s --to-host-python | filecheck %s --check-prefix=PY
// RUN: gir-translate %s --to-cuda --devices 2 | filecheck %s --check-prefix=CU

builtin.module {
  func.func @main() {
    %g = host.load_graph {argv = 1 : i64, partitioned}
    %n = host.graph_size %g vertices : i32
    %rank = host.alloc %n : i32 -> memref<?xf32>
    %dist = host.alloc %n : i32 -> memref<?xi32>
    %size = host.alloc %n : i32 -> memref<?xi32>
    %flags = host.alloc %n : i32 -> memref<?xi8>
    %before = host.clone %rank : memref<?xf32>
    host.allreduce %rank sum base %before : memref<?xf32>
    host.allreduce %dist umin : memref<?xi32>
    %old = host.clone %dist : memref<?xi32>
    host.allreduce %dist min base %old exchange auto : memref<?xi32>
    host.allreduce %dist min base %old exchange bitmap : memref<?xi32>
    host.allgather %dist, %size : memref<?xi32>, memref<?xi32>
    host.allgather %dist, %size claims(%flags : memref<?xi8>) : memref<?xi32>, memref<?xi32>
    host.allgather %dist, %size claims(%flags, %rank : memref<?xi8>, memref<?xf32>) : memref<?xi32>, memref<?xi32>
    host.free %before : memref<?xf32>
    func.return
  }
}

// CHECK: %g = host.load_graph {argv = 1 : i64, partitioned}
// CHECK: %before = host.clone %rank : memref<?xf32>
// CHECK-NEXT: host.allreduce %rank sum base %before : memref<?xf32>
// CHECK-NEXT: host.allreduce %dist umin : memref<?xi32>
// CHECK-NEXT: %old = host.clone %dist : memref<?xi32>
// CHECK-NEXT: host.allreduce %dist min base %old exchange auto : memref<?xi32>
// CHECK-NEXT: host.allreduce %dist min base %old exchange bitmap : memref<?xi32>
// CHECK-NEXT: host.allgather %dist, %size : memref<?xi32>, memref<?xi32>
// CHECK-NEXT: host.allgather %dist, %size claims(%flags : memref<?xi8>) : memref<?xi32>, memref<?xi32>
// CHECK-NEXT: host.allgather %dist, %size claims(%flags, %rank : memref<?xi8>, memref<?xf32>) : memref<?xi32>, memref<?xi32>

// PY: g = rt.load_graph(rt.argv_str(1), False, partitioned=True)
// PY: before = rt.clone(rank)
// PY-NEXT: rt.allreduce(rank, "sum", before)
// PY-NEXT: rt.allreduce(dist, "umin")
// PY-NEXT: old = rt.clone(dist)
// PY-NEXT: rt.allreduce(dist, "min", old, "auto")
// PY-NEXT: rt.allreduce(dist, "min", old, "bitmap")
// PY-NEXT: rt.allgather(dist, size)
// PY-NEXT: rt.allgather(dist, size, claims=[flags])
// PY-NEXT: rt.allgather(dist, size, claims=[flags, rank])

// CU: float* before = gir_rt::clone<float>(rank);
// CU-NEXT: gir_rt::allreduce<float>(rank, gir_rt::Combine::SUM, before, gir_rt::ExchangeFormat::DENSE);
// CU-NEXT: gir_rt::allreduce<int>(dist, gir_rt::Combine::UMIN, nullptr, gir_rt::ExchangeFormat::DENSE);
// CU-NEXT: int* old = gir_rt::clone<int>(dist);
// CU-NEXT: gir_rt::allreduce<int>(dist, gir_rt::Combine::MIN, old, gir_rt::ExchangeFormat::AUTO);
// CU-NEXT: gir_rt::allreduce<int>(dist, gir_rt::Combine::MIN, old, gir_rt::ExchangeFormat::BITMAP);
// CU-NEXT: gir_rt::allgather(dist, size);
// CU-NEXT: gir_rt::allgather(dist, size, {gir_rt::claimed(flags)});
// CU-NEXT: gir_rt::allgather(dist, size, {gir_rt::claimed(flags), gir_rt::claimed(rank)});
