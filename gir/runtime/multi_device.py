"""Partitioned runs: one program on several devices, one rank per device.

A program lowered with `host-partition` runs its host function once per device,
each in a thread of its own (a rank), each on its part of the edges
(`gir.runtime.graph.partition`). The ranks meet only in the exchanges
(`host.allreduce`, `host.allgather`), which a communicator carries out: here
host-staged (each rank copies its buffer to the host, the ranks combine the
copies with numpy and copy the result back), which any target, OpenCL on PoCL
included, can do. An all-reduce with a base may send only the elements each
rank changed (`ExchangeFormat`: pairs or a bitmap, `choose_format`), combined
into the base on every rank (`apply_changes`). A queue union may carry the
claims of a buffer whose changes the queue lists (`ClaimedBuffer`): each rank
sends its queued vertices with their values, and the lowest rank that queued
a vertex gives its value (`apply_claims`).

```python
result = run_partitioned(program, [device0, device1], ["bfs", "rmat:10", "0"], sys.stdout)
```

Rank 0 prints and its global vectors are the result (every rank holds the same
ones); the elapsed time is the slowest rank's; `RunResult.exchanged` counts the
exchanges (`ExchangeCount`).
"""

from __future__ import annotations

import io
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np

from gir.diagnostics import UserError
from gir.dialects.host import Combine, ExchangeFormat
from gir.protocol import DType
from gir.runtime.graph.partition import GraphPart, partition
from gir.runtime.run import Run, RunResult


def combine_arrays(copies: Sequence[np.ndarray], combine: Combine, base: np.ndarray | None) -> np.ndarray:
    """The `combine` of the devices' `copies` of a buffer (`base`: the values
    before the writes, for `sum` and `claim`)."""
    if combine == Combine.SUM:
        assert base is not None
        total = base.copy()
        for copy in copies:
            total += copy - base
        return total
    if combine == Combine.CLAIM:
        assert base is not None
        result = base.copy()
        unclaimed = np.ones(base.shape, bool)
        for copy in copies:
            changed = unclaimed & (copy != base)
            result[changed] = copy[changed]
            unclaimed &= ~changed
        return result
    if combine in (Combine.UMIN, Combine.UMAX):
        unsigned = np.dtype(f"uint{copies[0].dtype.itemsize * 8}")
        views = [copy.view(unsigned) for copy in copies]
        reduce = np.minimum if combine == Combine.UMIN else np.maximum
        return reduce.reduce(views).view(copies[0].dtype)
    reduce = {Combine.MIN: np.minimum, Combine.MAX: np.maximum, Combine.OR: np.bitwise_or}[combine]
    return reduce.reduce(np.stack(copies))


EXCHANGE_FORMAT_VARIABLE = "GIR_EXCHANGE_FORMAT"
"""`dense`, `pairs`, `bitmap` or `auto`: the `ExchangeFormat` of every exchange
of a run, whatever its `host.allreduce` says (for measurements); queue unions
go as bitmaps for `bitmap`, as lists for `dense` and `pairs`. Unset: each
all-reduce's own format, and `auto` for queue unions (through NCCL, bitmaps:
`gir.runtime.nccl`)."""

INDEX_BYTES = 4
"""The bytes of a changed element's index (int32) in a pair."""


def exchange_override() -> ExchangeFormat | None:
    """The format `GIR_EXCHANGE_FORMAT` asks for, if set."""
    text = os.environ.get(EXCHANGE_FORMAT_VARIABLE, "")
    if not text:
        return None
    try:
        return ExchangeFormat(text)
    except ValueError:
        names = ", ".join(f.value for f in ExchangeFormat)
        raise UserError(f"error: {EXCHANGE_FORMAT_VARIABLE} must be one of {names}, not '{text}'") from None


def bitmap_bytes(length: int) -> int:
    """The bytes of a bitmap of `length` elements, in whole 32-bit words."""
    return 4 * -(-length // 32)


def exchange_bytes(format: ExchangeFormat, changed: int, length: int, element_bytes: int) -> int:
    """The payload of one rank's part of an all-reduce of a `length`-element
    vector in which it changed `changed` elements (what it sends; what it
    receives is the sum over the ranks; a dense all-reduce's is one vector)."""
    if format == ExchangeFormat.PAIRS:
        return changed * (INDEX_BYTES + element_bytes)
    if format == ExchangeFormat.BITMAP:
        return bitmap_bytes(length) + changed * element_bytes
    return length * element_bytes


ALL_FORMATS = (ExchangeFormat.DENSE, ExchangeFormat.PAIRS, ExchangeFormat.BITMAP)
"""The formats `auto` chooses among, unless a communicator offers fewer."""


def choose_format(
    wanted: ExchangeFormat, counts: Sequence[int], length: int, element_bytes: int,
    among: Sequence[ExchangeFormat] = ALL_FORMATS,
) -> ExchangeFormat:  # fmt: skip
    """The format of an all-reduce of a `length`-element vector whose ranks
    changed `counts` elements: `wanted`, or for `auto` the one of `among` in
    which all ranks together send the fewest bytes (what `ExchangeCount.bytes`
    counts)."""
    if wanted != ExchangeFormat.AUTO:
        return wanted
    return min(among, key=lambda f: sum(exchange_bytes(f, count, length, element_bytes) for count in counts))


def queue_as_bitmap(wanted: ExchangeFormat, sizes: Sequence[int], bound: int) -> bool:
    """Whether a queue union whose ranks hold `sizes` vertices, all below
    `bound`, sends a bitmap of each rank's vertices (`bitmap` or, for `auto`,
    where the bitmaps are fewer bytes than the lists, 4 bytes a vertex) rather
    than the lists (`dense`, `pairs`)."""
    if wanted == ExchangeFormat.AUTO:
        return len(sizes) * bitmap_bytes(bound) < INDEX_BYTES * sum(sizes)
    return wanted == ExchangeFormat.BITMAP


def to_bitmap(xp: Any, indices: Any, length: int) -> Any:
    """The bitmap of `indices` among `length` elements (uint8, `bitmap_bytes`
    long: bit `i % 8` of byte `i // 8`). `xp`: numpy or cupy."""
    mask = xp.zeros(bitmap_bytes(length) * 8, np.bool_)
    mask[indices] = True
    return xp.packbits(mask, bitorder="little")


def from_bitmap(xp: Any, bitmap: Any, length: int) -> Any:
    """The int32 indices, ascending, whose bits `bitmap` sets (`to_bitmap`)."""
    return xp.flatnonzero(xp.unpackbits(bitmap, bitorder="little")[:length]).astype(np.int32)


def changed_indices(xp: Any, values: Any, base: Any) -> Any:
    """The int32 indices where `values` differs from `base` bit for bit
    (`xp`: numpy or cupy)."""
    bits = np.dtype(f"uint{values.dtype.itemsize * 8}")
    return xp.flatnonzero(values.view(bits) != base.view(bits)).astype(np.int32)


def from_bitmaps(xp: Any, bitmaps: Any, counts: Sequence[int]) -> list[Any]:
    """The int32 indices, ascending, each row of `bitmaps` (one a rank, as
    `to_bitmap` makes them) sets, `counts[r]` of them in row r: all rows
    unpacked at once, so the host waits once, not once a rank."""
    bits = bitmaps.shape[1] * 8
    flat = xp.flatnonzero(xp.unpackbits(bitmaps.ravel(), bitorder="little"))
    starts = np.concatenate([[0], np.cumsum(counts)]).astype(int)
    return [(flat[starts[r] : starts[r + 1]] - r * bits).astype(np.int32) for r in range(len(counts))]


def apply_changes(xp: Any, base: Any, changes: Sequence[tuple[Any, Any]], combine: Combine) -> Any:
    """The `combine` of the ranks' copies of a vector, from the values before
    the writes (`base`) and each rank's changed elements (`changes`, by rank:
    indices, each once, and their new values); equal to `combine_arrays` of the
    copies. `xp`: numpy or cupy."""
    result = base.copy()
    apply_changes_into(xp, result, base, changes, combine)
    return result


def apply_changes_into(xp: Any, result: Any, base: Any, changes: Sequence[tuple[Any, Any]], combine: Combine) -> None:
    """`apply_changes` into `result`, which holds `base` or, for the combines
    other than sum and claim, a rank's own copy (its changes are among
    `changes`, and combining them again changes nothing)."""
    if combine == Combine.SUM:
        result[...] = base
        for indices, values in changes:
            result[indices] += values - base[indices]
        return
    if combine == Combine.CLAIM:  # the first rank that changed an element wins
        result[...] = base
        for indices, values in reversed(changes):
            result[indices] = values
        return
    view = result
    if combine in (Combine.UMIN, Combine.UMAX):
        view = result.view(np.dtype(f"uint{result.dtype.itemsize * 8}"))
    reduce = {
        Combine.MIN: xp.minimum, Combine.UMIN: xp.minimum, Combine.MAX: xp.maximum,
        Combine.UMAX: xp.maximum, Combine.OR: xp.bitwise_or,
    }[combine]  # fmt: skip
    for indices, values in changes:
        view[indices] = reduce(view[indices], values.view(view.dtype))


@dataclass(frozen=True)
class ClaimedBuffer:
    """A buffer whose claims go with a queue (`host.allgather ... claims`): its
    elements at the union's vertices become the lowest rank's values."""

    buffer: Any
    count: int
    """Its elements."""
    dtype: DType


def claimed_queue_size(size: int, capacity: int) -> int:
    """The entries of a queue whose claims go with it: its count, which cannot
    pass its capacity without losing claims (the queue would not hold every
    element the rank changed), so that is an error rather than a clamp."""
    if size > capacity:
        raise UserError(
            f"error: a queue of {capacity} entries got {size} in a partitioned launch: "
            "the claims that go with it would be lost"
        )
    return max(size, 0)


def queue_claims_bytes(entries: int, element_bytes: Sequence[int]) -> int:
    """The payload of `entries` entries of a queue with claims: each its vertex
    (int32) and its element of every claimed buffer (of `element_bytes` each)."""
    return entries * (INDEX_BYTES + sum(element_bytes))


def apply_claims(xp: Any, values: Any, queues: Sequence[Any], claimed: Sequence[Any]) -> None:
    """Sets `values` at each rank's queued vertices (`queues[r]`) to the rank's
    values there (`claimed[r]`), the lowest rank's where several queue a
    vertex: the ranks go last to first. `xp`: numpy or cupy."""
    for vertices, rank_values in zip(reversed(queues), reversed(claimed), strict=True):
        values[vertices] = rank_values


@dataclass(frozen=True)
class ExchangeCount:
    """The payload a partitioned run's ranks exchanged, counted alike by every
    communicator (NCCL or host-staged), per rank.

    A collective is one `host.allreduce` or `host.allgather` a rank carried out
    (every rank carries out the same ones). Its payload is the exchanged
    elements, not what a transport adds: an all-reduce of `count` elements of
    `size` bytes sent whole (`ExchangeFormat.DENSE`) sends and receives
    `count * size` bytes per rank, whatever its combine; one sent as changed
    elements sends the rank's part (`exchange_bytes`: its pairs, `4 + size`
    bytes each, or its bitmap and changed values) and receives all ranks'
    parts, its own included; an all-gather of a queue sends the
    rank's own entries and receives the entries of the union (4 bytes each),
    or, as bitmaps (`queue_as_bitmap`), sends the bitmap of its entries and
    receives every rank's. A queue whose claims go with it (`host.allgather
    ... claims`) sends its entries as (vertex, values) pairs
    (`queue_claims_bytes`) and receives every rank's, whatever the format.
    The counts of changed elements and the queue sizes (4 bytes a rank), NCCL's
    padding to the longest and its ring or tree's forwarding are not counted."""

    collectives: int
    """Collectives per rank."""
    sent: tuple[int, ...]
    """Bytes each rank sent, by rank."""
    received: tuple[int, ...]
    """Bytes each rank received, by rank."""

    @property
    def bytes(self) -> int:
        """Bytes sent, over all ranks."""
        return sum(self.sent)

    def __add__(self, other: ExchangeCount) -> ExchangeCount:
        """The counts of two runs on as many ranks, together."""
        return ExchangeCount(
            self.collectives + other.collectives,
            tuple(a + b for a, b in zip(self.sent, other.sent, strict=True)),
            tuple(a + b for a, b in zip(self.received, other.received, strict=True)),
        )


class Communicator:
    """What the ranks of a partitioned run in one process share: the graph,
    split once, and the exchanges (`allreduce_buffer`, `allgather_queue`),
    counted (`exchanged`)."""

    def __init__(self, size: int, graph: Any = None):
        """`graph`: the host graph every load is of (a graph given from Python),
        else each load reads its spec."""
        self.size = size
        self.override = exchange_override()
        """The format of every exchange, where `GIR_EXCHANGE_FORMAT` sets one."""
        self._graph = graph
        self.check_part: Callable[..., None] | None = None
        """What each rank calls with its device and part before uploading it
        (`CompiledProgram.check_fits`); None: nothing."""
        self._lock = threading.Lock()
        self._parts: dict[tuple[str, bool], list[GraphPart]] = {}
        # Per rank; each rank's thread writes only its own entries.
        self._collectives = [0] * size
        self._sent = [0] * size
        self._received = [0] * size

    def _count(self, rank: int, sent: int, received: int) -> None:
        """Counts one collective of `rank` (payload bytes, see `ExchangeCount`)."""
        self._collectives[rank] += 1
        self._sent[rank] += sent
        self._received[rank] += received

    def exchanged(self) -> ExchangeCount:
        """What the ranks exchanged so far."""
        return ExchangeCount(max(self._collectives), tuple(self._sent), tuple(self._received))

    def graph_parts(
        self, spec: str, weighted: bool, load: Callable[[], Any], progress: Callable[[str], None] | None = None
    ) -> list[GraphPart]:
        """The graph `spec` split into one part per rank, loaded and split once
        for all ranks; `progress` hears how long the split took."""
        with self._lock:
            key = (spec, bool(weighted))
            parts = self._parts.get(key)
            if parts is None and self._graph is not None:
                parts = _split(self._graph, self.size, spec, progress)
            if parts is None:
                parts = _cached_parts(spec, bool(weighted), self.size, load, progress)
            self._parts[key] = parts
            return parts

    def format_of(self, exchange: ExchangeFormat, base: Any) -> ExchangeFormat:
        """What an all-reduce whose op says `exchange` sends: the override
        where one is set, and dense without a base."""
        if base is None:
            return ExchangeFormat.DENSE
        return exchange if self.override is None else self.override

    def vertex_bound(self) -> int | None:
        """The vertex count of the largest graph split so far (every vertex a
        queue holds is below it); None before any split."""
        with self._lock:
            counts = [part.num_vertices for parts in self._parts.values() for part in parts]
        return max(counts, default=None)

    def queue_format(self) -> ExchangeFormat:
        """What a queue union sends: lists, bitmaps or either (auto)."""
        return ExchangeFormat.AUTO if self.override is None else self.override

    def allreduce_buffer(
        self, rank: int, device: Any, buffer: Any, count: int, dtype: DType, combine: Combine, base: Any,
        exchange: ExchangeFormat = ExchangeFormat.DENSE,
    ) -> None:
        """`host.allreduce` of a device buffer of `count` elements, sent in
        `exchange` (`format_of`)."""
        raise NotImplementedError

    def allgather_queue(
        self, rank: int, device: Any, items: Any, capacity: int, count: Any, claims: Sequence[ClaimedBuffer] = ()
    ) -> None:
        """`host.allgather` of a queue of `count[0]` vertices in `items`, with
        the `claims` that go with it."""
        raise NotImplementedError

    def barrier(self, rank: int) -> None:
        """Returns once every rank called it (and its device work before the
        call is done)."""
        raise NotImplementedError

    def abort(self) -> None:
        """Releases every rank waiting in an exchange (another rank failed)."""


class HostStagedCommunicator(Communicator):
    """The exchanges of `size` ranks in one process, through host memory: each
    rank hands in its copy (or, in pairs and bitmap formats, its changed
    elements), waits for the others, and combines all of them."""

    def __init__(self, size: int, graph: Any = None):
        super().__init__(size, graph)
        self._barrier = threading.Barrier(size)
        self._slots: list[Any] = [None] * size

    def _exchange(self, rank: int, value: Any) -> list[Any]:
        """Every rank's `value`, once all ranks handed theirs in."""
        self._slots[rank] = value
        self._barrier.wait()
        values = list(self._slots)
        self._barrier.wait()
        return values

    def allreduce(
        self, rank: int, copy: np.ndarray, combine: Combine, base: np.ndarray | None,
        exchange: ExchangeFormat = ExchangeFormat.DENSE,
    ) -> tuple[np.ndarray, int, int]:
        """The `combine` of every rank's `copy`, and the payload bytes this rank
        sent and received (whole vectors, or the changed elements where the
        format says so)."""
        wanted = self.format_of(exchange, base)
        if wanted == ExchangeFormat.DENSE:
            return combine_arrays(self._exchange(rank, copy), combine, base), copy.nbytes, copy.nbytes
        assert base is not None
        changed = changed_indices(np, copy, base)
        counts = self._exchange(rank, changed.size)
        format = choose_format(wanted, counts, copy.size, copy.itemsize)
        if format == ExchangeFormat.DENSE:
            return combine_arrays(self._exchange(rank, copy), combine, base), copy.nbytes, copy.nbytes
        if format == ExchangeFormat.PAIRS:
            changes = self._exchange(rank, (changed, copy[changed]))
        else:
            shared = self._exchange(rank, (to_bitmap(np, changed, copy.size), copy[changed]))
            rows = from_bitmaps(np, np.stack([bitmap for bitmap, _ in shared]), counts)
            changes = [(indices, values) for indices, (_, values) in zip(rows, shared, strict=True)]
        sent = [exchange_bytes(format, count, copy.size, copy.itemsize) for count in counts]
        return apply_changes(np, base, changes, combine), sent[rank], sum(sent)

    def allgather(self, rank: int, items: np.ndarray) -> tuple[np.ndarray, int, int]:
        """The distinct items of every rank's `items` (non-negative), ascending,
        and the payload bytes this rank sent and received (as a list or as
        bitmaps, as `queue_as_bitmap` says)."""
        shared = self._exchange(rank, (items.size, int(items.max()) + 1 if items.size else 0))
        sizes = [size for size, _ in shared]
        bound = max(bound for _, bound in shared)
        if queue_as_bitmap(self.queue_format(), sizes, bound):
            bitmaps = self._exchange(rank, to_bitmap(np, items, bound))
            union = from_bitmap(np, np.bitwise_or.reduce(bitmaps), bound)
            return union, bitmap_bytes(bound), self.size * bitmap_bytes(bound)
        union = np.unique(np.concatenate(self._exchange(rank, items)))
        return union, items.nbytes, union.nbytes

    def allreduce_buffer(
        self, rank: int, device: Any, buffer: Any, count: int, dtype: DType, combine: Combine, base: Any,
        exchange: ExchangeFormat = ExchangeFormat.DENSE,
    ) -> None:
        copy = device.to_host(buffer, count, dtype)
        before = None if base is None else device.to_host(base, count, dtype)
        result, sent, received = self.allreduce(rank, copy, combine, before, exchange)
        device.from_host(buffer, result)
        self._count(rank, sent, received)

    def allgather_claims(
        self, rank: int, items: np.ndarray, values: Sequence[np.ndarray], buffers: Sequence[np.ndarray]
    ) -> tuple[np.ndarray, int, int]:
        """The distinct items of every rank's `items`, ascending, and the
        payload bytes this rank sent and received; each of `buffers` gets at
        every rank's items that rank's `values` of it (one array a buffer),
        the lowest rank's where several hold an item."""
        shared = self._exchange(rank, (items, values))
        for position, buffer in enumerate(buffers):
            apply_claims(np, buffer, [queue for queue, _ in shared], [claimed[position] for _, claimed in shared])
        element_bytes = [buffer.itemsize for buffer in buffers]
        received = queue_claims_bytes(sum(queue.size for queue, _ in shared), element_bytes)
        union = np.unique(np.concatenate([queue for queue, _ in shared]))
        return union, queue_claims_bytes(items.size, element_bytes), received

    def allgather_queue(
        self, rank: int, device: Any, items: Any, capacity: int, count: Any, claims: Sequence[ClaimedBuffer] = ()
    ) -> None:
        if claims:
            self._allgather_queue_claims(rank, device, items, capacity, count, claims)
            return
        size = min(max(int(device.read_element(count, 0, DType.INT32)), 0), capacity)
        own = device.to_host(items, size, DType.INT32)
        union, sent, received = self.allgather(rank, own)
        union = union[:capacity]
        device.from_host(items, union)
        device.write_element(count, 0, int(union.size), DType.INT32)
        self._count(rank, sent, received)

    def _allgather_queue_claims(
        self, rank: int, device: Any, items: Any, capacity: int, count: Any, claims: Sequence[ClaimedBuffer]
    ) -> None:
        """The queue union with its claims, through host copies of the claimed buffers."""
        size = claimed_queue_size(int(device.read_element(count, 0, DType.INT32)), capacity)
        own = device.to_host(items, size, DType.INT32)
        buffers = [device.to_host(claimed.buffer, claimed.count, claimed.dtype) for claimed in claims]
        union, sent, received = self.allgather_claims(rank, own, [buffer[own] for buffer in buffers], buffers)
        union = union[:capacity]
        for claimed, buffer in zip(claims, buffers, strict=True):
            device.from_host(claimed.buffer, buffer)
        device.from_host(items, union)
        device.write_element(count, 0, int(union.size), DType.INT32)
        self._count(rank, sent, received)

    def barrier(self, rank: int) -> None:
        self._barrier.wait()

    def abort(self) -> None:
        self._barrier.abort()


_PARTS_CACHE: dict[tuple[str, bool, int], tuple[Any, list[GraphPart]]] = {}
"""The last graph split and its parts (so that the trials of a benchmark split
it once); the graph is kept with its parts, which cut their CSCs from it."""


def _split(graph: Any, size: int, spec: str, progress: Callable[[str], None] | None) -> list[GraphPart]:
    """`partition(graph, size)`, its time and the parts' edges told to `progress`."""
    started = time.perf_counter()
    parts = partition(graph, size)
    if progress is not None:
        edges = ", ".join(f"{part.num_edges:,}" for part in parts)
        progress(f"split {spec} into {size} parts ({edges} edges) in {time.perf_counter() - started:.2f} s")
    return parts


def _cached_parts(
    spec: str, weighted: bool, size: int, load: Callable[[], Any], progress: Callable[[str], None] | None
) -> list[GraphPart]:
    key = (spec, weighted, size)
    cached = _PARTS_CACHE.get(key)
    if cached is None:
        _PARTS_CACHE.clear()  # before the load: the graph split last goes before the next one comes
        graph = load()
        cached = _PARTS_CACHE[key] = (graph, _split(graph, size, spec, progress))
    return cached[1]


EXCHANGE_VARIABLE = "GIR_EXCHANGE"
"""Set to `host` to exchange through host memory on CUDA too (else NCCL)."""


def make_communicator(devices: Sequence[Any], graph: Any = None) -> Communicator:
    """NCCL (`gir.runtime.nccl`) for CUDA devices where cupy's NCCL binding
    loads, unless `GIR_EXCHANGE=host`; else host-staged exchanges."""
    cuda = all(getattr(device, "target", None) == "cuda" for device in devices)
    if cuda and os.environ.get(EXCHANGE_VARIABLE, "nccl") != "host":
        from gir.runtime.nccl import NcclCommunicator, nccl_unavailable_reason

        reason = nccl_unavailable_reason()
        if reason is None:
            return NcclCommunicator(devices, graph)
        progress = getattr(devices[0], "progress", None)
        if progress is not None:
            progress(f"NCCL is not available ({reason}): exchanging through host memory")
    return HostStagedCommunicator(len(devices), graph)


RANK_SWITCH_INTERVAL = 0.0002
"""Seconds a rank's thread may hold the interpreter while another waits for it
(`sys.setswitchinterval`, 5 ms by default) during a partitioned run: a rank
whose device call returned (a read, an exchange) resumes within this instead
of waiting out another rank's Python up to 5 ms, each time.
`GIR_SWITCH_INTERVAL` (seconds) overrides it, for measurements."""

SWITCH_INTERVAL_VARIABLE = "GIR_SWITCH_INTERVAL"


def rank_switch_interval() -> float:
    """`GIR_SWITCH_INTERVAL` if set (a positive number of seconds), else
    `RANK_SWITCH_INTERVAL`."""
    text = os.environ.get(SWITCH_INTERVAL_VARIABLE, "")
    if not text:
        return RANK_SWITCH_INTERVAL
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not seconds > 0:
        raise UserError(f"error: {SWITCH_INTERVAL_VARIABLE} must be a positive number of seconds, not '{text}'")
    return seconds


def _for_widest_part(program: Any, communicator: Communicator, device: Any, argv: list[str]) -> Any:
    """`program`, or its 64-bit specialisation when the largest part of the graph
    it loads needs 64-bit edge indices (`CompiledProgram.for_edges`): the graph
    is split here, before the ranks start, so that every rank runs one program."""
    from gir.runtime.graph import load_graph

    load = program.graph_load
    spec = None if load is None else load.spec(argv)
    if spec is None or load.reorder is not None:  # a reordered load is refused by the ranks
        return program
    weighted = bool(load.weighted)
    parts = communicator.graph_parts(
        spec, weighted, lambda: load_graph(spec, weighted=weighted, progress=device.progress), device.progress
    )
    widest = max(part.num_edges for part in parts)
    chosen = program.for_edges(widest)
    if chosen is not program and device.progress is not None:
        device.progress(f"{spec}: its largest part has {widest:,} edges: running with 64-bit edge indices")
    return chosen


def run_partitioned(
    program: Any, devices: Sequence[Any], argv: list[str], stdout: TextIO, graph: Any = None
) -> RunResult:
    """Runs a `host-partition`ed `program` (a `CompiledProgram`) on `devices`,
    one rank per device in a thread of its own; `graph`: the host graph the
    program's graph argument names (a graph given from Python), else loaded."""
    communicator = make_communicator(devices, graph)
    program = _for_widest_part(program, communicator, devices[0], argv)
    communicator.check_part = program.check_fits
    kernels = [program.kernels(device) for device in devices]
    runs = [
        Run(device, kernels[rank], argv, stdout if rank == 0 else io.StringIO(),
            program.bounds_sites, rank=rank, communicator=communicator)
        for rank, device in enumerate(devices)
    ]  # fmt: skip
    results: list[RunResult | None] = [None] * len(devices)
    errors: list[BaseException | None] = [None] * len(devices)

    def rank_main(rank: int) -> None:
        device = devices[rank]
        device.activate()
        try:
            program.host_run(runs[rank], program.constants)
            results[rank] = runs[rank].finish()
        except BaseException as error:  # handed to the caller below
            errors[rank] = error
            communicator.abort()
            runs[rank].abort()
        finally:
            device.deactivate()

    threads = [threading.Thread(target=rank_main, args=(rank,), name=f"gir-rank-{rank}") for rank in range(len(devices))]
    switch_interval = sys.getswitchinterval()
    sys.setswitchinterval(rank_switch_interval())
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switch_interval)
    first = next((e for e in errors if e is not None and not isinstance(e, threading.BrokenBarrierError)), None)
    if first is None:
        first = next((e for e in errors if e is not None), None)
    if first is not None:
        raise first
    done = [result for result in results if result is not None]
    elapsed = [result.elapsed for result in done if result.elapsed is not None]
    return RunResult(
        done[0].globals,
        max(elapsed) if elapsed else None,
        max(result.wall for result in done),
        communicator.exchanged(),
    )
