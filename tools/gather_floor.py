#!/usr/bin/env python3
"""The floor of PageRank's gather on a GPU, under each vertex ordering.

```
python tools/gather_floor.py rmat:22 --orderings NONE,DEGREE,DEGREE_GROUP,HUB_CLUSTER,RCM [--trials 11] [--hot 12288,49152]
```

For each ordering of `gir.reorder` (NONE: the ids as generated) the graph is
relabelled, its edges sorted by destination then source (the pull layout's
column array), and one hand-written CUDA kernel sums `share[col[i]]` over every
edge (no row offsets, no writes but one per thread): what any pull gather over
that ordering must at least spend. Prints the median of `--trials` timed
launches (after one untimed) and the ordering's own time. `--hot K,...` also
times the same gather with the shares of the K lowest ids (the hubs, after a
degree ordering) held in shared memory, and prints the part of the edges whose
source is among them. Needs pycuda and a
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
    return 0


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
