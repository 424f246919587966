// CUDA implementation of lang_extern_both.gt's extern called from an edge
// function and from main: one __host__ __device__ function serves both.
__host__ __device__ int distance_hint(int v, int target) {
    return v > target ? v - target : target - v;
}
