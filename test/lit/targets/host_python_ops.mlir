// RUN: gir-translate --to-host-python %S/Inputs/host_ops.mlir | filecheck %s

// Every host op as Python: one launcher per launch site (a launch outside loops
// binds all its arguments, a launch in a loop only the loop-invariant ones), C
// division semantics, host scf.if/scf.for with results, text prints. Every
// string of the IR is an entry of the constants table K, never source text.

// CHECK:      from gir.protocol import DType, GraphArray, GraphSize
// CHECK:      def _remsi(a, b):
// CHECK:      def run(rt, K):
// CHECK-NEXT:     n = rt.argv_int(1)
// CHECK-NEXT:     values = rt.alloc(n, DType.INT32)
// CHECK-NEXT:     launch_scale_index = rt.launcher(K[0], 0, {0: values, 1: n, 2: 1})
// CHECK-NEXT:     launch_scale_index_1 = rt.launcher(K[0], 1, {0: values, 1: n})
// CHECK-NEXT:     rt.bind_global(K[1], values, DType.INT32, n)
// CHECK-NEXT:     grid = -(-n // 64)
// CHECK-NEXT:     launch_scale_index(grid, 64)
// CHECK-NEXT:     for scale in range(1, 3):
// CHECK-NEXT:         launch_scale_index_1(grid, 64, scale)
// CHECK-NEXT:     last = _wrap(n - 1, 32)
// CHECK-NEXT:     x = rt.read(values, last, DType.INT32)
// CHECK-NEXT:     rt.print(x)
// CHECK-NEXT:     q = int((-7) / 2)
// CHECK-NEXT:     r = _remsi(-7, 2)
// CHECK:          if big:
// CHECK-NEXT:         flag = 1
// CHECK-NEXT:     else:
// CHECK-NEXT:         flag = 0
// CHECK:          sum_ = 0
// CHECK-NEXT:     for i in range(0, n):
// CHECK-NEXT:         next_ = _wrap(sum_ + i, 32)
// CHECK-NEXT:         sum_ = next_
// CHECK:          rt.print_text(K[2])
// CHECK-NEXT:     copy = rt.alloc(n, DType.INT32)
// CHECK-NEXT:     rt.copy(values, copy, n, DType.INT32)
// CHECK-NEXT:     rt.fill(values, 0, n, DType.INT32)
// CHECK-NEXT:     rt.write(copy, 0, 3, DType.INT32)
// CHECK-NEXT:     rt.bind_global(K[3], copy, DType.INT32, n)
// CHECK-NEXT:     rt.free(values)
// CHECK:      CONSTANTS = ('scale_index', 'values', 'done', 'copy')
