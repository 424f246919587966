"""The C++ runtime a complete CUDA program (`gir.targets.cuda_host`) carries.

The runtime is C++/CUDA source shipped with gir (`gir/cpp/cuda_runtime.cuh`,
which includes `gir/cpp/graph_build.h`). `runtime_source()` is that source with
its includes inlined, after the constants it takes from the host dialect, and is
printed into every complete `.cu` file between the header and the kernels, so
that the file compiles with `nvcc` alone and runs without Python. It mirrors
`gir.runtime` (the Python host's runtime) call for call:

| `gir_rt::` call                       | mirrors (Python)                          |
|---------------------------------------|-------------------------------------------|
| `load_graph(path, weighted[, reorder])` | `gir.runtime.graph.load_graph` of a file (reordered: `Device.reordered`) |
| `argv_vertex`, `to_user`              | `Run.argv_vertex`, `Run._snapshot`'s mapping of a reordered graph's vectors |
| `Graph::array<T>(kind, blocking)`     | `DeviceGraph.array` (uploaded on first use) |
| `alloc<T>`, `free`, `fill`, `copy`    | `Run.alloc`, `free`, `fill`, `copy`       |
| `read`, `write`                       | `Run.read`, `Run.write` (index checked)   |
| `bind_global`, `finish`               | `Run.bind_global`, `Run.finish` (`GIR_DUMP`) |
| `argv_int`, `argv_float`              | `Run.argv_int`, `Run.argv_float`          |
| `argv_str` (strings: `std::string`), `text_int` | `Run.argv_str` (strings: `str`), `Run.text_int` |
| `number_list_pop` (lists of numbers: `std::vector<T>`) | `Run.number_list_pop` (lists of numbers: `list`) |
| `list_new`, `list_push`, `list_pop`    | `Run.list_new`, `list_push`, `list_pop`   |
| `list_export`, `list_import`          | `Run.list_export`, `list_import`          |
| `device_print_fence`                  | `Run.device_print_fence`                  |
| `resident_blocks(kernel, block, per_sm)` | `CudaDevice.resident_blocks` (CUDA's occupancy API) |
| `start_timer`, `stop_timer`, `print`  | `Run.start_timer`, `stop_timer`, `print`  |

Graph files (`.el`, `.wel`, `.mtx`, `.gbin`) are read, and the graph arrays
(CSR, CSC, edge blocking) built, by `graph_build.h`: the code the Python host
calls through `gir.runtime.graph.native`, so both hosts accept the same files
with the same messages (only regular files; sizes checked against the file's
length before anything is allocated). `.gbin` is gir's binary edge file
(`gir.runtime.graph.write_binary_graph`), read without parsing or sorting: what
`gir-bench --host compiled` hands the programs. Generator specs (`rmat:16`) and
gir's `.npz` cache are not read: write the graph as an edge list or `.gbin`
first (README, "Complete CUDA programs").

`GIR_DUMP=FILE` writes every bound global vector to FILE when the program ends
(a vector freed earlier as it was then): per vector a line `gir-dump NAME DTYPE
COUNT` (NAME percent-encoded outside `[A-Za-z0-9_.-]`, DTYPE numpy's name) and
COUNT lines of values; `gir.targets.cuda_host.read_dump` reads it back.

Every failure is one line `error: ...` on stderr and exit status 1.
"""

from functools import cache

from gir import cpp
from gir.dialects.host import PERSISTENT_THREADS_PER_SM, GraphArray, ListSlot, ListStatus

RUNTIME_HEADER = "cuda_runtime.cuh"
"""The runtime's source in `gir.cpp`."""


def dialect_constants() -> str:
    """The `#define`s through which the runtime names the host dialect's enums and
    constants (`GIR_GRAPH_ARRAYS`, ...), so that they are spelled once, in Python."""
    definitions = {
        "GIR_PERSISTENT_THREADS_PER_SM": str(PERSISTENT_THREADS_PER_SM),
        "GIR_GRAPH_ARRAYS": ", ".join(kind.name for kind in GraphArray),
        "GIR_LIST_SLOTS": ", ".join(f"LIST_{slot.name} = {slot.value}" for slot in ListSlot),
        "GIR_LIST_STATUSES": ", ".join(f"LIST_{status.name} = {status.value}" for status in ListStatus),
    }
    lines = ["// The host dialect's constants, as the runtime below names them."]
    lines += [f"#define {name} {value}" for name, value in definitions.items()]
    return "\n".join(lines) + "\n"


@cache
def runtime_source() -> str:
    """The C++ text of the runtime (see the module docstring), self-contained."""
    return dialect_constants() + "\n" + cpp.inlined(RUNTIME_HEADER)


PARTITION_HEADER = "cuda_partition.cuh"
"""The multi-GPU runtime in `gir.cpp`, printed after the runtime into programs
that `host-partition` rewrote (docs/multi-gpu.md)."""


@cache
def partition_runtime_source() -> str:
    """The C++ text of the multi-GPU runtime (NCCL exchanges, one thread per GPU)."""
    return cpp.inlined(PARTITION_HEADER)


def nccl_build_flags() -> list[str] | None:
    """The nvcc flags that find NCCL's header and library for a partitioned
    program: `$NCCL_HOME`, else the `nvidia-nccl-cu13` (or -cu12) Python package,
    else the system's; None where no `nccl.h` is found."""
    import importlib.util
    import os
    from pathlib import Path

    roots = [os.environ["NCCL_HOME"]] if os.environ.get("NCCL_HOME") else []
    spec = importlib.util.find_spec("nvidia.nccl") if importlib.util.find_spec("nvidia") else None
    if spec is not None and spec.submodule_search_locations:
        roots.extend(spec.submodule_search_locations)
    for root in map(Path, roots):
        if (root / "include" / "nccl.h").is_file():
            library = root / "lib"
            name = "-lnccl" if (library / "libnccl.so").exists() else "-l:libnccl.so.2"
            return [f"-I{root / 'include'}", f"-L{library}", f"-Xlinker=-rpath,{library}", name]
    if Path("/usr/include/nccl.h").is_file():
        return ["-lnccl"]
    return None
