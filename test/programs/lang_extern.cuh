// CUDA implementations of lang_extern.gt's extern functions.
__device__ float scale(int x, float factor) {
    return (float)x * factor;
}

__device__ int clamp_add(int a, int b, int limit) {
    int total = a + b;
    return total > limit ? limit : total;
}
