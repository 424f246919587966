// RUN: gir-translate --to-host-python %S/Inputs/bfs_gpu.mlir | filecheck %s

// The host side of the BFS contract as Python: straight-line calls on the
// runtime protocol `rt`, keyed by the host dialect's enums; names are entries of
// the constants table K; the launcher is made once, before the timer, with the arguments
// that never change bound; each iteration passes only the frontier queues and
// its size, and reads back one int.

// CHECK:      def run(rt, K):
// CHECK-NEXT:     g = rt.load_graph(rt.argv_str(1), False)
// CHECK-NEXT:     n = rt.graph_size(g, GraphSize.VERTICES)
// CHECK-NEXT:     m = rt.graph_size(g, GraphSize.EDGES)
// CHECK-NEXT:     row_ptr = rt.graph_array(g, GraphArray.ROW_PTR, DType.INT32)
// CHECK-NEXT:     col_idx = rt.graph_array(g, GraphArray.COL_IDX, DType.INT32)
// CHECK-NEXT:     parent = rt.alloc(n, DType.INT32)
// CHECK-NEXT:     rt.bind_global(K[0], parent, DType.INT32, n)
// CHECK-NEXT:     rt.fill(parent, -1, n, DType.INT32)
// CHECK-NEXT:     start = rt.argv_int(2)
// CHECK-NEXT:     rt.write(parent, start, start, DType.INT32)
// CHECK-NEXT:     cap = n if n > m else m
// CHECK-NEXT:     q0 = rt.alloc(cap, DType.INT32)
// CHECK-NEXT:     q1 = rt.alloc(cap, DType.INT32)
// CHECK-NEXT:     out_size = rt.alloc(1, DType.INT32)
// CHECK-NEXT:     launch_apply_s1 = rt.launcher(K[1], 0, {0: row_ptr, 1: col_idx, 5: out_size, 6: parent})
// CHECK-NEXT:     rt.write(q0, 0, start, DType.INT32)
// CHECK-NEXT:     rt.start_timer()
// CHECK-NEXT:     in_, out, size = q0, q1, 1
// CHECK-NEXT:     while True:
// CHECK-NEXT:         more = size != 0
// CHECK-NEXT:         if not more:
// CHECK-NEXT:             break
// CHECK-NEXT:         rt.write(out_size, 0, 0, DType.INT32)
// CHECK-NEXT:         t = _wrap(size + 255, 32)
// CHECK-NEXT:         grid = int(t / 256)
// CHECK-NEXT:         launch_apply_s1(grid, 256, in_, size, out)
// CHECK-NEXT:         next_ = rt.read(out_size, 0, DType.INT32)
// CHECK-NEXT:         in_, out, size = out, in_, next_
// CHECK-NEXT:     t_1 = rt.stop_timer()
// CHECK-NEXT:     rt.print(t_1)
// CHECK-EMPTY:
// CHECK-EMPTY:
// CHECK-NEXT: CONSTANTS = ('parent', 'apply_s1')
