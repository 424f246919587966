// RUN: gir-translate --to-opencl %S/Inputs/arith.mlir | filecheck %s

// arith and math ops in OpenCL C: the same walker as CUDA, with OpenCL's type
// names (uint, long), literals (INFINITY, 5000000000L) and bit casts (as_int).

// CHECK:      #pragma OPENCL EXTENSION cl_khr_fp64 : enable
// CHECK:      __kernel void arith(
// CHECK:        __global uchar* bools,
// CHECK:        int gid32 = (int)get_global_id(0);
// CHECK:        int uquot = (int)((uint)rem / (uint)b);
// CHECK:        int ushr = (int)((uint)shr >> (uint)b);
// CHECK-NEXT:   int smin = min(ushr, (-2147483647 - 1));
// CHECK:        int umax = (int)max((uint)umin, (uint)a);
// CHECK:        float fmin_ = fmin(fmax_, INFINITY);
// CHECK:        bool ult = (uint)a < (uint)b;
// CHECK:        bool not_ = !either;
// CHECK:        float as_float_ = (float)chosen;
// CHECK-NEXT:   int as_int_ = (int)as_float_;
// CHECK:        int sext = -(int)lt;
// CHECK:        int bits = as_int(x);
// CHECK-NEXT:   bool low = (bits & 1) != 0;
// CHECK-NEXT:   float ubig = (float)(uint)as_int_;
// CHECK:        long wide = (long)as_int_;
// CHECK-NEXT:   long wider = wide + 5000000000L;
// CHECK:        double dsum = double_ + 0.5;
// CHECK:      }
