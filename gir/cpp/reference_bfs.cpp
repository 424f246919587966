// The CPU reference's BFS on every core, for graphs whose numpy form in
// gir/runtime/reference.py would take minutes and several times the graph's
// memory in temporaries (billions of edges): the levels from a source, and
// whether each of a list of edges exists (a BFS parent's check).
//
// The graph is a CSR with rows sorted by column (gir's Graph), its row pointers
// int32 or int64. Levels are found top-down, one level at a time: threads take
// blocks of the frontier, claim each unreached neighbour with a compare-and-swap
// and collect the claimed ones in lists of their own, joined into the next
// frontier. Each edge is read once.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "on_every_core.h"

namespace {

using gir_reference::core_count;
using gir_reference::on_every_core;

template <typename Offset>
void bfs_levels(long long vertices, const Offset* ptr, const int32_t* idx, int32_t source, int32_t* levels) {
  std::fill(levels, levels + vertices, -1);
  levels[source] = 0;
  std::vector<int32_t> frontier{source};
  std::vector<std::vector<int32_t>> found(core_count());
  for (int32_t depth = 1; !frontier.empty(); ++depth) {
    std::atomic<size_t> next{0};
    constexpr size_t block = 256;  // frontier vertices a thread takes at a time: degrees vary widely
    on_every_core([&](unsigned thread) {
      std::vector<int32_t>& mine = found[thread];
      mine.clear();
      for (size_t first; (first = next.fetch_add(block)) < frontier.size();) {
        for (size_t i = first; i < std::min(first + block, frontier.size()); ++i) {
          int32_t u = frontier[i];
          for (Offset e = ptr[u]; e < ptr[u + 1]; ++e) {
            int32_t w = idx[e];
            int32_t unreached = -1;
            if (__atomic_load_n(&levels[w], __ATOMIC_RELAXED) == -1 &&
                __atomic_compare_exchange_n(&levels[w], &unreached, depth, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
              mine.push_back(w);
            }
          }
        }
      }
    });
    frontier.clear();
    for (std::vector<int32_t>& mine : found) frontier.insert(frontier.end(), mine.begin(), mine.end());
  }
}

template <typename Offset>
void has_edges(const Offset* ptr, const int32_t* idx, const int32_t* src, const int32_t* dst, long long count,
               uint8_t* found) {
  std::atomic<long long> next{0};
  constexpr long long block = 1 << 16;
  on_every_core([&](unsigned) {
    for (long long first; (first = next.fetch_add(block)) < count;) {
      for (long long i = first; i < std::min(first + block, count); ++i) {
        const int32_t* row = idx + ptr[src[i]];
        const int32_t* row_end = idx + ptr[src[i] + 1];
        found[i] = std::binary_search(row, row_end, dst[i]) ? 1 : 0;
      }
    }
  });
}

}  // namespace

extern "C" {

// The BFS level of every vertex from `source` along the CSR's edges (-1: unreached).
void gir_bfs_levels(long long vertices, const int32_t* ptr, const int32_t* idx, int32_t source, int32_t* levels) {
  bfs_levels(vertices, ptr, idx, source, levels);
}

void gir_bfs_levels64(long long vertices, const int64_t* ptr, const int32_t* idx, int32_t source, int32_t* levels) {
  bfs_levels(vertices, ptr, idx, source, levels);
}

// found[i] = whether the edge src[i] -> dst[i] is in the CSR (ids in range).
void gir_has_edges(const int32_t* ptr, const int32_t* idx, const int32_t* src, const int32_t* dst, long long count,
                   uint8_t* found) {
  has_edges(ptr, idx, src, dst, count, found);
}

void gir_has_edges64(const int64_t* ptr, const int32_t* idx, const int32_t* src, const int32_t* dst, long long count,
                     uint8_t* found) {
  has_edges(ptr, idx, src, dst, count, found);
}

}  // extern "C"
