// OpenCL C implementation of lang_extern_both.gt's extern called from an edge function.
int distance_hint(int v, int target) {
    return v > target ? v - target : target - v;
}
