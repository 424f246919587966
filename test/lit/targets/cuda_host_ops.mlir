// RUN: gir-translate --to-cuda %S/Inputs/cuda_host_ops.mlir | filecheck %s

// Host ops beyond BFS's, printed as C++: a graph path and global names from the
// IR only ever inside escaped C string literals (quotes, backslashes, `*/` and
// `??=` stay data), weighted blocked arrays with their blocking size and float
// elements, infinities through std::numeric_limits, a persistent kernel's grid
// from CUDA's occupancy API, timers, host bit casts and unsigned minimums. A
// local named like `std` is renamed so the host can still call std::.

// CHECK:      extern "C" __global__ void spin(const float* data, int n) {
// CHECK:      int main(int argc, char** argv) {
// CHECK-NEXT:   gir_rt::args() = gir_rt::Args{argc, argv};
// CHECK-NEXT:   gir_rt::Graph* g = gir_rt::load_graph("g\"raph\\n*/.wel", true);
// CHECK-NEXT:   int n = (int)g->vertices;
// CHECK-NEXT:   int m = (int)g->num_edges();
// CHECK-NEXT:   float* w = g->array<float>(gir_rt::Array::BLOCKED_WEIGHTS, 1024LL);
// CHECK-NEXT:   int* off = g->array<int>(gir_rt::Array::BLOCK_OFFSETS, 1024LL);
// CHECK-NEXT:   double alpha = (double)gir_rt::argv_float(2);
// CHECK-NEXT:   float* std_ = gir_rt::alloc<float>(m);
// CHECK-NEXT:   gir_rt::bind_global<float>("we\"ird */ name", std_, m);
// CHECK-NEXT:   gir_rt::fill<float>(std_, std::numeric_limits<float>::infinity(), m);
// CHECK-NEXT:   gir_rt::copy<float>(w, std_, m);
// CHECK-NEXT:   gir_rt::start_timer();
// CHECK-NEXT:   int grid = gir_rt::resident_blocks((const void*)spin, 256, 2);
// CHECK-NEXT:   if (grid > 0) {
// CHECK-NEXT:     spin<<<grid, 256>>>(std_, n);
// CHECK-NEXT:     gir_rt::launched("spin");
// CHECK-NEXT:   }
// CHECK-NEXT:   float t = (float)gir_rt::stop_timer();
// CHECK-NEXT:   gir_rt::print_value(t);
// CHECK-NEXT:   float first = gir_rt::read<float>(std_, 0);
// CHECK-NEXT:   int bits = gir_rt::bitcast<int>(first);
// CHECK-NEXT:   int low = (int)std::min<unsigned int>((unsigned int)bits, (unsigned int)m);
// CHECK-NEXT:   gir_rt::print_value(low);
// CHECK-NEXT:   int first_offset = gir_rt::read<int>(off, 0);
// CHECK-NEXT:   gir_rt::print_value(first_offset);
// CHECK-NEXT:   float alpha32 = (float)alpha;
// CHECK-NEXT:   gir_rt::write<float>(std_, 0, alpha32);
// CHECK-NEXT:   gir_rt::print_text("tab\011quote\" \?\?= end");
// CHECK-NEXT:   gir_rt::free(std_);
// CHECK-NEXT:   return gir_rt::finish();
// CHECK-NEXT: }
