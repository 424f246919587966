// Work on every core for the CPU reference's C++ units (reference_bfs.cpp,
// reference_gather.cpp): graphs of billions of edges, whose numpy form would
// take minutes and several times the graph's memory in temporaries.
#pragma once

#include <algorithm>
#include <thread>
#include <vector>

namespace gir_reference {

inline unsigned core_count() { return std::max(1u, std::thread::hardware_concurrency()); }

// Runs `work(thread)` on one thread per hardware thread.
template <typename Work> void on_every_core(Work work) {
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < core_count(); ++t) pool.emplace_back(work, t);
  work(0u);
  for (std::thread& thread : pool) thread.join();
}

}  // namespace gir_reference
