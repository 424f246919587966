// Two PULL traversals with VERTEX_BASED load balance, which the
// frontier-lb-<x>-pull tests replace by their own: a BFS step pulling from a
// bitmap wave (a `to` filter, a weighted CAS claim, the winner enqueued), and an
// unfiltered sum over every vertex.
builtin.module {
  graph.global @parent : !graph.vector<i32>
  graph.global @sum : !graph.vector<i32>
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset<i32>
    %z = arith.constant 0 : i32
    %wave = frontier.new %z : i32 -> !frontier.bitmap
    %empty = frontier.new %z : i32 -> !frontier.queue
    %out = frontier.edge_traverse PULL VERTEX_BASED CSC %e : !graph.edgeset<i32> from %wave : !frontier.bitmap into %empty : !frontier.queue {label = "claim"} to {
    ^bb0(%v : !graph.vertex):
      %p = graph.load @parent[%v] : !graph.vertex -> i32
      %m1 = arith.constant -1 : i32
      %unvisited = arith.cmpi eq, %p, %m1 : i32
      frontier.yield %unvisited : i1
    } apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex, %w : i32):
      %id = graph.vertex_id %src : i32
      %none = arith.constant -1 : i32
      %won = graph.compare_and_swap @parent[%dst], %none, %id : !graph.vertex, i32
      scf.if %won {
        frontier.enqueue %dst
      }
      frontier.yield
    } -> !frontier.queue
    %all = frontier.all_vertices : !frontier.all
    frontier.edge_traverse PULL VERTEX_BASED CSC %e : !graph.edgeset<i32> from %all : !frontier.all {label = "gather"} apply {
    ^bb0(%src : !graph.vertex, %dst : !graph.vertex, %w : i32):
      %s = graph.reduce add %w, @sum[%dst] atomic : !graph.vertex, i32
      frontier.yield
    }
    func.return
  }
}
