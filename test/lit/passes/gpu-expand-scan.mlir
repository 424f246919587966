// RUN: gir-opt %s -p gpu-expand-scan | filecheck %s
// RUN: gir-opt %s -p 'gpu-expand-scan{block-size=64}' | filecheck %s --check-prefix=B64
// RUN: not gir-opt %s -p 'gpu-expand-scan{block-size=100}' 2>&1 | filecheck %s --check-prefix=BAD

// Each gir_gpu.exclusive_scan becomes three launches guarded by the count, with a
// scratch buffer of block sums allocated and freed around them; the kernels are
// made once per element type and block size, before @main, and shared by every
// scan of that type. Barriers are at the top level of the kernels or in loops
// with uniform bounds: threads past the count scan zeros instead of returning.

// CHECK-LABEL: gir_gpu.kernel @scan_i32_b256_blocks(%input: memref<?xi32>, %output: memref<?xi32>, %sums: memref<?xi32>, %count: i32) {
// CHECK-NEXT:    %tile = gir_gpu.shared_alloc : memref<256xi32, #gir_gpu.workgroup>
// CHECK-NEXT:    %thread = gir_gpu.id thread
// CHECK-NEXT:    %block = gir_gpu.id block
// CHECK-NEXT:    %gid = gir_gpu.id global
// CHECK-NEXT:    %inside = arith.cmpi slt, %gid, %count : i32
// CHECK-NEXT:    %value = scf.if %inside -> (i32) {
// CHECK:           %loaded = memref.load %input[%gid_index] : memref<?xi32>
// CHECK-NEXT:      scf.yield %loaded : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %zero = arith.constant 0 : i32
// CHECK-NEXT:      scf.yield %zero : i32
// CHECK-NEXT:    }
// CHECK:         memref.store %value, %tile[%thread_index] : memref<256xi32, #gir_gpu.workgroup>
// CHECK-NEXT:    gir_gpu.barrier
// CHECK:         %rounds = arith.constant 8 : i32
// CHECK-NEXT:    %inclusive = scf.for %round = %c0 to %rounds step %c1 iter_args(%partial = %value) -> (i32)  : i32 {
// CHECK-NEXT:      %offset = arith.shli %c1, %round : i32
// CHECK-NEXT:      %has_lower = arith.cmpi sge, %thread, %offset : i32
// CHECK-NEXT:      %lower_thread = arith.subi %thread, %offset : i32
// CHECK-NEXT:      %lower = scf.if %has_lower -> (i32) {
// CHECK:             %loaded_1 = memref.load %tile[%lower_thread_index] : memref<256xi32, #gir_gpu.workgroup>
// CHECK-NEXT:        scf.yield %loaded_1 : i32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        %zero_1 = arith.constant 0 : i32
// CHECK-NEXT:        scf.yield %zero_1 : i32
// CHECK-NEXT:      }
// CHECK-NEXT:      gir_gpu.barrier
// CHECK-NEXT:      %added = arith.addi %partial, %lower : i32
// CHECK-NEXT:      memref.store %added, %tile[%thread_index] : memref<256xi32, #gir_gpu.workgroup>
// CHECK-NEXT:      gir_gpu.barrier
// CHECK-NEXT:      scf.yield %added : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %exclusive = arith.subi %inclusive, %value : i32
// CHECK-NEXT:    scf.if %inside {
// CHECK:           memref.store %exclusive, %output[%gid_index_1] : memref<?xi32>
// CHECK:         %last = arith.constant 255 : i32
// CHECK-NEXT:    %is_last = arith.cmpi eq, %thread, %last : i32
// CHECK-NEXT:    scf.if %is_last {
// CHECK:           memref.store %inclusive, %sums[%block_index] : memref<?xi32>
// CHECK:         gir_gpu.return

// The block sums are scanned by one work-group, a chunk of 256 at a time, with
// the carry of the chunks before.
// CHECK-LABEL: gir_gpu.kernel @scan_i32_b256_sums(%sums: memref<?xi32>, %count: i32) {
// CHECK:         %block_size = arith.constant 256 : i32
// CHECK:         %{{.*}} = scf.for %start = %c0 to %count step %block_size iter_args(%carry = %zero) -> (i32)  : i32 {
// CHECK-NEXT:      %position = arith.addi %start, %thread : i32
// CHECK-NEXT:      %inside = arith.cmpi slt, %position, %count : i32
// CHECK:           %inclusive = scf.for %round
// CHECK:           %total = memref.load %tile[%last_index] : memref<256xi32, #gir_gpu.workgroup>
// CHECK-NEXT:      %exclusive = arith.subi %inclusive, %value : i32
// CHECK-NEXT:      %scanned = arith.addi %exclusive, %carry : i32
// CHECK-NEXT:      scf.if %inside {
// CHECK:             memref.store %scanned, %sums[%position_index_1] : memref<?xi32>
// CHECK-NEXT:      }
// CHECK-NEXT:      gir_gpu.barrier
// CHECK-NEXT:      %next_carry = arith.addi %carry, %total : i32
// CHECK-NEXT:      scf.yield %next_carry : i32

// CHECK-LABEL: gir_gpu.kernel @scan_i32_b256_add(%output: memref<?xi32>, %sums: memref<?xi32>, %count: i32) {
// CHECK:         scf.if %inside {
// CHECK:           %offset = memref.load %sums[%block_index] : memref<?xi32>
// CHECK-NEXT:      %partial = memref.load %output[%gid_index] : memref<?xi32>
// CHECK-NEXT:      %sum = arith.addi %partial, %offset : i32
// CHECK-NEXT:      memref.store %sum, %output[%gid_index] : memref<?xi32>

// CHECK-LABEL: gir_gpu.kernel @scan_i64_b256_blocks(%input: memref<?xi64>, %output: memref<?xi64>, %sums: memref<?xi64>, %count: i32) {
// CHECK:         %tile = gir_gpu.shared_alloc : memref<256xi64, #gir_gpu.workgroup>
// CHECK-LABEL: gir_gpu.kernel @scan_i64_b256_sums(%sums: memref<?xi64>, %count: i32) {
// CHECK-LABEL: gir_gpu.kernel @scan_i64_b256_add(%output: memref<?xi64>, %sums: memref<?xi64>, %count: i32) {

// CHECK-LABEL: func.func @main() {
// CHECK-NEXT:    %n = host.argv_int argv[1] : i32
// CHECK-NEXT:    %degrees = host.alloc %n : i32 -> memref<?xi32>
// CHECK-NEXT:    %offsets = host.alloc %n : i32 -> memref<?xi32>
// CHECK-NEXT:    %wide = host.alloc %n : i32 -> memref<?xi64>
// CHECK-NEXT:    %c0 = arith.constant 0 : i32
// CHECK-NEXT:    %any = arith.cmpi sgt, %n, %c0 : i32
// CHECK-NEXT:    scf.if %any {
// CHECK-NEXT:      %block_size = arith.constant 256 : i32
// CHECK-NEXT:      %blocks = arith.ceildivsi %n, %block_size : i32
// CHECK-NEXT:      %sums = host.alloc %blocks : i32 -> memref<?xi32>
// CHECK-NEXT:      host.launch @scan_i32_b256_blocks grid %blocks block %block_size (%degrees, %offsets, %sums, %n) : memref<?xi32>, memref<?xi32>, memref<?xi32>, i32
// CHECK-NEXT:      %c1 = arith.constant 1 : i32
// CHECK-NEXT:      %several = arith.cmpi sgt, %blocks, %c1 : i32
// CHECK-NEXT:      scf.if %several {
// CHECK-NEXT:        host.launch @scan_i32_b256_sums grid %c1 block %block_size (%sums, %blocks) : memref<?xi32>, i32
// CHECK-NEXT:        host.launch @scan_i32_b256_add grid %blocks block %block_size (%offsets, %sums, %n) : memref<?xi32>, memref<?xi32>, i32
// CHECK-NEXT:      }
// CHECK-NEXT:      host.free %sums : memref<?xi32>
// CHECK-NEXT:    }
// The second i32 scan (in place, in a loop) reuses the i32 kernels.
// CHECK:         scf.for
// CHECK:           scf.if %any_1 {
// CHECK:             host.launch @scan_i32_b256_blocks grid %blocks_1 block %block_size_1 (%offsets, %offsets, %sums_1, %n)
// CHECK:             host.launch @scan_i64_b256_blocks grid %blocks_2 block %block_size_2 (%wide, %wide, %sums_2, %n) : memref<?xi64>, memref<?xi64>, memref<?xi64>, i32
// CHECK-NOT:     gir_gpu.exclusive_scan
// CHECK:         func.return

// B64-LABEL:   gir_gpu.kernel @scan_i32_b64_blocks(
// B64:           %tile = gir_gpu.shared_alloc : memref<64xi32, #gir_gpu.workgroup>
// B64:           %rounds = arith.constant 6 : i32
// B64:           %last = arith.constant 63 : i32
// B64-LABEL:   gir_gpu.kernel @scan_i32_b64_sums(
// B64:           %block_size = arith.constant 64 : i32
// B64-LABEL:   func.func @main() {
// B64:           %block_size = arith.constant 64 : i32

// BAD: error: gpu-expand-scan: block-size is a power of two from 32 to 1024, not 100
// BAD-NOT: Traceback

builtin.module {
  func.func @main() {
    %n = host.argv_int argv[1] : i32
    %degrees = host.alloc %n : i32 -> memref<?xi32>
    %offsets = host.alloc %n : i32 -> memref<?xi32>
    %wide = host.alloc %n : i32 -> memref<?xi64>
    gir_gpu.exclusive_scan %degrees, %offsets, %n : memref<?xi32>, memref<?xi32>, i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    scf.for %i = %c0 to %c2 step %c1 : i32 {
      gir_gpu.exclusive_scan %offsets, %offsets, %n : memref<?xi32>, memref<?xi32>, i32
      gir_gpu.exclusive_scan %wide, %wide, %n : memref<?xi64>, memref<?xi64>, i32
    }
    func.return
  }
}
