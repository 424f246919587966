// RUN: gir-translate --to-opencl %S/Inputs/workgroup.mlir | filecheck %s

// Work-group arrays are __local arrays at kernel scope. Sub-group ops call
// helpers that use cl_khr_subgroup_ballot where the compiler has it and the
// device's sub-groups are 32 wide, and otherwise emulate a 32-lane sub-group
// through a kernel-scope __local scratch array (one per element type) between two
// barriers. Lane and sub-group ids follow the same choice.

// CHECK:      static inline int gir_subgroup_lane(void) {
// CHECK-NEXT: #if defined(cl_khr_subgroup_ballot)
// CHECK-NEXT:   if (get_max_sub_group_size() == 32) {
// CHECK-NEXT:     return (int)get_sub_group_local_id();
// CHECK-NEXT:   }
// CHECK-NEXT: #endif
// CHECK-NEXT:   return (int)get_local_id(0) % 32;
// CHECK-NEXT: }
// CHECK:      static inline int gir_subgroup_id(void) {
// CHECK:          return (int)get_sub_group_id();
// CHECK:        return (int)get_local_id(0) / 32;
// CHECK:      static inline int gir_subgroup_ballot(bool predicate, __local int* scratch) {
// CHECK-NEXT: #if defined(cl_khr_subgroup_ballot)
// CHECK-NEXT:   if (get_max_sub_group_size() == 32) {
// CHECK-NEXT:     return (int)sub_group_ballot((int)predicate).x;
// CHECK-NEXT:   }
// CHECK-NEXT: #endif
// CHECK-NEXT:   int thread = (int)get_local_id(0);
// CHECK-NEXT:   int first = thread - thread % 32;
// CHECK-NEXT:   int lanes = min(32, (int)get_local_size(0) - first);
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   scratch[thread] = predicate ? (int)(1u << (thread - first)) : 0;
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   int mask = 0;
// CHECK-NEXT:   for (int lane = 0; lane < lanes; lane++) {
// CHECK-NEXT:     mask |= scratch[first + lane];
// CHECK-NEXT:   }
// CHECK-NEXT:   return mask;
// CHECK-NEXT: }
// CHECK:      static inline int gir_subgroup_exclusive_sum_i32(int value, __local int* scratch) {
// CHECK:          return sub_group_scan_exclusive_add(value);
// CHECK:        barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   scratch[thread] = value;
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   uint sum = 0;
// CHECK-NEXT:   for (int lane = thread - thread % 32; lane < thread; lane++) {
// CHECK-NEXT:     sum += (uint)scratch[lane];
// CHECK-NEXT:   }
// CHECK-NEXT:   return (int)sum;
// CHECK:      static inline int gir_subgroup_broadcast_i32(int value, int lane, __local int* scratch) {
// CHECK:          return sub_group_broadcast(value, (uint)lane);
// CHECK:        return scratch[thread - thread % 32 + lane];
// CHECK:      static inline long gir_subgroup_exclusive_sum_i64(long value, __local long* scratch) {
// CHECK:        ulong sum = 0;
// CHECK:      __kernel void workgroup(
// CHECK:        __local int gir_subgroup_scratch_i32[1024];
// CHECK-NEXT:   __local long gir_subgroup_scratch_i64[1024];
// CHECK-NEXT:   __local float gir_subgroup_scratch_f32[1024];
// CHECK-NEXT:   __local double gir_subgroup_scratch_f64[1024];
// CHECK-NEXT:   __local int tile[256];
// CHECK-NEXT:   int thread = (int)get_local_id(0);
// CHECK-NEXT:   int gid = (int)get_global_id(0);
// CHECK-NEXT:   int lane = gir_subgroup_lane();
// CHECK-NEXT:   int warp = gir_subgroup_id();
// CHECK-NEXT:   int width = 32;
// CHECK:        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
// CHECK:        for (int round_ = 0; round_ < rounds; round_ += 1) {
// CHECK:          int mask = gir_subgroup_ballot(set, gir_subgroup_scratch_i32);
// CHECK-NEXT:     int before = gir_subgroup_exclusive_sum_i32(sum, gir_subgroup_scratch_i32);
// CHECK-NEXT:     int first = gir_subgroup_broadcast_i32(before, 0, gir_subgroup_scratch_i32);
// CHECK:        long b64 = gir_subgroup_broadcast_i64(s64, lane, gir_subgroup_scratch_i64);
// CHECK:        double bd = gir_subgroup_broadcast_f64(sd, 1, gir_subgroup_scratch_f64);
