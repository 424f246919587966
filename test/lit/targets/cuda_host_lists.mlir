// RUN: gir-translate --to-cuda %s | filecheck %s

// Lists of device arrays (BC's stack of BFS levels) and the edges tiled by
// source (PULL with edge blocking, G2's PageRank) in the C++ host: a list is a
// `gir_rt::List*`, each list op one runtime call (mirroring gir.runtime.run's
// list_new / list_push / list_pop), and the by-source tiles arrays of the graph
// built with their blocking size.

// CHECK:      int main(int argc, char** argv) {
// CHECK-NEXT:   gir_rt::args() = gir_rt::Args{argc, argv};
// CHECK-NEXT:   gir_rt::Graph* g = gir_rt::load_graph(gir_rt::argv_str(1), false);
// CHECK-NEXT:   int n = (int)g->vertices;
// CHECK-NEXT:   int* offsets = g->array<int>(gir_rt::Array::CSC_BLOCK_OFFSETS, 512LL);
// CHECK-NEXT:   int* sources = g->array<int>(gir_rt::Array::CSC_BLOCKED_SRC, 512LL);
// CHECK-NEXT:   int* frontier = gir_rt::alloc<int>(n);
// CHECK-NEXT:   gir_rt::List* levels = gir_rt::list_new();
// CHECK-NEXT:   gir_rt::list_push(levels, frontier, n);
// CHECK-NEXT:   gir_rt::list_push(levels, sources, n);
// CHECK-NEXT:   int size = gir_rt::list_pop(levels, frontier);
// CHECK-NEXT:   gir_rt::print_value(size);
// CHECK-NEXT:   int first = gir_rt::read<int>(offsets, 0);
// CHECK-NEXT:   gir_rt::print_value(first);
// CHECK-NEXT:   gir_rt::free(frontier);
// CHECK-NEXT:   return gir_rt::finish();
// CHECK-NEXT: }

builtin.module {
  func.func @main() {
    %g = host.load_graph {argv = 1 : i64}
    %n = host.graph_size %g vertices : i32
    %offsets = host.graph_array %g csc_block_offsets {blocking_size = 512 : i64} : memref<?xi32>
    %sources = host.graph_array %g csc_blocked_src {blocking_size = 512 : i64} : memref<?xi32>
    %frontier = host.alloc %n : i32 -> memref<?xi32>
    %levels = host.list_new : !host.list
    host.list_push %levels, %frontier, %n : memref<?xi32>, i32
    host.list_push %levels, %sources, %n : memref<?xi32>, i32
    %size = host.list_pop %levels, %frontier : memref<?xi32>
    host.print %size : i32
    %c0 = arith.constant 0 : i32
    %first = host.read %offsets[%c0] : memref<?xi32>, i32 -> i32
    host.print %first : i32
    host.free %frontier : memref<?xi32>
    func.return
  }
}
