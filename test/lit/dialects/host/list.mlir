// Host lists of device arrays round-trip, with the export to device code and
// the import back around a fused loop.
// RUN: gir-opt %s | filecheck %s
// RUN: gir-opt %s --print-op-generic | gir-opt | filecheck %s

builtin.module {
  func.func @main() {
    %n = arith.constant 8 : i32
    %items = host.alloc %n : i32 -> memref<?xi32>
    %l = host.list_new : !host.list
    host.list_push %l, %items, %n : memref<?xi32>, i32
    %size = host.list_pop %l, %items : memref<?xi32>
    %storage, %ends, %storage_count, %ends_count = host.list_export %l room %n : memref<?xi32>, memref<?xi32>
    host.list_import %l, %ends : memref<?xi32>
    func.return
  }
}

// CHECK-LABEL: func.func @main() {
// CHECK:         %l = host.list_new : !host.list
// CHECK-NEXT:    host.list_push %l, %items, %n : memref<?xi32>, i32
// CHECK-NEXT:    %size = host.list_pop %l, %items : memref<?xi32>
// CHECK-NEXT:    %storage, %ends, %storage_count, %ends_count = host.list_export %l room %n : memref<?xi32>, memref<?xi32>
// CHECK-NEXT:    host.list_import %l, %ends : memref<?xi32>
