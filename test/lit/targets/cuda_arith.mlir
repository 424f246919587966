// RUN: gir-translate --to-cuda %S/Inputs/arith.mlir | filecheck %s

// arith and math ops in CUDA: constants are inlined literals, unsigned ops cast
// to unsigned, i1 logic uses && / || / !, casts are C casts (sign-extending an
// i1 negates it), bit casts are CUDA intrinsics; index_cast between i32 and index
// prints no variable.

// CHECK:      extern "C" __global__ void arith(
// CHECK:        int gid32 = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   int sum = a + b;
// CHECK-NEXT:   int diff = sum - (-1);
// CHECK-NEXT:   int prod = diff * a;
// CHECK-NEXT:   int quot = prod / b;
// CHECK-NEXT:   int rem = quot % b;
// CHECK-NEXT:   int uquot = (int)((unsigned int)rem / (unsigned int)b);
// CHECK-NEXT:   int urem = (int)((unsigned int)uquot % (unsigned int)b);
// CHECK-NEXT:   int and_ = urem & a;
// CHECK-NEXT:   int or_ = and_ | b;
// CHECK-NEXT:   int xor_ = or_ ^ (-1);
// CHECK-NEXT:   int shl = xor_ << a;
// CHECK-NEXT:   int shr = shl >> b;
// CHECK-NEXT:   int ushr = (int)((unsigned int)shr >> (unsigned int)b);
// CHECK-NEXT:   int smin = min(ushr, (-2147483647 - 1));
// CHECK-NEXT:   int smax = max(smin, a);
// CHECK-NEXT:   int umin = (int)min((unsigned int)smax, (unsigned int)b);
// CHECK-NEXT:   int umax = (int)max((unsigned int)umin, (unsigned int)a);
// CHECK-NEXT:   ints[gid32] = umax;
// CHECK-NEXT:   float fsum = x + y;
// CHECK-NEXT:   float fdiff = fsum - 0.1f;
// CHECK-NEXT:   float fprod = fdiff * x;
// CHECK-NEXT:   float fquot = fprod / y;
// CHECK-NEXT:   float fneg = -fquot;
// CHECK-NEXT:   float fmax_ = fmax(fneg, x);
// CHECK-NEXT:   float fmin_ = fmin(fmax_, __int_as_float(0x7f800000));
// CHECK-NEXT:   float fabs_ = fabs(fmin_);
// CHECK-NEXT:   float root = sqrt(fabs_);
// CHECK-NEXT:   floats[gid32] = root;
// CHECK-NEXT:   bool lt = a < b;
// CHECK-NEXT:   bool ult = (unsigned int)a < (unsigned int)b;
// CHECK-NEXT:   bool flt = x < y;
// CHECK-NEXT:   bool fne = x != y;
// CHECK-NEXT:   bool both = lt && ult;
// CHECK-NEXT:   bool either = both || flt;
// CHECK-NEXT:   bool not_ = !either;
// CHECK-NEXT:   bool pick = fne ? not_ : lt;
// CHECK-NEXT:   bools[gid32] = pick;
// CHECK-NEXT:   int chosen = lt ? a : b;
// CHECK-NEXT:   float as_float = (float)chosen;
// CHECK-NEXT:   int as_int = (int)as_float;
// CHECK-NEXT:   int zext = (int)lt;
// CHECK-NEXT:   int sext = -(int)lt;
// CHECK-NEXT:   int mixed = zext + sext;
// CHECK-NEXT:   int bits = __float_as_int(x);
// CHECK-NEXT:   bool low = (bits & 1) != 0;
// CHECK-NEXT:   float ubig = (float)(unsigned int)as_int;
// CHECK:        long long wider = wide + 5000000000LL;
// CHECK-NEXT:   int narrow = (int)wider;
// CHECK:        double double_ = (double)x;
// CHECK-NEXT:   double dsum = double_ + 0.5;
// CHECK-NEXT:   float single = (float)dsum;
// CHECK:        int offset = a + 4;
// CHECK-NEXT:   ints[0] = offset;
// CHECK-NEXT: }
