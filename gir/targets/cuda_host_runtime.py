"""The C++ runtime a complete CUDA program (`gir.targets.cuda_host`) carries.

`RUNTIME` is C++ text printed into every complete `.cu` file between the header
and the kernels, so that the file compiles with `nvcc` alone and runs without
Python. It mirrors `gir.runtime` (the Python host's runtime) call for call:

| `gir_rt::` call                       | mirrors (Python)                          |
|---------------------------------------|-------------------------------------------|
| `load_graph(path, weighted)`          | `gir.runtime.graph.load_graph` of a file  |
| `Graph::array<T>(kind, blocking)`     | `DeviceGraph.array` (uploaded on first use) |
| `alloc<T>`, `free`, `fill`, `copy`    | `Run.alloc`, `free`, `fill`, `copy`       |
| `read`, `write`                       | `Run.read`, `Run.write` (index checked)   |
| `bind_global`, `finish`               | `Run.bind_global`, `Run.finish` (`GIR_DUMP`) |
| `argv_int`, `argv_float`              | `Run.argv_int`, `Run.argv_float`          |
| `list_new`, `list_push`, `list_pop`    | `Run.list_new`, `list_push`, `list_pop`   |
| `list_export`, `list_import`          | `Run.list_export`, `list_import`          |
| `device_print_fence`                  | `Run.device_print_fence`                  |
| `resident_blocks(kernel, block, per_sm)` | `CudaDevice.resident_blocks` (CUDA's occupancy API) |
| `start_timer`, `stop_timer`, `print`  | `Run.start_timer`, `stop_timer`, `print`  |

Graph files: `.el` (`src dst`), `.wel` (`src dst weight`), `.mtx` (Matrix Market
coordinate pattern/integer/real, general/symmetric), parsed as gir does: 0-based
ids (`.mtx`: 1-based), `#`/`%` comment lines, the vertex count is the largest id
plus one (`.mtx`: max(rows, cols)), edges sorted by (src, dst) with duplicates
dropped (the first keeps its weight), real weights rounded to the nearest even.
`.gbin` is gir's binary edge file (`write_binary_graph`), read without parsing or
sorting: what `gir-bench --host compiled` hands the programs. Generator specs
(`rmat:16`) and gir's `.npz` cache are not read: write the graph as an edge list
or `.gbin` first (README, "Complete CUDA programs").

`GIR_DUMP=FILE` writes every bound global vector to FILE when the program ends
(a vector freed earlier as it was then): per vector a line `gir-dump NAME DTYPE
COUNT` (NAME percent-encoded outside `[A-Za-z0-9_.-]`, DTYPE numpy's name) and
COUNT lines of values; `gir.targets.cuda_host.read_dump` reads it back.

Every failure is one line `error: ...` on stderr and exit status 1.
"""

import os
from pathlib import Path

import numpy as np

from gir.dialects.host import PERSISTENT_THREADS_PER_SM, GraphArray, ListSlot, ListStatus
from gir.runtime.graph import Graph

RUNTIME = (
    r"""
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>
#include <cuda_runtime.h>

// Loop-carried values a program never reads again are still assigned.
#pragma nv_diag_suppress 550

namespace gir_rt {

[[noreturn]] inline void vfail(const char* path, const char* format, va_list arguments) {
  std::fflush(stdout);
  if (path != nullptr) {
    std::fprintf(stderr, "%s: ", path);
  }
  std::fputs("error: ", stderr);
  std::vfprintf(stderr, format, arguments);
  std::fputc('\n', stderr);
  std::exit(1);
}

// Ends the program with the one line `error: MESSAGE`.
[[noreturn]] inline void fail(const char* format, ...) {
  va_list arguments;
  va_start(arguments, format);
  vfail(nullptr, format, arguments);
}

// Ends the program with the one line `PATH: error: MESSAGE` (a graph file's error).
[[noreturn]] inline void fail_in(const char* path, const char* format, ...) {
  va_list arguments;
  va_start(arguments, format);
  vfail(path, format, arguments);
}

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    fail("CUDA failed in %s: %s", what, cudaGetErrorString(status));
  }
}

// ---------------------------------------------------------------------------
// Element types (numpy's names, as gir-run's --dump and GIR_DUMP write them)
// ---------------------------------------------------------------------------

template <typename T> const char* dtype_name();
template <> inline const char* dtype_name<bool>() { return "bool"; }
template <> inline const char* dtype_name<signed char>() { return "int8"; }
template <> inline const char* dtype_name<short>() { return "int16"; }
template <> inline const char* dtype_name<int>() { return "int32"; }
template <> inline const char* dtype_name<long long>() { return "int64"; }
template <> inline const char* dtype_name<unsigned int>() { return "uint32"; }
template <> inline const char* dtype_name<unsigned long long>() { return "uint64"; }
template <> inline const char* dtype_name<float>() { return "float32"; }
template <> inline const char* dtype_name<double>() { return "float64"; }

template <typename T> void format_value(std::FILE* out, T value) {
  if (std::is_floating_point<T>::value) {
    std::fprintf(out, std::is_same<T, float>::value ? "%.9g\n" : "%.17g\n", (double)value);
  } else if (std::is_unsigned<T>::value && !std::is_same<T, bool>::value) {
    std::fprintf(out, "%llu\n", (unsigned long long)value);
  } else {
    std::fprintf(out, "%lld\n", (long long)value);
  }
}

template <typename To, typename From> To bitcast(From value) {
  static_assert(sizeof(To) == sizeof(From), "bit casts keep the size");
  To result;
  std::memcpy(&result, &value, sizeof(To));
  return result;
}

// ---------------------------------------------------------------------------
// Output and timing
// ---------------------------------------------------------------------------

inline void print_value(double value) { std::printf("%g\n", value); }
inline void print_value(float value) { std::printf("%g\n", (double)value); }
inline void print_value(bool value) { std::printf("%d\n", value ? 1 : 0); }
inline void print_value(long long value) { std::printf("%lld\n", value); }
inline void print_value(unsigned long long value) { std::printf("%llu\n", value); }
inline void print_value(unsigned int value) { std::printf("%u\n", value); }
inline void print_value(int value) { std::printf("%d\n", value); }
inline void print_value(short value) { std::printf("%d\n", (int)value); }
inline void print_value(signed char value) { std::printf("%d\n", (int)value); }
inline void print_text(const char* text) { std::printf("%s\n", text); }

// ---------------------------------------------------------------------------
// The command line
// ---------------------------------------------------------------------------

struct Args {
  int count = 0;
  char** values = nullptr;
};

inline Args& args() {
  static Args instance;
  return instance;
}

inline const char* argv_str(int index) {
  if (index < 0 || index >= args().count) {
    fail("the program reads argv[%d], but only %d argument(s) were given", index, args().count - 1);
  }
  return args().values[index];
}

// An integer as Python's int(text, 0) reads one: decimal without leading zeros,
// or 0x hexadecimal; it must fit the `bits`-bit type the program reads.
inline long long argv_int(int index, int bits) {
  const char* text = argv_str(index);
  const char* digits = text + (*text == '+' || *text == '-');
  bool octal_looking = digits[0] == '0' && digits[1] >= '0' && digits[1] <= '9';
  char* end = nullptr;
  errno = 0;
  long long value = std::strtoll(text, &end, 0);
  if (*text == '\0' || *end != '\0' || octal_looking || errno == ERANGE) {
    fail("argv[%d] must be an integer, not '%s'", index, text);
  }
  long long low = bits >= 64 ? LLONG_MIN : -(1LL << (bits - 1));
  long long high = bits >= 64 ? LLONG_MAX : (1LL << (bits - 1)) - 1;
  if (value < low || value > high) {
    fail("argv[%d] is %s, which does not fit the program's %d-bit integer", index, text, bits);
  }
  return value;
}

inline double argv_float(int index) {
  const char* text = argv_str(index);
  char* end = nullptr;
  double value = std::strtod(text, &end);
  if (*text == '\0' || *end != '\0') {
    fail("argv[%d] must be a number, not '%s'", index, text);
  }
  return value;
}

// ---------------------------------------------------------------------------
// Device buffers: every allocation is known with its element count, so host
// reads and writes are checked and bound globals can be dumped.
// ---------------------------------------------------------------------------

struct Allocation {
  long long count;
  size_t element_size;
};

struct Binding {
  std::string name;
  const char* dtype;
  long long count;
  size_t element_size;
  void (*write)(std::FILE*, const void*, long long);
};

struct Snapshot {
  const char* dtype;
  long long count;
  std::vector<char> bytes;
  void (*write)(std::FILE*, const void*, long long);
};

struct Buffers {
  std::unordered_map<const void*, Allocation> allocations;
  std::unordered_map<const void*, Binding> bindings;
  std::map<std::string, Snapshot> snapshots;
};

inline Buffers& buffers() {
  static Buffers instance;
  return instance;
}

inline bool dumping() { return std::getenv("GIR_DUMP") != nullptr; }

template <typename T> void write_values(std::FILE* out, const void* data, long long count) {
  const T* values = static_cast<const T*>(data);
  for (long long i = 0; i < count; ++i) {
    format_value(out, values[i]);
  }
}

template <typename T> T* alloc(long long count) {
  if (count < 0) {
    fail("the program allocates %lld elements", count);
  }
  void* pointer = nullptr;
  size_t bytes = (size_t)std::max(count, 1LL) * sizeof(T);
  check(cudaMalloc(&pointer, bytes), "cudaMalloc");
  buffers().allocations[pointer] = Allocation{count, sizeof(T)};
  return static_cast<T*>(pointer);
}

inline void snapshot(const void* buffer) {
  auto found = buffers().bindings.find(buffer);
  if (found == buffers().bindings.end()) {
    return;
  }
  Binding binding = found->second;
  buffers().bindings.erase(found);
  long long count = binding.count;
  auto allocation = buffers().allocations.find(buffer);
  if (count < 0) {
    count = allocation != buffers().allocations.end() ? allocation->second.count : 0;
  }
  size_t element = binding.element_size;
  Snapshot copy{binding.dtype, count, std::vector<char>((size_t)count * element), binding.write};
  if (!copy.bytes.empty()) {
    check(cudaMemcpy(copy.bytes.data(), buffer, copy.bytes.size(), cudaMemcpyDeviceToHost), "cudaMemcpy");
  }
  buffers().snapshots[binding.name] = std::move(copy);
}

inline void free(const void* buffer) {
  if (dumping()) {
    snapshot(buffer);
  }
  buffers().bindings.erase(buffer);
  if (buffers().allocations.erase(buffer)) {
    check(cudaFree(const_cast<void*>(buffer)), "cudaFree");
  }
}

// `count` < 0: the count of the buffer's allocation.
template <typename T> void bind_global(const char* name, const T* buffer, long long count) {
  buffers().bindings[buffer] = Binding{name, dtype_name<T>(), count, sizeof(T), write_values<T>};
}

template <typename T> __global__ void fill_kernel(T* buffer, T value, long long count) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    buffer[i] = value;
  }
}

template <typename T> void fill(T* buffer, T value, long long count) {
  if (count <= 0) {
    return;
  }
  long long blocks = std::min((count + 255) / 256, 65535LL);
  fill_kernel<T><<<(unsigned)blocks, 256>>>(buffer, value, count);
  check(cudaGetLastError(), "a fill");
}

template <typename T> void copy(const T* source, T* target, long long count) {
  if (count > 0) {
    check(cudaMemcpyAsync(target, source, (size_t)count * sizeof(T), cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
  }
}

inline void check_index(const void* buffer, long long index) {
  auto allocation = buffers().allocations.find(buffer);
  if (allocation == buffers().allocations.end() || (0 <= index && index < allocation->second.count)) {
    return;
  }
  auto binding = buffers().bindings.find(buffer);
  std::string what = binding != buffers().bindings.end() ? "vector '" + binding->second.name + "'" : "a buffer";
  fail("the program accesses element %lld of %s, which has %lld elements (is a vertex given on "
       "the command line outside the graph?)", index, what.c_str(), allocation->second.count);
}

template <typename T> T read(const T* buffer, long long index) {
  check_index(buffer, index);
  T value;
  check(cudaMemcpy(&value, buffer + index, sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy (read)");
  return value;
}

// Queued as a one-element fill, so the host does not wait (as gir-run's write).
template <typename T> void write(T* buffer, long long index, T value) {
  check_index(buffer, index);
  fill_kernel<T><<<1, 1>>>(buffer + index, value, 1);
  check(cudaGetLastError(), "a write");
}

// ---------------------------------------------------------------------------
// Lists of device arrays (host.list_*), as gir.runtime.run's _List: the entries
// back to back in one int buffer, grown by doubling, and where each one ends.
// ---------------------------------------------------------------------------

struct List {
  int* storage = nullptr;
  long long capacity = 0;
  std::vector<long long> ends;
};

inline List* list_new() { return new List(); }

inline void copy_range(const int* source, long long from, int* target, long long to, long long count) {
  if (count > 0) {
    check(cudaMemcpyAsync(target + to, source + from, (size_t)count * sizeof(int), cudaMemcpyDeviceToDevice),
          "cudaMemcpyAsync (list)");
  }
}

// Moves the list's entries into a buffer of `capacity` elements.
inline void list_grow(List* list, long long capacity) {
  int* storage = alloc<int>(capacity);
  if (list->storage != nullptr) {
    copy_range(list->storage, 0, storage, 0, list->ends.empty() ? 0 : list->ends.back());
    free(list->storage);
  }
  list->storage = storage;
  list->capacity = capacity;
}

inline void list_push(List* list, const int* buffer, long long count) {
  long long start = list->ends.empty() ? 0 : list->ends.back();
  if (start + count > list->capacity) {
    list_grow(list, std::max({2 * list->capacity, start + count, 1024LL}));
  }
  copy_range(buffer, 0, list->storage, start, count);
  list->ends.push_back(start + count);
}

inline int list_pop(List* list, int* buffer) {
  if (list->ends.empty()) {
    fail("the program retrieves from an empty list");
  }
  long long end = list->ends.back();
  list->ends.pop_back();
  long long start = list->ends.empty() ? 0 : list->ends.back();
  auto target = buffers().allocations.find(buffer);
  if (target != buffers().allocations.end() && end - start > target->second.count) {
    fail("a list entry of %lld vertices does not fit in a frontier of %lld", end - start, target->second.count);
  }
  copy_range(list->storage, start, buffer, 0, end - start);
  return (int)(end - start);
}

// The slots of a list's device view (host.ListSlot) and its status values
// (host.ListStatus).
enum ListSlot { @LIST_SLOTS@ };
enum ListStatus { @LIST_STATUSES@ };

// What host.list_export gives the device: the storage, the view and their counts.
struct ListView {
  int* storage;
  int* ends;
  int storage_count;
  int ends_count;
};

// The list's storage grown to hold `room` more items, and a new device view of
// its header and ends with room for `room` + 1 more entries.
inline ListView list_export(List* list, long long room) {
  long long used = list->ends.empty() ? 0 : list->ends.back();
  if (list->storage == nullptr || used + room > list->capacity) {
    list_grow(list, std::max(used + room, 1LL));
  }
  long long entries = (long long)list->ends.size() + room + 1;
  if (list->capacity > INT_MAX || LIST_ENDS + entries > INT_MAX) {
    fail("a list of %lld items and %lld entries does not fit a device view of int32", list->capacity, entries);
  }
  std::vector<int> view((size_t)(LIST_ENDS + entries), 0);
  view[LIST_COUNT] = (int)list->ends.size();
  view[LIST_STATUS] = LIST_OK;
  view[LIST_ITEM_CAPACITY] = (int)list->capacity;
  view[LIST_ENTRY_CAPACITY] = (int)entries;
  std::copy(list->ends.begin(), list->ends.end(), view.begin() + LIST_ENDS);
  int* ends = alloc<int>((long long)view.size());
  check(cudaMemcpy(ends, view.data(), view.size() * sizeof(int), cudaMemcpyHostToDevice), "cudaMemcpy (list)");
  return ListView{list->storage, ends, (int)list->capacity, (int)view.size()};
}

// Takes the list's entries back from the view `ends` (freed) and fails if a
// device step set the status.
inline void list_import(List* list, int* ends) {
  int header[LIST_ENDS];
  check(cudaMemcpy(header, ends, sizeof header, cudaMemcpyDeviceToHost), "cudaMemcpy (list)");
  std::vector<int> entries((size_t)header[LIST_COUNT]);
  if (!entries.empty()) {
    check(cudaMemcpy(entries.data(), ends + LIST_ENDS, entries.size() * sizeof(int), cudaMemcpyDeviceToHost),
          "cudaMemcpy (list)");
  }
  free(ends);
  list->ends.assign(entries.begin(), entries.end());
  if (header[LIST_STATUS] == LIST_OVERFLOWED) {
    fail("a fused loop pushed more onto a list than the %d items and %d entries it had room for (one per "
         "vertex: enable deduplication, or do not fuse the loop)", header[LIST_ITEM_CAPACITY],
         header[LIST_ENTRY_CAPACITY]);
  }
  if (header[LIST_STATUS] == LIST_EMPTIED) {
    fail("the program retrieves from an empty list");
  }
}

// Around a launch of a kernel that prints (gir_gpu.print): the host's lines so
// far go out before the kernel's, and the kernel's (flushed by the device at a
// synchronization) before the host's next ones, as gir-run's fence.
inline void device_print_fence() {
  std::fflush(stdout);
  check(cudaDeviceSynchronize(), "a printing kernel");
  std::fflush(stdout);
}

inline void launched(const char* kernel) {
  cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) {
    fail("CUDA failed to launch %s: %s", kernel, cudaGetErrorString(status));
  }
}

// How many `block`-thread blocks of `kernel` are resident at once on the device,
// at most `per_sm` per multiprocessor (0: the default below).
inline int resident_blocks(const void* kernel, int block, int per_sm) {
  int device = 0, per_multiprocessor = 0, multiprocessors = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, block, 0) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  check(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  // host.PERSISTENT_THREADS_PER_SM: more blocks make every grid barrier dearer.
  int policy = per_sm > 0 ? per_sm : std::max(1, @PERSISTENT_THREADS_PER_SM@ / block);
  per_multiprocessor = std::min(per_multiprocessor, policy);
  return per_multiprocessor * multiprocessors;
}

// ---------------------------------------------------------------------------
// Timer
// ---------------------------------------------------------------------------

struct Timer {
  std::chrono::steady_clock::time_point started;
  bool running = false;
};

inline Timer& timer() {
  static Timer instance;
  return instance;
}

inline void start_timer() {
  check(cudaDeviceSynchronize(), "a kernel before the timer started");
  timer().started = std::chrono::steady_clock::now();
  timer().running = true;
}

inline double stop_timer() {
  check(cudaDeviceSynchronize(), "a timed kernel");
  if (!timer().running) {
    fail("the program stops its timer before starting it");
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - timer().started).count();
}

// ---------------------------------------------------------------------------
// Graphs
// ---------------------------------------------------------------------------

// host.GraphArray's members, in its order.
enum class Array { @GRAPH_ARRAYS@ };

const long long MAX_VERTICES = INT_MAX;

// Edges sorted by (src, dst) without duplicates, with optional weights.
struct Edges {
  std::vector<int> src, dst, weights;
};

inline uint64_t edge_key(long long src, long long dst) { return ((uint64_t)src << 32) | (uint32_t)dst; }

// Sorts edges by (src, dst) and drops duplicates; the first of a duplicate keeps its weight.
inline Edges sorted_unique(const std::vector<long long>& src, const std::vector<long long>& dst,
                           const std::vector<int>* weights) {
  std::vector<std::pair<uint64_t, size_t>> order(src.size());
  for (size_t i = 0; i < src.size(); ++i) {
    order[i] = {edge_key(src[i], dst[i]), i};
  }
  std::sort(order.begin(), order.end());
  Edges edges;
  for (size_t i = 0; i < order.size(); ++i) {
    if (i > 0 && order[i].first == order[i - 1].first) {
      continue;
    }
    edges.src.push_back((int)(order[i].first >> 32));
    edges.dst.push_back((int)(uint32_t)order[i].first);
    if (weights != nullptr) {
      edges.weights.push_back((*weights)[order[i].second]);
    }
  }
  return edges;
}

// Where each row's entries begin once sorted by row: counts, then prefix sums.
inline std::vector<int> row_pointers(const std::vector<int>& rows, long long vertices) {
  std::vector<int> pointers((size_t)vertices + 1, 0);
  for (int row : rows) {
    ++pointers[(size_t)row + 1];
  }
  for (size_t v = 0; v < (size_t)vertices; ++v) {
    pointers[v + 1] += pointers[v];
  }
  return pointers;
}

// A blocked layout's arrays (gir.runtime.graph.BlockedEdges).
struct Tiling {
  std::vector<int> offsets, src, dst, weights;
};

struct Graph {
  std::string path;
  long long vertices = 0;
  bool weighted = false;
  Edges edges;
  std::unique_ptr<Edges> transposed;
  std::map<std::pair<long long, bool>, Tiling> tilings;
  std::map<std::pair<int, long long>, void*> device;

  long long num_edges() const { return (long long)edges.src.size(); }

  // The reversed edges sorted by (dst, src): a stable counting sort by
  // destination of the (src, dst)-sorted edges.
  const Edges& transpose() {
    if (!transposed) {
      std::vector<int> next = row_pointers(edges.dst, vertices);
      transposed.reset(new Edges());
      Edges& result = *transposed;
      size_t count = edges.src.size();
      result.src.resize(count);
      result.dst.resize(count);
      result.weights.resize(weighted ? count : 0);
      for (size_t e = 0; e < count; ++e) {
        size_t position = (size_t)next[(size_t)edges.dst[e]]++;
        result.src[position] = edges.dst[e];
        result.dst[position] = edges.src[e];
        if (weighted) {
          result.weights[position] = edges.weights[e];
        }
      }
    }
    return *transposed;
  }

  // The edges tiled by destination range (by source: by source range), as
  // gir.runtime.graph.BlockedEdges: a stable sort by block of the (src, dst)
  // order (by source: of the transpose's (dst, src) order); made once per size.
  const Tiling& tiling(long long size, bool by_source) {
    auto key = std::make_pair(size, by_source);
    auto found = tilings.find(key);
    if (found != tilings.end()) {
      return found->second;
    }
    if (size <= 0) {
      fail("edge blocking needs a positive blocking size, got %lld", size);
    }
    // The transpose's src is the original dst, so its dst is the tiled source.
    const Edges& ordered = by_source ? transpose() : edges;
    const std::vector<int>& sources = by_source ? ordered.dst : ordered.src;
    const std::vector<int>& targets = by_source ? ordered.src : ordered.dst;
    const std::vector<int>& tiled = by_source ? sources : targets;
    long long blocks = std::max(1LL, (vertices + size - 1) / size);
    Tiling result;
    result.offsets.assign((size_t)blocks + 1, 0);
    for (int v : tiled) {
      ++result.offsets[(size_t)(v / size) + 1];
    }
    for (size_t b = 0; b < (size_t)blocks; ++b) {
      result.offsets[b + 1] += result.offsets[b];
    }
    std::vector<int> next(result.offsets.begin(), result.offsets.end() - 1);
    size_t count = tiled.size();
    result.src.resize(count);
    result.dst.resize(count);
    result.weights.resize(weighted ? count : 0);
    for (size_t e = 0; e < count; ++e) {
      size_t position = (size_t)next[(size_t)(tiled[e] / size)]++;
      result.src[position] = sources[e];
      result.dst[position] = targets[e];
      if (weighted) {
        result.weights[position] = ordered.weights[e];
      }
    }
    return tilings.emplace(key, std::move(result)).first->second;
  }

  std::vector<int> host_array(Array kind, long long blocking_size) {
    bool reads_weights = kind == Array::WEIGHTS || kind == Array::CSC_WEIGHTS ||
                         kind == Array::BLOCKED_WEIGHTS || kind == Array::CSC_BLOCKED_WEIGHTS;
    if (reads_weights && !weighted) {
      fail("the program reads edge weights, but graph '%s' has none", path.c_str());
    }
    switch (kind) {
      case Array::ROW_PTR: return row_pointers(edges.src, vertices);
      case Array::COL_IDX: return edges.dst;
      case Array::WEIGHTS: return edges.weights;
      case Array::CSC_PTR: return row_pointers(transpose().src, vertices);
      case Array::CSC_IDX: return transpose().dst;
      case Array::CSC_WEIGHTS: return transpose().weights;
      case Array::COO_SRC: return edges.src;
      case Array::CSC_DST: return transpose().src;
      case Array::OUT_DEGREES: {
        std::vector<int> degrees((size_t)vertices, 0);
        for (int s : edges.src) {
          ++degrees[(size_t)s];
        }
        return degrees;
      }
      case Array::BLOCK_OFFSETS: return tiling(blocking_size, false).offsets;
      case Array::BLOCKED_SRC: return tiling(blocking_size, false).src;
      case Array::BLOCKED_DST: return tiling(blocking_size, false).dst;
      case Array::BLOCKED_WEIGHTS: return tiling(blocking_size, false).weights;
      case Array::CSC_BLOCK_OFFSETS: return tiling(blocking_size, true).offsets;
      case Array::CSC_BLOCKED_SRC: return tiling(blocking_size, true).src;
      case Array::CSC_BLOCKED_DST: return tiling(blocking_size, true).dst;
      case Array::CSC_BLOCKED_WEIGHTS: return tiling(blocking_size, true).weights;
    }
    fail("the runtime does not build graph array %d", (int)kind);
  }

  // The device copy of one array with `T` elements, uploaded on first use.
  template <typename T> T* array(Array kind, long long blocking_size = 0) {
    auto key = std::make_pair((int)kind * 16 + (int)sizeof(T) + (std::is_floating_point<T>::value ? 8 : 0), blocking_size);
    auto found = device.find(key);
    if (found != device.end()) {
      return static_cast<T*>(found->second);
    }
    std::vector<int> values = host_array(kind, blocking_size);
    std::vector<T> converted(values.begin(), values.end());
    void* pointer = nullptr;
    check(cudaMalloc(&pointer, std::max<size_t>(converted.size(), 1) * sizeof(T)), "cudaMalloc (graph)");
    if (!converted.empty()) {
      check(cudaMemcpy(pointer, converted.data(), converted.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy (graph)");
    }
    device[key] = pointer;
    return static_cast<T*>(pointer);
  }
};

// A text file's lines, with line numbers, for the parsers below.
struct Lines {
  std::string path;
  std::vector<char> data;
  size_t offset = 0;
  long long number = 0;

  bool next(char*& begin, char*& end) {
    if (offset >= data.size()) {
      return false;
    }
    begin = data.data() + offset;
    char* newline = static_cast<char*>(std::memchr(begin, '\n', data.size() - offset));
    end = newline != nullptr ? newline : data.data() + data.size();
    offset = (size_t)(end - data.data()) + 1;
    ++number;
    return true;
  }

  [[noreturn]] void error(const char* message, const char* begin, const char* end) {
    std::string text(begin, end);
    while (!text.empty() && std::isspace((unsigned char)text.back())) {
      text.pop_back();
    }
    size_t first = text.find_first_not_of(" \t\r\v\f");
    text = first == std::string::npos ? "" : text.substr(first);
    if (text.size() > 80) {
      text = text.substr(0, 77) + "...";
    }
    std::fflush(stdout);
    std::fprintf(stderr, "%s:%lld: error: %s: '%s'\n", path.c_str(), number, message, text.c_str());
    std::exit(1);
  }
};

inline bool blank_or_comment(const char* begin, const char* end) {
  if (begin < end && (*begin == '#' || *begin == '%')) {
    return true;
  }
  for (const char* c = begin; c < end; ++c) {
    if (!std::isspace((unsigned char)*c)) {
      return false;
    }
  }
  return true;
}

// The whitespace-separated tokens of one line.
inline std::vector<std::string> tokens(const char* begin, const char* end) {
  std::vector<std::string> found;
  const char* c = begin;
  while (c < end) {
    while (c < end && std::isspace((unsigned char)*c)) ++c;
    const char* start = c;
    while (c < end && !std::isspace((unsigned char)*c)) ++c;
    if (c > start) found.emplace_back(start, c);
  }
  return found;
}

inline bool parse_integer(const std::string& token, long long& value) {
  size_t i = token[0] == '+' || token[0] == '-';
  if (i == token.size() || token.find_first_not_of("0123456789", i) != std::string::npos) {
    return false;
  }
  errno = 0;
  value = std::strtoll(token.c_str(), nullptr, 10);
  return errno != ERANGE;
}

inline bool parse_number(const std::string& token, double& value) {
  char* end = nullptr;
  value = std::strtod(token.c_str(), &end);
  return *end == '\0' && token.find_first_of("nNiIxX") == std::string::npos;
}

// The tokens of the next data line (blank and comment lines skipped), which must
// hold `columns` tokens; false at the end of the file.
inline bool next_row(Lines& lines, size_t columns, std::vector<std::string>& words, char*& begin, char*& end) {
  while (lines.next(begin, end)) {
    if (blank_or_comment(begin, end)) continue;
    words = tokens(begin, end);
    if (words.size() != columns) {
      std::string message = "expected " + std::to_string(columns) + " columns, found " + std::to_string(words.size());
      lines.error(message.c_str(), begin, end);
    }
    return true;
  }
  return false;
}

inline int checked_weight(Lines& lines, double weight, const char* begin, const char* end) {
  if (!std::isfinite(weight)) {
    lines.error("weight is not a finite number", begin, end);
  }
  weight = std::nearbyint(weight);
  if (weight < INT_MIN || weight > INT_MAX) {
    std::string message = "weight " + std::to_string((long long)weight) + " does not fit in int32";
    lines.error(message.c_str(), begin, end);
  }
  return (int)weight;
}

inline void edge_list(Lines& lines, bool with_weights, std::vector<long long>& src,
                      std::vector<long long>& dst, std::vector<int>& weights, long long& vertices) {
  char *begin, *end;
  size_t columns = with_weights ? 3 : 2;
  vertices = 0;
  std::vector<std::string> words;
  while (next_row(lines, columns, words, begin, end)) {
    long long values[3];
    for (size_t i = 0; i < columns; ++i) {
      if (!parse_integer(words[i], values[i])) {
        std::string message = "'" + words[i] + "' is not an integer";
        lines.error(message.c_str(), begin, end);
      }
    }
    for (size_t i = 0; i < 2; ++i) {
      if (values[i] < 0) {
        std::string message = "negative vertex id " + std::to_string(values[i]);
        lines.error(message.c_str(), begin, end);
      }
      if (values[i] > MAX_VERTICES - 1) {
        std::string message = "vertex id " + std::to_string(values[i]) + " is too large (at most " +
                              std::to_string(MAX_VERTICES - 1) + ")";
        lines.error(message.c_str(), begin, end);
      }
      vertices = std::max(vertices, values[i] + 1);
    }
    src.push_back(values[0]);
    dst.push_back(values[1]);
    if (with_weights) weights.push_back(checked_weight(lines, (double)values[2], begin, end));
  }
}

inline void matrix_market(Lines& lines, std::vector<long long>& src, std::vector<long long>& dst,
                          std::vector<int>& weights, bool& has_weights, long long& vertices) {
  char *begin, *end;
  if (!lines.next(begin, end)) {
    begin = end = lines.data.data();
  }
  std::vector<std::string> banner = tokens(begin, end);
  for (std::string& word : banner) {
    std::transform(word.begin(), word.end(), word.begin(), [](unsigned char c) { return (char)std::tolower(c); });
  }
  if (banner.size() != 5 || banner[0] != "%%matrixmarket" || banner[1] != "matrix") {
    lines.error("not a Matrix Market file: expected the banner '%%MatrixMarket matrix coordinate "
                "<pattern|integer|real> <general|symmetric>'", begin, end);
  }
  if (banner[2] != "coordinate") lines.error("only the 'coordinate' Matrix Market format is supported", begin, end);
  if (banner[3] != "pattern" && banner[3] != "integer" && banner[3] != "real") {
    lines.error("unsupported Matrix Market field (expected pattern, integer or real)", begin, end);
  }
  if (banner[4] != "general" && banner[4] != "symmetric") {
    lines.error("unsupported Matrix Market symmetry (expected general or symmetric)", begin, end);
  }
  has_weights = banner[3] != "pattern";
  bool symmetric = banner[4] == "symmetric", real = banner[3] == "real";
  long long sizes[3] = {-1, -1, -1};
  while (lines.next(begin, end)) {
    if (blank_or_comment(begin, end)) continue;
    std::vector<std::string> words = tokens(begin, end);
    bool valid = words.size() == 3;
    for (size_t i = 0; valid && i < 3; ++i) valid = parse_integer(words[i], sizes[i]) && sizes[i] >= 0;
    if (!valid) lines.error("expected the size line 'ROWS COLS ENTRIES'", begin, end);
    if (std::max(sizes[0], sizes[1]) > MAX_VERTICES) lines.error("the matrix is too large for int32 vertex ids", begin, end);
    break;
  }
  if (sizes[0] < 0) fail_in(lines.path.c_str(), "truncated file: the size line 'ROWS COLS ENTRIES' is missing");
  vertices = std::max(sizes[0], sizes[1]);
  size_t columns = has_weights ? 3 : 2;
  long long found = 0;
  std::vector<std::string> words;
  while (next_row(lines, columns, words, begin, end)) {
    double values[3];
    for (size_t i = 0; i < columns; ++i) {
      long long integer = 0;
      bool ok = real ? parse_number(words[i], values[i]) : parse_integer(words[i], integer);
      if (!real) values[i] = (double)integer;
      if (!ok) {
        std::string message = "'" + words[i] + "' is not " + (real ? "a number" : "an integer");
        lines.error(message.c_str(), begin, end);
      }
    }
    for (size_t i = 0; i < 2; ++i) {
      if (values[i] != std::floor(values[i])) lines.error("row and column indices must be integers", begin, end);
      if (values[i] < 1) {
        std::string message = "vertex index " + std::to_string((long long)values[i]) + " is below 1";
        lines.error(message.c_str(), begin, end);
      }
      if (values[i] > (double)sizes[i]) {
        std::string message = "vertex index " + std::to_string((long long)values[i]) +
                              " is larger than the matrix size " + std::to_string(sizes[i]);
        lines.error(message.c_str(), begin, end);
      }
    }
    long long row = (long long)values[0] - 1, col = (long long)values[1] - 1;
    int weight = has_weights ? checked_weight(lines, values[2], begin, end) : 0;
    src.push_back(row);
    dst.push_back(col);
    if (has_weights) weights.push_back(weight);
    ++found;
  }
  if (found != sizes[2]) {
    fail_in(lines.path.c_str(), "%s: the size line declares %lld entries but %lld were found",
         found < sizes[2] ? "truncated file" : "too many entries", sizes[2], found);
  }
  if (symmetric) {
    size_t stored = src.size();
    for (size_t i = 0; i < stored; ++i) {
      if (src[i] != dst[i]) {
        src.push_back(dst[i]);
        dst.push_back(src[i]);
        if (has_weights) weights.push_back(weights[i]);
      }
    }
  }
}

// A little-endian int64 at `offset` of `data`.
inline long long int64_at(const std::vector<char>& data, size_t offset) {
  int64_t value;
  std::memcpy(&value, data.data() + offset, sizeof value);
  return (long long)value;
}

// gir's binary edge file (`write_binary_graph` in gir.targets.cuda_host_runtime):
// the magic "GIRBIN1\n", int64 vertices, edges and flags (1: weighted), then int32
// src[edges], dst[edges] and, when weighted, weights[edges]; the edges sorted by
// (src, dst) without duplicates, as gir's Graph holds them.
inline Graph* binary_graph(const std::string& path, const std::vector<char>& data, bool weighted) {
  const size_t header = 32;
  if (data.size() < header || std::memcmp(data.data(), "GIRBIN1\n", 8) != 0) {
    fail_in(path.c_str(), "not a gir binary graph (expected the magic 'GIRBIN1')");
  }
  long long vertices = int64_at(data, 8), count = int64_at(data, 16), flags = int64_at(data, 24);
  bool has_weights = flags == 1;
  if (vertices < 0 || vertices > MAX_VERTICES || count < 0 || count > (long long)INT_MAX || (flags & ~1LL) != 0 ||
      data.size() != header + (size_t)count * sizeof(int) * (has_weights ? 3 : 2)) {
    fail_in(path.c_str(), "corrupt gir binary graph: the header does not match the file's size");
  }
  if (weighted && !has_weights) {
    fail_in(path.c_str(), "the graph has no weights; the program needs a weighted edgeset");
  }
  Graph* graph = new Graph();
  graph->path = path;
  graph->vertices = vertices;
  graph->weighted = weighted;
  Edges& edges = graph->edges;
  const char* columns = data.data() + header;
  size_t bytes = (size_t)count * sizeof(int);
  edges.src.resize((size_t)count);
  edges.dst.resize((size_t)count);
  std::memcpy(edges.src.data(), columns, bytes);
  std::memcpy(edges.dst.data(), columns + bytes, bytes);
  if (weighted) {
    edges.weights.resize((size_t)count);
    std::memcpy(edges.weights.data(), columns + 2 * bytes, bytes);
  }
  for (size_t e = 0; e < (size_t)count; ++e) {
    int s = edges.src[e], d = edges.dst[e];
    if (s < 0 || s >= vertices || d < 0 || d >= vertices) {
      fail_in(path.c_str(), "corrupt gir binary graph: edge %zu (%d, %d) leaves the %lld vertices", e, s, d, vertices);
    }
    if (e > 0 && edge_key(edges.src[e - 1], edges.dst[e - 1]) >= edge_key(s, d)) {
      fail_in(path.c_str(), "corrupt gir binary graph: edge %zu is not after edge %zu in (src, dst) order", e, e - 1);
    }
  }
  return graph;
}

// Loads the graph file `path` as gir-run does; `weighted`: the program reads weights.
inline Graph* load_graph(const char* path, bool weighted) {
  std::string name(path);
  size_t dot = name.find_last_of('.');
  size_t slash = name.find_last_of('/');
  std::string suffix = dot == std::string::npos || (slash != std::string::npos && dot < slash) ? "" : name.substr(dot);
  std::transform(suffix.begin(), suffix.end(), suffix.begin(), [](unsigned char c) { return (char)std::tolower(c); });
  std::FILE* file = std::fopen(path, "rb");
  if (file == nullptr) {
    size_t colon = name.find(':');
    if (colon != std::string::npos && colon > 0 && name.find('/') == std::string::npos) {
      fail("graph generators ('%s') need gir-run; write the graph to an .el/.wel/.mtx file first", path);
    }
    fail_in(path, "graph file not found: %s", path);
  }
  if (suffix != ".el" && suffix != ".wel" && suffix != ".mtx" && suffix != ".gbin") {
    std::fclose(file);
    fail_in(path, "unknown graph file extension '%s' (expected .el, .wel, .mtx or .gbin)", suffix.c_str());
  }
  Lines lines;
  lines.path = name;
  char chunk[1 << 16];
  size_t got;
  while ((got = std::fread(chunk, 1, sizeof chunk, file)) > 0) {
    lines.data.insert(lines.data.end(), chunk, chunk + got);
  }
  std::fclose(file);
  if (suffix == ".gbin") {
    return binary_graph(name, lines.data, weighted);
  }
  std::vector<long long> src, dst;
  std::vector<int> weights;
  bool has_weights = suffix == ".wel";
  long long vertices = 0;
  if (suffix == ".mtx") {
    matrix_market(lines, src, dst, weights, has_weights, vertices);
  } else {
    edge_list(lines, has_weights, src, dst, weights, vertices);
  }
  if ((long long)src.size() > (long long)INT_MAX) {
    fail_in(path, "%zu edges do not fit in int32 CSR row pointers", src.size());
  }
  if (weighted && !has_weights) {
    fail_in(path, "the graph has no weights; the program needs a weighted edgeset (use a .wel file)");
  }
  Graph* graph = new Graph();
  graph->path = name;
  graph->vertices = vertices;
  graph->weighted = weighted;
  graph->edges = sorted_unique(src, dst, weighted ? &weights : nullptr);
  return graph;
}

// Waits for the device, writes the bound globals to $GIR_DUMP and ends the program.
inline int finish() {
  check(cudaDeviceSynchronize(), "a kernel");
  std::fflush(stdout);
  const char* path = std::getenv("GIR_DUMP");
  if (path == nullptr) {
    return 0;
  }
  std::vector<const void*> bound;
  for (auto& binding : buffers().bindings) bound.push_back(binding.first);
  for (const void* buffer : bound) snapshot(buffer);
  std::FILE* out = std::fopen(path, "w");
  if (out == nullptr) {
    fail("cannot write GIR_DUMP file '%s': %s", path, std::strerror(errno));
  }
  for (auto& entry : buffers().snapshots) {
    std::string name;
    for (unsigned char c : entry.first) {
      if (std::isalnum(c) || c == '_' || c == '.' || c == '-') {
        name += (char)c;
      } else {
        char escaped[4];
        std::snprintf(escaped, sizeof escaped, "%%%02X", c);
        name += escaped;
      }
    }
    const Snapshot& snapshot = entry.second;
    std::fprintf(out, "gir-dump %s %s %lld\n", name.c_str(), snapshot.dtype, snapshot.count);
    snapshot.write(out, snapshot.bytes.data(), snapshot.count);
  }
  if (std::fclose(out) != 0) {
    fail("cannot write GIR_DUMP file '%s'", path);
  }
  return 0;
}

}  // namespace gir_rt
""".replace("@PERSISTENT_THREADS_PER_SM@", str(PERSISTENT_THREADS_PER_SM))
    .replace("@GRAPH_ARRAYS@", ", ".join(kind.name for kind in GraphArray))
    .replace("@LIST_SLOTS@", ", ".join(f"LIST_{slot.name} = {slot.value}" for slot in ListSlot))
    .replace("@LIST_STATUSES@", ", ".join(f"LIST_{status.name} = {status.value}" for status in ListStatus))
)
"""The C++ text of the runtime (see the module docstring)."""

BINARY_GRAPH_MAGIC = b"GIRBIN1\n"
"""The first bytes of a `.gbin` file."""


def write_binary_graph(graph: Graph, path: Path) -> None:
    """Writes `graph` as a `.gbin` file that a complete program loads without
    parsing or sorting (the runtime's `binary_graph`): the magic, int64 vertices,
    edges and flags (1: weighted), then int32 src, dst and weights, little-endian.
    Written to a temporary file and renamed, so a reader never sees half of one."""
    header = np.array([graph.num_vertices, graph.num_edges, graph.weights is not None], dtype="<i8")
    columns = [graph.src, graph.dst] + ([graph.weights] if graph.weights is not None else [])
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(partial, "wb") as stream:
        stream.write(BINARY_GRAPH_MAGIC)
        stream.write(header.tobytes())
        for column in columns:
            stream.write(np.ascontiguousarray(column, dtype="<i4").tobytes())
    os.replace(partial, path)
