// Connected components (GraphIt's cc.gt) at the graph level: hooking
// IDs[IDs[dst]] min= IDs[IDs[src]] and the reverse, applyModified on IDs from
// every vertex (new vertexset(n)), and pointer jumping until a vector[1](int)
// flag stays 0; then the roots are counted with a filter.
builtin.module {
  graph.global @edges : !graph.edgeset
  graph.global @vertices : !graph.vertexset
  graph.global @IDs : !graph.vector<i32>
  graph.global @update : !graph.vector<1 x i32>
  func.func @updateEdge(%src : !graph.vertex, %dst : !graph.vertex) {
    %0 = graph.load @IDs[%src] : !graph.vertex -> i32
    %src_id = graph.to_vertex %0 : i32
    %1 = graph.load @IDs[%dst] : !graph.vertex -> i32
    %dst_id = graph.to_vertex %1 : i32
    %2 = graph.load @IDs[%src_id] : !graph.vertex -> i32
    %3 = graph.reduce min %2, @IDs[%dst_id] : !graph.vertex, i32
    %4 = graph.load @IDs[%dst_id] : !graph.vertex -> i32
    %5 = graph.reduce min %4, @IDs[%src_id] : !graph.vertex, i32
    func.return
  }
  func.func @init(%v : !graph.vertex) {
    %0 = graph.vertex_id %v : i32
    graph.store %0, @IDs[%v] : !graph.vertex, i32
    func.return
  }
  func.func @pjump(%v : !graph.vertex) {
    %y = graph.load @IDs[%v] : !graph.vertex -> i32
    %yv = graph.to_vertex %y : i32
    %x = graph.load @IDs[%yv] : !graph.vertex -> i32
    %ne = arith.cmpi ne, %x, %y : i32
    scf.if %ne {
      graph.store %x, @IDs[%v] : !graph.vertex, i32
      %one = arith.constant 1 : i32
      %c0 = arith.constant 0 : i32
      graph.store %one, @update[%c0] : i32, i32
    }
    func.return
  }
  func.func @isRoot(%v : !graph.vertex) -> i1 {
    %0 = graph.load @IDs[%v] : !graph.vertex -> i32
    %1 = graph.vertex_id %v : i32
    %2 = arith.cmpi eq, %0, %1 : i32
    func.return %2 : i1
  }
  func.func @main() {
    %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
    graph.global_store %e, @edges : !graph.edgeset
    %e0 = graph.global_load @edges : !graph.edgeset
    %all = graph.get_vertices %e0 : !graph.edgeset
    graph.global_store %all, @vertices : !graph.vertexset
    %c1 = arith.constant 1 : i32
    graph.vector_fill @IDs, %c1 : i32
    %z = arith.constant 0 : i32
    %vs = graph.global_load @vertices : !graph.vertexset
    %n = graph.vertexset_size %vs : i32
    %f = graph.vertexset_new %n : i32
    %vs1 = graph.global_load @vertices : !graph.vertexset
    graph.vertexset_apply %vs1, @init
    graph.start_timer
    %r = scf.while (%fr = %f) : (!graph.vertexset) -> !graph.vertexset {
      %size = graph.vertexset_size %fr : i32
      %c = arith.cmpi ne, %size, %z : i32
      scf.condition(%c) %fr : !graph.vertexset
    } do {
    ^bb0(%fr2 : !graph.vertexset):
      %e2 = graph.global_load @edges : !graph.edgeset
      %o = graph.edgeset_apply %e2 from %fr2 apply_modified @updateEdge {tracked = @IDs, label = "s1"} : !graph.edgeset -> !graph.vertexset
      graph.delete %fr2 : !graph.vertexset
      graph.store %c1, @update[%z] : i32, i32
      scf.while () : () -> () {
        %u = graph.load @update[%z] : i32 -> i32
        %again = arith.cmpi ne, %u, %z : i32
        scf.condition(%again)
      } do {
        graph.store %z, @update[%z] : i32, i32
        %vs2 = graph.global_load @vertices : !graph.vertexset
        graph.vertexset_apply %vs2, @pjump {label = "s2"}
        scf.yield
      }
      scf.yield %o : !graph.vertexset
    }
    %t = graph.stop_timer : f32
    graph.delete %r : !graph.vertexset
    %vs3 = graph.global_load @vertices : !graph.vertexset
    %roots = graph.vertexset_filter %vs3, @isRoot
    %nroots = graph.vertexset_size %roots : i32
    graph.print %nroots : i32
    graph.delete %roots : !graph.vertexset
    graph.print %t : f32
    func.return
  }
}
