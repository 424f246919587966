// Two traversals with WM load balance: a filtered, weighted one into a
// queue and an unfiltered one over every vertex.
builtin.module {
  graph.global @parent : !graph.vector<i32>
  graph.global @dist : !graph.vector<i32>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset<i32>
    %z = arith.constant 0 : i32
    %in = frontier.new %z : i32 -> !frontier.queue
    %empty = frontier.new %z : i32 -> !frontier.queue
    %out = frontier.edge_traverse PUSH WM CSR %e : !graph.edgeset<i32> from %in : !frontier.queue into %empty : !frontier.queue dedup {label = "s1"} to {
    ^bb0(%v : !graph.vertex):
      %p = graph.load @parent[%v] : !graph.vertex -> i32
      %m1 = arith.constant -1 : i32
      %unvisited = arith.cmpi eq, %p, %m1 : i32
      frontier.yield %unvisited : i1
    } apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex, %weight : i32):
      %d = graph.load @dist[%src] : !graph.vertex -> i32
      %new = arith.addi %d, %weight : i32
      %lowered = graph.reduce min %new, @dist[%dst] atomic : !graph.vertex, i32
      scf.if %lowered {
        frontier.enqueue %dst
      }
      frontier.yield
    } -> !frontier.queue
    %all = frontier.all_vertices : !frontier.all
    frontier.edge_traverse PUSH WM CSR %e : !graph.edgeset<i32> from %all : !frontier.all apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex):
      %id = graph.vertex_id %src : i32
      graph.store %id, @parent[%dst] : !graph.vertex, i32
      frontier.yield
    }
    func.return
  }
}
