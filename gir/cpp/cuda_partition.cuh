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
//
// Printed after cuda_runtime.cuh (namespace gir_rt); link with -lnccl.
#pragma once

#include <mutex>
#include <numeric>
#include <thread>
#include <nccl.h>
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>
#include <thrust/unique.h>

namespace gir_rt {

// host.Combine's members.
enum class Combine { SUM, MIN, MAX, UMIN, UMAX, OR, CLAIM };

struct Rank {
  int index = 0;
  int size = 1;
  ncclComm_t comm = nullptr;
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

inline unsigned grid_of(long long count) { return (unsigned)((count + 255) / 256); }

// Makes every rank's `buffer` the `kind` combine of all ranks' copies (host.allreduce).
template <typename T> void allreduce(T* buffer, Combine kind, const T* base) {
  Rank& self = rank();
  long long count = allocation_count(buffer, "host.allreduce");
  if (self.size == 1 || count == 0) return;
  bool as_unsigned = kind == Combine::UMIN || kind == Combine::UMAX;
  ncclDataType_t type = nccl_type<T>(as_unsigned);
  if (kind == Combine::SUM || kind == Combine::MIN || kind == Combine::MAX || as_unsigned) {
    ncclRedOp_t op = kind == Combine::SUM ? ncclSum : (kind == Combine::MIN || kind == Combine::UMIN) ? ncclMin : ncclMax;
    nccl_check(ncclAllReduce(buffer, buffer, (size_t)count, type, op, self.comm, 0), "ncclAllReduce");
    if (kind == Combine::SUM) {
      subtract_kernel<T><<<grid_of(count), 256>>>(buffer, base, (T)(self.size - 1), count);
      launched("gir_rt::subtract_kernel");
    }
    return;
  }
  T* gathered = nullptr;
  check(cudaMalloc(&gathered, (size_t)count * self.size * sizeof(T)), "cudaMalloc (exchange)");
  nccl_check(ncclAllGather(buffer, gathered, (size_t)count, type, self.comm, 0), "ncclAllGather");
  gathered_kernel<T><<<grid_of(count), 256>>>(buffer, gathered, base, self.size, count, kind == Combine::OR);
  launched("gir_rt::gathered_kernel");
  check(cudaFree(gathered), "cudaFree (exchange)");
}

// Makes every rank's queue the distinct vertices of all ranks' queues,
// ascending, at most as many as `items` holds, and count[0] their number
// (host.allgather).
inline void allgather(int* items, int* count) {
  Rank& self = rank();
  if (self.size == 1) return;
  long long capacity = allocation_count(items, "host.allgather");
  int size = (int)std::min<long long>(std::max(read<int>(count, 0), 0), capacity);
  int* sizes = nullptr;
  check(cudaMalloc(&sizes, sizeof(int) * (self.size + 1)), "cudaMalloc (exchange)");
  check(cudaMemcpy(sizes + self.size, &size, sizeof(int), cudaMemcpyHostToDevice), "cudaMemcpy (exchange)");
  nccl_check(ncclAllGather(sizes + self.size, sizes, 1, ncclInt32, self.comm, 0), "ncclAllGather");
  std::vector<int> all(self.size);
  check(cudaMemcpy(all.data(), sizes, sizeof(int) * self.size, cudaMemcpyDeviceToHost), "cudaMemcpy (exchange)");
  check(cudaFree(sizes), "cudaFree (exchange)");
  long long widest = std::max(*std::max_element(all.begin(), all.end()), 1);
  int *padded = nullptr, *gathered = nullptr;
  check(cudaMalloc(&padded, sizeof(int) * widest), "cudaMalloc (exchange)");
  check(cudaMalloc(&gathered, sizeof(int) * widest * self.size), "cudaMalloc (exchange)");
  check(cudaMemset(padded, 0xff, sizeof(int) * widest), "cudaMemset (exchange)");  // -1: no vertex
  if (size > 0) check(cudaMemcpy(padded, items, sizeof(int) * size, cudaMemcpyDeviceToDevice), "cudaMemcpy (exchange)");
  nccl_check(ncclAllGather(padded, gathered, (size_t)widest, ncclInt32, self.comm, 0), "ncclAllGather");
  int* end = gathered + widest * self.size;
  thrust::sort(thrust::device, gathered, end);
  end = thrust::unique(thrust::device, gathered, end);
  int* first = thrust::lower_bound(thrust::device, gathered, end, 0);
  long long total = std::min<long long>(end - first, capacity);
  if (total > 0) check(cudaMemcpy(items, first, sizeof(int) * total, cudaMemcpyDeviceToDevice), "cudaMemcpy (exchange)");
  write<int>(count, 0, (int)total);
  check(cudaFree(padded), "cudaFree (exchange)");
  check(cudaFree(gathered), "cudaFree (exchange)");
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
  std::vector<std::thread> threads;
  for (int r = 0; r < devices; ++r) {
    threads.emplace_back([&, r] {
      check(cudaSetDevice(r), "cudaSetDevice");
      rank() = Rank{r, devices, comms[(size_t)r]};
      silent() = r != 0;
      body();
      if (r == 0) {
        status = finish();
      } else {
        check(cudaDeviceSynchronize(), "a kernel");
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (ncclComm_t comm : comms) ncclCommDestroy(comm);
  return status;
}

}  // namespace gir_rt
