// C++ host implementation of lang_astar.gt's host-only extern (heuristic is the
// --extern file's __host__ __device__ function).
#include <string>

static int vertices_read = 0;

void read_coordinates(std::string path, int vertex_count) { vertices_read = vertex_count; }
