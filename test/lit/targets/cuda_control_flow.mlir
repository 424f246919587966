// RUN: gir-translate --to-cuda %S/Inputs/control_flow.mlir | filecheck %s

// Structured control flow in CUDA: results of scf.if/for/while are variables
// assigned in the branches; a swap of loop-carried values goes through
// temporaries; scf.while is `while (true)` with the condition as a break.

// CHECK:      int clamped;
// CHECK-NEXT: if (inside) {
// CHECK-NEXT:   clamped = gid32;
// CHECK-NEXT: } else {
// CHECK-NEXT:   int last = n - 1;
// CHECK-NEXT:   clamped = last;
// CHECK-NEXT: }
// CHECK:      int total = 0;
// CHECK-NEXT: int a = 0;
// CHECK-NEXT: int b = 1;
// CHECK-NEXT: for (int edge = begin32; edge < end32; edge += 1) {
// CHECK-NEXT:   int value = values[edge];
// CHECK-NEXT:   int acc2 = total + value;
// CHECK-NEXT:   int next_a = b;
// CHECK-NEXT:   int next_b = a;
// CHECK-NEXT:   total = acc2;
// CHECK-NEXT:   a = next_a;
// CHECK-NEXT:   b = next_b;
// CHECK-NEXT: }
// CHECK-NEXT: int k = total;
// CHECK-NEXT: while (true) {
// CHECK-NEXT:   bool more = k > 0;
// CHECK-NEXT:   if (!more) {
// CHECK-NEXT:     break;
// CHECK-NEXT:   }
// CHECK-NEXT:   int half_ = k / 1;
// CHECK-NEXT:   int smaller = half_ - 1;
// CHECK-NEXT:   k = smaller;
// CHECK-NEXT: }
// CHECK-NEXT: int j = 0;
// CHECK-NEXT: int found;
// CHECK-NEXT: while (true) {
// CHECK-NEXT:   int j1 = j + 1;
// CHECK-NEXT:   bool go = j1 < n;
// CHECK-NEXT:   found = j1;
// CHECK-NEXT:   if (!go) {
// CHECK-NEXT:     break;
// CHECK-NEXT:   }
// CHECK-NEXT:   j = found;
// CHECK-NEXT: }
// CHECK-NEXT: int r = k + found;
