// RUN: gir-translate --to-opencl %S/Inputs/atomics.mlir | filecheck %s

// Atomics in OpenCL C: 32-bit int atomics are core (atomic_*), 64-bit ones need
// cl_khr_int64_base/extended_atomics (atom_*), float exchange is core, float and
// double add/min/max are compare-and-swap loops over as_int/as_float
// (as_long/as_double).

// CHECK:      #pragma OPENCL EXTENSION cl_khr_fp64 : enable
// CHECK-NEXT: #pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
// CHECK-NEXT: #pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
// CHECK:      static inline float gir_atomic_add_f32(__global float* address, float value) {
// CHECK-NEXT:   volatile __global int* bits = (volatile __global int*)address;
// CHECK-NEXT:   int old = *bits;
// CHECK-NEXT:   int assumed;
// CHECK-NEXT:   do {
// CHECK-NEXT:     assumed = old;
// CHECK-NEXT:     old = atomic_cmpxchg(bits, assumed, as_int(as_float(assumed) + value));
// CHECK-NEXT:   } while (old != assumed);
// CHECK-NEXT:   return as_float(old);
// CHECK-NEXT: }
// CHECK:      static inline float gir_atomic_min_f32(
// CHECK:      static inline float gir_atomic_max_f32(
// CHECK:      static inline double gir_atomic_add_f64(__global double* address, double value) {
// CHECK-NEXT:   volatile __global long* bits = (volatile __global long*)address;
// CHECK:          old = atom_cmpxchg(bits, assumed, as_long(as_double(assumed) + value));
// CHECK:      static inline double gir_atomic_min_f64(
// CHECK:      static inline double gir_atomic_max_f64(
// CHECK:      __kernel void atomics(
// CHECK:        int a1 = atomic_add(&ints[0], i);
// CHECK-NEXT:   int a2 = atomic_min(&ints[0], a1);
// CHECK-NEXT:   int a3 = atomic_max(&ints[0], a2);
// CHECK-NEXT:   int a4 = atomic_xchg(&ints[0], a3);
// CHECK-NEXT:   int a5 = atomic_or(&ints[0], a4);
// CHECK-NEXT:   int a6 = atomic_cmpxchg(&ints[0], a5, i);
// CHECK-NEXT:   long l1 = atom_add(&longs[0], l);
// CHECK-NEXT:   long l2 = atom_min(&longs[0], l1);
// CHECK-NEXT:   long l3 = atom_max(&longs[0], l2);
// CHECK-NEXT:   long l4 = atom_xchg(&longs[0], l3);
// CHECK-NEXT:   long l5 = atom_or(&longs[0], l4);
// CHECK-NEXT:   long l6 = atom_cmpxchg(&longs[0], l5, l);
// CHECK-NEXT:   float f1 = gir_atomic_add_f32(&floats[0], f);
// CHECK-NEXT:   float f2 = gir_atomic_min_f32(&floats[0], f1);
// CHECK-NEXT:   float f3 = gir_atomic_max_f32(&floats[0], f2);
// CHECK-NEXT:   float f4 = atomic_xchg(&floats[0], f3);
// CHECK-NEXT:   float f5 = as_float(atomic_cmpxchg((volatile __global int*)&floats[0], as_int(f4), as_int(f)));
// CHECK-NEXT:   double d1 = gir_atomic_add_f64(&doubles[0], d);
// CHECK-NEXT:   double d2 = gir_atomic_min_f64(&doubles[0], d1);
// CHECK-NEXT:   double d3 = gir_atomic_max_f64(&doubles[0], d2);
// CHECK-NEXT:   double d4 = as_double(atom_xchg((volatile __global long*)&doubles[0], as_long(d3)));
// CHECK-NEXT:   double d5 = as_double(atom_cmpxchg((volatile __global long*)&doubles[0], as_long(d4), as_long(d)));
// CHECK-NEXT:   atomic_add(&ints[1], i);
