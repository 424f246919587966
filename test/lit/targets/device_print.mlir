// gir_gpu.print is printf in both targets: texts through "%s", ints as int (64
// bits as long long / long), floats with %g (CUDA promotes a float to double;
// OpenCL 1.2's printf takes it as it is), bools as 0 or 1. The host program
// fences a launch of a printing kernel so its lines come in order.
// RUN: gir-translate %s --to-cuda --kernels-only | filecheck %s --check-prefix=CUDA
// RUN: gir-translate %s --to-opencl | filecheck %s --check-prefix=CL
// RUN: gir-translate %s --to-host-python | filecheck %s --check-prefix=HOST

builtin.module {
  gir_gpu.kernel @show(%x: i32, %w: i64, %f: f32, %d: f64, %b: i1) {
    gir_gpu.print "say \"hi\" 100%"
    gir_gpu.print %x : i32
    gir_gpu.print %w : i64
    gir_gpu.print %f : f32
    gir_gpu.print %d : f64
    gir_gpu.print %b : i1
    gir_gpu.return
  }
  func.func @main() {
    %c1 = arith.constant 1 : i32
    %w = arith.constant 2 : i64
    %f = arith.constant 1.5 : f32
    %d = arith.constant 2.5 : f64
    %b = arith.constant true
    host.print "host"
    host.launch @show grid %c1 block %c1 (%c1, %w, %f, %d, %b) : i32, i64, f32, f64, i1
    func.return
  }
}
// CUDA:      printf("%s\n", "say \"hi\" 100%");
// CUDA-NEXT: printf("%d\n", (int)x);
// CUDA-NEXT: printf("%lld\n", (long long)w);
// CUDA-NEXT: printf("%g\n", (double)f);
// CUDA-NEXT: printf("%g\n", d);
// CUDA-NEXT: printf("%d\n", (int)b);

// CL:      printf("%s\n", "say \"hi\" 100%");
// CL-NEXT: printf("%d\n", (int)x);
// CL-NEXT: printf("%ld\n", (long)w);
// CL-NEXT: printf("%g\n", f);
// CL-NEXT: printf("%g\n", d);
// CL-NEXT: printf("%d\n", (int)b);

// HOST:      rt.print_text(
// HOST-NEXT: rt.device_print_fence()
// HOST-NEXT: launch_show
// HOST-NEXT: rt.device_print_fence()
