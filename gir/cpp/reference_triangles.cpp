// The CPU reference's triangle count: exact, on every core, for graphs whose
// sparse matrix product (the scipy form in gir/runtime/reference.py) would take
// minutes and gigabytes of wedges (rmat:22 and up).
//
// The input is a graph oriented from lower to higher rank (each undirected edge
// once, ranked by degree so that no vertex has more than O(sqrt(E)) out-edges),
// sorted by source and then destination. Every triangle u < v < w is then found
// exactly once, as the common out-neighbour w of an edge u->v: u's out-neighbours
// are marked in a per-thread array, then each v's are looked up in it.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

extern "C" {

// The number of triangles of the oriented, sorted edge list (src[i], dst[i]).
unsigned long long gir_oriented_triangles(long long vertices, const int32_t* src, const int32_t* dst,
                                          long long count) {
  std::vector<int64_t> rows(vertices + 1, 0);
  for (long long i = 0; i < count; ++i) ++rows[src[i] + 1];
  for (long long v = 0; v < vertices; ++v) rows[v + 1] += rows[v];

  constexpr long long chunk = 1024;  // vertices a thread takes at a time: degrees vary widely
  std::atomic<long long> next{0};
  std::atomic<uint64_t> total{0};
  auto work = [&] {
    uint64_t found = 0;
    std::vector<uint8_t> marked(vertices, 0);
    for (long long first; (first = next.fetch_add(chunk)) < vertices;) {
      for (long long u = first; u < std::min(first + chunk, vertices); ++u) {
        const int32_t *u_begin = dst + rows[u], *u_end = dst + rows[u + 1];
        for (const int32_t* w = u_begin; w != u_end; ++w) marked[*w] = 1;
        for (const int32_t* v = u_begin; v != u_end; ++v)
          for (const int32_t* w = dst + rows[*v]; w != dst + rows[*v + 1]; ++w) found += marked[*w];
        for (const int32_t* w = u_begin; w != u_end; ++w) marked[*w] = 0;
      }
    }
    total += found;
  };
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& thread : pool) thread.join();
  return total;
}

}  // extern "C"
