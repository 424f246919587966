// RUN: gir-translate --to-cuda %s | filecheck %s

// A list handed to device code that pushes and pops on its own (a fused loop
// of BC's levels): `host.list_export` is one runtime call whose four results
// (storage, device view, and their element counts) are a structured binding,
// and `host.list_import` one call that takes the entries back and frees the
// view, as gir.runtime.run's list_export / list_import. The runtime's view
// slots are host.ListSlot's, defined before the runtime's source.

// CHECK:      #define GIR_LIST_SLOTS LIST_COUNT = 0, LIST_STATUS = 1, LIST_ITEM_CAPACITY = 2, LIST_ENTRY_CAPACITY = 3, LIST_ENDS = 4
// CHECK-NEXT: #define GIR_LIST_STATUSES LIST_OK = 0, LIST_OVERFLOWED = 1, LIST_EMPTIED = 2
// CHECK:      enum ListSlot { GIR_LIST_SLOTS };
// CHECK-NEXT: enum ListStatus { GIR_LIST_STATUSES };

// CHECK:      int main(int argc, char** argv) {
// CHECK-NEXT:   gir_rt::args() = gir_rt::Args{argc, argv};
// CHECK-NEXT:   gir_rt::Graph* g = gir_rt::load_graph(gir_rt::argv_str(1), false);
// CHECK-NEXT:   int n = (int)g->vertices;
// CHECK-NEXT:   int* frontier = gir_rt::alloc<int>(n);
// CHECK-NEXT:   gir_rt::List* levels = gir_rt::list_new();
// CHECK-NEXT:   gir_rt::list_push(levels, frontier, n);
// CHECK-NEXT:   auto [storage, ends, storage_count, ends_count] = gir_rt::list_export(levels, n);
// CHECK-NEXT:   gir_rt::print_value(storage_count);
// CHECK-NEXT:   gir_rt::print_value(ends_count);
// CHECK-NEXT:   int count = gir_rt::read<int>(ends, 0);
// CHECK-NEXT:   gir_rt::print_value(count);
// CHECK-NEXT:   int first = gir_rt::read<int>(storage, 0);
// CHECK-NEXT:   gir_rt::print_value(first);
// CHECK-NEXT:   gir_rt::list_import(levels, ends);
// CHECK-NEXT:   int size = gir_rt::list_pop(levels, frontier);
// CHECK-NEXT:   gir_rt::print_value(size);
// CHECK-NEXT:   gir_rt::free(frontier);
// CHECK-NEXT:   return gir_rt::finish();
// CHECK-NEXT: }

builtin.module {
  func.func @main() {
    %g = host.load_graph {argv = 1 : i64}
    %n = host.graph_size %g vertices : i32
    %frontier = host.alloc %n : i32 -> memref<?xi32>
    %levels = host.list_new : !host.list
    host.list_push %levels, %frontier, %n : memref<?xi32>, i32
    %storage, %ends, %storage_count, %ends_count = host.list_export %levels room %n : memref<?xi32>, memref<?xi32>
    host.print %storage_count : i32
    host.print %ends_count : i32
    %c0 = arith.constant 0 : i32
    %count = host.read %ends[%c0] : memref<?xi32>, i32 -> i32
    host.print %count : i32
    %first = host.read %storage[%c0] : memref<?xi32>, i32 -> i32
    host.print %first : i32
    host.list_import %levels, %ends : memref<?xi32>
    %size = host.list_pop %levels, %frontier : memref<?xi32>
    host.print %size : i32
    host.free %frontier : memref<?xi32>
    func.return
  }
}
