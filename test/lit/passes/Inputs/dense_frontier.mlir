// Bitmap and boolmap frontiers at the frontier level: the input of the
// representation lit tests (dense-frontiers.mlir).
builtin.module {
  graph.global @seen : !graph.vector<i32>
  func.func @main() {
    %s = host.argv_int argv[2] : i32
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    %z = arith.constant 0 : i32
    %bits = frontier.new %z : i32 -> !frontier.bitmap
    %start = frontier.add %s, %bits : i32, !frontier.bitmap
    %empty = frontier.new %z : i32 -> !frontier.boolmap
    %next = frontier.vertex_map %start : !frontier.bitmap into %empty : !frontier.boolmap -> !frontier.boolmap attributes {label = "step"} {
    ^bb0(%v : !graph.vertex):
      %in = frontier.contains %start[%v] : !frontier.bitmap
      scf.if %in {
        graph.store %z, @seen[%v] : !graph.vertex, i32
        frontier.enqueue %v
      }
      frontier.yield
    }
    %n = frontier.size %next : !frontier.boolmap -> i32
    host.print %n : i32
    %q = frontier.convert %next : !frontier.boolmap -> !frontier.queue
    %back = frontier.convert %q : !frontier.queue -> !frontier.bitmap
    frontier.free %start : !frontier.bitmap
    frontier.free %next : !frontier.boolmap
    frontier.free %q : !frontier.queue
    frontier.free %back : !frontier.bitmap
    func.return
  }
}
