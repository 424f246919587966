// Bellman-Ford-like SSSP at the frontier level (after frontier-lower-load-balance{only=VERTEX_BASED}):
// the input of the frontier -> GPU passes' lit tests.
builtin.module {
  graph.global @dist : !graph.vector<i32>
  graph.global @done : !graph.vector<i1>
  graph.global @degree : !graph.vector<i32>
  func.func @main() {
    %s = host.argv_int argv[2] : i32
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset<i32>
    %inf = arith.constant 1000000 : i32
    graph.vector_fill @dist, %inf : i32
    graph.out_degrees %e into @degree : !graph.edgeset<i32>
    %z = arith.constant 0 : i32
    graph.store %z, @dist[%s] : i32, i32
    %f = frontier.new %z : i32 -> !frontier.queue
    %start = frontier.add %s, %f : i32, !frontier.queue
    %spare = frontier.new %z : i32 -> !frontier.queue
    %r:2 = scf.while (%fr = %start, %sp = %spare) : (!frontier.queue, !frontier.queue) -> (!frontier.queue, !frontier.queue) {
      %n = frontier.size %fr : !frontier.queue -> i32
      %c = arith.cmpi ne, %n, %z : i32
      scf.condition(%c) %fr, %sp : !frontier.queue, !frontier.queue
    } do {
    ^bb0(%in : !frontier.queue, %sp2 : !frontier.queue):
      %empty = frontier.clear %sp2 : !frontier.queue
      %out = frontier.vertex_map %in : !frontier.queue into %empty : !frontier.queue dedup -> !frontier.queue attributes {label = "s1"} {
      ^bb0(%src : !graph.vertex):
        %begin, %end = frontier.edge_range CSR %e[%src] : !graph.edgeset<i32>
        %one = arith.constant 1 : index
        scf.for %i = %begin to %end step %one {
          %dst = frontier.neighbor CSR %e[%i] : !graph.edgeset<i32>
          %w = frontier.edge_weight CSR %e[%i] : !graph.edgeset<i32> -> i32
          %d = graph.load @dist[%src] : !graph.vertex -> i32
          %new = arith.addi %d, %w : i32
          %lowered = graph.reduce min %new, @dist[%dst] atomic : !graph.vertex, i32
          scf.if %lowered {
            frontier.enqueue %dst
          }
        }
        frontier.yield
      }
      scf.yield %out, %in : !frontier.queue, !frontier.queue
    }
    frontier.free %r#1 : !frontier.queue
    frontier.free %r#0 : !frontier.queue
    %all = frontier.all_vertices : !frontier.all
    %limit = arith.sitofp %s : i32 to f32
    frontier.vertex_map %all : !frontier.all attributes {label = "mark"} {
    ^bb0(%v : !graph.vertex):
      %d = graph.load @dist[%v] : !graph.vertex -> i32
      %df = arith.sitofp %d : i32 to f32
      %near = arith.cmpf olt, %df, %limit : f32
      graph.store %near, @done[%v] : !graph.vertex, i1
      frontier.yield
    }
    %n = frontier.size %all : !frontier.all -> i32
    %every = frontier.new %n : i32 -> !frontier.queue
    %first = graph.load @done[%z] : i32 -> i1
    scf.if %first {
      host.print %n : i32
    }
    frontier.free %every : !frontier.queue
    func.return
  }
}
