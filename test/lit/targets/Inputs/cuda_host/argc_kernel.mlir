// A kernel named like main's parameter: it would hide argc in a complete
// program's host code; the kernels alone compile.
builtin.module {
  gir_gpu.kernel @argc(%n: i32) {
    gir_gpu.return
  }
  func.func @main() {
    %c1 = arith.constant 1 : i32
    host.launch @argc grid %c1 block %c1 (%c1) : i32
    func.return
  }
}
