// The runtime of a complete CUDA program printed by gir (gir.targets.cuda_host):
// device buffers, lists, timers, the command line, GIR_DUMP and graphs, one call
// per host op (the table in gir/targets/cuda_host_runtime.py). Graph files are
// loaded and graph arrays built by graph_build.h, the same code gir-run's Python
// host calls. gir.targets.cuda_host_runtime prints this file with its includes
// inlined, after the #defines it takes from the host dialect:
// GIR_PERSISTENT_THREADS_PER_SM, GIR_GRAPH_ARRAYS, GIR_LIST_SLOTS and
// GIR_LIST_STATUSES.
#pragma once

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

#include "graph_build.h"

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

// Whether this thread's prints are dropped: every rank of a partitioned program
// but the first (cuda_partition.cuh) runs the same host code.
inline bool& silent() {
  static thread_local bool value = false;
  return value;
}

inline void print_value(double value) { if (!silent()) std::printf("%g\n", value); }
inline void print_value(float value) { if (!silent()) std::printf("%g\n", (double)value); }
inline void print_value(bool value) { if (!silent()) std::printf("%d\n", value ? 1 : 0); }
inline void print_value(long long value) { if (!silent()) std::printf("%lld\n", value); }
inline void print_value(unsigned long long value) { if (!silent()) std::printf("%llu\n", value); }
inline void print_value(unsigned int value) { if (!silent()) std::printf("%u\n", value); }
inline void print_value(int value) { if (!silent()) std::printf("%d\n", value); }
inline void print_value(short value) { if (!silent()) std::printf("%d\n", (int)value); }
inline void print_value(signed char value) { if (!silent()) std::printf("%d\n", (int)value); }
inline void print_text(const char* text) { if (!silent()) std::printf("%s\n", text); }

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

// An integer as gir.protocol.parse_argv_int reads one: ASCII decimal without
// leading zeros, or 0x hexadecimal, with an optional sign and nothing around it;
// it must fit the `bits`-bit type the program reads. `what` names the text in
// messages ("argv[2]", "atoi's argument").
inline long long text_int(const char* text, const char* what, int bits) {
  const char* digits = text + (*text == '+' || *text == '-');
  bool octal_looking = digits[0] == '0' && digits[1] >= '0' && digits[1] <= '9';
  char* end = nullptr;
  errno = 0;
  long long value = std::strtoll(text, &end, 0);
  bool spaced = std::isspace((unsigned char)*text) || std::isspace((unsigned char)*digits);
  if (*text == '\0' || *end != '\0' || octal_looking || spaced || errno == ERANGE) {
    fail("%s must be an integer, not '%s'", what, text);
  }
  long long low = bits >= 64 ? LLONG_MIN : -(1LL << (bits - 1));
  long long high = bits >= 64 ? LLONG_MAX : (1LL << (bits - 1)) - 1;
  if (value < low || value > high) {
    fail("%s is %s, which does not fit the program's %d-bit integer", what, text, bits);
  }
  return value;
}

// `l.pop()` of a list of numbers (a `std::vector`): its last item, removed; an
// empty list ends the program with an error at `where` (`file:line:col`, or "").
template <class T>
T number_list_pop(std::vector<T>& numbers, const char* where) {
  if (numbers.empty()) {
    fail_in(*where != '\0' ? where : nullptr, "the program pops from an empty list");
  }
  T last = numbers.back();
  numbers.pop_back();
  return last;
}

inline long long argv_int(int index, int bits) {
  std::string what = "argv[" + std::to_string(index) + "]";
  return text_int(argv_str(index), what.c_str(), bits);
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
// A reordered graph (host.load_graph's reorder): the program runs on the
// relabelled graph; vertex arguments and dumped vectors are mapped between the
// user's ids and the program's, as gir.runtime.run.Run maps them.
// ---------------------------------------------------------------------------

struct Relabelling {
  std::vector<int32_t> new_of_old, old_of_new;  // empty: the graph is not reordered
};

inline Relabelling& relabelling() {
  static Relabelling instance;
  return instance;
}

// argv[index], a user's vertex id, as the program's id of that vertex (ids
// outside the graph are kept, so the program's bounds checks report them).
inline long long argv_vertex(int index) {
  long long vertex = argv_int(index, 32);
  const std::vector<int32_t>& map = relabelling().new_of_old;
  return vertex >= 0 && vertex < (long long)map.size() ? map[(size_t)vertex] : vertex;
}

// A dumped vector of a reordered program in the user's terms: its vertex ids
// (`ids`) as the user's ids, its elements (`indexed`, one per vertex) in the
// user's vertex order.
template <typename T> void to_user(void* data, long long count, bool indexed, bool ids) {
  const Relabelling& map = relabelling();
  T* values = static_cast<T*>(data);
  long long vertices = (long long)map.old_of_new.size();
  if (vertices == 0) return;
  if (ids) {
    for (long long i = 0; i < count; ++i) {
      long long id = (long long)values[i];
      if (std::is_integral<T>::value && id >= 0 && id < vertices) values[i] = (T)map.old_of_new[(size_t)id];
    }
  }
  if (indexed && count == vertices) {
    std::vector<T> ordered((size_t)count);
    for (long long old = 0; old < count; ++old) ordered[(size_t)old] = values[(size_t)map.new_of_old[(size_t)old]];
    std::copy(ordered.begin(), ordered.end(), values);
  }
}

// ---------------------------------------------------------------------------
// Device buffers: every allocation is known with its element count, so host
// reads and writes are checked and bound globals can be dumped.
// ---------------------------------------------------------------------------

struct Allocation {
  long long count;
  size_t element_size;
  size_t bytes;  // as allocated: at least one element
};

struct Binding {
  std::string name;
  const char* dtype;
  long long count;
  size_t element_size;
  void (*write)(std::FILE*, const void*, long long);
  void (*to_user)(void*, long long, bool, bool);
  bool vertex_indexed, vertex_values;
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
  // Freed buffers by their size in bytes, for the next allocation of that size
  // (as the Python host's Run keeps them): a loop that allocates and frees a
  // buffer an iteration (a clone, a scan's block sums) would otherwise pay a
  // cudaMalloc and a cudaFree, which waits for the device, every iteration.
  std::unordered_map<size_t, std::vector<void*>> spare;
};

// Per thread: each rank of a partitioned program has its own device's buffers.
inline Buffers& buffers() {
  static thread_local Buffers instance;
  return instance;
}

inline bool dumping() { return std::getenv("GIR_DUMP") != nullptr; }

template <typename T> void write_values(std::FILE* out, const void* data, long long count) {
  const T* values = static_cast<const T*>(data);
  for (long long i = 0; i < count; ++i) {
    format_value(out, values[i]);
  }
}

// Frees the buffers kept for reuse.
inline void release_spare() {
  for (auto& [bytes, pointers] : buffers().spare) {
    for (void* pointer : pointers) check(cudaFree(pointer), "cudaFree");
  }
  buffers().spare.clear();
}

// `bytes` of device memory; when the device is out of memory, after freeing
// the spare buffers.
inline void* device_alloc(size_t bytes, const char* what) {
  void* pointer = nullptr;
  if (cudaMalloc(&pointer, bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    release_spare();
    check(cudaMalloc(&pointer, bytes), what);
  }
  return pointer;
}

template <typename T> T* alloc(long long count) {
  if (count < 0) {
    fail("the program allocates %lld elements", count);
  }
  void* pointer = nullptr;
  size_t bytes = (size_t)std::max(count, 1LL) * sizeof(T);
  std::vector<void*>& spare = buffers().spare[bytes];
  if (!spare.empty()) {
    pointer = spare.back();
    spare.pop_back();
  } else {
    pointer = device_alloc(bytes, "cudaMalloc");
  }
  buffers().allocations[pointer] = Allocation{count, sizeof(T), bytes};
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
    binding.to_user(copy.bytes.data(), count, binding.vertex_indexed, binding.vertex_values);
  }
  buffers().snapshots[binding.name] = std::move(copy);
}

inline void free(const void* buffer) {
  if (dumping()) {
    snapshot(buffer);
  }
  buffers().bindings.erase(buffer);
  auto allocation = buffers().allocations.find(buffer);
  if (allocation != buffers().allocations.end()) {
    buffers().spare[allocation->second.bytes].push_back(const_cast<void*>(buffer));
    buffers().allocations.erase(allocation);
  }
}

// `count` < 0: the count of the buffer's allocation; `vertex_indexed`,
// `vertex_values`: how a reordered program's vector is mapped back (to_user).
template <typename T>
void bind_global(const char* name, const T* buffer, long long count, bool vertex_indexed = false,
                 bool vertex_values = false) {
  buffers().bindings[buffer] =
      Binding{name, dtype_name<T>(), count, sizeof(T), write_values<T>, to_user<T>, vertex_indexed, vertex_values};
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

// A vector passed to a host extern function (host.call_extern): a host copy of
// the whole device buffer for the call, copied back to the device after it.
template <typename T> struct HostCopy {
  T* device;
  std::vector<T> host;

  explicit HostCopy(T* buffer) : device(buffer) {
    auto allocation = buffers().allocations.find(buffer);
    host.resize(allocation != buffers().allocations.end() ? (size_t)allocation->second.count : 0);
    if (!host.empty()) {
      check(cudaMemcpy(host.data(), device, host.size() * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
    }
  }

  T* data() { return host.data(); }

  void copy_back() {
    if (!host.empty()) {
      check(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
    }
  }
};

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
enum ListSlot { GIR_LIST_SLOTS };
enum ListStatus { GIR_LIST_STATUSES };

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
  int policy = per_sm > 0 ? per_sm : std::max(1, GIR_PERSISTENT_THREADS_PER_SM / block);
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
  static thread_local Timer instance;
  return instance;
}

// What a rank of a partitioned program does before its timer starts (its
// thread's; cuda_partition.cuh sets a barrier of the ranks): the time runs from
// when every rank is ready, not from when the first finished its upload.
using TimerHook = void (*)();
inline TimerHook& before_timer() {
  static thread_local TimerHook hook = nullptr;
  return hook;
}

inline void start_timer() {
  check(cudaDeviceSynchronize(), "a kernel before the timer started");
  if (before_timer() != nullptr) before_timer()();
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
// Graphs: loaded and built by graph_build.h, the code gir-run's Python host
// calls too (gir.runtime.graph.native), then uploaded array by array.
// ---------------------------------------------------------------------------

// host.GraphArray's members, in its order.
enum class Array { GIR_GRAPH_ARRAYS };

// Edges sorted by (src, dst) without duplicates, with optional weights.
struct Edges {
  std::vector<int32_t> src, dst, weights;
};

// A blocked layout's arrays (gir.runtime.graph.BlockedEdges); the offsets are
// 64-bit here and uploaded with the program's edge index width.
struct Tiling {
  std::vector<int64_t> offsets;
  std::vector<int32_t> src, dst, weights;
};

inline std::vector<int64_t> row_pointers(const std::vector<int32_t>& rows, long long vertices) {
  std::vector<int64_t> pointers((size_t)vertices + 1);
  gir_graph::row_pointers(rows.data(), rows.size(), vertices, pointers.data());
  return pointers;
}

// Whether `kind` holds edge offsets (host.OFFSET_ARRAYS): elements of the
// program's edge index type, int32 or int64.
inline bool offsets_array(Array kind) {
  return kind == Array::ROW_PTR || kind == Array::CSC_PTR || kind == Array::BLOCK_OFFSETS ||
         kind == Array::CSC_BLOCK_OFFSETS;
}

struct Graph {
  // The most edges a program with 32-bit edge indices takes (memory.py's
  // MAX_EDGES_32): 2^24 below int32's limit, so that a kernel's edge position
  // may pass the end by a grid's stride without wrapping.
  static constexpr long long MAX_EDGES_32 = INT32_MAX - (1LL << 24);

  std::string path;
  long long vertices = 0;
  bool weighted = false;
  Edges edges;
  std::unique_ptr<Edges> transposed;
  std::map<std::pair<long long, bool>, Tiling> tilings;
  std::map<std::pair<int, long long>, void*> device;
  std::vector<int32_t> whole_out_degrees;  // a partitioned graph's part: the whole graph's degrees

  long long num_edges() const { return (long long)edges.src.size(); }

  // The reversed edges, sorted by (dst, src).
  const Edges& transpose() {
    if (!transposed) {
      size_t count = edges.src.size();
      transposed.reset(new Edges());
      Edges& result = *transposed;
      result.src.resize(count);
      result.dst.resize(count);
      result.weights.resize(weighted ? count : 0);
      gir_graph::transpose(edges.src.data(), edges.dst.data(), weighted ? edges.weights.data() : nullptr, count,
                           vertices, result.src.data(), result.dst.data(), weighted ? result.weights.data() : nullptr);
    }
    return *transposed;
  }

  // The edges tiled by destination range (by source: by source range), as
  // gir.runtime.graph.BlockedEdges; made once per size.
  const Tiling& tiling(long long size, bool by_source) {
    auto key = std::make_pair(size, by_source);
    auto found = tilings.find(key);
    if (found != tilings.end()) {
      return found->second;
    }
    if (size <= 0) {
      fail("edge blocking needs a positive blocking size, got %lld", size);
    }
    // By source: the transpose's edges, (dst, src)-sorted, turned back.
    const Edges& ordered = by_source ? transpose() : edges;
    const std::vector<int32_t>& sources = by_source ? ordered.dst : ordered.src;
    const std::vector<int32_t>& targets = by_source ? ordered.src : ordered.dst;
    size_t count = sources.size();
    Tiling result;
    result.offsets.resize((size_t)gir_graph::block_count(vertices, size) + 1);
    result.src.resize(count);
    result.dst.resize(count);
    result.weights.resize(weighted ? count : 0);
    gir_graph::tile(sources.data(), targets.data(), weighted ? ordered.weights.data() : nullptr, count, vertices, size,
                    by_source, result.offsets.data(), result.src.data(), result.dst.data(),
                    weighted ? result.weights.data() : nullptr);
    return tilings.emplace(key, std::move(result)).first->second;
  }

  // The offsets array `kind` (offsets_array), 64-bit on the host.
  std::vector<int64_t> host_offsets(Array kind, long long blocking_size) {
    switch (kind) {
      case Array::ROW_PTR: return row_pointers(edges.src, vertices);
      case Array::CSC_PTR: return row_pointers(transpose().src, vertices);
      case Array::BLOCK_OFFSETS: return tiling(blocking_size, false).offsets;
      case Array::CSC_BLOCK_OFFSETS: return tiling(blocking_size, true).offsets;
      default: fail("graph array %d holds no offsets", (int)kind);
    }
  }

  std::vector<int32_t> host_array(Array kind, long long blocking_size) {
    bool reads_weights = kind == Array::WEIGHTS || kind == Array::CSC_WEIGHTS ||
                         kind == Array::BLOCKED_WEIGHTS || kind == Array::CSC_BLOCKED_WEIGHTS;
    if (reads_weights && !weighted) {
      fail("the program reads edge weights, but graph '%s' has none", path.c_str());
    }
    switch (kind) {
      case Array::COL_IDX: return edges.dst;
      case Array::WEIGHTS: return edges.weights;
      case Array::CSC_IDX: return transpose().dst;
      case Array::CSC_WEIGHTS: return transpose().weights;
      case Array::COO_SRC: return edges.src;
      case Array::CSC_DST: return transpose().src;
      case Array::OUT_DEGREES: {
        if (!whole_out_degrees.empty()) return whole_out_degrees;
        std::vector<int32_t> degrees((size_t)vertices, 0);
        for (int32_t s : edges.src) {
          ++degrees[(size_t)s];
        }
        return degrees;
      }
      case Array::BLOCKED_SRC: return tiling(blocking_size, false).src;
      case Array::BLOCKED_DST: return tiling(blocking_size, false).dst;
      case Array::BLOCKED_WEIGHTS: return tiling(blocking_size, false).weights;
      case Array::CSC_BLOCKED_SRC: return tiling(blocking_size, true).src;
      case Array::CSC_BLOCKED_DST: return tiling(blocking_size, true).dst;
      case Array::CSC_BLOCKED_WEIGHTS: return tiling(blocking_size, true).weights;
      default: break;
    }
    fail("the runtime does not build graph array %d", (int)kind);
  }

  // Offsets (`values`, ascending) converted to `T`; a graph of more edges than
  // the program's edge indices take (MAX_EDGES_32 for a program printed with
  // 32-bit ones) fails.
  template <typename T, typename V> std::vector<T> converted_offsets(const std::vector<V>& values) {
    long long most = sizeof(T) == 4 ? MAX_EDGES_32 : (long long)std::numeric_limits<T>::max();
    if (!values.empty() && (long long)values.back() > most) {
      fail("graph '%s' has %lld edges, more than the program's %d-bit edge indices take (%lld): "
           "translate it with gir-translate --edge-index-width 64",
           path.c_str(), num_edges(), (int)sizeof(T) * 8, most);
    }
    return std::vector<T>(values.begin(), values.end());
  }

  // The device copy of one array with `T` elements, uploaded on first use.
  template <typename T> T* array(Array kind, long long blocking_size = 0) {
    auto key = std::make_pair((int)kind * 16 + (int)sizeof(T) + (std::is_floating_point<T>::value ? 8 : 0), blocking_size);
    auto found = device.find(key);
    if (found != device.end()) {
      return static_cast<T*>(found->second);
    }
    std::vector<T> values;
    if (offsets_array(kind)) {
      values = converted_offsets<T>(host_offsets(kind, blocking_size));
    } else {
      std::vector<int32_t> elements = host_array(kind, blocking_size);
      values.assign(elements.begin(), elements.end());
    }
    void* pointer = device_alloc(std::max<size_t>(values.size(), 1) * sizeof(T), "cudaMalloc (graph)");
    if (!values.empty()) {
      check(cudaMemcpy(pointer, values.data(), values.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy (graph)");
    }
    device[key] = pointer;
    return static_cast<T*>(pointer);
  }
};

// Whether `path` reads as a generator spec (`rmat:16`): a name and a colon.
inline bool generator_spec(const char* path) {
  if (!(std::isalpha((unsigned char)path[0]) || path[0] == '_')) return false;
  const char* c = path;
  while (std::isalnum((unsigned char)*c) || *c == '_') ++c;
  return *c == ':';
}

// Relabels `graph` by the ordering `name` (graph_build.h's reorder), noting the
// one-time cost on stderr, and keeps the relabelling for argv_vertex and dumps.
inline void reorder_graph(Graph* graph, const char* name) {
  auto started = std::chrono::steady_clock::now();
  Edges& edges = graph->edges;
  try {
    std::vector<int32_t> order = gir_graph::reorder(name, graph->vertices, edges.src.data(), edges.dst.data(), edges.src.size());
    gir_graph::relabel(order, edges.src, edges.dst, edges.weights, relabelling().new_of_old);
    relabelling().old_of_new = std::move(order);
  } catch (const gir_graph::Error& error) {
    fail("%s", error.message.c_str());
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::fprintf(stderr, "note: %s reordered by %s in %.3f s (computed; not timed)\n", graph->path.c_str(), name, seconds);
}

// Loads the graph file `path` as gir-run does (graph_build.h: the same checks
// and messages); `weighted`: the program reads weights; `reorder`: the ordering
// the program runs the graph in (null: as given).
inline Graph* load_graph(const char* path, bool weighted, const char* reorder = nullptr) {
  struct stat status;
  if (generator_spec(path) && ::stat(path, &status) != 0) {
    fail("graph generators ('%s') need gir-run; write the graph to an .el/.wel/.mtx/.gbin file first", path);
  }
  gir_graph::Parsed parsed;
  try {
    parsed = gir_graph::load(path);
  } catch (const gir_graph::Error& error) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", error.text().c_str());
    std::exit(1);
  } catch (const std::bad_alloc&) {
    fail("out of host memory while loading graph '%s'", path);
  }
  if (weighted && !parsed.has_weights) {
    fail_in(path, "the graph has no weights; the program needs a weighted edgeset (use a .wel file)");
  }
  Graph* graph = new Graph();
  graph->path = path;
  graph->vertices = parsed.vertices;
  graph->weighted = weighted;
  graph->edges.src = std::move(parsed.src);
  graph->edges.dst = std::move(parsed.dst);
  if (weighted) graph->edges.weights = std::move(parsed.weights);
  if (reorder != nullptr) reorder_graph(graph, reorder);
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
