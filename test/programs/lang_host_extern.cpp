// C++ host implementations of lang_host_extern.gt's extern functions
// (gir-translate --to-cuda --host-extern test/programs/lang_host_extern.cpp).
#include <algorithm>
#include <string>

int label_length(std::string name) { return (int)name.size(); }

// Writes `counts` times `factor` into `out` (copied back to the device) and
// gives the largest count.
int spread(int* counts, double* out, int n, double factor) {
  int most = 0;
  for (int v = 0; v < n; ++v) {
    out[v] = counts[v] * factor;
    most = std::max(most, counts[v]);
  }
  return most;
}

std::string describe(int n) { return "max degree " + std::to_string(n); }
