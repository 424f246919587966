// RUN: gir-translate --to-host-python %S/Inputs/bfs_gpu.mlir | filecheck %s

// The host side of the BFS contract as Python: straight-line calls on the
// runtime `rt`; the launcher is made once, before the timer, with the arguments
// that never change bound; each iteration passes only the frontier queues and
// its size, and reads back one int.

// CHECK:      def run(rt, argv):
// CHECK-NEXT:     g = rt.load_graph(rt.argv_str(argv, 1), False)
// CHECK-NEXT:     n = g.num_vertices
// CHECK-NEXT:     m = g.num_edges
// CHECK-NEXT:     row_ptr = g.array("row_ptr")
// CHECK-NEXT:     col_idx = g.array("col_idx")
// CHECK-NEXT:     parent = rt.alloc(n, "int32")
// CHECK-NEXT:     rt.bind_global("parent", parent, "int32", n)
// CHECK-NEXT:     rt.fill(parent, -1, n, "int32")
// CHECK-NEXT:     start = rt.argv_int(argv, 2)
// CHECK-NEXT:     rt.write(parent, start, start, "int32")
// CHECK-NEXT:     cap = n if n > m else m
// CHECK-NEXT:     q0 = rt.alloc(cap, "int32")
// CHECK-NEXT:     q1 = rt.alloc(cap, "int32")
// CHECK-NEXT:     out_size = rt.alloc(1, "int32")
// CHECK-NEXT:     launch_apply_s1 = rt.launcher("apply_s1", 0, {0: row_ptr, 1: col_idx, 5: out_size, 6: parent})
// CHECK-NEXT:     rt.write(q0, 0, start, "int32")
// CHECK-NEXT:     rt.start_timer()
// CHECK-NEXT:     in_, out, size = q0, q1, 1
// CHECK-NEXT:     while True:
// CHECK-NEXT:         more = size != 0
// CHECK-NEXT:         if not more:
// CHECK-NEXT:             break
// CHECK-NEXT:         rt.write(out_size, 0, 0, "int32")
// CHECK-NEXT:         t = size + 255
// CHECK-NEXT:         grid = int(t / 256)
// CHECK-NEXT:         launch_apply_s1(grid, 256, in_, size, out)
// CHECK-NEXT:         next_ = rt.read(out_size, 0, "int32")
// CHECK-NEXT:         in_, out, size = out, in_, next_
// CHECK-NEXT:     t_1 = rt.stop_timer()
// CHECK-NEXT:     rt.print(t_1)
// CHECK-EMPTY:
