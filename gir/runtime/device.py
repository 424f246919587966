"""Devices: buffers, copies, synchronization, built kernels and resident graphs.

A `Device` is one GPU (or OpenCL device) seen from the host. It has no notion of
a program being run: a `gir.runtime.run.Run` (the `HostRuntime` a printed host
program calls, see `gir.protocol`) owns a run's allocations, bindings,
timer and output, and passes the device the kernels it built
(`load_program`) whenever it prepares a launch (`launcher`).

| device call                                        | does                              |
|----------------------------------------------------|-----------------------------------|
| `load_program(source, signatures) -> kernels`      | builds kernels once per source    |
| `launcher(kernels, name, site, fixed) -> launch`   | a prepared launch                 |
| `allocate(nbytes)`, `upload(array)`, `release(b)`  | device buffers                    |
| `fill`, `copy`, `read_element`, `write_element`    | transfers (reads wait)            |
| `to_host(b, count, dtype)`, `synchronize()`        | results, waiting                  |
| `load_graph(spec, weighted) -> DeviceGraph`        | a graph resident on the device    |

## What each call costs (per call, host side)

Launches, reads and writes are the per-iteration cost of a frontier loop, so they
skip the generic paths of the Python bindings. Each launch site gets one generated
straight-line function (`launcher`, once per run) that binds the arguments that
never change and sets only the others:

- A launch (`launch(grid, block, *others)`), never synchronizing; `grid <= 0` does
  nothing. CUDA: `struct.pack_into` of each changing argument into the kernel's
  parameter block packed at `launcher` time (~0.15 us each), then cuLaunchKernel
  through pycuda's `Function._launch_kernel`, the call `prepared_call` makes after
  packing every argument again. OpenCL: `clSetKernelArg` of each changing argument
  on a `cl.Kernel` made once per launch site (pyopencl's `_set_arg_buf` with
  packed bytes for scalars, ~0.2 us, where its `set_arg` of a numpy scalar costs
  ~15 us), then `enqueue_nd_range_kernel`.
- `read`: one blocking copy of one element into a preallocated one-element array
  (page-locked on CUDA: `memcpy_dtoh`; OpenCL: the read `enqueue_copy` performs).
  It waits for queued work, which a loop condition needs anyway.
- `write`: queued, the host does not wait: CUDA `cuMemsetD8/16/32Async` of one
  element (a blocking `memcpy_htod` for 8-byte elements); OpenCL
  `enqueue_fill_buffer` of one element.
- `fill`: `cuMemsetD*Async` (8-byte values with two different halves: a small fill
  kernel) / `enqueue_fill_buffer`; `copy`: `cuMemcpyDtoDAsync` / `enqueue_copy`.
- `alloc` / `free`: driver allocation calls: keep them out of loops.
- `load_graph`: the first time per (spec, weighted) on a device it loads the graph
  (`gir.runtime.graph.load_graph`, itself cached on disk); each array is copied to
  the device on its first `array(kind, dtype)`. Later runs and trials get the
  resident arrays. The time spent is added to `load_seconds`, which a run subtracts.

Measured per call with the BFS kernel (3 changing arguments, a one-block grid):

| device                      | launch | write | read  | write + launch + read |
|-----------------------------|--------|-------|-------|-----------------------|
| H200, CUDA                  | 3.2 us | 1.2 us | 6.4 us | 19 us (kernel included) |
| H200, CUDA, `prepared_call` | 4.0 us | 1.1 us | 6.4 us | 20 us                 |
| H200, NVIDIA OpenCL         | 6.1 us | 5.6 us | 7.6 us | 32 us                 |
| H200, OpenCL, `set_arg`     | 12.7 us | 6.0 us | 8.4 us | 31 us                |
| PoCL (CPU)                  | 9 us   | 4 us  | 18 us | 29 us                 |

(PoCL with pyopencl's generic calls: 43, 9 and 64 us.) The private entry points are used only
where they exist; `fast_paths = False` on a device class keeps to documented calls
(`prepared_call`, `set_arg`, `enqueue_copy`, `enqueue_fill_buffer`).
"""

from __future__ import annotations

import atexit
import os
import shutil
import struct
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gir.diagnostics import UserError
from gir.dialects.host import (
    BLOCKED_ARRAYS,
    BY_DESTINATION_ARRAYS,
    BY_SOURCE_ARRAYS,
    OFFSET_ARRAYS,
    PERSISTENT_THREADS_PER_SM,
)
from gir.protocol import DType, GraphArray, Launch
from gir.runtime.graph import check_device_memory, format_bytes

DTYPES: dict[DType, np.dtype] = {dtype: dtype.numpy for dtype in DType}
"""The numpy dtype of each element type."""


class DeviceUnavailable(Exception):
    """The target cannot be used here; the message says why, in a few words."""


@dataclass(frozen=True)
class KernelArg:
    """One kernel parameter: a buffer of `dtype` elements, or a scalar `dtype`."""

    is_buffer: bool
    dtype: DType


KernelSignatures = Mapping[str, Sequence[KernelArg]]
"""Each kernel's parameters, in order, by kernel name."""


def _argument_format(arg: KernelArg) -> str:
    """The `struct` character of a kernel argument (an `i1` scalar is an int)."""
    if arg.is_buffer:
        return "P"
    return {
        DType.BOOL: "i", DType.INT8: "b", DType.INT16: "h", DType.INT32: "i",
        DType.INT64: "q", DType.FLOAT32: "f", DType.FLOAT64: "d",
    }[arg.dtype]  # fmt: skip


def _bits(dtype: DType) -> Callable[[Any], int]:
    """A function from a value to its bit pattern as an unsigned int of its size."""
    size = DTYPES[dtype].itemsize
    if dtype == DType.BOOL:
        return lambda value: 1 if value else 0
    if dtype.startswith("int"):
        mask = (1 << (8 * size)) - 1
        return lambda value: int(value) & mask
    float_format, unsigned_format = ("f", "I") if size == 4 else ("d", "Q")
    return lambda value: struct.unpack(unsigned_format, struct.pack(float_format, value))[0]


_SCALAR_PACKING = {
    DType.BOOL: "=i", DType.INT8: "=b", DType.INT16: "=h", DType.INT32: "=i",
    DType.INT64: "=q", DType.FLOAT32: "=f", DType.FLOAT64: "=d",
}  # fmt: skip
"""How a scalar kernel argument is laid out (an `i1` is passed as an int)."""


def _generate_launch(varying: Sequence[int], body: Sequence[str], namespace: dict[str, Any]) -> Launch:
    """Compiles `def launch(grid, block, a<i>, ...)` running `body` when `grid > 0`:
    one straight-line function per launch site, so a launch runs no loop over its
    arguments and looks nothing up by name."""
    parameters = "".join(f", a{position}" for position in varying)
    lines = [f"def launch(grid, block{parameters}):", "    if grid > 0:"]
    lines.extend(f"        {line}" for line in body)
    exec("\n".join(lines), namespace)
    return namespace["launch"]


LARGE_ARRAY_BYTES = 1 << 30
"""Graph arrays from this size on are reported as they are built and copied
(`Device.progress`): on a graph of billions of edges each takes seconds."""


class DeviceGraph:
    """A graph resident on one device: `num_vertices`, `num_edges`, and its arrays
    (`GraphArray`), each copied to the device on first use."""

    def __init__(self, device: Device, spec: str, host_graph: Any, relabelled: Any = None):
        """`relabelled` (a `gir.runtime.graph.reorder.RelabelledGraph`): the device
        holds that relabelling of `host_graph` instead of `host_graph` itself."""
        self.num_vertices: int = int(host_graph.num_vertices)
        self.num_edges: int = int(host_graph.num_edges)
        self._device = device
        self._spec = spec
        self.user_graph = host_graph
        """The graph as the user gave it (validation compares with it)."""
        self.relabelling = None if relabelled is None else relabelled.relabelling
        """The `gir.reorder.Relabelling` of the device's graph, or None."""
        self._host = host_graph if relabelled is None else relabelled.graph
        self._arrays: dict[tuple[GraphArray, DType, int | None], Any] = {}

    def array(self, kind: GraphArray, dtype: DType, blocking_size: int | None = None) -> Any:
        """The device buffer of the graph array `kind` with `dtype` elements (a
        blocked array: of the edges tiled by `blocking_size`)."""
        buffer = self._arrays.get((kind, dtype, blocking_size))
        if buffer is None:
            started = time.perf_counter()
            array = self._host_array(kind, dtype, blocking_size)
            built = time.perf_counter()
            buffer = self._device.upload(array)
            done = time.perf_counter()
            self._device.load_seconds += done - started
            self._arrays[(kind, dtype, blocking_size)] = buffer
            if array.nbytes >= LARGE_ARRAY_BYTES and self._device.progress is not None:
                self._device.progress(
                    f"{kind} of {self._spec} ({format_bytes(array.nbytes)}): built in {built - started:.2f} s, "
                    f"copied to {self._device.name} in {done - built:.2f} s"
                )
        return buffer

    def _host_array(self, kind: GraphArray, dtype: DType, blocking_size: int | None) -> np.ndarray:
        graph = self._host
        if kind in BLOCKED_ARRAYS:
            assert blocking_size is not None, "the IR verifier requires a blocking size"
            by_source = kind in BY_SOURCE_ARRAYS
            blocked = graph.blocked(blocking_size, by_source)
            kinds = BY_SOURCE_ARRAYS if by_source else BY_DESTINATION_ARRAYS
            parts = (blocked.offsets, blocked.src, blocked.dst, blocked.weights)
            array = dict(zip(kinds, parts, strict=True))[kind]
        elif kind in (GraphArray.ROW_PTR, GraphArray.COL_IDX, GraphArray.WEIGHTS):
            row_ptr, col_idx, weights = graph.csr()
            array = {GraphArray.ROW_PTR: row_ptr, GraphArray.COL_IDX: col_idx, GraphArray.WEIGHTS: weights}[kind]
        elif kind in (GraphArray.CSC_PTR, GraphArray.CSC_IDX, GraphArray.CSC_WEIGHTS):
            csc_ptr, csc_idx, csc_weights = graph.csc()
            array = {GraphArray.CSC_PTR: csc_ptr, GraphArray.CSC_IDX: csc_idx, GraphArray.CSC_WEIGHTS: csc_weights}[kind]
        elif kind in (GraphArray.COO_SRC, GraphArray.CSC_DST):
            # the vertex whose edge range holds each position: row v repeated degree(v) times
            pointers = (graph.csr() if kind == GraphArray.COO_SRC else graph.csc())[0]
            array = np.repeat(np.arange(self.num_vertices, dtype=np.int32), np.diff(pointers))
        else:
            array = graph.out_degrees()
        if array is None:
            raise UserError(f"error: the program reads edge weights, but graph '{self._spec}' has none")
        if kind in OFFSET_ARRAYS and array.size and int(array[-1]) > np.iinfo(DTYPES[dtype]).max:
            raise UserError(
                f"error: graph '{self._spec}' has {self.num_edges:,} edges, more than the "
                f"program's {DTYPES[dtype].itemsize * 8}-bit edge indices hold: it must be "
                "specialised on the graph (CompiledProgram.for_edges) or lowered with 64-bit "
                "edge indices"
            )
        return np.ascontiguousarray(array, dtype=DTYPES[dtype])

    def release(self) -> None:
        """Frees the device arrays."""
        for buffer in self._arrays.values():
            self._device.release(buffer)
        self._arrays.clear()


class Device(ABC):
    """A GPU (or OpenCL device) that runs gir programs: buffers, transfers, built
    kernels and resident graphs (see the module docstring)."""

    target: str
    """"cuda" or "opencl"."""
    name: str
    """The device's name, for reports."""
    fast_paths: bool = True
    """Whether launches, reads and writes may use the binding's undocumented but
    stable entry points (see the module docstring); False: documented calls only."""

    def __init__(self) -> None:
        self.progress: Callable[[str], None] | None = None
        """Receives short messages before long steps (loading a graph)."""
        self.load_seconds = 0.0
        """Seconds spent loading graphs and copying them to the device, in total."""
        self._graphs: dict[tuple[str, bool, str | None], DeviceGraph] = {}
        self._programs: dict[str, Any] = {}
        self.reorder_seconds: dict[tuple[str, str], float] = {}
        """Seconds each (graph spec, ordering) took to reorder on this device (0:
        read from the graph cache); part of `load_seconds`, reported apart."""

    # -- kernels ------------------------------------------------------------

    extensions: frozenset[str] | None = None
    """The OpenCL extensions the device has (None: not an OpenCL device)."""

    def memory_bytes(self) -> int | None:
        """The device memory a run may fill (free memory where the device says,
        else its size), or None where it does not say."""
        return None

    def missing_extensions(self, names: Sequence[str]) -> list[str]:
        """Those of the OpenCL extensions `names` the device lacks."""
        if self.extensions is None:
            return []
        return [name for name in names if name not in self.extensions]

    def load_program(self, source: str, signatures: KernelSignatures, binary: bytes | None = None) -> Any:
        """The kernels of `source` built for this device (or loaded from `binary`,
        e.g. a CUDA cubin), once per device: later calls with the same source return
        the same object, which `launcher` takes."""
        program = self._programs.get(source)
        if program is None:
            program = self._build(source, signatures, binary)
            self._programs[source] = program
        return program

    @abstractmethod
    def _build(self, source: str, signatures: KernelSignatures, binary: bytes | None) -> Any:
        """Compiles `source` into this device's program object."""

    @abstractmethod
    def launcher(self, program: Any, kernel: str, site: int, fixed: Mapping[int, Any]) -> Launch:
        """A prepared launch of `kernel` of `program` (from `load_program`) for launch
        site `site`, with the arguments at the positions of `fixed` bound once; the
        returned function takes `(grid, block, *the other arguments in order)`."""

    # -- graphs -------------------------------------------------------------

    def resident_blocks(self, program: Any, kernel: str, block: int, per_sm: int = 0) -> int:
        """How many `block`-thread blocks of `kernel` (of `program`) are resident on
        the device at once, at most `per_sm` per multiprocessor (0:
        `PERSISTENT_THREADS_PER_SM` threads' worth), so that a persistent kernel on
        that grid can wait for all of its blocks; 0 where the target has no
        grid-wide synchronization."""
        return 0

    def load_graph(self, spec: str, weighted: bool, reorder: str | None = None) -> DeviceGraph:
        """The graph `spec` (a file or generator spec), resident on this device;
        relabelled by the ordering `reorder` (`gir.reorder`) if one is named."""
        key = (spec, bool(weighted), reorder)
        graph = self._graphs.get(key)
        if graph is None:
            started = time.perf_counter()
            plain = self._graphs.get((spec, bool(weighted), None))
            host_graph = plain.user_graph if plain is not None else self._load_host(spec, weighted)
            relabelled = None
            if reorder is not None:
                relabelled = self.reordered(spec, host_graph, reorder)
            graph = DeviceGraph(self, spec, host_graph, relabelled)
            if self.progress is not None and plain is None:
                self.progress(
                    f"loaded {spec}: {host_graph.num_vertices:,} vertices, "
                    f"{host_graph.num_edges:,} edges in {time.perf_counter() - started:.2f} s"
                )
            self._graphs[key] = graph
            self.load_seconds += time.perf_counter() - started
        return graph

    def load_graph_part(self, spec: str, weighted: bool, rank: int, part: Any) -> DeviceGraph:
        """Device `rank`'s part of the graph `spec` (`gir.runtime.graph.partition`:
        a `GraphPart`), resident on this device; kept apart from the whole graph's
        copy, which `host_graph` returns."""
        key = (spec, bool(weighted), rank, id(part))
        graph = self._graphs.get(key)  # type: ignore[arg-type]
        if graph is None:
            started = time.perf_counter()
            graph = DeviceGraph(self, spec, part)
            self._graphs[key] = graph  # type: ignore[index]
            self.load_seconds += time.perf_counter() - started
        return graph

    def activate(self) -> None:
        """Makes this device current for the calling thread (a partitioned run
        drives each device from a thread of its own)."""

    def deactivate(self) -> None:
        """Undoes `activate` on the calling thread."""
    def _load_host(self, spec: str, weighted: bool) -> Any:
        from gir.runtime.graph import load_graph

        return load_graph(spec, weighted=True if weighted else False, progress=self.progress)

    def reordered(self, spec: str, host_graph: Any, reorder: str) -> Any:
        """`host_graph` relabelled by `reorder`, its cost noted on stderr (a one-time
        cost, outside every timer: it is part of loading the graph)."""
        from gir.reorder import unknown_ordering
        from gir.runtime.graph.reorder import relabelled

        refused = unknown_ordering(reorder)
        if refused is not None:
            raise UserError(f"error: {refused}")
        made = relabelled(host_graph, reorder)
        self.reorder_seconds[(spec, reorder)] = made.seconds
        how = "read from the graph cache" if made.cached else "computed"
        print(
            f"note: {spec} reordered by {reorder} in {made.seconds:.3f} s ({how}; not timed)",
            file=sys.stderr,
        )
        return made

    def host_graph(self, spec: str) -> Any | None:
        """The host copy of a graph this device loaded for `spec` (with weights if
        it was loaded both ways), as the user gave it (not reordered), so that
        checking a result needs no second load."""
        for weighted in (True, False):
            for (loaded, loaded_weighted, _), graph in self._graphs.items():
                if loaded == spec and loaded_weighted == weighted:
                    return graph.user_graph
        return None

    def clear_graphs(self) -> None:
        """Frees every resident graph."""
        for graph in self._graphs.values():
            graph.release()
        self._graphs.clear()

    # -- buffers and transfers ----------------------------------------------

    @abstractmethod
    def synchronize(self) -> None:
        """Waits until the device finished all queued work."""

    @abstractmethod
    def allocate(self, nbytes: int) -> Any:
        """A new device buffer of `nbytes` bytes."""

    @abstractmethod
    def upload(self, array: np.ndarray) -> Any:
        """A new device buffer holding a copy of `array`."""

    @abstractmethod
    def release(self, buffer: Any) -> None:
        """Frees a device buffer."""

    @abstractmethod
    def to_host(self, buffer: Any, count: int, dtype: DType) -> np.ndarray:
        """The first `count` elements of `buffer` as a new numpy array (waits)."""

    def from_host(self, buffer: Any, array: np.ndarray) -> None:
        """Copies `array` into the start of `buffer` (the host waits)."""
        raise NotImplementedError(f"{type(self).__name__} cannot copy arrays to the device")

    @abstractmethod
    def fill(self, buffer: Any, value: Any, count: int, dtype: DType) -> None:
        """Sets the first `count` elements of `buffer` to `value` (queued)."""

    @abstractmethod
    def copy(self, source: Any, target: Any, count: int, dtype: DType) -> None:
        """Copies the first `count` elements of `source` into `target` (queued)."""

    @abstractmethod
    def copy_range(
        self, source: Any, source_index: int, target: Any, target_index: int, count: int, dtype: DType
    ) -> None:
        """Copies `source[source_index:+count]` to `target[target_index:]` (queued)."""

    @abstractmethod
    def read_element(self, buffer: Any, index: int, dtype: DType) -> Any:
        """Element `index` of `buffer`, once all queued work is done (unchecked)."""

    @abstractmethod
    def write_element(self, buffer: Any, index: int, value: Any, dtype: DType) -> None:
        """Sets element `index` of `buffer` to `value`, queued (unchecked)."""

    @staticmethod
    def key(buffer: Any) -> Any:
        """A hashable identity of a buffer."""
        return buffer

    def close(self) -> None:
        """Releases the device's graphs and programs."""
        self.clear_graphs()
        self._programs.clear()


# ---------------------------------------------------------------------------
# OpenCL
# ---------------------------------------------------------------------------


def opencl_devices() -> list[Any]:
    """Every OpenCL device of every platform, in platform order."""
    import pyopencl as cl

    try:
        platforms = cl.get_platforms()
    except cl.Error as error:
        raise DeviceUnavailable(f"no OpenCL platform ({error})") from None
    return [device for platform in platforms for device in platform.get_devices()]


def default_opencl_device() -> Any:
    """The first GPU of any platform, else PoCL's first device, else any device."""
    import pyopencl as cl

    devices = opencl_devices()
    if not devices:
        raise DeviceUnavailable("no OpenCL device")
    for device in devices:
        if device.type & cl.device_type.GPU:
            return device
    for device in devices:
        if "Portable Computing Language" in device.platform.name:
            return device
    return devices[0]


@dataclass
class _OpenCLProgram:
    """A built OpenCL program with its kernels' signatures; one `cl.Kernel` per
    launch site, made once and reused by later runs."""

    program: Any
    signatures: KernelSignatures
    site_kernels: dict[tuple[str, int], Any] = field(default_factory=dict)


class OpenCLDevice(Device):
    """Runs programs through pyopencl on one OpenCL device with one in-order queue."""

    target = "opencl"

    def __init__(self, device_index: int | None = None, platform: str | None = None):
        """`device_index` counts devices across all platforms; `platform` picks the
        first device of the platform whose name contains it; neither: the default
        (first GPU, else PoCL)."""
        super().__init__()
        try:
            import pyopencl as cl
        except ImportError:
            raise DeviceUnavailable("pyopencl is not installed (pip install 'gir[opencl]')") from None
        self._cl = cl
        self.device = self._choose(device_index, platform)
        self.name = f"{self.device.name.strip()} ({self.device.platform.name.strip()}, OpenCL)"
        self.extensions = frozenset(self.device.extensions.split())
        self.context = cl.Context([self.device])
        self.queue = cl.CommandQueue(self.context)
        self._host_scalars = {name: np.zeros(1, dtype) for name, dtype in DTYPES.items()}
        self._scalar_types = {name: dtype.type for name, dtype in DTYPES.items()}
        # What `enqueue_copy` / `enqueue_fill_buffer` call after dispatching on their
        # arguments' kinds (~3 us of Python per call, worth skipping for the one-int
        # reads and writes of a frontier loop); the public calls are the fallback.
        fast = self.fast_paths
        self._read_buffer = (fast and getattr(cl._cl, "_enqueue_read_buffer", None)) or (
            lambda queue, buffer, host, offset, wait_for, blocking: cl.enqueue_copy(
                queue, host, buffer, src_offset=offset, is_blocking=blocking
            )
        )
        self._fill_buffer = (fast and getattr(cl._cl, "_enqueue_fill_buffer", None)) or cl.enqueue_fill_buffer

    def _choose(self, device_index: int | None, platform: str | None) -> Any:
        devices = opencl_devices()
        if platform is not None:
            devices = [d for d in devices if platform.lower() in d.platform.name.lower()]
            if not devices:
                raise DeviceUnavailable(f"no OpenCL platform named like '{platform}'")
        if device_index is not None:
            if not 0 <= device_index < len(devices):
                raise DeviceUnavailable(
                    f"no OpenCL device {device_index} (there are {len(devices)})"
                )
            return devices[device_index]
        return devices[0] if platform is not None else default_opencl_device()

    def _build(self, source: str, signatures: KernelSignatures, binary: bytes | None) -> _OpenCLProgram:
        cl = self._cl
        try:
            if binary is not None:
                program = cl.Program(self.context, [self.device], [binary]).build()
            else:
                program = cl.Program(self.context, source).build()
        except cl.Error as error:
            errors = [line.strip() for line in str(error).splitlines() if "error" in line]
            detail = errors[1] if len(errors) > 1 else (errors[0] if errors else "")
            raise UserError(
                f"error: the OpenCL compiler of {self.name} rejected the kernels: {detail}"
            ) from None
        return _OpenCLProgram(program, signatures)

    def synchronize(self) -> None:
        self.queue.finish()

    def upload(self, array: np.ndarray) -> Any:
        flags = self._cl.mem_flags
        if array.nbytes == 0:
            return self.allocate(array.itemsize)
        self._check_allocation(array.nbytes)
        return self._cl.Buffer(self.context, flags.READ_WRITE | flags.COPY_HOST_PTR, hostbuf=array)

    def release(self, buffer: Any) -> None:
        buffer.release()

    def allocate(self, nbytes: int) -> Any:
        self._check_allocation(nbytes)
        return self._cl.Buffer(self.context, self._cl.mem_flags.READ_WRITE, size=nbytes)

    def memory_bytes(self) -> int | None:
        return int(self.device.global_mem_size)

    def _check_allocation(self, nbytes: int) -> None:
        """OpenCL allocates lazily and reports no free memory: a buffer larger than
        the device allows, or than its whole memory, is refused here instead of
        failing at its first use."""
        limit = min(self.device.max_mem_alloc_size, self.device.global_mem_size)
        if nbytes > limit:
            raise UserError(
                f"error: the program allocates a buffer of {format_bytes(nbytes)}, more "
                f"than {self.name} allows in one allocation ({format_bytes(limit)})"
            )

    def to_host(self, buffer: Any, count: int, dtype: DType) -> np.ndarray:
        array = np.empty(count, DTYPES[dtype])
        if count:
            self._cl.enqueue_copy(self.queue, array, buffer, is_blocking=True)
        return array

    def from_host(self, buffer: Any, array: np.ndarray) -> None:
        if array.size:
            self._cl.enqueue_copy(self.queue, buffer, np.ascontiguousarray(array), is_blocking=True)

    def fill(self, buffer: Any, value: Any, count: int, dtype: DType) -> None:
        if count > 0:
            pattern = self._scalar_types[dtype](value)
            self._cl.enqueue_fill_buffer(self.queue, buffer, pattern, 0, count * pattern.itemsize)

    def copy(self, source: Any, target: Any, count: int, dtype: DType) -> None:
        if count > 0:
            nbytes = count * DTYPES[dtype].itemsize
            self._cl.enqueue_copy(self.queue, target, source, byte_count=nbytes)

    def copy_range(
        self, source: Any, source_index: int, target: Any, target_index: int, count: int, dtype: DType
    ) -> None:
        if count > 0:
            size = DTYPES[dtype].itemsize
            self._cl.enqueue_copy(
                self.queue,
                target,
                source,
                byte_count=count * size,
                src_offset=source_index * size,
                dst_offset=target_index * size,
            )

    def read_element(self, buffer: Any, index: int, dtype: DType) -> Any:
        host = self._host_scalars[dtype]
        self._read_buffer(self.queue, buffer, host, index * host.itemsize, None, True)
        return host.item(0)

    def write_element(self, buffer: Any, index: int, value: Any, dtype: DType) -> None:
        pattern = self._scalar_types[dtype](value)
        size = pattern.itemsize
        self._fill_buffer(self.queue, buffer, pattern, index * size, size)

    def launcher(self, program: _OpenCLProgram, kernel: str, site: int, fixed: Mapping[int, Any]) -> Launch:
        signature = program.signatures[kernel]
        cl_kernel = program.site_kernels.get((kernel, site))
        if cl_kernel is None:
            cl_kernel = self._cl.Kernel(program.program, kernel)
            program.site_kernels[(kernel, site)] = cl_kernel
        # pyopencl's `set_arg` of a scalar costs ~15 us (it tries argument kinds in
        # turn); `_set_arg_buf` with packed bytes, which pyopencl's own generated
        # invokers use, costs ~0.2 us. The public call is the fallback.
        fast = self.fast_paths and hasattr(cl_kernel, "_set_arg_buf")
        namespace: dict[str, Any] = {
            "kernel": cl_kernel,
            "queue": self.queue,
            "enqueue": self._cl.enqueue_nd_range_kernel,
            "set_arg": cl_kernel.set_arg,
            "set_bytes": getattr(cl_kernel, "_set_arg_buf", None),
        }
        body = []
        for position, arg in enumerate(signature):
            value = f"a{position}"
            if arg.is_buffer:
                statement = f"set_arg({position}, {value})"
            elif fast:
                namespace[f"pack{position}"] = struct.Struct(_SCALAR_PACKING[arg.dtype]).pack
                statement = f"set_bytes({position}, pack{position}({value}))"
            else:
                namespace[f"type{position}"] = np.int32 if arg.dtype == DType.BOOL else DTYPES[arg.dtype].type
                statement = f"set_arg({position}, type{position}({value}))"
            if position in fixed:
                exec(statement, namespace, {value: fixed[position]})
            else:
                body.append(statement)
        body.append("enqueue(queue, kernel, (grid * block,), (block,))")
        varying = [position for position in range(len(signature)) if position not in fixed]
        return _generate_launch(varying, body, namespace)

    def close(self) -> None:
        super().close()


# ---------------------------------------------------------------------------
# CUDA
# ---------------------------------------------------------------------------

_FILL_KERNELS = r"""
extern "C" __global__ void gir_fill_u64(unsigned long long* target, unsigned long long value, long long count) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) {
    target[i] = value;
  }
}
"""


def find_nvcc() -> str | None:
    """The nvcc on PATH, else CUDA's default install location."""
    found = shutil.which("nvcc")
    if found:
        return found
    default = "/usr/local/cuda/bin/nvcc"
    return default if os.path.exists(default) else None


@dataclass
class _CudaKernel:
    """A kernel function of a loaded module, prepared with its argument format."""

    function: Any
    formats: list[str]
    offsets: list[int]
    size: int


@dataclass
class _CudaProgram:
    """A loaded CUDA module and its prepared kernels."""

    module: Any
    kernels: dict[str, _CudaKernel]


class CudaDevice(Device):
    """Runs programs through pycuda on one NVIDIA GPU (its primary context)."""

    target = "cuda"

    def __init__(self, device_index: int | None = None):
        super().__init__()
        try:
            import pycuda.driver as cuda
        except ImportError as error:
            raise DeviceUnavailable(f"pycuda is not installed ({error})") from None
        try:
            cuda.init()
            count = cuda.Device.count()
        except Exception as error:  # pycuda's driver errors have several classes
            raise DeviceUnavailable(f"the CUDA driver failed to start ({error})") from None
        if count == 0:
            raise DeviceUnavailable("no CUDA GPU found")
        index = device_index or 0
        if not 0 <= index < count:
            raise DeviceUnavailable(f"no CUDA GPU {index} (there are {count})")
        self._cuda = cuda
        self.index = index
        """The GPU's CUDA device number."""
        self.device = cuda.Device(index)
        self.context = self.device.retain_primary_context()
        # The first GPU opened on a thread stays current there, so a caller may
        # use it without `activate`; a later one must not take its place (a
        # partitioned run opens several, and the first is used alone again).
        self._left_current = cuda.Context.get_current() is None
        self.context.push()
        self._closed = False
        atexit.register(self.close)
        major, minor = self.device.compute_capability()
        self.arch = f"sm_{major}{minor}"
        self.name = f"{self.device.name()} (CUDA, {self.arch})"
        self._allocations: dict[int, Any] = {}
        self._pinned = {name: cuda.pagelocked_empty(1, dtype) for name, dtype in DTYPES.items()}
        self._bits = {name: _bits(name) for name in DTYPES}
        self._memsets = {
            1: cuda.memset_d8_async,
            2: cuda.memset_d16_async,
            4: cuda.memset_d32_async,
        }
        self._fill_u64: Any = None
        if not self._left_current:
            cuda.Context.pop()

    def _build(self, source: str, signatures: KernelSignatures, binary: bytes | None) -> _CudaProgram:
        # The module loads into the current context: this GPU's, also when
        # several devices were opened from one thread (a partitioned run).
        self.context.push()
        try:
            return self._build_here(source, signatures, binary)
        finally:
            self._cuda.Context.pop()

    def _build_here(self, source: str, signatures: KernelSignatures, binary: bytes | None) -> _CudaProgram:
        cuda = self._cuda
        if binary is not None:
            module = cuda.module_from_buffer(binary)
        else:
            from pycuda.compiler import SourceModule

            nvcc = find_nvcc()
            if nvcc is None:
                raise UserError("error: nvcc is not installed: cannot compile the CUDA kernels")
            module = SourceModule(
                source, nvcc=nvcc, options=["-std=c++17"], no_extern_c=True, arch=self.arch
            )
        kernels = {}
        for name, signature in signatures.items():
            formats = [_argument_format(arg) for arg in signature]
            function = module.get_function(name)
            function.prepare(formats)
            offsets = [struct.calcsize("".join(formats[: i + 1])) - struct.calcsize(f) for i, f in enumerate(formats)]
            kernels[name] = _CudaKernel(function, formats, offsets, struct.calcsize("".join(formats)))
        return _CudaProgram(module, kernels)

    def synchronize(self) -> None:
        self._cuda.Context.synchronize()

    def allocate(self, nbytes: int) -> int:
        try:
            allocation = self._cuda.mem_alloc(nbytes)
        except self._cuda.MemoryError:
            free, _ = self._cuda.mem_get_info()
            check_device_memory(nbytes, free, self.name)
            raise UserError(
                f"error: cannot allocate {format_bytes(nbytes)} on {self.name} "
                f"({format_bytes(free)} free, fragmented)"
            ) from None
        pointer = int(allocation)
        self._allocations[pointer] = allocation
        return pointer

    def memory_bytes(self) -> int | None:
        self.context.push()  # this GPU's, whichever device the thread opened last
        try:
            free, _ = self._cuda.mem_get_info()
        finally:
            self._cuda.Context.pop()
        return int(free)

    def upload(self, array: np.ndarray) -> int:
        pointer = self.allocate(max(array.nbytes, array.itemsize))
        if array.nbytes:
            self._cuda.memcpy_htod(pointer, array)
        return pointer

    def release(self, buffer: int) -> None:
        allocation = self._allocations.pop(buffer, None)
        if allocation is not None:
            allocation.free()

    def to_host(self, buffer: int, count: int, dtype: DType) -> np.ndarray:
        array = np.empty(count, DTYPES[dtype])
        if count:
            self._cuda.memcpy_dtoh(array, buffer)
        return array

    def from_host(self, buffer: int, array: np.ndarray) -> None:
        if array.size:
            self._cuda.memcpy_htod(buffer, np.ascontiguousarray(array))

    def activate(self) -> None:
        self.context.push()

    def deactivate(self) -> None:
        self._cuda.Context.pop()

    def fill(self, buffer: int, value: Any, count: int, dtype: DType) -> None:
        if count <= 0:
            return
        size = DTYPES[dtype].itemsize
        bits = self._bits[dtype](value)
        if size < 8:
            self._memsets[size](buffer, bits, count)
        elif bits >> 32 == bits & 0xFFFFFFFF:
            self._cuda.memset_d32_async(buffer, bits & 0xFFFFFFFF, 2 * count)
        else:
            self._fill_wide(buffer, bits, count)

    def _fill_wide(self, buffer: int, bits: int, count: int) -> None:
        if self._fill_u64 is None:
            program = self.load_program(_FILL_KERNELS, {"gir_fill_u64": [
                KernelArg(True, DType.INT64), KernelArg(False, DType.INT64), KernelArg(False, DType.INT64),
            ]})  # fmt: skip
            self._fill_u64 = program.kernels["gir_fill_u64"].function
        block = 256
        value = bits - (1 << 64) if bits >> 63 else bits
        self._fill_u64.prepared_call(((count + block - 1) // block, 1), (block, 1, 1), buffer, value, count)

    def copy(self, source: int, target: int, count: int, dtype: DType) -> None:
        if count > 0:
            self._cuda.memcpy_dtod_async(target, source, count * DTYPES[dtype].itemsize)

    def copy_range(
        self, source: int, source_index: int, target: int, target_index: int, count: int, dtype: DType
    ) -> None:
        if count > 0:
            size = DTYPES[dtype].itemsize
            self._cuda.memcpy_dtod_async(
                target + target_index * size, source + source_index * size, count * size
            )

    def read_element(self, buffer: int, index: int, dtype: DType) -> Any:
        host = self._pinned[dtype]
        self._cuda.memcpy_dtoh(host, buffer + index * host.itemsize)
        return host.item(0)

    def write_element(self, buffer: int, index: int, value: Any, dtype: DType) -> None:
        host = self._pinned[dtype]
        size = host.itemsize
        if size < 8:
            self._memsets[size](buffer + index * size, self._bits[dtype](value), 1)
        else:
            host[0] = value
            self._cuda.memcpy_htod(buffer + index * size, host)

    def launcher(self, program: _CudaProgram, kernel: str, site: int, fixed: Mapping[int, Any]) -> Launch:
        prepared: _CudaKernel = program.kernels[kernel]
        varying = [position for position in range(len(prepared.formats)) if position not in fixed]
        launch_kernel = getattr(prepared.function, "_launch_kernel", None) if self.fast_paths else None
        if launch_kernel is None:
            return self._prepared_call_launcher(prepared, fixed, varying)
        # The parameter block is packed once; a launch repacks only what changes
        # and calls cuLaunchKernel (what `prepared_call` does after packing all).
        parameters = bytearray(prepared.size)
        namespace: dict[str, Any] = {"launch_kernel": launch_kernel, "parameters": parameters}
        body = []
        for position, (format_, offset) in enumerate(zip(prepared.formats, prepared.offsets)):
            packer = struct.Struct(format_)
            if position in fixed:
                packer.pack_into(parameters, offset, fixed[position])
            else:
                namespace[f"pack{position}"] = packer.pack_into
                body.append(f"pack{position}(parameters, {offset}, a{position})")
        body.append("launch_kernel((grid, 1, 1), (block, 1, 1), parameters, 0, None)")
        return _generate_launch(varying, body, namespace)

    def resident_blocks(
        self, program: _CudaProgram, kernel: str, block: int, per_sm: int = 0
    ) -> int:
        # pycuda has no occupancy query, so this is CUDA's occupancy rule over the
        # kernel's registers and threads, rounded down wherever the
        # hardware rounds up: fewer blocks than fit are still all resident, more
        # could deadlock the grid barrier.
        cuda = self._cuda
        function = program.kernels[kernel].function
        attribute, device = cuda.function_attribute, self.device
        if block > function.get_attribute(attribute.MAX_THREADS_PER_BLOCK):
            return 0
        warps = -(-block // 32)
        registers = max(function.get_attribute(attribute.NUM_REGS), 1)
        warp_registers = -(-registers * 32 // 256) * 256
        by_registers = (
            device.get_attribute(cuda.device_attribute.MAX_REGISTERS_PER_MULTIPROCESSOR)
            // warp_registers // warps
        )
        by_threads = (
            device.get_attribute(cuda.device_attribute.MAX_THREADS_PER_MULTIPROCESSOR) // (warps * 32)
        )
        # Persistent kernels hold no work-group arrays (gpu-fuse-loops), so
        # shared memory never limits them.
        by_blocks = device.get_attribute(cuda.device_attribute.MAX_BLOCKS_PER_MULTIPROCESSOR)
        by_policy = per_sm or max(1, PERSISTENT_THREADS_PER_SM // block)
        per_multiprocessor = min(by_registers, by_threads, by_blocks, by_policy)
        return per_multiprocessor * device.get_attribute(cuda.device_attribute.MULTIPROCESSOR_COUNT)

    def _prepared_call_launcher(
        self, prepared: _CudaKernel, fixed: Mapping[int, Any], varying: list[int]
    ) -> Launch:
        """A launch through pycuda's documented `prepared_call`."""
        namespace: dict[str, Any] = {"prepared_call": prepared.function.prepared_call}
        arguments = []
        for position in range(len(prepared.formats)):
            if position in fixed:
                namespace[f"fixed{position}"] = fixed[position]
                arguments.append(f"fixed{position}")
            else:
                arguments.append(f"a{position}")
        body = [f"prepared_call((grid, 1), (block, 1, 1), {', '.join(arguments)})"]
        return _generate_launch(varying, body, namespace)

    def close(self) -> None:
        """Frees everything and pops the context (also at interpreter exit)."""
        if self._closed:
            return
        self._closed = True
        try:
            super().close()
            for allocation in self._allocations.values():
                allocation.free()
            self._allocations.clear()
            self._pinned.clear()
            if self._left_current:
                self.context.pop()
        except Exception:  # a dying context at exit: nothing left to free
            pass


def cuda_unavailable_reason() -> str | None:
    """Why CUDA cannot run here (pycuda missing, no driver, no GPU), or None."""
    try:
        import pycuda.driver as cuda
    except ImportError:
        return "pycuda is not installed"
    try:
        cuda.init()
        if cuda.Device.count() == 0:
            return "no CUDA GPU found"
    except Exception as error:  # pycuda raises its own errors, or a driver error
        return f"the CUDA driver failed to start ({error})"
    return None
