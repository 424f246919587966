// C++ host implementation of lang_extern_both.gt's host-only extern (distance_hint
// is the --extern file's __host__ __device__ function).
#include <string>

int load_hints(std::string name, int num_nodes) { return num_nodes + (int)name.size(); }
