// RUN: gir-translate --to-cuda %S/Inputs/atomics.mlir | filecheck %s

// Atomics in CUDA return the old value. 32-bit ints and float/double add are
// native; 64-bit add/exch/or/CAS go through the unsigned long long overloads;
// float and double min/max are compare-and-swap helpers, printed once each.

// CHECK-NOT:  gir_atomic_add
// CHECK:      __device__ __forceinline__ float gir_atomic_min_f32(float* address, float value) {
// CHECK-NEXT:   int* bits = (int*)address;
// CHECK-NEXT:   int old = *bits;
// CHECK-NEXT:   while (value < __int_as_float(old)) {
// CHECK-NEXT:     int assumed = old;
// CHECK-NEXT:     old = atomicCAS(bits, assumed, __float_as_int(value));
// CHECK-NEXT:     if (old == assumed) {
// CHECK-NEXT:       break;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   return __int_as_float(old);
// CHECK-NEXT: }
// CHECK:      __device__ __forceinline__ float gir_atomic_max_f32(
// CHECK:        while (value > __int_as_float(old)) {
// CHECK:      __device__ __forceinline__ double gir_atomic_min_f64(double* address, double value) {
// CHECK-NEXT:   unsigned long long* bits = (unsigned long long*)address;
// CHECK:      __device__ __forceinline__ double gir_atomic_max_f64(
// CHECK:      extern "C" __global__ void atomics(
// CHECK:        int a1 = atomicAdd(&ints[0], i);
// CHECK-NEXT:   int a2 = atomicMin(&ints[0], a1);
// CHECK-NEXT:   int a3 = atomicMax(&ints[0], a2);
// CHECK-NEXT:   int a4 = atomicExch(&ints[0], a3);
// CHECK-NEXT:   int a5 = atomicOr(&ints[0], a4);
// CHECK-NEXT:   int a6 = atomicCAS(&ints[0], a5, i);
// CHECK-NEXT:   long long l1 = (long long)atomicAdd((unsigned long long*)&longs[0], (unsigned long long)l);
// CHECK-NEXT:   long long l2 = atomicMin(&longs[0], l1);
// CHECK-NEXT:   long long l3 = atomicMax(&longs[0], l2);
// CHECK-NEXT:   long long l4 = (long long)atomicExch((unsigned long long*)&longs[0], (unsigned long long)l3);
// CHECK-NEXT:   long long l5 = (long long)atomicOr((unsigned long long*)&longs[0], (unsigned long long)l4);
// CHECK-NEXT:   long long l6 = (long long)atomicCAS((unsigned long long*)&longs[0], (unsigned long long)l5, (unsigned long long)l);
// CHECK-NEXT:   float f1 = atomicAdd(&floats[0], f);
// CHECK-NEXT:   float f2 = gir_atomic_min_f32(&floats[0], f1);
// CHECK-NEXT:   float f3 = gir_atomic_max_f32(&floats[0], f2);
// CHECK-NEXT:   float f4 = atomicExch(&floats[0], f3);
// CHECK-NEXT:   float f5 = __int_as_float(atomicCAS((int*)&floats[0], __float_as_int(f4), __float_as_int(f)));
// CHECK-NEXT:   double d1 = atomicAdd(&doubles[0], d);
// CHECK-NEXT:   double d2 = gir_atomic_min_f64(&doubles[0], d1);
// CHECK-NEXT:   double d3 = gir_atomic_max_f64(&doubles[0], d2);
// CHECK-NEXT:   double d4 = __longlong_as_double((long long)atomicExch((unsigned long long*)&doubles[0], (unsigned long long)__double_as_longlong(d3)));
// CHECK-NEXT:   double d5 = __longlong_as_double((long long)atomicCAS((unsigned long long*)&doubles[0], (unsigned long long)__double_as_longlong(d4), (unsigned long long)__double_as_longlong(d)));
// CHECK-NEXT:   atomicAdd(&ints[1], i);
