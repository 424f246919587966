// The CPU reference's gathers on every core: each row's sum of a vertex vector
// over its entries (PageRank's and power iteration's pull over in-edges), for
// graphs whose numpy form (a float64 temporary an edge and a bincount on one
// core an iteration, each edge a cache miss once the vectors outgrow the
// caches) took about two minutes for PageRank's check on rmat:24.
//
// Rows go to threads in blocks of vertices; each row is summed in its entries'
// order, so the result does not depend on the number of cores.

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "on_every_core.h"

namespace {

template <typename Offset>
void row_sums(long long rows, const Offset* ptr, const int32_t* idx, const double* values, double* sums) {
  std::atomic<long long> next{0};
  constexpr long long block = 4096;  // rows a thread takes at a time: degrees vary widely
  gir_reference::on_every_core([&](unsigned) {
    for (long long first; (first = next.fetch_add(block)) < rows;) {
      for (long long row = first; row < std::min(first + block, rows); ++row) {
        double sum = 0.0;
        for (Offset e = ptr[row]; e < ptr[row + 1]; ++e) sum += values[idx[e]];
        sums[row] = sum;
      }
    }
  });
}

}  // namespace

extern "C" {

// sums[v] = the sum of values[idx[e]] over row v's entries of a CSR.
void gir_row_sums(long long rows, const int32_t* ptr, const int32_t* idx, const double* values, double* sums) {
  row_sums(rows, ptr, idx, values, sums);
}

void gir_row_sums64(long long rows, const int64_t* ptr, const int32_t* idx, const double* values, double* sums) {
  row_sums(rows, ptr, idx, values, sums);
}

}  // extern "C"
