// A kernel named like C++'s standard namespace: it would hide std:: in a complete
// program's host code, and nvcc rejects it in any .cu: gir rejects it while parsing.
builtin.module {
  gir_gpu.kernel @std(%n: i32) {
    gir_gpu.return
  }
  func.func @main() {
    %c1 = arith.constant 1 : i32
    host.launch @std grid %c1 block %c1 (%c1) : i32
    func.return
  }
}
