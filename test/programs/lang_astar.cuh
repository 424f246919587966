// CUDA implementation of lang_astar.gt's heuristic, called from the edge
// function and from main.
__host__ __device__ double heuristic(int from_vertex, int to_vertex) { return 0.0; }
