"""The C++ sources both hosts compile: gir's graph construction, and the CUDA runtime.

- `graph_build.h`: reading graph files (`.el`, `.wel`, `.mtx`, `.gbin`), sorting
  and deduplicating edges, CSR row pointers, the transpose and edge blocking;
  plain C++17.
- `graph_capi.cpp`: its C ABI, which the Python host builds once into a shared
  library and calls through ctypes (`gir.runtime.graph.native`).
- `reference_triangles.cpp`: the CPU reference's triangle count, in the same
  library (a sparse matrix product takes minutes on rmat:22).
- `cuda_runtime.cuh`: the runtime of a complete CUDA program
  (`gir.targets.cuda_host`), which includes `graph_build.h`.
- `cuda_partition.cuh`: the multi-GPU part of that runtime (NCCL, one thread a
  GPU), which includes `queue_union.cuh`: the kernels of a queue union as
  bitmaps, which the Python host's NCCL exchanges (`gir.runtime.nccl`) also
  compile, through cupy.

These files are package data. `inlined` gives a source with its local
`#include "..."` lines replaced by the files they name, so that a generated
`.cu` compiles with `nvcc` alone.
"""

from __future__ import annotations

import re
from pathlib import Path

SOURCE_DIR = Path(__file__).parent
"""Where the C++ sources are (the include directory of `graph_capi.cpp`)."""

_LOCAL_INCLUDE = re.compile(r'^#include "([\w.]+)"$')


def source(name: str) -> str:
    """The text of the C++ source `name` of this package."""
    return (SOURCE_DIR / name).read_text()


def inlined(name: str) -> str:
    """The source `name` with each local `#include "X"` replaced by X's text
    (itself inlined; each file once) and `#pragma once` dropped."""
    done: set[str] = set()

    def expand(file: str) -> list[str]:
        done.add(file)
        lines = []
        for line in source(file).splitlines():
            include = _LOCAL_INCLUDE.match(line)
            if include is not None:
                if include[1] not in done:
                    lines.extend(expand(include[1]))
            elif line != "#pragma once":
                lines.append(line)
        return lines

    return "\n".join(expand(name)) + "\n"
