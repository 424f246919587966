// The union of the ranks' queues of a partitioned run as bitmaps, on the
// device, from each queue's size on the device, so the host waits for nothing
// (docs/multi-gpu.md): both hosts launch these kernels, the Python one through
// cupy (gir/runtime/nccl.py, compiled by NVRTC, so plain CUDA C with no
// includes) and the complete program from cuda_partition.cuh.
//
//   gir_queue_bitmap   each rank: the bits of its queue's vertices (words cleared before)
//   (ncclAllGather of the bitmaps)
//   gir_queue_union    each rank: the vertices any gathered bitmap sets, listed into
//                      its queue (in no particular order) and counted (total zeroed before)
//   gir_queue_count    each rank: the queue's size, at most its capacity
//
// A union whose queues carry claims (host.allgather ... claims) sends each
// rank's bitmap as above and its queue with the claimed values at it, padded to
// the longest:
//   gir_queue_pad      each rank: its queue padded, and its bitmap (words cleared before)
//   gir_gather_claims_N each rank: a claimed buffer's values (N bytes each) at it
//   (ncclAllGather of the bitmaps, the padded queues and the values)
//   gir_apply_claims_N each rank: sets the other ranks' claimed values at the
//                      vertices whose lowest queuing rank they are
// and gir_queue_union lists the union from the bitmaps.
#pragma once

// Sets the bits of the first count[0] (at most `capacity`) vertices of `items`
// below `bound` in a bitmap of 32-bit words.
extern "C" __global__ void gir_queue_bitmap(const int* items, const int* count, long long capacity, unsigned int* words,
                                            long long bound) {
  long long size = *count > 0 ? (long long)*count : 0;
  if (size > capacity) size = capacity;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < size; i += (long long)gridDim.x * blockDim.x) {
    int vertex = items[i];
    if (vertex >= 0 && vertex < bound) atomicOr(&words[vertex >> 5], 1u << (vertex & 31));
  }
}

// Lists into `items` (at most `capacity` of them) the vertices whose bit one of
// the `ranks` gathered bitmaps of `words` words sets, counting them in *total.
// A warp takes 32 consecutive words and reserves their vertices' slots with one
// atomic (its lanes' counts summed by a scan): an atomic a word serialised on
// `total` at middle densities (1 vertex in 32: 0.69 ms against 0.04 ms for
// 2^25 vertices on an H200).
extern "C" __global__ void gir_queue_union(const unsigned int* bitmaps, int ranks, long long words, int* items,
                                           long long capacity, int* total) {
  long long stride = (long long)gridDim.x * blockDim.x;
  // Each warp's lanes start at its first lane's word rounded down to 32 and take
  // the same number of rounds, so the shuffles below see the same lanes throughout.
  for (long long first = (blockIdx.x * (long long)blockDim.x + threadIdx.x) & ~31LL; first < words; first += stride) {
    unsigned int lanes = __activemask();
    int lane = threadIdx.x & 31;
    int last = 31 - __clz(lanes);
    long long word = first + lane;
    unsigned int bits = 0;
    if (word < words)
      for (int rank = 0; rank < ranks; ++rank) bits |= bitmaps[rank * words + word];
    int count = __popc(bits);
    int through = count;  // the vertices of this lane's word and the lanes' before it
    for (int distance = 1; distance < 32; distance <<= 1) {
      int before = __shfl_up_sync(lanes, through, distance);
      if (lane >= distance) through += before;
    }
    int warp_total = __shfl_sync(lanes, through, last);
    long long start = 0;
    if (lane == last && warp_total != 0) start = atomicAdd(total, warp_total);
    long long at = __shfl_sync(lanes, start, last) + through - count;
    for (; bits != 0 && at < capacity; bits &= bits - 1, ++at) items[at] = (int)(word * 32 + __ffs(bits) - 1);
  }
}

// padded[i] = items[i] for the first count[0] (at most `widest`) vertices of
// `items`, -1 (no vertex) for the rest of the `widest`, and their bits below
// `bound` set in a bitmap of 32-bit words: gir_queue_bitmap's, and the queue as
// it is all-gathered, in one pass.
extern "C" __global__ void gir_queue_pad(const int* items, const int* count, long long widest, int* padded,
                                         unsigned int* words, long long bound) {
  long long size = *count > 0 ? (long long)*count : 0;
  if (size > widest) size = widest;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < widest; i += (long long)gridDim.x * blockDim.x) {
    int vertex = i < size ? items[i] : -1;
    padded[i] = vertex;
    if (vertex >= 0 && vertex < bound) atomicOr(&words[vertex >> 5], 1u << (vertex & 31));
  }
}

// out[i] = values[padded[i]], 0 where padded[i] is no vertex (-1), for the
// `widest` entries of a padded queue.
#define GIR_GATHER_CLAIMS(NAME, T)                                                                               \
  extern "C" __global__ void NAME(const T* values, const int* padded, long long widest, T* out) {              \
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < widest;                            \
         i += (long long)gridDim.x * blockDim.x) {                                                              \
      int vertex = padded[i];                                                                                    \
      out[i] = vertex >= 0 ? values[vertex] : (T)0;                                                              \
    }                                                                                                            \
  }
GIR_GATHER_CLAIMS(gir_gather_claims_1, unsigned char)
GIR_GATHER_CLAIMS(gir_gather_claims_2, unsigned short)
GIR_GATHER_CLAIMS(gir_gather_claims_4, unsigned int)
GIR_GATHER_CLAIMS(gir_gather_claims_8, unsigned long long)
#undef GIR_GATHER_CLAIMS

// For each of the other ranks' entries of the gathered `queues` (`ranks` rows
// of `widest` vertices, -1 past a row's end), sets values[vertex] to the entry's
// claimed value if no lower rank's gathered bitmap (of `words` words) holds the
// vertex: the lowest rank that queued a vertex wins, as in
// multi_device.apply_claims. This rank's own entries are already in `values`;
// where a lower rank also queued the vertex, that rank's entry overwrites them.
// One entry a vertex wins, so no two threads write the same element.
#define GIR_APPLY_CLAIMS(NAME, T)                                                                               \
  extern "C" __global__ void NAME(const int* queues, const T* claimed, int ranks, long long widest,            \
                                  const unsigned int* bitmaps, long long words, int self, T* values) {          \
    long long others = (long long)(ranks - 1) * widest;                                                         \
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < others;                            \
         i += (long long)gridDim.x * blockDim.x) {                                                              \
      int row = (int)(i / widest);                                                                               \
      if (row >= self) ++row;                                                                                    \
      long long entry = row * widest + i % widest;                                                               \
      int vertex = queues[entry];                                                                                \
      if (vertex < 0) continue;                                                                                  \
      long long word = vertex >> 5;                                                                              \
      unsigned int bit = 1u << (vertex & 31);                                                                    \
      bool lower = false;                                                                                        \
      for (int r = 0; r < row && !lower && word < words; ++r) lower = (bitmaps[r * words + word] & bit) != 0;   \
      if (!lower) values[vertex] = claimed[entry];                                                               \
    }                                                                                                            \
  }
GIR_APPLY_CLAIMS(gir_apply_claims_1, unsigned char)
GIR_APPLY_CLAIMS(gir_apply_claims_2, unsigned short)
GIR_APPLY_CLAIMS(gir_apply_claims_4, unsigned int)
GIR_APPLY_CLAIMS(gir_apply_claims_8, unsigned long long)
#undef GIR_APPLY_CLAIMS

// count[0] = the union's size, at most `capacity`.
extern "C" __global__ void gir_queue_count(int* count, const int* total, long long capacity) {
  *count = (int)((long long)*total < capacity ? (long long)*total : capacity);
}
