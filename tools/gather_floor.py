#!/usr/bin/env python3
"""The floor of PageRank's gather on a GPU, under each vertex ordering.

```
python tools/gather_floor.py rmat:22 --orderings NONE,DEGREE,DEGREE_GROUP,HUB_CLUSTER,RCM [--trials 11] [--hot 12288,49152] [--blocked 0x10000]
python tools/gather_floor.py rmat:22 --orderings DEGREE --sweep 0x2000,0x4000 --grids 4224x256,264x1024 [--modes sweep_pairs,staged]
```

For each ordering of `gir.reorder` (NONE: the ids as generated) the graph is
relabelled, its edges sorted by destination then source (the pull layout's
column array), and one hand-written CUDA kernel sums `share[col[i]]` over every
edge (no row offsets, no writes but one per thread): what any pull gather over
that ordering must at least spend. Prints the median of `--trials` timed
launches (after one untimed) and the ordering's own time. `--hot K,...` also
times the same gather with the shares of the K lowest ids (the hubs, after a
degree ordering) held in shared memory, and prints the part of the edges whose
source is among them. `--blocked SIZE,...` times the parts of the blocked pull
gir prints for `configLoadBalance(EDGE_ONLY, BLOCKED, SIZE)` (pr_best_social.gt):
the index arrays alone, with the share reads, with the adds into the
destinations (gir's gather), the adds alone, the sources as 16-bit offsets in
their block, and one sweep without the barriers between blocks. `--sweep SIZE,...`
times the sweep gir prints for `configLoadBalance(EDGE_ONLY, BLOCKED_SWEEP, SIZE)`
on each grid of `--grids` (BLOCKSxTHREADS) in each of `SWEEP_MODES`,
`COMPACT_MODES` and `STAGED_MODES` (`--modes` picks by name): plain or
streaming (`__ldcs`, what gir prints) index loads, each edge's destination and
source side by side as one 8-byte load, the warp-segmented add's variants, two
edges a round, prefetching, one 32-bit word an edge, and each block's tile of
shares in shared memory; the compact and staged kernels' sums are checked
against gir's kernel. Needs pycuda and a
GPU; this is a measuring tool, not part of gir's runtime (docs/performance.md,
"PageRank's gather floor").
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

import numpy as np

KERNEL = r"""
extern "C" __global__ void gather(const int* __restrict__ col, const float* __restrict__ share, float* out, long m) {
  float sum = 0;
  long stride = (long)gridDim.x * blockDim.x;
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < m; i += stride) sum += share[__ldcs(col + i)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

extern "C" __global__ void gather_hot(const int* __restrict__ col, const float* __restrict__ share, float* out, long m, int hot) {
  extern __shared__ float hot_share[];
  for (int i = threadIdx.x; i < hot; i += blockDim.x) hot_share[i] = share[i];
  __syncthreads();
  float sum = 0;
  long stride = (long)gridDim.x * blockDim.x;
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < m; i += stride) {
    int source = __ldcs(col + i);
    sum += source < hot ? hot_share[source] : share[source];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
"""

RUN_ADD = r"""
// gir's warp-segmented add (gir_run_add_f32 in the printed CUDA): one atomic per
// run of equal keys among a warp's lanes, the key the address (run_add) or, to
// measure the difference, the destination's 32-bit index (run_add_index).
template <typename Key>
__device__ __forceinline__ void run_add_keyed(Key key, float* address, float value) {
  unsigned int active = __activemask();
  int lane = (int)(threadIdx.x % 32u);
  Key next = __shfl_down_sync(active, key, 1);
  Key previous = __shfl_up_sync(active, key, 1);
  bool last = lane == 31 || ((active >> (lane + 1)) & 1u) == 0u || next != key;
  bool first = lane == 0 || ((active >> (lane - 1)) & 1u) == 0u || previous != key;
  unsigned int ends = __ballot_sync(active, last);
  int end = lane + __ffs(ends >> lane) - 1;
  float sum = value;
  for (int offset = 1; offset < 32; offset <<= 1) {
    float other = __shfl_down_sync(active, sum, offset);
    if (lane + offset <= end) sum += other;
  }
  if (first) atomicAdd(address, sum);
}
__device__ __forceinline__ void run_add(float* address, float value) {
  run_add_keyed((unsigned long long)address, address, value);
}
__device__ __forceinline__ void run_add_index(float* __restrict__ base, int index, float value) {
  run_add_keyed(index, base + index, value);
}
"""

BLOCKED_KERNEL = RUN_ADD + r"""
// The blocked pull of pr_best_social.gt: edges in blocks of `size` sources, each
// block's sorted by destination; the grid walks the blocks in turn (a barrier
// between blocks, as gir prints it). MODE 0 reads the two index arrays only, 1
// adds the share reads, 2 is gir's gather (shares added into `inflow`), 3 the
// adds without the share reads, 4 gir's gather with each source stored as its
// 16-bit offset in its block, 5 gir's gather as one sweep without the barriers.
template <int MODE, typename Source>
__device__ void blocked(int blocks, int size, const int* offsets, const int* dsts, const Source* srcs,
                        const float* __restrict__ share, float* inflow, float* out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  float sum = 0;
  for (int block = 0; block < (MODE == 5 ? 1 : blocks); ++block) {
    int begin = MODE == 5 ? 0 : offsets[block], end = MODE == 5 ? offsets[blocks] : offsets[block + 1];
    int base = block * size;
    for (int edge = begin + gid; edge < end; edge += stride) {
      int dst = __ldcs(dsts + edge);
      int src = MODE == 4 ? base + (int)__ldcs(srcs + edge) : (int)__ldcs(srcs + edge);
      if (MODE == 0) sum += (float)(dst ^ src);
      else if (MODE == 1) sum += dst < 0 ? 1.0f : share[src];
      else if (MODE == 3) run_add(&inflow[dst], (float)(src & 1));
      else run_add(&inflow[dst], share[src]);
    }
    if (MODE != 5) __syncthreads();
  }
  out[gid] = sum;
}

extern "C" {
__global__ void blocked_0(int b, int s, const int* o, const int* d, const int* r, const float* h, float* i, float* x) { blocked<0>(b, s, o, d, r, h, i, x); }
__global__ void blocked_1(int b, int s, const int* o, const int* d, const int* r, const float* h, float* i, float* x) { blocked<1>(b, s, o, d, r, h, i, x); }
__global__ void blocked_2(int b, int s, const int* o, const int* d, const int* r, const float* h, float* i, float* x) { blocked<2>(b, s, o, d, r, h, i, x); }
__global__ void blocked_3(int b, int s, const int* o, const int* d, const int* r, const float* h, float* i, float* x) { blocked<3>(b, s, o, d, r, h, i, x); }
__global__ void blocked_4(int b, int s, const int* o, const int* d, const unsigned short* r, const float* h, float* i, float* x) { blocked<4>(b, s, o, d, r, h, i, x); }
__global__ void blocked_5(int b, int s, const int* o, const int* d, const int* r, const float* h, float* i, float* x) { blocked<5>(b, s, o, d, r, h, i, x); }
}
"""

RUN_ADD_SHORT = r"""
// run_add without the scan when no two lanes share an address, and with a scan
// only as long as the warp's longest run.
__device__ __forceinline__ void run_add_short(float* address, float value) {
  unsigned int active = __activemask();
  int lane = (int)(threadIdx.x % 32u);
  unsigned long long key = (unsigned long long)address;
  unsigned long long next = __shfl_down_sync(active, key, 1);
  unsigned long long previous = __shfl_up_sync(active, key, 1);
  bool last = lane == 31 || ((active >> (lane + 1)) & 1u) == 0u || next != key;
  unsigned int ends = __ballot_sync(active, last);
  if (ends == active) {
    atomicAdd(address, value);
    return;
  }
  bool first = lane == 0 || ((active >> (lane - 1)) & 1u) == 0u || previous != key;
  int end = lane + __ffs(ends >> lane) - 1;
  int longest = (int)__reduce_max_sync(active, (unsigned int)(end - lane));
  float sum = value;
  for (int offset = 1; offset <= longest; offset <<= 1) {
    float other = __shfl_down_sync(active, sum, offset);
    if (lane + offset <= end) sum += other;
  }
  if (first) atomicAdd(address, sum);
}
"""


SWEEP_KERNEL = RUN_ADD + RUN_ADD_SHORT + r"""
// gir's BLOCKED_SWEEP pull as it was: one stride over all the tiles' edges, by the
// whole grid; each edge's ends loaded by LOAD and its share added by ADD.
struct Plain {
  static __device__ __forceinline__ int2 ends(const int* dsts, const int* srcs, const int2* pairs, int edge) {
    return make_int2(dsts[edge], srcs[edge]);
  }
};
struct Streamed {
  static __device__ __forceinline__ int2 ends(const int* dsts, const int* srcs, const int2* pairs, int edge) {
    return make_int2(__ldcs(&dsts[edge]), __ldcs(&srcs[edge]));
  }
};
struct Paired {
  static __device__ __forceinline__ int2 ends(const int* dsts, const int* srcs, const int2* pairs, int edge) {
    return __ldcs(&pairs[edge]);
  }
};
struct ByAddress {
  static __device__ __forceinline__ void add(float* inflow, int dst, float value) { run_add(&inflow[dst], value); }
};
struct ShortScan {
  static __device__ __forceinline__ void add(float* inflow, int dst, float value) { run_add_short(&inflow[dst], value); }
};
template <typename Load, typename Add>
__device__ __forceinline__ void stride_sweep(int blocks, const int* offsets, const int* dsts, const int* srcs,
                                             const int2* pairs, const float* share, float* inflow) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x, end = offsets[blocks];
  for (int edge = offsets[0] + gid; edge < end; edge += stride) {
    int2 ends = Load::ends(dsts, srcs, pairs, edge);
    Add::add(inflow, ends.x, share[ends.y]);
  }
}
#define STRIDE_SWEEP(NAME, LOAD, ADD) \
extern "C" __global__ void NAME(int blocks, const int* offsets, const int* dsts, const int* srcs, const int2* pairs, \
                                const float* share, float* inflow) { \
  stride_sweep<LOAD, ADD>(blocks, offsets, dsts, srcs, pairs, share, inflow); \
}
STRIDE_SWEEP(sweep_plain, Plain, ByAddress)
STRIDE_SWEEP(sweep_streamed, Streamed, ByAddress)
STRIDE_SWEEP(sweep_pairs, Paired, ByAddress)
STRIDE_SWEEP(sweep_streamed_short, Streamed, ShortScan)
STRIDE_SWEEP(sweep_pairs_short, Paired, ShortScan)
extern "C" __global__ void sweep_pairs_restrict(int blocks, const int* __restrict__ offsets, const int* __restrict__ dsts,
    const int* __restrict__ srcs, const int2* __restrict__ pairs, const float* __restrict__ share, float* __restrict__ inflow) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x, end = offsets[blocks];
  for (int edge = offsets[0] + gid; edge < end; edge += stride) {
    int2 pair = __ldcs(&pairs[edge]);
    run_add(&inflow[pair.x], share[pair.y]);
  }
}
extern "C" __global__ void sweep_pairs_index(int blocks, const int* __restrict__ offsets, const int* __restrict__ dsts,
    const int* __restrict__ srcs, const int2* __restrict__ pairs, const float* __restrict__ share, float* __restrict__ inflow) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x, end = offsets[blocks];
  for (int edge = offsets[0] + gid; edge < end; edge += stride) {
    int2 pair = __ldcs(&pairs[edge]);
    run_add_index(inflow, pair.x, share[pair.y]);
  }
}
extern "C" __global__ void sweep_streamed_index(int blocks, const int* __restrict__ offsets, const int* __restrict__ dsts,
    const int* __restrict__ srcs, const int2* __restrict__ pairs, const float* __restrict__ share, float* __restrict__ inflow) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x, end = offsets[blocks];
  for (int edge = offsets[0] + gid; edge < end; edge += stride)
    run_add_index(inflow, __ldcs(&dsts[edge]), share[__ldcs(&srcs[edge])]);
}
// Two edges a round (edge and edge + stride), both loaded before either add.
template <bool INDEX>
__device__ __forceinline__ void pairs_two(int blocks, const int* __restrict__ offsets, const int2* __restrict__ pairs,
                                          const float* __restrict__ share, float* __restrict__ inflow) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x, end = offsets[blocks];
  int edge = offsets[0] + gid;
  for (; edge + stride < end; edge += 2 * stride) {
    int2 a = __ldcs(&pairs[edge]), b = __ldcs(&pairs[edge + stride]);
    float x = share[a.y], y = share[b.y];
    if (INDEX) { run_add_index(inflow, a.x, x); run_add_index(inflow, b.x, y); }
    else { run_add(&inflow[a.x], x); run_add(&inflow[b.x], y); }
  }
  if (edge < end) {
    int2 a = __ldcs(&pairs[edge]);
    if (INDEX) run_add_index(inflow, a.x, share[a.y]); else run_add(&inflow[a.x], share[a.y]);
  }
}
extern "C" __global__ void sweep_pairs_two(int blocks, const int* __restrict__ offsets, const int* __restrict__ dsts,
    const int* __restrict__ srcs, const int2* __restrict__ pairs, const float* __restrict__ share, float* __restrict__ inflow) {
  pairs_two<false>(blocks, offsets, pairs, share, inflow);
}
extern "C" __global__ void sweep_pairs_two_index(int blocks, const int* __restrict__ offsets, const int* __restrict__ dsts,
    const int* __restrict__ srcs, const int2* __restrict__ pairs, const float* __restrict__ share, float* __restrict__ inflow) {
  pairs_two<true>(blocks, offsets, pairs, share, inflow);
}
// The next round's pair loaded before this round's share read and add.
extern "C" __global__ void sweep_pairs_pipe(int blocks, const int* __restrict__ offsets, const int* __restrict__ dsts,
    const int* __restrict__ srcs, const int2* __restrict__ pairs, const float* __restrict__ share, float* __restrict__ inflow) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x, end = offsets[blocks];
  int edge = offsets[0] + gid;
  int2 next = edge < end ? __ldcs(&pairs[edge]) : make_int2(0, 0);
  for (; edge < end; edge += stride) {
    int2 pair = next;
    if (edge + stride < end) next = __ldcs(&pairs[edge + stride]);
    run_add_index(inflow, pair.x, share[pair.y]);
  }
}
// Each round asks L2 for the pairs AHEAD rounds on (prefetch.global.L2).
template <int AHEAD, bool TWO>
__device__ __forceinline__ void pairs_prefetched(int blocks, const int* __restrict__ offsets, const int2* __restrict__ pairs,
                                                 const float* __restrict__ share, float* __restrict__ inflow) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x, end = offsets[blocks];
  int edge = offsets[0] + gid;
  for (; edge + (TWO ? stride : 0) < end; edge += (TWO ? 2 : 1) * stride) {
    long long ahead = (long long)edge + (long long)AHEAD * stride;
    if (ahead < end) asm volatile("prefetch.global.L2 [%0];" :: "l"(pairs + ahead));
    if (TWO) {
      if (ahead + stride < end) asm volatile("prefetch.global.L2 [%0];" :: "l"(pairs + ahead + stride));
      int2 a = __ldcs(&pairs[edge]), b = __ldcs(&pairs[edge + stride]);
      float x = share[a.y], y = share[b.y];
      run_add_index(inflow, a.x, x);
      run_add_index(inflow, b.x, y);
    } else {
      int2 a = __ldcs(&pairs[edge]);
      run_add_index(inflow, a.x, share[a.y]);
    }
  }
  if (TWO && edge < end) {
    int2 a = __ldcs(&pairs[edge]);
    run_add_index(inflow, a.x, share[a.y]);
  }
}
#define PREFETCHED(NAME, AHEAD, TWO) \
extern "C" __global__ void NAME(int blocks, const int* __restrict__ offsets, const int* __restrict__ dsts, \
    const int* __restrict__ srcs, const int2* __restrict__ pairs, const float* __restrict__ share, float* __restrict__ inflow) { \
  pairs_prefetched<AHEAD, TWO>(blocks, offsets, pairs, share, inflow); \
}
PREFETCHED(sweep_pairs_prefetch2, 2, false)
PREFETCHED(sweep_pairs_prefetch4, 4, false)
PREFETCHED(sweep_pairs_two_prefetch4, 4, true)
PREFETCHED(sweep_pairs_two_prefetch8, 8, true)
// One 32-bit word an edge: its source's offset in its tile (the low `bits`) and
// its destination's offset in its chunk of 2^(32 - bits) destinations. Each
// group of 32 words (a warp's, the stride being a multiple of 32) lies in one
// (tile, chunk) and has a header: the tile's first source ORed with the group's
// valid words less one, and the chunk's first destination.
template <bool SHORT>
__device__ __forceinline__ void compact(long long total, int bits, const unsigned int* words, const int2* heads,
                                        const float* share, float* inflow) {
  long long gid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  unsigned int mask = (1u << bits) - 1u;
  for (long long edge = gid; edge < total; edge += stride) {
    unsigned int word = __ldcs(&words[edge]);
    int2 head = __ldg(&heads[edge >> 5]);
    if ((int)(edge & 31) <= (head.x & 31)) {
      int src = (head.x & ~31) + (int)(word & mask);
      int dst = head.y + (int)(word >> bits);
      if (SHORT) run_add_short(&inflow[dst], share[src]); else run_add(&inflow[dst], share[src]);
    }
  }
}
extern "C" __global__ void sweep_compact(long long total, int bits, const unsigned int* words, const int2* heads,
                                         const float* share, float* inflow) {
  compact<false>(total, bits, words, heads, share, inflow);
}
extern "C" __global__ void sweep_compact_short(long long total, int bits, const unsigned int* words, const int2* heads,
                                               const float* share, float* inflow) {
  compact<true>(total, bits, words, heads, share, inflow);
}
// The block's next chunk from the counter `next`: its first edge, the same in
// every thread (thread 0 takes it; the barriers let `taken` be reused).
__device__ __forceinline__ int take_chunk(int* next, int begin, int chunk, int* taken) {
  if (threadIdx.x == 0) *taken = begin + atomicAdd(next, chunk);
  __syncthreads();
  int first = *taken;
  __syncthreads();
  return first;
}
// Blocks take chunks of CHUNK edges in turn from a counter (persistent blocks,
// balanced as they go), each chunk's edges in its tile; with STAGE, a tile of at
// least size / 4 edges has its shares copied into shared memory first.
template <int CHUNK, bool STAGE>
__device__ __forceinline__ void dynamic(int blocks, int bits, int n, const int* __restrict__ offsets,
                                        const int2* __restrict__ pairs, const float* __restrict__ share,
                                        float* __restrict__ inflow, int* next) {
  extern __shared__ float tile_share[];
  __shared__ int taken;
  int size = 1 << bits, begin = offsets[0], end = offsets[blocks], staged_tile = -1;
  for (;;) {
    int first = take_chunk(next, begin, CHUNK, &taken);
    if (first >= end) break;
    int last = min(first + CHUNK, end), edge = first + threadIdx.x;
    if (STAGE) {
      int low = 0, high = blocks;
      while (high - low > 1) {
        int middle = (low + high) / 2;
        if (offsets[middle] <= first) low = middle; else high = middle;
      }
      int tile_end = min(last, offsets[low + 1]);
      if (4 * (offsets[low + 1] - offsets[low]) >= size) {
        int base = low << bits;
        if (low != staged_tile) {
          for (int i = threadIdx.x; i < size; i += blockDim.x) tile_share[i] = base + i < n ? share[base + i] : 0.0f;
          staged_tile = low;
          __syncthreads();
        }
        for (; edge < tile_end; edge += blockDim.x) {
          int2 pair = __ldcs(&pairs[edge]);
          run_add_index(inflow, pair.x, tile_share[pair.y - base]);
        }
      }
    }
    for (; edge < last; edge += blockDim.x) {
      int2 pair = __ldcs(&pairs[edge]);
      run_add_index(inflow, pair.x, share[pair.y]);
    }
  }
}
// `dynamic` without staging, over the two index arrays gir prints, its add keyed by address.
template <int CHUNK>
__device__ __forceinline__ void dynamic_arrays(int blocks, const int* offsets, const int* dsts, const int* srcs,
                                               const float* share, float* inflow, int* next) {
  __shared__ int taken;
  int begin = offsets[0], end = offsets[blocks];
  for (;;) {
    int first = take_chunk(next, begin, CHUNK, &taken);
    if (first >= end) break;
    int last = min(first + CHUNK, end);
    for (int edge = first + threadIdx.x; edge < last; edge += blockDim.x)
      run_add(&inflow[__ldcs(&dsts[edge])], share[__ldcs(&srcs[edge])]);
  }
}
extern "C" __global__ void dynamic_arrays_16k(int blocks, int bits, int n, const int* offsets, const int2* pairs,
                                              const float* share, float* inflow, int* next, const int* dsts, const int* srcs) {
  dynamic_arrays<16384>(blocks, offsets, dsts, srcs, share, inflow, next);
}
#define DYNAMIC(NAME, CHUNK, STAGE) \
extern "C" __global__ void __launch_bounds__(1024, 2) NAME(int blocks, int bits, int n, const int* offsets, \
    const int2* pairs, const float* share, float* inflow, int* next, const int* dsts, const int* srcs) { \
  dynamic<CHUNK, STAGE>(blocks, bits, n, offsets, pairs, share, inflow, next); \
}
DYNAMIC(dynamic_4k, 4096, false)
DYNAMIC(dynamic_16k, 16384, false)
DYNAMIC(dynamic_64k, 65536, false)
DYNAMIC(dynamic_staged_16k, 16384, true)
DYNAMIC(dynamic_staged_64k, 65536, true)
// Chunks of CHUNK edges dealt to the blocks in turn (block b takes chunks b,
// b + grid, ...; no counter): each block's threads stride over one chunk at a
// time, and the grid moves through the edges a window of grid chunks wide.
template <int CHUNK, bool PAIRS, bool INDEX>
__device__ __forceinline__ void cyclic(int blocks, const int* offsets, const int* dsts, const int* srcs, const int2* pairs,
                                       const float* share, float* inflow) {
  int begin = offsets[0], end = offsets[blocks];
  for (int first = begin + blockIdx.x * CHUNK; first < end; first += gridDim.x * CHUNK) {
    int last = min(first + CHUNK, end);
    for (int edge = first + threadIdx.x; edge < last; edge += blockDim.x) {
      int dst, src;
      if (PAIRS) {
        int2 pair = __ldcs(&pairs[edge]);
        dst = pair.x, src = pair.y;
      } else {
        dst = __ldcs(&dsts[edge]), src = __ldcs(&srcs[edge]);
      }
      if (INDEX) {
        run_add_index(inflow, dst, share[src]);
      } else {
        run_add(&inflow[dst], share[src]);
      }
    }
  }
}
#define CYCLIC(NAME, CHUNK, PAIRS, INDEX) \
extern "C" __global__ void __launch_bounds__(1024, 2) NAME(int blocks, const int* offsets, const int* dsts, \
    const int* srcs, const int2* pairs, const float* share, float* inflow) { \
  cyclic<CHUNK, PAIRS, INDEX>(blocks, offsets, dsts, srcs, pairs, share, inflow); \
}
CYCLIC(cyclic_4k, 4096, false, false)
CYCLIC(cyclic_16k, 16384, false, false)
CYCLIC(cyclic_64k, 65536, false, false)
CYCLIC(cyclic_pairs_16k, 16384, true, false)
CYCLIC(cyclic_pairs_64k, 65536, true, false)
CYCLIC(cyclic_index_64k, 65536, false, true)
CYCLIC(cyclic_index_16k, 16384, false, true)
CYCLIC(cyclic_index_128k, 131072, false, true)
CYCLIC(cyclic_index_256k, 262144, false, true)
// Chunks dealt in turn, sized so that each block takes exactly K of them (the
// last chunks a little shorter): no block waits on a last round of a few.
template <int K>
__device__ __forceinline__ void balanced(int blocks, const int* offsets, const int* dsts, const int* srcs,
                                         const float* share, float* inflow) {
  int begin = offsets[0], end = offsets[blocks];
  int parts = gridDim.x * K;
  int per = (end - begin + parts - 1) / parts;
  int chunk = (per + blockDim.x - 1) / blockDim.x * blockDim.x;
  for (int first = begin + blockIdx.x * chunk; first < end; first += gridDim.x * chunk) {
    int last = min(first + chunk, end);
    for (int edge = first + threadIdx.x; edge < last; edge += blockDim.x) {
      int dst = __ldcs(&dsts[edge]);
      run_add_index(inflow, dst, share[__ldcs(&srcs[edge])]);
    }
  }
}
#define BALANCED(NAME, K) \
extern "C" __global__ void __launch_bounds__(1024, 2) NAME(int blocks, const int* offsets, const int* dsts, \
    const int* srcs, const int2* pairs, const float* share, float* inflow) { \
  balanced<K>(blocks, offsets, dsts, srcs, share, inflow); \
}
BALANCED(balanced_1, 1)
BALANCED(balanced_2, 2)
BALANCED(balanced_3, 3)
BALANCED(balanced_4, 4)
BALANCED(balanced_6, 6)
BALANCED(balanced_8, 8)
// Each block walks its own contiguous run of edges, tile by tile, with the
// tile's shares copied into shared memory first where the block has at least
// size / 4 of the tile's edges (from global memory otherwise).
template <typename Pairs>
__device__ __forceinline__ void staged(int blocks, int bits, int n, const int* offsets, const int* dsts, const int* srcs,
                                       const int2* pairs, const float* share, float* inflow) {
  extern __shared__ float tile_share[];
  int size = 1 << bits;
  long long begin = offsets[0], total = offsets[blocks] - begin;
  long long per = (total + gridDim.x - 1) / gridDim.x;
  int first = (int)(begin + per * blockIdx.x), last = (int)min(begin + per * (blockIdx.x + 1), begin + total);
  if (first >= last) return;
  int low = 0, high = blocks;
  while (high - low > 1) {
    int middle = (low + high) / 2;
    if (offsets[middle] <= first) low = middle; else high = middle;
  }
  for (int tile = low; tile < blocks && offsets[tile] < last; ++tile) {
    int from = max(first, offsets[tile]), to = min(last, offsets[tile + 1]);
    if (from >= to) continue;
    int base = tile << bits;
    if (4 * (to - from) >= size) {
      __syncthreads();
      for (int i = threadIdx.x; i < size; i += blockDim.x) tile_share[i] = base + i < n ? share[base + i] : 0.0f;
      __syncthreads();
      for (int edge = from + threadIdx.x; edge < to; edge += blockDim.x) {
        if (Pairs::value) {
          int2 pair = __ldcs(&pairs[edge]);
          run_add(&inflow[pair.x], tile_share[pair.y - base]);
        } else {
          run_add(&inflow[__ldcs(&dsts[edge])], tile_share[__ldcs(&srcs[edge]) - base]);
        }
      }
    } else {
      for (int edge = from + threadIdx.x; edge < to; edge += blockDim.x)
        run_add(&inflow[__ldcs(&dsts[edge])], share[__ldcs(&srcs[edge])]);
    }
  }
}
struct No { static constexpr bool value = false; };
struct Yes { static constexpr bool value = true; };
extern "C" __global__ void __launch_bounds__(1024, 2) staged_streamed(int blocks, int bits, int n, const int* offsets, const int* dsts, const int* srcs,
                                           const int2* pairs, const float* share, float* inflow) {
  staged<No>(blocks, bits, n, offsets, dsts, srcs, pairs, share, inflow);
}
extern "C" __global__ void __launch_bounds__(1024, 2) staged_pairs(int blocks, int bits, int n, const int* offsets, const int* dsts, const int* srcs,
                                        const int2* pairs, const float* share, float* inflow) {
  staged<Yes>(blocks, bits, n, offsets, dsts, srcs, pairs, share, inflow);
}
// Each block walks its own contiguous run of the edges (a grid's share each), so
// that one SM reads the shares of a few tiles, not a slice of every tile.
__device__ __forceinline__ void block_run(int blocks, const int* offsets, int* first, int* last) {
  long long begin = offsets[0], total = offsets[blocks] - begin;
  long long per = (total + gridDim.x - 1) / gridDim.x;
  *first = (int)(begin + per * blockIdx.x);
  *last = (int)min(begin + per * (blockIdx.x + 1), begin + total);
}
extern "C" __global__ void chunked_streamed(int blocks, const int* offsets, const int* dsts, const int* srcs,
                                            const int2* pairs, const float* share, float* inflow) {
  int first, last;
  block_run(blocks, offsets, &first, &last);
  for (int edge = first + threadIdx.x; edge < last; edge += blockDim.x)
    run_add(&inflow[__ldcs(&dsts[edge])], share[__ldcs(&srcs[edge])]);
}
extern "C" __global__ void chunked_pairs(int blocks, const int* offsets, const int* dsts, const int* srcs,
                                         const int2* pairs, const float* share, float* inflow) {
  int first, last;
  block_run(blocks, offsets, &first, &last);
  for (int edge = first + threadIdx.x; edge < last; edge += blockDim.x) {
    int2 pair = __ldcs(&pairs[edge]);
    run_add(&inflow[pair.x], share[pair.y]);
  }
}
"""

SWEEP_MODES = {
    "sweep_plain": "plain index loads",
    "sweep_streamed": "streaming index loads (gir)",
    "sweep_pairs": "(dst, src) pairs, one 8-byte streaming load",
    "sweep_streamed_short": "streaming index loads, the add's scan only as long as the warp's longest run",
    "sweep_pairs_short": "(dst, src) pairs, the short scan",
    "sweep_pairs_restrict": "(dst, src) pairs, __restrict__ pointers",
    "sweep_pairs_index": "(dst, src) pairs, the add keyed by the 32-bit index",
    "sweep_streamed_index": "streaming index loads, the add keyed by the 32-bit index",
    "sweep_pairs_two": "(dst, src) pairs, two edges a round",
    "sweep_pairs_two_index": "(dst, src) pairs, two edges a round, keyed by index",
    "cyclic_4k": "streaming index loads, chunks of 4,096 edges dealt to the blocks in turn",
    "cyclic_16k": "streaming index loads, chunks of 16,384 edges dealt in turn",
    "cyclic_64k": "streaming index loads, chunks of 65,536 edges dealt in turn",
    "cyclic_pairs_16k": "(dst, src) pairs, chunks of 16,384 edges dealt in turn",
    "cyclic_pairs_64k": "(dst, src) pairs, chunks of 65,536 edges dealt in turn (gir's sweep with pairs)",
    "cyclic_index_64k": "streaming index loads, chunks of 65,536 edges, the add keyed by the 32-bit index",
    "cyclic_index_16k": "streaming index loads, chunks of 16,384 edges, the add keyed by the 32-bit index",
    "cyclic_index_128k": "streaming index loads, chunks of 131,072 edges, the add keyed by the 32-bit index",
    "cyclic_index_256k": "streaming index loads, chunks of 262,144 edges, the add keyed by the 32-bit index",
    "balanced_1": "keyed by index, chunks dealt in turn, 1 a block exactly",
    "balanced_2": "keyed by index, chunks dealt in turn, 2 a block exactly",
    "balanced_3": "keyed by index, chunks dealt in turn, 3 a block exactly",
    "balanced_4": "keyed by index, chunks dealt in turn, 4 a block exactly",
    "balanced_6": "keyed by index, chunks dealt in turn, 6 a block exactly",
    "balanced_8": "keyed by index, chunks dealt in turn, 8 a block exactly",
    "sweep_pairs_pipe": "(dst, src) pairs, keyed by index, the next round's pair loaded first",
    "sweep_pairs_prefetch2": "(dst, src) pairs, keyed by index, L2 prefetch 2 rounds ahead",
    "sweep_pairs_prefetch4": "(dst, src) pairs, keyed by index, L2 prefetch 4 rounds ahead",
    "sweep_pairs_two_prefetch4": "(dst, src) pairs, two a round, keyed by index, L2 prefetch 4 rounds ahead",
    "sweep_pairs_two_prefetch8": "(dst, src) pairs, two a round, keyed by index, L2 prefetch 8 rounds ahead",
}
"""`SWEEP_KERNEL`'s kernels and what each times."""

BLOCKED_MODES = (
    "the index arrays only",
    "+ the share reads",
    "gir's gather (+ the warp-segmented adds)",
    "the adds without the share reads",
    "gir's gather, 16-bit sources",
    "gir's gather, one sweep, no barriers",
)
"""What `BLOCKED_KERNEL`'s modes time, in order."""

BLOCKED_GRID = 1081344 // 256
"""gir's launch of the blocked gather: min(edges, 1081344) threads in blocks of 256."""

SHARED_BYTES_LIMIT = 227 * 1024
"""The most shared memory one block of an sm_90 GPU may ask for (`--hot` at most 58,112)."""


def hot_counts(text: str) -> list[int]:
    """`--hot`'s comma-separated vertex counts, each within `SHARED_BYTES_LIMIT`."""
    counts = [int(item) for item in text.split(",") if item]
    for count in counts:
        if not 0 < 4 * count <= SHARED_BYTES_LIMIT:
            raise argparse.ArgumentTypeError(f"--hot {count}: 1 to {SHARED_BYTES_LIMIT // 4} vertices fit in shared memory")
    return counts


def pull_columns(num_vertices: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The sources of the edges sorted by destination, then source (a CSC's column array)."""
    order = np.argsort(dst.astype(np.int64) * num_vertices + src)
    return np.ascontiguousarray(src[order].astype(np.int32))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("graph", help="a graph spec or file (rmat:22)")
    parser.add_argument("--orderings", default="NONE,DEGREE", help="NONE and names of gir.reorder.ORDERINGS")
    parser.add_argument("--trials", type=int, default=11)
    parser.add_argument("--hot", type=hot_counts, default=[], help="shared-memory hub counts to time, e.g. 12288,49152")
    parser.add_argument(
        "--blocked", type=block_sizes, default=[], help="also time the blocked pull's parts with these source blocks, e.g. 65536"
    )
    parser.add_argument("--sweep", type=block_sizes, default=[], help="also time the sweep's loads with these source blocks")
    parser.add_argument(
        "--grids", type=grids, default=[(BLOCKED_GRID, 256)], help="the sweep's launches, BLOCKSxTHREADS,... [4224x256]"
    )
    parser.add_argument("--modes", default="", help="time only the sweep kernels whose names contain one of these, comma-separated")
    options = parser.parse_args(argv)

    import pycuda.autoinit  # noqa: F401  (a context on GPU 0)
    import pycuda.driver as cuda
    from pycuda.compiler import SourceModule

    from gir import reorder
    from gir.runtime.graph import load_graph

    graph = load_graph(options.graph)
    n = graph.num_vertices
    src, dst = np.asarray(graph.src), np.asarray(graph.dst)
    device = cuda.Context.get_device()
    processors = device.get_attribute(cuda.device_attribute.MULTIPROCESSOR_COUNT)
    module = SourceModule(KERNEL, options=["-O3"], no_extern_c=True)
    kernel, hot_kernel = module.get_function("gather"), module.get_function("gather_hot")
    if options.hot:
        hot_kernel.set_attribute(cuda.function_attribute.MAX_DYNAMIC_SHARED_SIZE_BYTES, 4 * max(options.hot))
    share = cuda.to_device(np.random.default_rng(1).random(n).astype(np.float32))
    sums = cuda.mem_alloc(4 * processors * 2 * 1024)
    print(f"{options.graph}: {n:,} vertices, {len(src):,} edges, {device.name()}", flush=True)
    for name in options.orderings.split(","):
        started = time.perf_counter()
        if name == "NONE":
            new_src, new_dst = src, dst
        else:
            relabelling = reorder.relabel(name, n, src, dst)
            new_src, new_dst = relabelling.new_of_old[src], relabelling.new_of_old[dst]
        ordering_seconds = time.perf_counter() - started
        columns = pull_columns(n, new_src, new_dst)
        col = cuda.to_device(columns)
        edges = np.int64(len(src))
        median = timed(lambda: kernel(col, share, sums, edges, block=(1024, 1, 1), grid=(processors * 2, 1)), options.trials)
        print(f"{name}: gather {median:.3f} ms (median of {options.trials}); ordering {ordering_seconds:.1f} s", flush=True)
        for hot in options.hot:
            median = timed(
                lambda: hot_kernel(
                    col, share, sums, edges, np.int32(hot), block=(1024, 1, 1), grid=(processors, 1), shared=4 * hot
                ),
                options.trials,
            )
            part = np.count_nonzero(columns < hot) / max(len(columns), 1)
            print(f"{name}: gather, {hot:,} hubs' shares in shared memory ({part:.0%} of the edges) {median:.3f} ms", flush=True)
        col.free()
        for size in options.blocked:
            time_blocked(size, n, new_src, new_dst, share, options.trials, name)
        for size in options.sweep:
            time_sweep(size, n, new_src, new_dst, share, options.grids, options.trials, name, options.modes)
    return 0


def block_sizes(text: str) -> list[int]:
    """`--blocked`'s comma-separated source block sizes (at most 65,536, so that a
    source fits 16 bits as its offset in its block)."""
    sizes = [int(item, 0) for item in text.split(",") if item]
    for size in sizes:
        if not 0 < size <= 1 << 16:
            raise argparse.ArgumentTypeError(f"--blocked {size}: 1 to 65536 sources per block")
    return sizes


def grids(text: str) -> list[tuple[int, int]]:
    """`--grids`' comma-separated launches, BLOCKSxTHREADS (threads a power of two, 32 to 1024)."""
    launches = []
    for item in text.split(","):
        blocks, _, threads = item.partition("x")
        if not (blocks.isdigit() and threads.isdigit()) or int(blocks) < 1 or int(threads) not in (32, 64, 128, 256, 512, 1024):
            raise argparse.ArgumentTypeError(f"--grids {item}: BLOCKSxTHREADS, threads a power of two from 32 to 1024")
        launches.append((int(blocks), int(threads)))
    return launches


def tiled(size: int, n: int, src: np.ndarray, dst: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """The edges tiled in blocks of `size` sources, each block's sorted by
    destination: the block count, each block's first edge (and the end), and
    the edges' order."""
    src64, dst64 = src.astype(np.int64), dst.astype(np.int64)
    order = np.argsort(((src64 // size) * n + dst64) * n + src64)
    blocks = (n + size - 1) // size
    offsets = np.searchsorted(src64[order] // size, np.arange(blocks + 1)).astype(np.int32)
    return blocks, offsets, order


def time_sweep(
    size: int,
    n: int,
    src: np.ndarray,
    dst: np.ndarray,
    share: object,
    launches: list[tuple[int, int]],
    trials: int,
    name: str,
    modes: str = "",
) -> None:
    """Prints the median time of each of `SWEEP_MODES` on each launch, over the
    edges tiled in blocks of `size` sources."""
    import pycuda.driver as cuda
    from pycuda.compiler import SourceModule

    module = SourceModule(SWEEP_KERNEL, options=["-O3"], no_extern_c=True)
    blocks, offsets, order = tiled(size, n, src, dst)
    dsts, srcs = dst[order].astype(np.int32), src[order].astype(np.int32)
    arrays = [cuda.to_device(a) for a in (offsets, dsts, srcs, np.ascontiguousarray(np.stack([dsts, srcs], axis=1)))]
    inflow = cuda.mem_alloc(4 * n)
    for grid, threads in launches:
        for kernel_name, what in chosen(SWEEP_MODES, modes).items():
            kernel = module.get_function(kernel_name)
            median = timed(
                lambda: kernel(np.int32(blocks), *arrays, share, inflow, block=(threads, 1, 1), grid=(grid, 1)), trials
            )
            print(f"{name}: sweep of {size:#x}-source blocks, {grid}x{threads}, {what}: {median:.3f} ms", flush=True)
    expected = sweep_sums(module, blocks, arrays, share, inflow, n)
    words, heads, total = compact_words(size, n, src[order].astype(np.int64), dst[order].astype(np.int64))
    bits = size.bit_length() - 1
    compact_arrays = [cuda.to_device(words), cuda.to_device(heads)]
    for grid, threads in launches:
        for kernel_name, what in chosen(COMPACT_MODES, modes).items():
            kernel = module.get_function(kernel_name)
            launch = lambda: kernel(np.int64(total), np.int32(bits), *compact_arrays, share, inflow, block=(threads, 1, 1), grid=(grid, 1))  # noqa: E731
            median = timed(launch, trials)
            cuda.memset_d32(inflow, 0, n)
            launch()
            error = float(np.max(np.abs(cuda.from_device(inflow, (n,), np.float32) - expected)))
            print(
                f"{name}: sweep of {size:#x}-source blocks, {grid}x{threads}, {what} ({total / len(src):.3f} words an edge,"
                f" max error {error:.2g}): {median:.3f} ms",
                flush=True,
            )
    for grid, threads in launches:
        for kernel_name, what in chosen(STAGED_MODES, modes).items():
            kernel = module.get_function(kernel_name)
            kernel.set_attribute(cuda.function_attribute.MAX_DYNAMIC_SHARED_SIZE_BYTES, 4 * size)
            launch = lambda: kernel(  # noqa: E731
                np.int32(blocks), np.int32(size.bit_length() - 1), np.int32(n), *arrays, share, inflow,
                block=(threads, 1, 1), grid=(grid, 1), shared=4 * size,
            )  # fmt: skip
            try:
                median = timed(launch, trials)
            except cuda.Error as error:
                print(f"{name}: sweep of {size:#x}-source blocks, {grid}x{threads}, {what}: {error}", flush=True)
                continue
            cuda.memset_d32(inflow, 0, n)
            launch()
            error = float(np.max(np.abs(cuda.from_device(inflow, (n,), np.float32) - expected)))
            print(f"{name}: {size:#x}-source tiles, {grid}x{threads}, {what} (max error {error:.2g}): {median:.3f} ms", flush=True)
    counter = cuda.mem_alloc(4)
    for grid, threads in launches:
        for kernel_name, what in chosen(DYNAMIC_MODES, modes).items():
            kernel = module.get_function(kernel_name)
            shared = 4 * size if "staged" in kernel_name else 0
            if shared:
                kernel.set_attribute(cuda.function_attribute.MAX_DYNAMIC_SHARED_SIZE_BYTES, shared)

            def launch() -> None:
                cuda.memset_d32(counter, 0, 1)
                kernel(
                    np.int32(blocks), np.int32(size.bit_length() - 1), np.int32(n), arrays[0], arrays[3], share, inflow,
                    counter, arrays[1], arrays[2], block=(threads, 1, 1), grid=(grid, 1), shared=shared,
                )  # fmt: skip

            median = timed(launch, trials)
            cuda.memset_d32(inflow, 0, n)
            launch()
            error = float(np.max(np.abs(cuda.from_device(inflow, (n,), np.float32) - expected)))
            print(f"{name}: {size:#x}-source tiles, {grid}x{threads}, {what} (max error {error:.2g}): {median:.3f} ms", flush=True)
    for array in (*arrays, *compact_arrays, inflow, counter):
        array.free()


DYNAMIC_MODES = {
    "dynamic_arrays_16k": "streaming index loads, chunks of 16,384 edges from a counter",
    "dynamic_4k": "pairs, blocks taking chunks of 4,096 edges from a counter",
    "dynamic_16k": "pairs, chunks of 16,384 edges from a counter",
    "dynamic_64k": "pairs, chunks of 65,536 edges from a counter",
    "dynamic_staged_16k": "pairs, chunks of 16,384 edges, the tile's shares in shared memory",
    "dynamic_staged_64k": "pairs, chunks of 65,536 edges, the tile's shares in shared memory",
}


STAGED_MODES = {
    "staged_streamed": "a run of edges a block, the tile's shares in shared memory",
    "staged_pairs": "a run of edges a block, shares in shared memory, (dst, src) pairs",
}


COMPACT_MODES = {
    "sweep_compact": "one 32-bit word an edge and a header a warp",
    "sweep_compact_short": "one 32-bit word an edge, the short scan",
}


def chosen(kernels: dict[str, str], modes: str) -> dict[str, str]:
    """The kernels whose names contain one of `modes`' comma-separated parts (all if none)."""
    parts = [part for part in modes.split(",") if part]
    return {name: what for name, what in kernels.items() if not parts or any(part in name for part in parts)}


def sweep_sums(module: object, blocks: int, arrays: list, share: object, inflow: object, n: int) -> np.ndarray:
    """The sums of one streamed sweep, to check the compact kernels against."""
    import pycuda.driver as cuda

    cuda.memset_d32(inflow, 0, n)
    module.get_function("sweep_streamed")(np.int32(blocks), *arrays, share, inflow, block=(1024, 1, 1), grid=(264, 1))
    return cuda.from_device(inflow, (n,), np.float32)


def compact_words(size: int, n: int, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """`SWEEP_KERNEL`'s `compact` layout of edges sorted by (tile, destination):
    each (tile, chunk) run padded to whole groups of 32, a 32-bit word an edge,
    an int2 header a group."""
    bits = size.bit_length() - 1
    chunk_bits = 32 - bits
    chunks = max(1, -(-n >> chunk_bits))
    key = (src >> bits) * chunks + (dst >> chunk_bits)
    counts = np.bincount(key, minlength=((n + size - 1) // size) * chunks)
    padded = (counts + 31) // 32 * 32
    starts, padded_starts = np.cumsum(counts) - counts, np.cumsum(padded) - padded
    position = padded_starts[key] + (np.arange(len(src)) - starts[key])
    total = int(padded.sum())
    words = np.zeros(total, np.uint32)
    words[position] = ((dst & ((1 << chunk_bits) - 1)) << bits | (src & (size - 1))).astype(np.uint32)
    groups = total // 32
    group_key = np.repeat(np.arange(len(counts)), padded // 32)
    group_index = np.arange(groups) - padded_starts[group_key] // 32
    valid = np.minimum(counts[group_key] - 32 * group_index, 32)
    heads = np.empty((groups, 2), np.int32)
    heads[:, 0] = (group_key // chunks) * size | (valid - 1)
    heads[:, 1] = (group_key % chunks) << chunk_bits
    return words, heads, total


def time_blocked(size: int, n: int, src: np.ndarray, dst: np.ndarray, share: object, trials: int, name: str) -> None:
    """Prints the median time of each of `BLOCKED_MODES` over the edges tiled in
    blocks of `size` sources, each block's sorted by destination."""
    import pycuda.driver as cuda
    from pycuda.compiler import SourceModule

    module = SourceModule(BLOCKED_KERNEL, options=["-O3"], no_extern_c=True)
    blocks, offsets, order = tiled(size, n, src, dst)
    block_of = src.astype(np.int64)[order] // size
    sorted_src = src[order].astype(np.int32)
    arrays = {
        "offsets": cuda.to_device(offsets),
        "dst": cuda.to_device(dst[order].astype(np.int32)),
        "src": cuda.to_device(sorted_src),
        "src16": cuda.to_device((sorted_src - block_of * size).astype(np.uint16)),
    }
    inflow = cuda.mem_alloc(4 * n)
    out = cuda.mem_alloc(4 * BLOCKED_GRID * 256)
    for mode, what in enumerate(BLOCKED_MODES):
        kernel = module.get_function(f"blocked_{mode}")
        sources = arrays["src16" if mode == 4 else "src"]
        median = timed(
            lambda: kernel(
                np.int32(blocks), np.int32(size), arrays["offsets"], arrays["dst"], sources, share, inflow, out,
                block=(256, 1, 1), grid=(BLOCKED_GRID, 1),
            ),
            trials,
        )  # fmt: skip
        print(f"{name}: blocked by {size:#x} sources, {what}: {median:.3f} ms", flush=True)
    for array in (*arrays.values(), inflow, out):
        array.free()


def timed(launch: Callable[[], None], trials: int) -> float:
    """The median of `trials` timed `launch`es (ms), after one untimed."""
    import pycuda.driver as cuda

    times = []
    for _ in range(trials + 1):
        begin, end = cuda.Event(), cuda.Event()
        begin.record()
        launch()
        end.record()
        end.synchronize()
        times.append(end.time_since(begin))
    return float(np.median(times[1:]))


if __name__ == "__main__":
    sys.exit(main())
