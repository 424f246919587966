// graph.call_extern: a host call of an extern function, its vectors by name in
// the declaration's vector positions; round-trips, and is checked against the
// declaration (call_extern_invalid.mlir).
// RUN: gir-opt %s > %t.1 && gir-opt -f mlir %t.1 > %t.2 && cmp %t.1 %t.2
// RUN: filecheck %s < %t.1

builtin.module {
  graph.global @rank : !graph.vector<f32>
  func.func private @normalize(!graph.vector<f32>, i32) -> f32
  func.func @main() {
    %n = arith.constant 8 : i32
    %r = graph.call_extern @normalize(%n) vectors [@rank] : (i32) -> f32
    func.return
  }
}
// CHECK: %r = graph.call_extern @normalize(%n) vectors [@rank] : (i32) -> f32
