#!/usr/bin/env python3
"""The floor of PageRank's gather on a GPU, under each vertex ordering.

```
python tools/gather_floor.py rmat:22 --orderings NONE,DEGREE,DEGREE_GROUP,HUB_CLUSTER,RCM [--trials 11]
```

For each ordering of `gir.reorder` (NONE: the ids as generated) the graph is
relabelled, its edges sorted by destination then source (the pull layout's
column array), and one hand-written CUDA kernel sums `share[col[i]]` over every
edge (no row offsets, no writes but one per thread): what any pull gather over
that ordering must at least spend. Prints the median of `--trials` timed
launches (after one untimed) and the ordering's own time. Needs pycuda and a
GPU; this is a measuring tool, not part of gir's runtime (docs/performance.md,
"PageRank's gather floor").
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

KERNEL = r"""
extern "C" __global__ void gather(const int* __restrict__ col, const float* __restrict__ share, float* out, long m) {
  float sum = 0;
  long stride = (long)gridDim.x * blockDim.x;
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < m; i += stride) sum += share[__ldcs(col + i)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
"""


def pull_columns(num_vertices: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The sources of the edges sorted by destination, then source (a CSC's column array)."""
    order = np.argsort(dst.astype(np.int64) * num_vertices + src)
    return np.ascontiguousarray(src[order].astype(np.int32))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("graph", help="a graph spec or file (rmat:22)")
    parser.add_argument("--orderings", default="NONE,DEGREE", help="NONE and names of gir.reorder.ORDERINGS")
    parser.add_argument("--trials", type=int, default=11)
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
    kernel = SourceModule(KERNEL, options=["-O3"], no_extern_c=True).get_function("gather")
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
        col = cuda.to_device(pull_columns(n, new_src, new_dst))
        times = []
        for _ in range(options.trials + 1):
            begin, end = cuda.Event(), cuda.Event()
            begin.record()
            kernel(col, share, sums, np.int64(len(src)), block=(1024, 1, 1), grid=(processors * 2, 1))
            end.record()
            end.synchronize()
            times.append(end.time_since(begin))
        col.free()
        print(f"{name}: gather {np.median(times[1:]):.3f} ms (median of {options.trials}); ordering {ordering_seconds:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
