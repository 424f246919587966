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
extern "C" __global__ void gir_queue_union(const unsigned int* bitmaps, int ranks, long long words, int* items,
                                           long long capacity, int* total) {
  for (long long word = blockIdx.x * (long long)blockDim.x + threadIdx.x; word < words;
       word += (long long)gridDim.x * blockDim.x) {
    unsigned int bits = 0;
    for (int rank = 0; rank < ranks; ++rank) bits |= bitmaps[rank * words + word];
    if (bits == 0) continue;
    long long at = atomicAdd(total, __popc(bits));
    for (; bits != 0 && at < capacity; bits &= bits - 1, ++at) items[at] = (int)(word * 32 + __ffs(bits) - 1);
  }
}

// count[0] = the union's size, at most `capacity`.
extern "C" __global__ void gir_queue_count(int* count, const int* total, long long capacity) {
  *count = (int)((long long)*total < capacity ? (long long)*total : capacity);
}
