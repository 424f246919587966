// A device-wide exclusive scan of i32 and of i64 elements, one of them in place.
// It is not printable as it is (the scan has no kernels until gpu-expand-scan
// runs), so it lives apart from the GPU-level inputs that tests print directly.
builtin.module {
  func.func @main() {
    %n = host.argv_int argv[1] : i32
    %degrees = host.alloc %n : i32 -> memref<?xi32>
    %offsets = host.alloc %n : i32 -> memref<?xi32>
    %wide = host.alloc %n : i32 -> memref<?xi64>
    gir_gpu.exclusive_scan %degrees, %offsets, %n : memref<?xi32>, memref<?xi32>, i32
    gir_gpu.exclusive_scan %wide, %wide, %n : memref<?xi64>, memref<?xi64>, i32
    func.return
  }
}
