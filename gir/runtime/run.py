"""One run of a program: the `HostRuntime` its printed host code calls.

A `Run` owns what one execution makes (the buffers it allocates, the global vectors
it binds, its timer, argv and output) and reaches the device only through the
kernels it was given, so two runs of two programs never share hidden state.

```python
run = Run(device, kernels, argv, stdout)
host_run(run, constants)           # the printed `run(rt, K)`
result = run.finish()              # RunResult: globals, elapsed, wall
```
"""

from __future__ import annotations

import ctypes
import gc
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np

from gir.diagnostics import UserError
from gir.dialects.gir_gpu import BOUNDS_RECORD, BoundsSite
from gir.dialects.host import Combine, ExchangeFormat, ListSlot, ListStatus
from gir.protocol import Buffer, DType, GraphArray, GraphSize, Launch, parse_argv_int
from gir.runtime.device import DTYPES, Device, DeviceGraph

if TYPE_CHECKING:
    from gir.runtime.multi_device import ExchangeCount


BOUNDS_CHECK_INTERVAL = 0.1
"""Seconds between two looks at the bounds record during a run: one look costs a
blocking read (~30-50 us on PoCL), as much as a BFS level on a small graph."""


class RunDeadline(Exception):
    """A run went on past the deadline `run_deadline` set for it, and was stopped
    at its next kernel launch or device access (not a `UserError`: only a caller
    that set a deadline, such as `gir-tune`, meets it)."""


_DEADLINE: ContextVar[float | None] = ContextVar("gir_run_deadline", default=None)


@contextmanager
def run_deadline(deadline: float) -> Iterator[None]:
    """Every run started inside stops with `RunDeadline` at its first kernel
    launch, device read or write once `time.perf_counter()` has passed
    `deadline`. The check is between host steps: a run whose host loop goes on
    (a slow schedule's many iterations, a loop that never ends) is stopped, a
    single kernel that never returns is not."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


@dataclass(frozen=True)
class RunResult:
    """What one run of a program gives back."""

    globals: dict[str, np.ndarray]
    """The bound global vectors (`host.bind_global`), copied to the host."""
    elapsed: float | None
    """Seconds between the program's start and stop timer, if it used them."""
    wall: float
    """Seconds of the whole run, minus loading graphs and copying them to the device."""
    exchanged: ExchangeCount | None = None
    """What a partitioned run's ranks exchanged (None on one device)."""


@dataclass
class _Allocation:
    """A buffer made by `alloc` during the run."""

    buffer: Buffer
    count: int
    dtype: DType


@dataclass
class _Binding:
    """A global vector named by `bind_global`."""

    name: str
    buffer: Buffer
    dtype: DType
    count: int | None
    unsigned: bool = False
    """Whether the vector holds `uint`/`uint_64`: returned as numpy's uint32/uint64."""
    vertex_indexed: bool = False
    """One element per vertex of a reordered graph: returned in the user's order."""
    vertex_values: bool = False
    """Vertex ids of a reordered graph: returned as the user's ids."""


@dataclass
class _List:
    """A `host.list`: its entries back to back in one i32 device buffer (`storage`,
    room for `capacity`), and where each entry ends."""

    storage: Buffer | None = None
    capacity: int = 0
    ends: list[int] | None = None


class Run:
    """One execution of a built program on a device (a `HostRuntime`)."""

    def __init__(
        self,
        device: Device,
        kernels: Any,
        argv: Sequence[str],
        stdout: TextIO,
        bounds_sites: Sequence[BoundsSite] | None = None,
        *,
        rank: int = 0,
        communicator: Any = None,
        host_externs: Mapping[str, Callable[..., Any]] | None = None,
        inputs: Mapping[str, np.ndarray | None] | None = None,
    ):
        """`kernels` is what `device.load_program` built; argv[0] is the program's
        name; `bounds_sites` the accesses `gpu-check-bounds` guarded, if it ran.
        A rank of a partitioned run (`gir.runtime.multi_device`) gives its
        `rank` and the `communicator` its exchanges go through; without one the
        run is alone and the exchanges do nothing. `host_externs` are the
        implementations of the extern functions the host calls, by name
        (`gir.targets.host_externs.bind_host_externs`). `inputs` are the values
        of the program's supplied global vectors (an export's vector parameters
        and the state its earlier calls left, `gir.frontend.exports`), by name,
        copied in when the program binds them (None: zeros)."""
        self.device = device
        self.host_externs = dict(host_externs or {})
        self.rank = rank
        self.communicator = communicator
        self.kernels = kernels
        self.argv = list(argv)
        self.stdout = stdout
        self.elapsed: float | None = None
        """Seconds between the last `start_timer` and `stop_timer`."""
        self._timer_started: float | None = None
        self._collector_paused = False
        self._allocations: dict[Any, _Allocation] = {}
        self._spare: dict[int, list[Buffer]] = {}
        """Freed buffers by size in bytes, reused by later `alloc`s of that size:
        programs allocate and free their frontiers every iteration, and a device
        free (cuMemFree) waits for the whole device, which serialises the host
        loop with the kernels it launched."""
        self._bindings: dict[Any, _Binding] = {}
        self._inputs = dict(inputs or {})
        self._globals: dict[str, np.ndarray] = {}
        self._bounds_sites = bounds_sites
        self._bounds_record: Buffer | None = None
        self._next_bounds_check = 0.0
        self._load_seconds_before = device.load_seconds
        self._relabelling: Any = None
        """The relabelling of the reordered graph the run loaded, if any."""
        self._started = time.perf_counter()
        self._deadline = _DEADLINE.get()
        """When the run must stop (`run_deadline`), or None."""

    # -- the executor's side ------------------------------------------------

    def finish(self) -> RunResult:
        """Waits for the device, copies every bound global vector to the host, frees
        the run's buffers and returns the result."""
        self._resume_garbage_collection()
        self.device.synchronize()
        self._check_bounds()
        for key in list(self._bindings):
            self._snapshot(key)
        self._release_all()
        loading = self.device.load_seconds - self._load_seconds_before
        wall = time.perf_counter() - self._started - loading
        return RunResult(self._globals, self.elapsed, wall)

    def abort(self) -> None:
        """Frees the run's buffers after a failure (no result)."""
        self._resume_garbage_collection()
        try:
            self._release_all()
        except Exception:  # the device may be in an error state already
            pass

    def _release_all(self) -> None:
        allocations, self._allocations = self._allocations, {}
        for allocation in allocations.values():
            self.device.release(allocation.buffer)
        self._release_spare()

    def _release_spare(self) -> None:
        spare, self._spare = self._spare, {}
        for buffers in spare.values():
            for buffer in buffers:
                self.device.release(buffer)

    # -- HostRuntime --------------------------------------------------------

    def argv_int(self, index: int) -> int:
        text = self.argv_str(index)
        value = parse_argv_int(text)
        if value is None:
            raise UserError(f"error: argv[{index}] must be an integer, not '{text}'")
        return value

    def number_list_pop(self, numbers: list[Any], where: str) -> Any:
        if not numbers:
            located = f"{where}: error" if where else "error"
            raise UserError(f"{located}: the program pops from an empty list")
        return numbers.pop()

    def text_int(self, text: str) -> int:
        value = parse_argv_int(text)
        if value is None:
            raise UserError(f"error: atoi's argument must be an integer, not '{text}'")
        return value

    def argv_float(self, index: int) -> float:
        text = self.argv_str(index)
        try:
            return float(text)
        except ValueError:
            raise UserError(f"error: argv[{index}] must be a number, not '{text}'") from None

    def argv_str(self, index: int) -> str:
        if index < 0:
            raise UserError(f"error: the program reads argv[{index}]: argv indices are non-negative")
        if index >= len(self.argv):
            raise UserError(
                f"error: the program reads argv[{index}], but only {len(self.argv) - 1} "
                "argument(s) were given"
            )
        return self.argv[index]

    def argv_vertex(self, index: int) -> int:
        vertex = self.argv_int(index)
        if self._relabelling is None:
            return vertex
        return self._relabelling.to_internal(vertex)

    def load_graph(
        self, spec: str, weighted: bool, partitioned: bool = False, reorder: str | None = None
    ) -> DeviceGraph:
        if partitioned and reorder is not None:
            raise UserError(
                "error: a reordered graph (configReorder or relabel) is not partitioned over "
                "several devices yet: run it on one device or drop the reordering"
            )
        if not partitioned or self.communicator is None:
            graph = self.device.load_graph(spec, weighted, reorder)
            if graph.relabelling is not None:
                self._relabelling = graph.relabelling
            return graph
        from gir.runtime.graph import load_graph

        parts = self.communicator.graph_parts(
            spec,
            weighted,
            lambda: load_graph(spec, weighted=bool(weighted), progress=self.device.progress),
            self.device.progress,
        )
        part = parts[self.rank]
        if self.communicator.check_part is not None:
            whole_edges = sum(each.num_edges for each in parts)
            self.communicator.check_part(
                self.device, spec, part.num_vertices, part.num_edges, (self.rank, len(parts), whole_edges)
            )
        return self.device.load_graph_part(spec, weighted, self.rank, part)

    def graph_size(self, graph: DeviceGraph, what: GraphSize) -> int:
        return graph.num_vertices if what == GraphSize.VERTICES else graph.num_edges

    def graph_array(
        self, graph: DeviceGraph, array: GraphArray, dtype: DType, blocking_size: int | None = None
    ) -> Buffer:
        return graph.array(array, dtype, blocking_size)

    def alloc(self, count: int, dtype: DType) -> Buffer:
        if count < 0:
            raise UserError(f"error: the program allocates {count} elements")
        # whole 32-bit words: a bool vector's compare-and-swap swaps the word
        # holding its byte (`c_printer.byte_cas_helper`)
        nbytes = -(-max(count, 1) * DTYPES[dtype].itemsize // 4) * 4
        buffer = self._allocate(nbytes)
        self._allocations[self.device.key(buffer)] = _Allocation(buffer, count, dtype)
        return buffer

    def _allocate(self, nbytes: int) -> Buffer:
        spare = self._spare.get(nbytes)
        if spare:
            return spare.pop()
        try:
            return self.device.allocate(nbytes)
        except UserError:
            if not self._spare:
                raise
            self._release_spare()
            return self.device.allocate(nbytes)

    def free(self, buffer: Buffer) -> None:
        key = self.device.key(buffer)
        if key in self._bindings:
            self._snapshot(key)
        allocation = self._allocations.pop(key, None)
        if allocation is not None:
            nbytes = max(allocation.count, 1) * DTYPES[allocation.dtype].itemsize
            self._spare.setdefault(nbytes, []).append(allocation.buffer)

    def fill(self, buffer: Buffer, value: Any, count: int, dtype: DType) -> None:
        self.device.fill(buffer, value, count, dtype)

    def copy(self, source: Buffer, target: Buffer, count: int, dtype: DType) -> None:
        self.device.copy(source, target, count, dtype)

    def read(self, buffer: Buffer, index: int, dtype: DType) -> Any:
        self._check_deadline()
        self._check_index(buffer, index)
        value = self.device.read_element(buffer, index, dtype)
        if self._bounds_record is not None and time.perf_counter() >= self._next_bounds_check:
            self._check_bounds()
            self._next_bounds_check = time.perf_counter() + BOUNDS_CHECK_INTERVAL
        return value

    def write(self, buffer: Buffer, index: int, value: Any, dtype: DType) -> None:
        self._check_deadline()
        self._check_index(buffer, index)
        self.device.write_element(buffer, index, value, dtype)

    def bind_global(
        self,
        name: str,
        buffer: Buffer,
        dtype: DType,
        count: int | None,
        unsigned: bool = False,
        vertex_indexed: bool = False,
        vertex_values: bool = False,
    ) -> None:
        if name == BOUNDS_RECORD and self._bounds_sites is not None:
            self._bounds_record = buffer
            return
        self._bindings[self.device.key(buffer)] = _Binding(
            name, buffer, dtype, count, unsigned, vertex_indexed, vertex_values
        )
        if name in self._inputs:
            self._supply(name, buffer, dtype, count)

    def _supply(self, name: str, buffer: Buffer, dtype: DType, count: int | None) -> None:
        """Copies the caller's values of the global vector `name` into `buffer`
        (zeros when they are None); a `UserError` when their length differs."""
        size = self._allocation_of(buffer, "host.bind_global").count if count is None else count
        values = self._inputs[name]
        if values is None:
            self.device.fill(buffer, 0, size, dtype)
            return
        array = np.ascontiguousarray(np.asarray(values).reshape(-1), dtype=DTYPES[dtype])
        if array.size != size:
            raise UserError(f"error: '{name}' has {size} elements in this run, but {array.size} were given")
        self.device.from_host(buffer, array)

    def launcher(self, kernel: str, site: int, fixed: Mapping[int, Any]) -> Launch:
        launch = self.device.launcher(self.kernels, kernel, site, fixed)
        if self._deadline is None:
            return launch

        def launch_unless_late(*args: Any) -> None:
            self._check_deadline()
            launch(*args)

        return launch_unless_late

    def clone(self, buffer: Buffer) -> Buffer:
        allocation = self._allocation_of(buffer, "host.clone")
        copy = self.alloc(allocation.count, allocation.dtype)
        self.device.copy(buffer, copy, allocation.count, allocation.dtype)
        return copy

    def allreduce(self, buffer: Buffer, combine: str, base: Buffer | None = None, exchange: str = "dense") -> None:
        if self.communicator is None:
            return
        allocation = self._allocation_of(buffer, "host.allreduce")
        self.communicator.allreduce_buffer(
            self.rank, self.device, buffer, allocation.count, allocation.dtype, Combine(combine), base,
            ExchangeFormat(exchange),
        )

    def allgather(self, items: Buffer, count: Buffer, claims: Sequence[Buffer] = ()) -> None:
        if self.communicator is None:
            return
        from gir.runtime.multi_device import ClaimedBuffer  # which imports this module

        capacity = self._allocation_of(items, "host.allgather").count
        claimed = []
        for buffer in claims:
            allocation = self._allocation_of(buffer, "host.allgather")
            claimed.append(ClaimedBuffer(buffer, allocation.count, allocation.dtype))
        self.communicator.allgather_queue(self.rank, self.device, items, capacity, count, claimed)

    def call_extern(
        self, name: str, where: str, args: tuple[Any, ...], buffers: tuple[int, ...], result: str | None
    ) -> Any:
        located = f"{where}: error" if where else "error"
        function = self.host_externs.get(name)
        if function is None:
            raise UserError(f"{located}: extern function '{name}' has no host implementation")
        values = list(args)
        copies: dict[int, np.ndarray] = {}
        if buffers:
            self.device.synchronize()  # the kernels before the call have written them
        for position in buffers:
            allocation = self._allocation_of(args[position], f"extern function '{name}'")
            copies[position] = self.device.to_host(args[position], allocation.count, allocation.dtype)
            values[position] = copies[position]
        try:
            returned = function(*values)
        except UserError:
            raise
        except Exception as error:  # the user's code failed: one line, at the call
            raise UserError(f"{located}: extern function '{name}' raised {type(error).__name__}: {error}") from None
        for position, array in copies.items():
            allocation = self._allocations[self.device.key(args[position])]
            if array.shape != (allocation.count,):
                raise UserError(f"{located}: extern function '{name}' resized the vector it was given")
            self.device.from_host(args[position], np.ascontiguousarray(array, DTYPES[allocation.dtype]))
        return _extern_result(returned, result, f"{located}: extern function '{name}' returned")

    def apply_extern(
        self,
        name: str,
        where: str,
        over: str,
        graph: tuple[Any, ...],
        buffers: tuple[Any, ...],
        names: tuple[str, ...],
    ) -> None:
        located = f"{where}: error" if where else "error"
        function = self.host_externs.get(name)
        if function is None:
            raise UserError(f"{located}: extern function '{name}' has no host implementation")
        namespace = getattr(function, "__globals__", None)
        if namespace is None:
            raise UserError(
                f"{located}: extern function '{name}' is applied over {over}, so it must be a "
                "Python function: it reads the program's vectors as names of its module"
            )
        self.device.synchronize()  # the kernels before the apply have written the vectors
        arrays = {vector: self._host_copy(buffer, name) for vector, buffer in zip(names, buffers, strict=True)}
        hidden = {vector: namespace[vector] for vector in names if vector in namespace}
        namespace.update(arrays)
        try:
            for args in self._apply_arguments(over, graph):
                function(*args)
        except UserError:
            raise
        except Exception as error:  # the user's code failed: one line, at the apply
            raise UserError(f"{located}: extern function '{name}' raised {type(error).__name__}: {error}") from None
        finally:
            for vector in names:
                namespace.pop(vector, None)
            namespace.update(hidden)
        for vector, buffer in zip(names, buffers, strict=True):
            allocation = self._allocations[self.device.key(buffer)]
            if arrays[vector].shape != (allocation.count,):
                raise UserError(f"{located}: extern function '{name}' resized the vector '{vector}'")
            self.device.from_host(buffer, np.ascontiguousarray(arrays[vector], DTYPES[allocation.dtype]))

    def _host_copy(self, buffer: Buffer, name: str) -> np.ndarray:
        """A host copy of a whole device buffer the run allocated."""
        allocation = self._allocation_of(buffer, f"extern function '{name}'")
        return self.device.to_host(buffer, allocation.count, allocation.dtype)

    def _apply_arguments(self, over: str, graph: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
        """The arguments of each call of an extern applied over `over`: `(v,)`
        per vertex, `(src, dst[, weight])` per edge in CSR order."""
        vertices = int(graph[0])
        if over == "vertices":
            yield from ((v,) for v in range(vertices))
            return
        offsets, columns, weights = graph[1].user_graph.csr()  # reordered graphs are refused
        weighted = bool(graph[2]) and weights is not None
        for src in range(vertices):
            for edge in range(int(offsets[src]), int(offsets[src + 1])):
                yield (src, int(columns[edge]), weights[edge].item()) if weighted else (src, int(columns[edge]))

    def _allocation_of(self, buffer: Buffer, what: str) -> _Allocation:
        """The allocation of a buffer the run made (exchanges cover whole buffers)."""
        allocation = self._allocations.get(self.device.key(buffer))
        if allocation is None:
            raise UserError(f"error: {what} of a buffer the program did not allocate")
        return allocation

    def list_new(self) -> _List:
        return _List(ends=[])

    def list_push(self, stack: _List, buffer: Buffer, count: int) -> None:
        assert stack.ends is not None
        start = stack.ends[-1] if stack.ends else 0
        if start + count > stack.capacity:
            self._grow(stack, max(2 * stack.capacity, start + count, 1024))
        self.device.copy_range(buffer, 0, stack.storage, start, count, DType.INT32)
        stack.ends.append(start + count)

    def _grow(self, stack: _List, capacity: int) -> None:
        """Moves the list's entries into a buffer of `capacity` elements."""
        assert stack.ends is not None
        storage = self.alloc(capacity, DType.INT32)
        if stack.storage is not None:
            used = stack.ends[-1] if stack.ends else 0
            self.device.copy(stack.storage, storage, used, DType.INT32)
            self.free(stack.storage)
        stack.storage, stack.capacity = storage, capacity

    def list_pop(self, stack: _List, buffer: Buffer) -> int:
        if not stack.ends:
            raise UserError("error: the program retrieves from an empty list")
        end = stack.ends.pop()
        start = stack.ends[-1] if stack.ends else 0
        target = self._allocations.get(self.device.key(buffer))
        if target is not None and end - start > target.count:
            raise UserError(
                f"error: a list entry of {end - start} vertices does not fit in a "
                f"frontier of {target.count}"
            )
        self.device.copy_range(stack.storage, start, buffer, 0, end - start, DType.INT32)
        return end - start

    def list_export(self, stack: _List, room: int) -> tuple[Buffer, Buffer, int, int]:
        assert stack.ends is not None
        used = stack.ends[-1] if stack.ends else 0
        if stack.storage is None or used + room > stack.capacity:
            self._grow(stack, max(used + room, 1))
        entries = len(stack.ends) + room + 1
        header = [0] * ListSlot.ENDS
        header[ListSlot.COUNT] = len(stack.ends)
        header[ListSlot.STATUS] = ListStatus.OK
        header[ListSlot.ITEM_CAPACITY] = stack.capacity
        header[ListSlot.ENTRY_CAPACITY] = entries
        view = np.zeros(ListSlot.ENDS + entries, np.int32)
        view[: ListSlot.ENDS + len(stack.ends)] = [*header, *stack.ends]
        ends = self.device.upload(view)
        self._allocations[self.device.key(ends)] = _Allocation(ends, view.size, DType.INT32)
        assert stack.storage is not None
        return stack.storage, ends, stack.capacity, view.size

    def list_import(self, stack: _List, ends: Buffer) -> None:
        header = self.device.to_host(ends, ListSlot.ENDS, DType.INT32)
        count = int(header[ListSlot.COUNT])
        view = self.device.to_host(ends, ListSlot.ENDS + count, DType.INT32)
        self.free(ends)
        stack.ends = [int(end) for end in view[ListSlot.ENDS :]]
        if header[ListSlot.STATUS] == ListStatus.OVERFLOWED:
            raise UserError(
                f"error: a fused loop pushed more onto a list than the {header[ListSlot.ITEM_CAPACITY]} "
                f"items and {header[ListSlot.ENTRY_CAPACITY]} entries it had room for (one per vertex: "
                "enable deduplication, or do not fuse the loop)"
            )
        if header[ListSlot.STATUS] == ListStatus.EMPTIED:
            raise UserError("error: the program retrieves from an empty list")

    def resident_blocks(self, kernel: str, block: int, per_sm: int = 0) -> int:
        return self.device.resident_blocks(self.kernels, kernel, block, per_sm)

    def start_timer(self) -> None:
        self.device.synchronize()
        if self.communicator is not None:
            # A rank's time runs from when every rank is ready (as MPI programs
            # time), not from when it finished its own upload before the others.
            self.communicator.barrier(self.rank)
        self._pause_garbage_collection()
        self._timer_started = time.perf_counter()

    def stop_timer(self) -> float:
        self.device.synchronize()
        if self._timer_started is None:
            raise UserError("error: the program stops its timer before starting it")
        self.elapsed = time.perf_counter() - self._timer_started
        self._resume_garbage_collection()
        return self.elapsed

    def _pause_garbage_collection(self) -> None:
        """Keeps Python's cyclic collector out of the timed region, as `timeit` does:
        a process that compiled programs holds millions of IR objects, and one
        collection of them between two launches of the host loop cost
        milliseconds of a timed run."""
        if self._collector_paused or not gc.isenabled():
            return
        gc.disable()
        self._collector_paused = True

    def _resume_garbage_collection(self) -> None:
        if self._collector_paused:
            self._collector_paused = False
            gc.enable()

    def print(self, value: Any) -> None:
        text = format(value, "g") if isinstance(value, float) else str(value)
        self.stdout.write(text + "\n")

    def print_text(self, text: str) -> None:
        self.stdout.write(text + "\n")

    def device_print_fence(self) -> None:
        self.stdout.flush()
        self.device.synchronize()
        ctypes.CDLL(None).fflush(None)

    # -- helpers ------------------------------------------------------------

    def _check_deadline(self) -> None:
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise RunDeadline(f"stopped after {time.perf_counter() - self._started:.1f} s")

    def _snapshot(self, key: Any) -> None:
        binding = self._bindings.pop(key)
        count = binding.count
        if count is None:
            allocation = self._allocations.get(key)
            count = allocation.count if allocation is not None else 0
        values = self.device.to_host(binding.buffer, count, binding.dtype)
        relabelling = self._relabelling
        if relabelling is not None and binding.vertex_values:
            values = relabelling.ids_to_user(values)
        if relabelling is not None and binding.vertex_indexed:
            values = relabelling.indexed_to_user(values)
        if binding.unsigned:
            values = values.view(np.dtype(f"uint{values.dtype.itemsize * 8}"))
        self._globals[binding.name] = values

    def _check_bounds(self) -> None:
        """Stops the run with its description when a guarded device access missed
        its buffer (`gpu-check-bounds`). Called at the end of the run, and after a
        host read (where the host waits for the device anyway) at most every
        `BOUNDS_CHECK_INTERVAL` seconds, so that a loop whose exit the skipped
        accesses broke still stops, without a second read per loop iteration."""
        record = self._bounds_record
        if record is None:
            return
        mark = self.device.read_element(record, 0, DType.INT32)
        if mark == 0:
            return
        sites = self._bounds_sites
        assert sites is not None
        index = self.device.read_element(record, 1, DType.INT32)
        size = self.device.read_element(record, 2, DType.INT32)
        if not 0 < mark <= len(sites):
            raise UserError(f"error: out-of-bounds access at unknown site {mark - 1}, index {index}")
        raise UserError(sites[mark - 1].describe(index, size))

    def _check_index(self, buffer: Buffer, index: int) -> None:
        """Host-side accesses come from the program's own values, often a vertex
        given on its command line: an index out of range is the user's error."""
        key = self.device.key(buffer)
        allocation = self._allocations.get(key)
        if allocation is None or 0 <= index < allocation.count:
            return
        binding = self._bindings.get(key)
        what = f"vector '{binding.name}'" if binding is not None else "a buffer"
        raise UserError(
            f"error: the program accesses element {index} of {what}, which has "
            f"{allocation.count} elements (is a vertex given on the command line "
            "outside the graph?)"
        )


def _extern_result(value: Any, kind: str | None, returned: str) -> Any:
    """A host extern's returned `value` as the host program holds a value of
    `kind` ("intN", "floatN", "bool", "string"; None: no result, ignored); a
    UserError starting with `returned` when it is not one."""
    if kind is None:
        return None
    if kind == "string":
        if isinstance(value, str):
            return value
    elif kind == "bool":
        if isinstance(value, bool | np.bool_):
            return bool(value)
    elif kind.startswith("int"):
        width = int(kind[3:])
        if isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_):
            number = int(value)
            if -(1 << (width - 1)) <= number < (1 << width):  # signed, or unsigned bits
                return number - (1 << width) if number >= (1 << (width - 1)) else number
            raise UserError(f"{returned} {number}, which does not fit its {width}-bit integer result")
    elif isinstance(value, int | float | np.integer | np.floating) and not isinstance(value, bool | np.bool_):
        return float(np.float32(value)) if kind == "float32" else float(value)
    wanted = {"string": "a str", "bool": "a bool"}.get(kind, "an int" if kind.startswith("int") else "a number")
    raise UserError(f"{returned} {type(value).__name__} {value!r:.60}, but its declaration gives {wanted}")
