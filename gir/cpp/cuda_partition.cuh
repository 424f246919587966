// The multi-GPU part of a complete CUDA program printed by gir from a module
// that `host-partition` rewrote (docs/multi-gpu.md): one rank per GPU, each a
// thread that runs the program's host code on its GPU and its part of the
// edges, and the exchanges (host.clone, host.allreduce, host.allgather) through
// NCCL. It mirrors gir/runtime/multi_device.py and gir/runtime/nccl.py:
//
//   run_ranks(devices, body)       one thread per GPU, ncclCommInitAll
//   load_graph_part(path, w)       the rank's part (graph/partition.py)
//   clone(buffer)                  Run.clone
//   allreduce(buffer, kind, base)  NcclCommunicator.allreduce_buffer
//   allgather(items, count)        NcclCommunicator.allgather_queue
//   allgather(items, count, claims) the same with claims (_allgather_queue_claims)
//   Tally, print_exchanged         ExchangeCount, gir-run's "exchanged" line
//
// An all-reduce with a base sends the elements the rank changed, as (index,
// value) pairs or as a bitmap and the changed values, where its op's exchange
// format (host.ExchangeFormat) or $GIR_EXCHANGE_FORMAT (dense, pairs, bitmap,
// auto: overrides every op's) says so; else the whole vector.
//
// Printed after cuda_runtime.cuh (namespace gir_rt); link with -lnccl.
#pragma once

#include <initializer_list>
#include <mutex>
#include <numeric>
#include <thread>
#include <nccl.h>
#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/gather.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/unique.h>
#include "queue_union.cuh"

namespace gir_rt {

// host.Combine's members.
enum class Combine { SUM, MIN, MAX, UMIN, UMAX, OR, CLAIM };

// What an all-reduce with a base sends (multi_device.ExchangeFormat).
enum class ExchangeFormat { DENSE, PAIRS, BITMAP, AUTO };

// The bytes of a changed element's index in a pair (multi_device.INDEX_BYTES).
constexpr long long INDEX_BYTES = 4;

// The payload one rank exchanged (multi_device.ExchangeCount's per-rank entries).
struct Tally {
  long long collectives = 0;
  long long sent = 0;
  long long received = 0;
};

struct Rank {
  int index = 0;
  int size = 1;
  ncclComm_t comm = nullptr;
  Tally* tally = nullptr;
  // Device scratch memory of the exchanges, by use, kept between them.
  std::vector<std::pair<void*, size_t>> scratch;
};

inline Rank& rank() {
  static thread_local Rank instance;
  return instance;
}

inline void nccl_check(ncclResult_t status, const char* what) {
  if (status != ncclSuccess) {
    fail("%s failed: %s", what, ncclGetErrorString(status));
  }
}

// The NCCL type of `T` elements; `as_unsigned`: of the unsigned integers of its size.
template <typename T> ncclDataType_t nccl_type(bool as_unsigned) {
  if (std::is_floating_point<T>::value) return sizeof(T) == 4 ? ncclFloat32 : ncclFloat64;
  if (sizeof(T) == 1) return as_unsigned || std::is_same<T, bool>::value ? ncclUint8 : ncclInt8;
  if (sizeof(T) == 4) return as_unsigned || std::is_unsigned<T>::value ? ncclUint32 : ncclInt32;
  if (sizeof(T) == 8) return as_unsigned || std::is_unsigned<T>::value ? ncclUint64 : ncclInt64;
  fail("NCCL exchanges %d-byte integers only of 1, 4 or 8 bytes", (int)sizeof(T));
}

// What an exchange whose op says `wanted` sends: $GIR_EXCHANGE_FORMAT (dense,
// pairs, bitmap or auto) where set, else `wanted` (multi_device.Communicator.format_of).
inline ExchangeFormat exchange_format(ExchangeFormat wanted) {
  static const int override_format = [] {
    const char* text = std::getenv("GIR_EXCHANGE_FORMAT");
    if (text == nullptr || *text == '\0') return -1;
    if (std::strcmp(text, "dense") == 0) return (int)ExchangeFormat::DENSE;
    if (std::strcmp(text, "pairs") == 0) return (int)ExchangeFormat::PAIRS;
    if (std::strcmp(text, "bitmap") == 0) return (int)ExchangeFormat::BITMAP;
    if (std::strcmp(text, "auto") == 0) return (int)ExchangeFormat::AUTO;
    fail("GIR_EXCHANGE_FORMAT must be one of dense, pairs, bitmap, auto, not '%s'", text);
  }();
  return override_format < 0 ? wanted : (ExchangeFormat)override_format;
}

// The 32-bit words of a bitmap of `count` elements.
inline long long bitmap_words(long long count) { return (count + 31) / 32; }

// One rank's payload in `format` when it changed `changed` of `count` elements
// of `element_bytes` bytes (multi_device.exchange_bytes).
inline long long exchange_bytes(ExchangeFormat format, long long changed, long long count, long long element_bytes) {
  if (format == ExchangeFormat::PAIRS) return changed * (INDEX_BYTES + element_bytes);
  if (format == ExchangeFormat::BITMAP) return 4 * bitmap_words(count) + changed * element_bytes;
  return count * element_bytes;
}

// The format of an all-reduce whose ranks changed `counts` elements
// (multi_device.choose_format: for auto, the fewest bytes sent by all ranks
// together, dense on a tie).
inline ExchangeFormat choose_format(ExchangeFormat wanted, const std::vector<int>& counts, long long count, long long element_bytes) {
  if (wanted != ExchangeFormat::AUTO) return wanted;
  ExchangeFormat best = ExchangeFormat::DENSE;
  long long fewest = -1;
  for (ExchangeFormat format : {ExchangeFormat::DENSE, ExchangeFormat::PAIRS, ExchangeFormat::BITMAP}) {
    long long sent = 0;
    for (int changed : counts) sent += exchange_bytes(format, changed, count, element_bytes);
    if (fewest < 0 || sent < fewest) {
      best = format;
      fewest = sent;
    }
  }
  return best;
}

// Counts one collective of this rank.
inline void tally(long long sent, long long received) {
  Tally* own = rank().tally;
  if (own == nullptr) return;
  own->collectives += 1;
  own->sent += sent;
  own->received += received;
}

// This rank's scratch buffer `slot` of at least `count` elements (its contents
// are not kept: a larger request reallocates).
template <typename T> T* scratch(size_t slot, long long count) {
  auto& buffers = rank().scratch;
  if (buffers.size() <= slot) buffers.resize(slot + 1, {nullptr, 0});
  size_t bytes = (size_t)std::max<long long>(count, 1) * sizeof(T);
  if (buffers[slot].second < bytes) {
    if (buffers[slot].first != nullptr) check(cudaFree(buffers[slot].first), "cudaFree (exchange)");
    buffers[slot].first = device_alloc(bytes, "cudaMalloc (exchange)");
    buffers[slot].second = bytes;
  }
  return (T*)buffers[slot].first;
}

inline void release_scratch() {
  for (auto& buffer : rank().scratch) {
    if (buffer.first != nullptr) check(cudaFree(buffer.first), "cudaFree (exchange)");
  }
  rank().scratch.clear();
}

// The unsigned integers of T's size: the bits a changed element is compared and sent as.
template <size_t N> struct UnsignedOfSize;
template <> struct UnsignedOfSize<1> { using type = uint8_t; };
template <> struct UnsignedOfSize<2> { using type = uint16_t; };
template <> struct UnsignedOfSize<4> { using type = uint32_t; };
template <> struct UnsignedOfSize<8> { using type = uint64_t; };
template <typename T> using Bits = typename UnsignedOfSize<sizeof(T)>::type;

// Whether element i's bits differ from the base's (multi_device.changed_indices).
template <typename U> struct Differs {
  const U* values;
  const U* base;
  __device__ bool operator()(int i) const { return values[i] != base[i]; }
};

// Sets bit i % 32 of words[i / 32] where element i's bits differ from the base's
// (one word a warp: the block size is a multiple of 32).
template <typename U> __global__ void bitmap_kernel(const U* values, const U* base, long long count, uint32_t* words) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  unsigned set = __ballot_sync(0xffffffffu, i < count && values[i] != base[i]);
  if (threadIdx.x % 32 == 0 && i < count) words[i / 32] = set;
}

// Whether a bitmap sets element i's bit.
struct BitSet {
  const uint32_t* words;
  __device__ bool operator()(int i) const { return (words[i >> 5] >> (i & 31)) & 1u; }
};

// Combines the `count` changed elements of one rank (indices, new values) into
// `values` (multi_device.apply_changes; sum and claim start from the base).
template <typename T>
__global__ void apply_changes_kernel(T* values, const T* base, const int* indices, const T* changed, long long count, Combine kind) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= count) return;
  int at = indices[i];
  T value = changed[i];
  using U = Bits<T>;
  switch (kind) {
    case Combine::SUM: values[at] = (T)(values[at] + (value - base[at])); break;
    case Combine::CLAIM: values[at] = value; break;
    case Combine::MIN: if (value < values[at]) values[at] = value; break;
    case Combine::MAX: if (value > values[at]) values[at] = value; break;
    case Combine::UMIN: {
      U candidate, current;
      memcpy(&candidate, &value, sizeof(T));
      memcpy(&current, &values[at], sizeof(T));
      if (candidate < current) values[at] = value;
      break;
    }
    case Combine::UMAX: {
      U candidate, current;
      memcpy(&candidate, &value, sizeof(T));
      memcpy(&current, &values[at], sizeof(T));
      if (candidate > current) values[at] = value;
      break;
    }
    case Combine::OR:
      if constexpr (std::is_integral<T>::value) values[at] = (T)(values[at] | value);
      break;
  }
}

inline unsigned grid_of(long long count) { return (unsigned)((count + 255) / 256); }

// The all-reduce of `buffer` as the ranks' changed elements, where the format
// picks them for the ranks' counts; false (nothing exchanged) where it does not.
template <typename T> bool allreduce_changed(T* buffer, Combine kind, const T* base, long long count, ExchangeFormat wanted) {
  using U = Bits<T>;
  Rank& self = rank();
  int* own_indices = scratch<int>(0, count);
  int* end = thrust::copy_if(thrust::device, thrust::counting_iterator<int>(0), thrust::counting_iterator<int>((int)count),
                             own_indices, Differs<U>{(const U*)buffer, (const U*)base});
  int changed = (int)(end - own_indices);
  int* sizes = scratch<int>(1, self.size + 1);
  check(cudaMemcpy(sizes + self.size, &changed, sizeof(int), cudaMemcpyHostToDevice), "cudaMemcpy (exchange)");
  nccl_check(ncclAllGather(sizes + self.size, sizes, 1, ncclInt32, self.comm, 0), "ncclAllGather");
  std::vector<int> counts((size_t)self.size);
  check(cudaMemcpy(counts.data(), sizes, sizeof(int) * self.size, cudaMemcpyDeviceToHost), "cudaMemcpy (exchange)");
  ExchangeFormat format = choose_format(wanted, counts, count, sizeof(T));
  if (format == ExchangeFormat::DENSE) return false;
  long long widest = std::max(*std::max_element(counts.begin(), counts.end()), 1);
  U* own_values = scratch<U>(2, widest);
  thrust::gather(thrust::device, own_indices, own_indices + changed, (const U*)buffer, own_values);
  U* all_values = scratch<U>(4, widest * self.size);
  nccl_check(ncclAllGather(own_values, all_values, (size_t)widest * sizeof(U), ncclUint8, self.comm, 0), "ncclAllGather");
  int* all_indices = nullptr;   // rank r's indices at all_indices + r * stride
  long long stride = widest;
  if (format == ExchangeFormat::PAIRS) {
    all_indices = scratch<int>(3, widest * self.size);
    nccl_check(ncclAllGather(own_indices, all_indices, (size_t)widest, ncclInt32, self.comm, 0), "ncclAllGather");
  } else {
    long long words = bitmap_words(count);
    uint32_t* own_bitmap = scratch<uint32_t>(8, words);
    uint32_t* bitmaps = scratch<uint32_t>(9, words * self.size);
    bitmap_kernel<U><<<(unsigned)((words * 32 + 255) / 256), 256>>>((const U*)buffer, (const U*)base, count, own_bitmap);
    launched("gir_rt::bitmap_kernel");
    nccl_check(ncclAllGather(own_bitmap, bitmaps, (size_t)words, ncclUint32, self.comm, 0), "ncclAllGather");
    all_indices = scratch<int>(3, widest * self.size);
    for (int r = 0; r < self.size; ++r) {  // ascending, as the values were sent
      thrust::copy_if(thrust::device, thrust::counting_iterator<int>(0), thrust::counting_iterator<int>((int)count),
                      all_indices + r * stride, BitSet{bitmaps + r * words});
    }
  }
  if (kind == Combine::SUM || kind == Combine::CLAIM) copy(base, buffer, count);
  for (int step = 0; step < self.size; ++step) {
    int r = kind == Combine::CLAIM ? self.size - 1 - step : step;  // claim: the first rank's change last
    if (counts[(size_t)r] == 0) continue;
    apply_changes_kernel<T><<<grid_of(counts[(size_t)r]), 256>>>(
        buffer, base, all_indices + r * stride, (const T*)(all_values + r * widest), counts[(size_t)r], kind);
    launched("gir_rt::apply_changes_kernel");
  }
  long long received = 0;
  for (int own : counts) received += exchange_bytes(format, own, count, sizeof(T));
  tally(exchange_bytes(format, changed, count, sizeof(T)), received);
  return true;
}

inline long long allocation_count(const void* buffer, const char* what) {
  auto found = buffers().allocations.find(buffer);
  if (found == buffers().allocations.end()) {
    fail("%s of a buffer the program did not allocate", what);
  }
  return found->second.count;
}

// A new buffer holding a copy of `buffer` (host.clone).
template <typename T> T* clone(const T* buffer) {
  long long count = allocation_count(buffer, "host.clone");
  T* copy_of = alloc<T>(count);
  copy(buffer, copy_of, count);
  return copy_of;
}

// values[i] -= times * base[i]: a sum all-reduce's copies of the values before.
template <typename T> __global__ void subtract_kernel(T* values, const T* base, T times, long long count) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < count) values[i] -= times * base[i];
}

// values[i] = the first rank's gathered copy that differs from base[i], else the
// last rank's (claim); or the bitwise or of all copies (or).
template <typename T>
__global__ void gathered_kernel(T* values, const T* gathered, const T* base, int ranks, long long count, bool bitwise_or) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= count) return;
  T result = gathered[(ranks - 1) * count + i];
  for (int r = ranks - 2; r >= 0; --r) {
    T copy_r = gathered[r * count + i];
    if (bitwise_or) {
      if constexpr (std::is_integral<T>::value) result = (T)(result | copy_r);
    } else if (copy_r != base[i]) {
      result = copy_r;
    }
  }
  values[i] = result;
}

// Makes every rank's `buffer` the `kind` combine of all ranks' copies (host.allreduce).
template <typename T> void allreduce(T* buffer, Combine kind, const T* base, ExchangeFormat exchange = ExchangeFormat::DENSE) {
  Rank& self = rank();
  long long count = allocation_count(buffer, "host.allreduce");
  if (self.size == 1) return;
  if (count == 0) {
    tally(0, 0);
    return;
  }
  ExchangeFormat wanted = base == nullptr ? ExchangeFormat::DENSE : exchange_format(exchange);
  if (wanted != ExchangeFormat::DENSE && allreduce_changed<T>(buffer, kind, base, count, wanted)) return;
  tally(count * (long long)sizeof(T), count * (long long)sizeof(T));
  bool as_unsigned = kind == Combine::UMIN || kind == Combine::UMAX;
  if (kind == Combine::SUM || kind == Combine::MIN || kind == Combine::MAX || as_unsigned) {
    ncclDataType_t type = nccl_type<T>(as_unsigned);
    ncclRedOp_t op = kind == Combine::SUM ? ncclSum : (kind == Combine::MIN || kind == Combine::UMIN) ? ncclMin : ncclMax;
    nccl_check(ncclAllReduce(buffer, buffer, (size_t)count, type, op, self.comm, 0), "ncclAllReduce");
    if (kind == Combine::SUM) {
      subtract_kernel<T><<<grid_of(count), 256>>>(buffer, base, (T)(self.size - 1), count);
      launched("gir_rt::subtract_kernel");
    }
    return;
  }
  T* gathered = scratch<T>(5, count * self.size);
  nccl_check(ncclAllGather(buffer, gathered, (size_t)count * sizeof(T), ncclUint8, self.comm, 0), "ncclAllGather");
  gathered_kernel<T><<<grid_of(count), 256>>>(buffer, gathered, base, self.size, count, kind == Combine::OR);
  launched("gir_rt::gathered_kernel");
}

// Sets the bits of `count` vertices in a bitmap of 32-bit words (cleared before).
__global__ void mark_kernel(const int* vertices, long long count, uint32_t* words) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < count && vertices[i] >= 0) atomicOr(&words[vertices[i] >> 5], 1u << (vertices[i] & 31));
}

// words[w] = the or of the ranks' gathered bitmaps' word w.
__global__ void or_bitmaps_kernel(uint32_t* words, const uint32_t* gathered, int ranks, long long count) {
  long long w = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (w >= count) return;
  uint32_t result = 0;
  for (int r = 0; r < ranks; ++r) result |= gathered[r * count + w];
  words[w] = result;
}

// The vertex count of the largest graph the ranks split so far (every vertex a
// queue holds is below it); 0 before any (multi_device.Communicator.vertex_bound).
inline long long vertex_bound();

// The grid of the grid-stride exchange kernels (queue_union.cuh).
constexpr unsigned EXCHANGE_GRID = 1024, EXCHANGE_BLOCK = 256;

// Whether a queue union whose ranks hold `sizes` vertices below `bound` sends
// bitmaps (multi_device.queue_as_bitmap).
inline bool queue_as_bitmap(const std::vector<int>& sizes, long long bound) {
  ExchangeFormat format = exchange_format(ExchangeFormat::AUTO);
  if (format != ExchangeFormat::AUTO) return format == ExchangeFormat::BITMAP;
  long long vertices = std::accumulate(sizes.begin(), sizes.end(), 0LL);
  return (long long)sizes.size() * 4 * bitmap_words(bound) < INDEX_BYTES * vertices;
}

// This rank's first `size` queued vertices, padded with -1 (no vertex) to
// `widest`, all-gathered: rank r's at r * widest of the result (scratch).
inline int* gather_padded(const int* items, int size, long long widest) {
  Rank& self = rank();
  int* padded = scratch<int>(6, widest);
  int* gathered = scratch<int>(7, widest * self.size);
  check(cudaMemset(padded, 0xff, sizeof(int) * widest), "cudaMemset (exchange)");
  if (size > 0) check(cudaMemcpy(padded, items, sizeof(int) * size, cudaMemcpyDeviceToDevice), "cudaMemcpy (exchange)");
  nccl_check(ncclAllGather(padded, gathered, (size_t)widest, ncclInt32, self.comm, 0), "ncclAllGather");
  return gathered;
}

// The distinct vertices of the `listed` gathered entries (sorted in place; -1
// is no vertex), ascending, into `items`, at most `capacity`: their number.
inline long long sorted_union(int* gathered, long long listed, int* items, long long capacity) {
  thrust::sort(thrust::device, gathered, gathered + listed);
  int* end = thrust::unique(thrust::device, gathered, gathered + listed);
  int* first = thrust::lower_bound(thrust::device, gathered, end, 0);
  long long total = std::min<long long>(end - first, capacity);
  if (total > 0) check(cudaMemcpy(items, first, sizeof(int) * total, cudaMemcpyDeviceToDevice), "cudaMemcpy (exchange)");
  return total;
}

// Makes every rank's queue the distinct vertices of all ranks' queues, at most
// as many as `items` holds, and count[0] their number (host.allgather). For
// auto and bitmap, as bitmaps of every vertex, made, or-ed and listed by
// kernels from the size on the device: no host round (as gir.runtime.nccl).
// Else (or before a graph is split), with the sizes read: as lists (sorted,
// made unique) or as bitmaps, ascending.
inline void allgather(int* items, int* count) {
  Rank& self = rank();
  if (self.size == 1) return;
  long long capacity = allocation_count(items, "host.allgather");
  long long vertices = vertex_bound();
  ExchangeFormat wanted = exchange_format(ExchangeFormat::AUTO);
  if (vertices > 0 && (wanted == ExchangeFormat::AUTO || wanted == ExchangeFormat::BITMAP)) {
    long long words = std::max(bitmap_words(vertices), 1LL);
    uint32_t* own = scratch<uint32_t>(10, words);
    uint32_t* gathered = scratch<uint32_t>(11, words * self.size);
    int* total = scratch<int>(12, 1);
    check(cudaMemsetAsync(own, 0, sizeof(uint32_t) * words), "cudaMemset (exchange)");
    check(cudaMemsetAsync(total, 0, sizeof(int)), "cudaMemset (exchange)");
    gir_queue_bitmap<<<EXCHANGE_GRID, EXCHANGE_BLOCK>>>(items, count, capacity, own, vertices);
    launched("gir_queue_bitmap");
    nccl_check(ncclAllGather(own, gathered, (size_t)words, ncclUint32, self.comm, 0), "ncclAllGather");
    gir_queue_union<<<EXCHANGE_GRID, EXCHANGE_BLOCK>>>(gathered, self.size, words, items, capacity, total);
    launched("gir_queue_union");
    gir_queue_count<<<1, 1>>>(count, total, capacity);
    launched("gir_queue_count");
    tally(4 * words, self.size * 4 * words);
    return;
  }
  int size = (int)std::min<long long>(std::max(read<int>(count, 0), 0), capacity);
  int shape[2] = {size, size > 0 ? thrust::reduce(thrust::device, items, items + size, -1, thrust::maximum<int>()) + 1 : 0};
  int* shapes = scratch<int>(1, 2 * (self.size + 1));
  check(cudaMemcpy(shapes + 2 * self.size, shape, sizeof shape, cudaMemcpyHostToDevice), "cudaMemcpy (exchange)");
  nccl_check(ncclAllGather(shapes + 2 * self.size, shapes, 2, ncclInt32, self.comm, 0), "ncclAllGather");
  std::vector<int> all(2 * self.size), sizes(self.size);
  check(cudaMemcpy(all.data(), shapes, sizeof(int) * 2 * self.size, cudaMemcpyDeviceToHost), "cudaMemcpy (exchange)");
  long long bound = 0;
  for (int r = 0; r < self.size; ++r) {
    sizes[(size_t)r] = all[(size_t)(2 * r)];
    bound = std::max<long long>(bound, all[(size_t)(2 * r + 1)]);
  }
  long long total = 0;
  if (queue_as_bitmap(sizes, bound)) {
    long long words = std::max(bitmap_words(bound), 1LL);
    uint32_t* own = scratch<uint32_t>(8, words);
    uint32_t* gathered = scratch<uint32_t>(9, words * self.size);
    check(cudaMemsetAsync(own, 0, sizeof(uint32_t) * words), "cudaMemset (exchange)");
    if (size > 0) {
      mark_kernel<<<grid_of(size), 256>>>(items, size, own);
      launched("gir_rt::mark_kernel");
    }
    nccl_check(ncclAllGather(own, gathered, (size_t)words, ncclUint32, self.comm, 0), "ncclAllGather");
    or_bitmaps_kernel<<<grid_of(words), 256>>>(own, gathered, self.size, words);
    launched("gir_rt::or_bitmaps_kernel");
    int* union_items = scratch<int>(7, bound);
    int* end = thrust::copy_if(thrust::device, thrust::counting_iterator<int>(0), thrust::counting_iterator<int>((int)bound),
                               union_items, BitSet{own});
    total = std::min<long long>(end - union_items, capacity);
    if (total > 0) check(cudaMemcpy(items, union_items, sizeof(int) * total, cudaMemcpyDeviceToDevice), "cudaMemcpy (exchange)");
    tally(4 * bitmap_words(bound), self.size * 4 * bitmap_words(bound));
  } else {
    long long widest = std::max(*std::max_element(sizes.begin(), sizes.end()), 1);
    int* gathered = gather_padded(items, size, widest);
    total = sorted_union(gathered, widest * self.size, items, capacity);
    tally((long long)size * 4, total * 4);
  }
  write<int>(count, 0, (int)total);
}

// A buffer whose claims go with a queue (host.allgather ... claims): its
// elements are moved as bytes, `bytes` each.
struct Claimed {
  void* buffer;
  int bytes;
};

template <typename T> Claimed claimed(T* buffer) { return Claimed{(void*)buffer, (int)sizeof(T)}; }

// values[vertices[i]] = claimed[i] for the first `count` vertices (one rank's:
// a vertex is queued once a rank, so no two threads meet).
template <typename U> __global__ void apply_claims_kernel(U* values, const int* vertices, const U* claimed, long long count) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < count) values[vertices[i]] = claimed[i];
}

// queue_union.cuh's claim kernels for elements of `Bytes` bytes, and the
// unsigned type (`Word`) they take the elements as.
template <int Bytes> struct ClaimKernels;
template <> struct ClaimKernels<1> {
  using Word = unsigned char;
  static constexpr auto gather = gir_gather_claims_1;
  static constexpr auto apply = gir_apply_claims_1;
};
template <> struct ClaimKernels<2> {
  using Word = unsigned short;
  static constexpr auto gather = gir_gather_claims_2;
  static constexpr auto apply = gir_apply_claims_2;
};
template <> struct ClaimKernels<4> {
  using Word = unsigned int;
  static constexpr auto gather = gir_gather_claims_4;
  static constexpr auto apply = gir_apply_claims_4;
};
template <> struct ClaimKernels<8> {
  using Word = unsigned long long;
  static constexpr auto gather = gir_gather_claims_8;
  static constexpr auto apply = gir_apply_claims_8;
};

// The claims of one buffer: the values at this rank's queued vertices
// (`vertices`, padded to `widest` with -1) all-gathered, and the other ranks' set at
// their vertices (`queues`, rank r's at r * widest) so that the lowest rank
// that queued a vertex wins (multi_device.apply_claims): through the ranks'
// gathered bitmaps of their queues where the graph is split (`bitmaps`, of
// `words` words each), else each rank's set, last rank first.
template <typename U>
void exchange_claims(const Claimed& claim, const int* vertices, const int* queues, long long widest,
                     const std::vector<int>& sizes, const uint32_t* bitmaps, long long words, size_t slot) {
  using Kernels = ClaimKernels<(int)sizeof(U)>;
  using Word = typename Kernels::Word;
  Rank& self = rank();
  U* values = (U*)claim.buffer;
  U* own_values = scratch<U>(slot, widest);
  U* all_values = scratch<U>(slot + 1, widest * self.size);
  Kernels::gather<<<EXCHANGE_GRID, EXCHANGE_BLOCK>>>((const Word*)values, vertices, widest, (Word*)own_values);
  launched("gir_gather_claims");
  nccl_check(ncclAllGather(own_values, all_values, (size_t)widest * sizeof(U), ncclUint8, self.comm, 0), "ncclAllGather");
  if (bitmaps != nullptr) {
    Kernels::apply<<<EXCHANGE_GRID, EXCHANGE_BLOCK>>>(queues, (const Word*)all_values, self.size, widest, bitmaps, words,
                                                     self.index, (Word*)values);
    launched("gir_apply_claims");
    return;
  }
  for (int r = self.size - 1; r >= 0; --r) {
    if (sizes[(size_t)r] == 0) continue;
    apply_claims_kernel<U><<<grid_of(sizes[(size_t)r]), 256>>>(values, queues + r * widest, all_values + r * widest, sizes[(size_t)r]);
    launched("gir_rt::apply_claims_kernel");
  }
}

// The queue union with the claims that go with it (host.allgather ... claims;
// NcclCommunicator._allgather_queue_claims): the ranks' sizes all-gathered
// and read, the queues padded to the longest and all-gathered, each claimed
// buffer's values at the queued vertices all-gathered and set. Once a graph is
// split, the queues also go as bitmaps of every vertex, which say the lowest
// rank to queue each vertex and from which the union is listed; before, the
// union is sorted and made unique. Each entry goes as its vertex and values.
inline void allgather(int* items, int* count, std::initializer_list<Claimed> claims) {
  Rank& self = rank();
  if (self.size == 1) return;
  long long capacity = allocation_count(items, "host.allgather");
  int* all_sizes = scratch<int>(14, self.size);
  nccl_check(ncclAllGather(count, all_sizes, 1, ncclInt32, self.comm, 0), "ncclAllGather");
  std::vector<int> sizes((size_t)self.size);
  check(cudaMemcpy(sizes.data(), all_sizes, sizeof(int) * self.size, cudaMemcpyDeviceToHost), "cudaMemcpy (exchange)");
  long long entries = 0;
  for (int& size : sizes) {
    if (size > capacity) {
      fail("a queue of %lld entries got %d in a partitioned launch: the claims that go with it would be lost", capacity, size);
    }
    size = std::max(size, 0);
    entries += size;
  }
  int own = sizes[(size_t)self.index];
  long long widest = std::max(*std::max_element(sizes.begin(), sizes.end()), 1);
  long long vertices = vertex_bound();
  long long words = vertices > 0 ? std::max(bitmap_words(vertices), 1LL) : 0;
  uint32_t* bitmaps = nullptr;
  int* total = scratch<int>(12, 1);
  int* queues = nullptr;
  if (vertices > 0) {  // the queue padded and its bitmap in one kernel
    uint32_t* marks = scratch<uint32_t>(10, words);
    int* own_padded = scratch<int>(6, widest);
    queues = scratch<int>(7, widest * self.size);
    bitmaps = scratch<uint32_t>(11, words * self.size);
    check(cudaMemsetAsync(marks, 0, sizeof(uint32_t) * words), "cudaMemset (exchange)");
    check(cudaMemsetAsync(total, 0, sizeof(int)), "cudaMemset (exchange)");
    gir_queue_pad<<<EXCHANGE_GRID, EXCHANGE_BLOCK>>>(items, count, widest, own_padded, marks, vertices);
    launched("gir_queue_pad");
    nccl_check(ncclAllGather(own_padded, queues, (size_t)widest, ncclInt32, self.comm, 0), "ncclAllGather");
    nccl_check(ncclAllGather(marks, bitmaps, (size_t)words, ncclUint32, self.comm, 0), "ncclAllGather");
  } else {
    queues = gather_padded(items, own, widest);
  }
  const int* padded = queues + self.index * widest;  // this rank's, as it sent them
  size_t slot = 16;
  long long entry_bytes = INDEX_BYTES;
  for (const Claimed& claim : claims) {
    switch (claim.bytes) {
      case 1: exchange_claims<uint8_t>(claim, padded, queues, widest, sizes, bitmaps, words, slot); break;
      case 2: exchange_claims<uint16_t>(claim, padded, queues, widest, sizes, bitmaps, words, slot); break;
      case 4: exchange_claims<uint32_t>(claim, padded, queues, widest, sizes, bitmaps, words, slot); break;
      case 8: exchange_claims<uint64_t>(claim, padded, queues, widest, sizes, bitmaps, words, slot); break;
      default: fail("host.allgather claims %d-byte elements", claim.bytes);
    }
    slot += 2;
    entry_bytes += claim.bytes;
  }
  if (vertices > 0) {
    gir_queue_union<<<EXCHANGE_GRID, EXCHANGE_BLOCK>>>(bitmaps, self.size, words, items, capacity, total);
    launched("gir_queue_union");
    gir_queue_count<<<1, 1>>>(count, total, capacity);
    launched("gir_queue_count");
    tally(own * entry_bytes + 4 * words, entries * entry_bytes + self.size * 4 * words);
  } else {
    write<int>(count, 0, (int)sorted_union(queues, widest * self.size, items, capacity));
    tally(own * entry_bytes, entries * entry_bytes);
  }
}

// After a partitioned run, on stderr: what the ranks exchanged, as gir-run says it.
inline void print_exchanged(const std::vector<Tally>& tallies) {
  long long sent = 0, collectives = 0;
  for (const Tally& own : tallies) {
    sent += own.sent;
    collectives = std::max(collectives, own.collectives);
  }
  std::fprintf(stderr, "gir: exchanged %lld bytes (payload sent, all ranks) in %lld collectives per rank\n", sent, collectives);
}

// The graphs the ranks split, loaded once, and their row pointers.
struct WholeGraphs {
  std::mutex lock;
  std::map<std::pair<std::string, bool>, std::pair<Graph*, std::vector<int64_t>>> loaded;
};

inline WholeGraphs& whole_graphs() {
  static WholeGraphs instance;
  return instance;
}

inline long long vertex_bound() {
  std::lock_guard<std::mutex> guard(whole_graphs().lock);
  long long bound = 0;
  for (const auto& entry : whole_graphs().loaded) bound = std::max<long long>(bound, entry.second.first->vertices);
  return bound;
}

// This rank's part of the graph `path`: the edges whose source lies in its range
// of vertices, the ranges balanced by out-edges (gir/runtime/graph/partition.py).
inline Graph* load_graph_part(const char* path, bool weighted) {
  Graph* whole = nullptr;
  const std::vector<int64_t>* row_ptr = nullptr;
  {
    std::lock_guard<std::mutex> guard(whole_graphs().lock);
    auto key = std::make_pair(std::string(path), weighted);
    auto found = whole_graphs().loaded.find(key);
    if (found == whole_graphs().loaded.end()) {
      Graph* graph = load_graph(path, weighted);
      found = whole_graphs().loaded.emplace(key, std::make_pair(graph, row_pointers(graph->edges.src, graph->vertices))).first;
    }
    whole = found->second.first;
    row_ptr = &found->second.second;
  }
  Rank& self = rank();
  long long edges = whole->num_edges();
  auto cut = [&](int k) -> long long {
    if (k >= self.size) return whole->vertices;
    long long target = edges * k / self.size;
    return (long long)(std::lower_bound(row_ptr->begin(), row_ptr->end(), target) - row_ptr->begin());
  };
  long long begin = std::min(cut(self.index), whole->vertices);
  long long end = std::max(begin, std::min(cut(self.index + 1), whole->vertices));
  size_t first = (size_t)(*row_ptr)[(size_t)begin], last = (size_t)(*row_ptr)[(size_t)end];
  Graph* part = new Graph();
  part->path = whole->path;
  part->vertices = whole->vertices;
  part->weighted = weighted;
  part->edges.src.assign(whole->edges.src.begin() + first, whole->edges.src.begin() + last);
  part->edges.dst.assign(whole->edges.dst.begin() + first, whole->edges.dst.begin() + last);
  if (weighted) part->edges.weights.assign(whole->edges.weights.begin() + first, whole->edges.weights.begin() + last);
  part->whole_out_degrees.resize((size_t)whole->vertices);
  for (long long v = 0; v < whole->vertices; ++v) {
    part->whole_out_degrees[(size_t)v] = (int32_t)((*row_ptr)[(size_t)v + 1] - (*row_ptr)[(size_t)v]);
  }
  return part;
}

// The number of GPUs to run on: $GIR_DEVICES, else `default_count` (the
// `--devices N` the program was printed with).
inline int device_count(int default_count) {
  const char* text = std::getenv("GIR_DEVICES");
  if (text == nullptr || *text == '\0') return default_count;
  char* end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < 1 || value > 1024) {
    fail("GIR_DEVICES must be a number of GPUs, not '%s'", text);
  }
  return (int)value;
}

// Returns once every rank got here: an all-reduce of one integer, waited for.
inline void rank_barrier() {
  int* flag = scratch<int>(13, 1);
  nccl_check(ncclAllReduce(flag, flag, 1, ncclInt32, ncclSum, rank().comm, 0), "ncclAllReduce (barrier)");
  check(cudaStreamSynchronize(0), "the ranks' barrier");
}

// Runs `body` (the program's host code) once per GPU, GPUs 0..devices-1, each in
// a thread of its own; the first rank prints and writes GIR_DUMP.
inline int run_ranks(int devices, void (*body)()) {
  int available = 0;
  check(cudaGetDeviceCount(&available), "cudaGetDeviceCount");
  if (devices < 1 || devices > available) {
    fail("the program runs on %d GPUs, and %d are available", devices, available);
  }
  std::vector<ncclComm_t> comms((size_t)devices);
  std::vector<int> ids((size_t)devices);
  std::iota(ids.begin(), ids.end(), 0);
  nccl_check(ncclCommInitAll(comms.data(), devices, ids.data()), "ncclCommInitAll");
  int status = 0;
  std::vector<Tally> tallies((size_t)devices);
  std::vector<std::thread> threads;
  for (int r = 0; r < devices; ++r) {
    threads.emplace_back([&, r] {
      check(cudaSetDevice(r), "cudaSetDevice");
      rank() = Rank{r, devices, comms[(size_t)r], &tallies[(size_t)r], {}};
      silent() = r != 0;
      before_timer() = rank_barrier;
      body();
      if (r == 0) {
        status = finish();
      } else {
        check(cudaDeviceSynchronize(), "a kernel");
      }
      release_scratch();
      release_spare();
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (ncclComm_t comm : comms) ncclCommDestroy(comm);
  if (devices > 1) print_exchanged(tallies);
  return status;
}

}  // namespace gir_rt
