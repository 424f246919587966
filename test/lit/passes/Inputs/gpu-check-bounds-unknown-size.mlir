// Two allocations of different sizes reach one kernel argument: its size is not one host value.
builtin.module {
  gir_gpu.kernel @k(%items : memref<?xi32>) {
    gir_gpu.return
  }
  func.func @main() {
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %flag = arith.constant true
    %small = host.alloc %c1 : i32 -> memref<?xi32>
    %large = host.alloc %c2 : i32 -> memref<?xi32>
    %chosen = scf.if %flag -> (memref<?xi32>) {
      scf.yield %small : memref<?xi32>
    } else {
      scf.yield %large : memref<?xi32>
    }
    host.launch @k grid %c1 block %c1 (%chosen) : memref<?xi32>
    func.return
  }
}
