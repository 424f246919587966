"""Exchanges of a partitioned run on CUDA GPUs through NCCL (cupy's binding).

One NCCL communicator per GPU, made together (`ncclCommInitAll`), one rank per
GPU: each rank's thread issues its own collectives on the default stream, in
the same order on every rank (the host programs are the same), so they need no
host barrier and stay queued behind the rank's kernels. The combines map onto
NCCL's reductions where one exists, else onto an all-gather and a reduction
over the gathered copies on the GPU (cupy):

| combine            | NCCL                                              |
|--------------------|---------------------------------------------------|
| min, max, umin, umax | `ncclAllReduce` min / max (unsigned types for u) |
| sum (with base)    | `ncclAllReduce` sum, then `- (n - 1) * base`      |
| or, claim          | `ncclAllGather`, then or / first changed copy (one kernel) |
| queue union        | `ncclAllGather` of bitmaps, or-ed and listed (kernels); lists: of sizes and padded queues, `unique` |
| queue union with claims | `ncclAllGather` of the sizes (one host read), the padded queues, the claimed values at them and the queues' bitmaps; each vertex's value from the lowest rank whose bitmap holds it, the union listed from the bitmaps (kernels) |

An all-reduce with a base in `pairs` or `auto` (`ExchangeFormat`,
`GIR_EXCHANGE_FORMAT`) first lists the elements the rank changed with their
values, in one kernel, and all-gathers their number, the one host read; where
pairs are fewer bytes than the whole vector (`DEVICE_FORMATS`), it all-gathers
the ranks' pairs (padded to the longest) and combines each rank's into its
copy with one kernel, instead of the table's exchange of the whole vector. In
`bitmap` it sends each rank's bitmap of the changed elements and their values
in index order (`apply_changes`).

A queue union goes as bitmaps of every vertex (`vertex_bound`) unless the
format asks for lists (`dense`, `pairs`): a bitmap's size is known before the
queue's, so the union takes no host round (no read of the size, no choice by
the ranks' sizes), and the host reads nothing until the program reads the
frontier's size. On two H200s a round of host reads a level cost more than the
bytes it saved (docs/multi-gpu.md, "What does not scale").

Each rank counts its collectives' payload as the host-staged exchanges do
(`ExchangeCount`).

The buffers are pycuda's allocations in each GPU's primary context, the one
the CUDA runtime (and so cupy) uses: cupy views them without copying.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from gir import cpp
from gir.dialects.host import Combine, ExchangeFormat
from gir.protocol import DType
from gir.runtime.device import DTYPES
from gir.runtime.multi_device import (
    ClaimedBuffer,
    Communicator,
    apply_changes_into,
    bitmap_bytes,
    changed_indices,
    claimed_queue_size,
    choose_format,
    exchange_bytes,
    from_bitmap,
    from_bitmaps,
    queue_as_bitmap,
    queue_claims_bytes,
    to_bitmap,
)


QUEUE_UNION_SOURCE = "queue_union.cuh"
"""The kernels of a queue union as bitmaps in `gir.cpp`, shared with the
complete program's runtime (`cuda_partition.cuh`)."""

_GRID, _BLOCK = 1024, 256
"""The grid-stride launches of the queue union's kernels."""


@dataclass(frozen=True)
class ExchangeKernels:
    """cupy's handles of the queue union's kernels (those of a union with
    claims, `gather_claims` and `apply_claims`, by the claimed elements' bytes), of the combine of gathered
    copies, and of the changed elements' listing and combine (`apply_pairs`:
    one kernel a combine, each applying one rank's pairs)."""

    queue_bitmap: Any
    queue_union: Any
    queue_count: Any
    queue_pad: Any
    gather_claims: Mapping[int, Any]
    apply_claims: Mapping[int, Any]
    combine_rows: Any
    changed_pairs: Any
    apply_pairs: Mapping[Combine, Any]


_APPLY_PAIRS: dict[Combine, str] = {
    Combine.CLAIM: "result[element] = value;",  # the ranks' pairs go last to first: the first rank wins
    Combine.SUM: "result[element] = result[element] + (value - base[element]);",  # not the rank's own pairs
    Combine.MIN: "if (value < result[element]) result[element] = value;",
    Combine.MAX: "if (value > result[element]) result[element] = value;",
    Combine.UMIN: "if (value < result[element]) result[element] = value;",  # on the unsigned view
    Combine.UMAX: "if (value > result[element]) result[element] = value;",
    Combine.OR: "result[element] = result[element] | value;",
}
"""The combine of one rank's changed element into a rank's copy (`element` is
unique among a rank's pairs, so no two threads meet)."""


@cache
def _exchange_kernels() -> ExchangeKernels:
    """The exchanges' own kernels, made once a process: cupy compiles and loads
    a kernel object once per device, so kernels made per communicator (per run)
    would be loaded again by every run."""
    import cupy

    source = cpp.inlined(QUEUE_UNION_SOURCE)  # without its #pragma once
    queue_bitmap, queue_union, queue_count = (
        cupy.RawKernel(source, name) for name in ("gir_queue_bitmap", "gir_queue_union", "gir_queue_count")
    )
    combine_rows = cupy.ElementwiseKernel(
        "raw T rows, T base, int32 ranks, int64 n, bool bitwise_or", "T out",
        """
        if (bitwise_or) {
          out = rows[i];
          for (int r = 1; r < ranks; ++r) out |= rows[r * n + i];
        } else {  // claim: the first rank whose copy changed, else the base
          out = base;
          for (int r = 0; r < ranks; ++r) {
            T value = rows[r * n + i];
            if (value != base) { out = value; break; }
          }
        }
        """,
        "gir_combine_rows",
    )  # fmt: skip
    changed_pairs = cupy.ElementwiseKernel(
        "T value, T base", "raw int32 indices, raw T changed, raw int32 count",
        """
        bool hit = value != base;
        unsigned int group = __activemask();
        unsigned int hits = __ballot_sync(group, hit);
        if (hits != 0) {  // one atomic a warp: its lanes' pairs go to consecutive slots
          int lane = threadIdx.x & 31;
          int leader = __ffs(group) - 1;
          int start = 0;
          if (lane == leader) start = atomicAdd(&count[0], __popc(hits));
          start = __shfl_sync(group, start, leader);
          if (hit) {
            int at = start + __popc(hits & ((1u << lane) - 1u));
            indices[at] = (int)i;
            changed[at] = value;
          }
        }
        """,
        "gir_changed_pairs",
    )  # fmt: skip
    apply_pairs = {
        combine: cupy.ElementwiseKernel(
            "int32 element, T value, raw T base", "raw T result", body, f"gir_apply_pairs_{combine.value}"
        )
        for combine, body in _APPLY_PAIRS.items()
    }
    queue_pad = cupy.RawKernel(source, "gir_queue_pad")
    gather_claims, apply_claims = (
        {size: cupy.RawKernel(source, f"gir_{name}_{size}") for size in (1, 2, 4, 8)}
        for name in ("gather_claims", "apply_claims")
    )
    return ExchangeKernels(
        queue_bitmap, queue_union, queue_count, queue_pad, gather_claims, apply_claims, combine_rows, changed_pairs,
        apply_pairs,
    )


DEVICE_FORMATS = (ExchangeFormat.DENSE, ExchangeFormat.PAIRS)
"""What `auto` chooses among here: pairs are listed on the device in any order,
and a bitmap's values would need an ordered compaction, so bitmaps are sent
only when asked for (`choose_format`'s `among`)."""


def nccl_unavailable_reason() -> str | None:
    """None where cupy's NCCL binding loads, else why not (a few words)."""
    try:
        from cupy.cuda import nccl  # noqa: F401
    except Exception as error:  # ImportError, or a missing libnccl
        return f"cupy.cuda.nccl does not load: {error}"
    return None


class NcclCommunicator(Communicator):
    """The exchanges of one rank per CUDA device (`CudaDevice`), in one process."""

    def __init__(self, devices: Sequence[Any], graph: Any = None):
        super().__init__(len(devices), graph)
        import cupy
        from cupy.cuda import nccl

        self._cupy = cupy
        self._nccl = nccl
        self._device_ids = [device.index for device in devices]
        self._comms = nccl.NcclCommunicator.initAll(self._device_ids)
        self._bitmaps: dict[int, tuple[Any, Any]] = {}
        self._pairs: dict[tuple[int, int, np.dtype], tuple[Any, Any, Any]] = {}
        self._claims: dict[tuple[int, str, np.dtype], Any] = {}
        self._kernels = _exchange_kernels()
        self._types = {
            np.dtype(np.int8): nccl.NCCL_INT8,
            np.dtype(np.uint8): nccl.NCCL_UINT8,
            np.dtype(np.bool_): nccl.NCCL_UINT8,
            np.dtype(np.int32): nccl.NCCL_INT32,
            np.dtype(np.uint32): nccl.NCCL_UINT32,
            np.dtype(np.int64): nccl.NCCL_INT64,
            np.dtype(np.uint64): nccl.NCCL_UINT64,
            np.dtype(np.float32): nccl.NCCL_FLOAT32,
            np.dtype(np.float64): nccl.NCCL_FLOAT64,
        }
        self._ops = {
            Combine.MIN: nccl.NCCL_MIN,
            Combine.MAX: nccl.NCCL_MAX,
            Combine.UMIN: nccl.NCCL_MIN,
            Combine.UMAX: nccl.NCCL_MAX,
            Combine.SUM: nccl.NCCL_SUM,
        }

    def _use_device(self, rank: int) -> None:
        """Makes rank `rank`'s GPU cupy's current device (in the calling thread)."""
        self._cupy.cuda.Device(self._device_ids[rank]).use()

    def _view(self, rank: int, buffer: int, count: int, dtype: np.dtype) -> Any:
        """The device buffer as a cupy array (no copy)."""
        cupy = self._cupy
        self._use_device(rank)
        memory = cupy.cuda.UnownedMemory(int(buffer), max(count * dtype.itemsize, 1), self, self._device_ids[rank])
        return cupy.ndarray((count,), dtype, cupy.cuda.MemoryPointer(memory, 0))

    def _nccl_type(self, dtype: np.dtype) -> int:
        nccl_type = self._types.get(dtype)
        if nccl_type is None:
            raise NotImplementedError(f"NCCL exchanges of {dtype} elements")
        return nccl_type

    def _all_gather(self, rank: int, values: Any) -> Any:
        """Every rank's `values` (equal sizes, contiguous), one row per rank,
        gathered as bytes (so any element type goes)."""
        cupy = self._cupy
        values = cupy.ascontiguousarray(values)
        gathered = cupy.empty((self.size, values.nbytes), np.uint8)
        self._comms[rank].allGather(values.data.ptr, gathered.data.ptr, values.nbytes, self._nccl.NCCL_UINT8, 0)
        return gathered.view(values.dtype)

    def allreduce_buffer(
        self, rank: int, device: Any, buffer: Any, count: int, dtype: DType, combine: Combine, base: Any,
        exchange: ExchangeFormat = ExchangeFormat.DENSE,
    ) -> None:
        numpy_type = DTYPES[dtype]
        if combine in (Combine.UMIN, Combine.UMAX):
            numpy_type = np.dtype(f"uint{numpy_type.itemsize * 8}")
        values = self._view(rank, buffer, count, numpy_type)
        before = None if base is None else self._view(rank, base, count, numpy_type)
        if count == 0:
            self._count(rank, 0, 0)
            return
        wanted = self.format_of(exchange, base)
        if wanted != ExchangeFormat.DENSE and self._exchange_changed(rank, values, before, combine, wanted):
            return
        self._count(rank, values.nbytes, values.nbytes)
        op = self._ops.get(combine)
        if op is not None:
            self._comms[rank].allReduce(
                values.data.ptr, values.data.ptr, count, self._nccl_type(numpy_type), op, 0
            )
            if combine == Combine.SUM:
                assert before is not None
                values -= before * (self.size - 1)
            return
        gathered = self._all_gather(rank, values)
        bits = np.dtype(f"uint{numpy_type.itemsize * 8}")
        bitwise_or = combine == Combine.OR
        assert bitwise_or or before is not None  # CLAIM compares with the values before
        base = values if before is None else before
        self._kernels.combine_rows(
            gathered.ravel().view(bits), base.view(bits), np.int32(self.size), np.int64(count), np.bool_(bitwise_or),
            values.view(bits),
        )

    def _exchange_changed(self, rank: int, values: Any, before: Any, combine: Combine, wanted: ExchangeFormat) -> bool:
        """The all-reduce of `values` as the ranks' changed elements, if the
        format picks pairs or a bitmap for the ranks' counts (else False:
        nothing done). Pairs: one kernel lists them, one host read of the
        gathered counts, two all-gathers, one kernel a rank combines them."""
        if wanted == ExchangeFormat.BITMAP:
            return self._exchange_changed_bitmaps(rank, values, before, combine)
        bits = np.dtype(f"uint{values.itemsize * 8}")
        indices, changed, count = self._pair_scratch(rank, values.size, bits)
        count.fill(0)
        self._kernels.changed_pairs(values.view(bits), before.view(bits), indices, changed, count)
        counts = [int(c) for c in self._all_gather(rank, count).get().ravel()]
        if choose_format(wanted, counts, values.size, values.itemsize, DEVICE_FORMATS) == ExchangeFormat.DENSE:
            return False
        widest = max(max(counts), 1)
        all_indices = self._all_gather(rank, indices[:widest])
        all_values = self._all_gather(rank, changed[:widest])
        arithmetic = combine in (Combine.SUM, Combine.MIN, Combine.MAX)
        combined = values.dtype if arithmetic else bits  # umin, umax: unsigned; claim, or: the bits
        result, base = values.view(combined), before.view(combined)
        apply = self._kernels.apply_pairs[combine]
        for other in reversed(range(self.size)):
            if counts[other] and not (combine == Combine.SUM and other == rank):
                pairs = slice(0, counts[other])
                apply(all_indices[other, pairs], all_values[other, pairs].view(combined), base, result)
        sent = [exchange_bytes(ExchangeFormat.PAIRS, count, values.size, values.itemsize) for count in counts]
        self._count(rank, sent[rank], sum(sent))
        return True

    def _exchange_changed_bitmaps(self, rank: int, values: Any, before: Any, combine: Combine) -> bool:
        """The all-reduce of `values` as each rank's bitmap of the elements it
        changed and their values in index order (`GIR_EXCHANGE_FORMAT=bitmap`)."""
        cupy = self._cupy
        changed = changed_indices(cupy, values, before)
        counts = [int(c) for c in self._all_gather(rank, cupy.full(1, changed.size, np.int32)).get().ravel()]
        bits = np.dtype(f"uint{values.itemsize * 8}")
        widest = max(max(counts), 1)
        changed_values = cupy.zeros(widest, bits)
        changed_values[: changed.size] = values.view(bits)[changed]
        all_values = self._all_gather(rank, changed_values).view(values.dtype)
        rows = from_bitmaps(cupy, self._all_gather(rank, to_bitmap(cupy, changed, values.size)), counts)
        changes = [(rows[r], all_values[r, : counts[r]]) for r in range(self.size)]
        apply_changes_into(cupy, values, before, changes, combine)
        sent = [exchange_bytes(ExchangeFormat.BITMAP, count, values.size, values.itemsize) for count in counts]
        self._count(rank, sent[rank], sum(sent))
        return True

    def allgather_queue(
        self, rank: int, device: Any, items: Any, capacity: int, count: Any, claims: Sequence[ClaimedBuffer] = ()
    ) -> None:
        if claims:
            self._allgather_queue_claims(rank, items, capacity, count, claims)
            return
        bound = self.vertex_bound()
        if bound is not None and self.queue_format() in (ExchangeFormat.AUTO, ExchangeFormat.BITMAP):
            self._allgather_queue_bitmaps(rank, items, capacity, count, bound)
            return
        cupy = self._cupy
        size = min(max(int(device.read_element(count, 0, DType.INT32)), 0), capacity)
        own = self._view(rank, items, size, np.dtype(np.int32))
        bound = own.max() + 1 if size else cupy.zeros((), np.int32)
        shape = self._all_gather(rank, cupy.stack([cupy.asarray(size, np.int32), bound.astype(np.int32)])).get()
        sizes = [int(s) for s in shape[:, 0]]
        widest, bound = max(max(sizes), 1), int(shape[:, 1].max())
        if queue_as_bitmap(self.queue_format(), sizes, bound):
            bitmaps = self._all_gather(rank, to_bitmap(cupy, own, bound))
            merged = bitmaps[0].copy()
            for row in bitmaps[1:]:
                merged |= row
            union = from_bitmap(cupy, merged, bound)[:capacity]
            sent, received = bitmap_bytes(bound), self.size * bitmap_bytes(bound)
        else:
            padded = cupy.full(widest, -1, np.int32)
            padded[:size] = own
            gathered = self._all_gather(rank, padded).ravel()
            union = cupy.unique(gathered[gathered >= 0])[:capacity]
            sent, received = size * 4, union.nbytes  # payload only: not the padding
        self._view(rank, items, capacity, np.dtype(np.int32))[: union.size] = union
        device.write_element(count, 0, int(union.size), DType.INT32)
        self._count(rank, sent, received)

    def _allgather_queue_bitmaps(self, rank: int, items: Any, capacity: int, count: Any, bound: int) -> None:
        """The union of the ranks' queues of vertices below `bound` as bitmaps,
        on the device from the size on the device: no host round."""
        words = max(-(-bound // 32), 1)
        queue = self._view(rank, items, capacity, np.dtype(np.int32))
        size = self._view(rank, count, 1, np.dtype(np.int32))
        own, total = self._scratch(rank, words)
        own.fill(0)
        total.fill(0)
        self._kernels.queue_bitmap(
            (_GRID,), (_BLOCK,), (queue, size, np.int64(capacity), own, np.int64(bound))
        )
        gathered = self._all_gather(rank, own).ravel()
        self._list_union(gathered, self.size, words, queue, capacity, size, total)
        self._count(rank, bitmap_bytes(bound), self.size * bitmap_bytes(bound))

    def _allgather_queue_claims(
        self, rank: int, items: Any, capacity: int, count: Any, claims: Sequence[ClaimedBuffer]
    ) -> None:
        """The queue union with its claims: the ranks' sizes gathered from the
        device and read (the one host read), each rank's queue padded to the
        longest and its claimed values at it all-gathered. Once a graph is
        split (`vertex_bound`) the ranks' bitmaps of their queues go too, and
        kernels do the rest (`_resolve_claims_by_bitmaps`); before, each
        rank's values are set last rank first and the union made unique."""
        int32 = np.dtype(np.int32)
        size_view = self._view(rank, count, 1, int32)
        sizes = [claimed_queue_size(int(s), capacity) for s in self._all_gather(rank, size_view).get().ravel()]
        widest = max(max(sizes), 1)
        bound = self.vertex_bound()
        if bound is None:
            self._resolve_claims_by_lists(rank, items, capacity, size_view, sizes, widest, claims)
        else:
            self._resolve_claims_by_bitmaps(rank, items, capacity, size_view, widest, bound, claims)
        element_bytes = [DTYPES[claimed.dtype].itemsize for claimed in claims]
        sent, received = queue_claims_bytes(sizes[rank], element_bytes), queue_claims_bytes(sum(sizes), element_bytes)
        if bound is not None:
            sent, received = sent + bitmap_bytes(bound), received + self.size * bitmap_bytes(bound)
        self._count(rank, sent, received)

    def _resolve_claims_by_bitmaps(
        self, rank: int, items: Any, capacity: int, size: Any, widest: int, bound: int, claims: Sequence[ClaimedBuffer]
    ) -> None:
        """The union with claims of queues of vertices below `bound`, in a
        handful of launches (each host operation here costs more than a level's
        kernels on two GPUs): the queue padded to `widest` and its bitmap in one
        kernel, the claimed values at it in one a buffer, all-gathered; the
        other ranks' values set where their rank is the lowest whose bitmap
        holds the vertex; the union listed from the bitmaps."""
        words = max(-(-bound // 32), 1)
        marks, total = self._scratch(rank, words)
        marks.fill(0)
        total.fill(0)
        queue = self._view(rank, items, capacity, np.dtype(np.int32))
        padded = self._claims_scratch(rank, "queue", np.dtype(np.int32), widest)
        self._kernels.queue_pad((_GRID,), (_BLOCK,), (queue, size, np.int64(widest), padded, marks, np.int64(bound)))
        queues = self._all_gather(rank, padded)
        bitmaps = self._all_gather(rank, marks)
        for claimed in claims:
            itemsize = DTYPES[claimed.dtype].itemsize
            bits = np.dtype(f"uint{itemsize * 8}")
            values = self._view(rank, claimed.buffer, claimed.count, bits)
            own_values = self._claims_scratch(rank, "values", bits, widest)
            self._kernels.gather_claims[itemsize]((_GRID,), (_BLOCK,), (values, padded, np.int64(widest), own_values))
            gathered = self._all_gather(rank, own_values)
            self._kernels.apply_claims[itemsize](
                (_GRID,), (_BLOCK,),
                (queues, gathered, np.int32(self.size), np.int64(widest), bitmaps, np.int64(words), np.int32(rank), values),
            )
        self._list_union(bitmaps, self.size, words, queue, capacity, size, total)

    def _resolve_claims_by_lists(
        self, rank: int, items: Any, capacity: int, size: Any, sizes: list[int], widest: int,
        claims: Sequence[ClaimedBuffer],
    ) -> None:
        """The union with claims before a graph is split (no bound on the
        vertices): each rank's values set last rank first (`apply_pairs` of a
        claim), so the lowest rank's win, and the union made unique."""
        cupy = self._cupy
        own = self._view(rank, items, sizes[rank], np.dtype(np.int32))
        padded = cupy.full(widest, -1, np.int32)
        padded[: own.size] = own
        queues = self._all_gather(rank, padded)
        apply = self._kernels.apply_pairs[Combine.CLAIM]
        for claimed in claims:
            bits = np.dtype(f"uint{DTYPES[claimed.dtype].itemsize * 8}")
            values = self._view(rank, claimed.buffer, claimed.count, bits)
            own_values = cupy.zeros(widest, bits)
            own_values[: own.size] = values[own]
            gathered = self._all_gather(rank, own_values)
            for other in reversed(range(self.size)):
                if sizes[other]:
                    entries = slice(0, sizes[other])
                    apply(queues[other, entries], gathered[other, entries], own_values, values)  # a claim reads no base
        self._union_of_lists(rank, queues.ravel(), items, capacity, size)

    def _union_of_lists(self, rank: int, gathered: Any, items: Any, capacity: int, size: Any) -> None:
        """Lists the distinct vertices of `gathered` (the ranks' padded queues,
        -1 past each one's end) into `items` and their number into `size`:
        through a bitmap of every vertex on the device, with no host read, once
        a graph is split (`vertex_bound`); else sorted and made unique."""
        cupy = self._cupy
        bound = self.vertex_bound()
        if bound is None:
            union = cupy.unique(gathered[gathered >= 0])[:capacity]
            self._view(rank, items, capacity, np.dtype(np.int32))[: union.size] = union
            size[0] = union.size
            return
        words = max(-(-bound // 32), 1)
        marks, total = self._scratch(rank, words)
        marks.fill(0)
        total.fill(0)
        listed = cupy.full(1, gathered.size, np.int32)
        self._kernels.queue_bitmap(
            (_GRID,), (_BLOCK,), (gathered, listed, np.int64(gathered.size), marks, np.int64(bound))
        )
        queue = self._view(rank, items, capacity, np.dtype(np.int32))
        self._list_union(marks, 1, words, queue, capacity, size, total)

    def _list_union(self, bitmaps: Any, ranks: int, words: int, queue: Any, capacity: int, size: Any, total: Any) -> None:
        """Lists into `queue` the vertices that one of the `ranks` bitmaps of
        `words` words (one after another in `bitmaps`) sets, and their number,
        at most `capacity`, into `size[0]`, in two launches: `total` (zeroed
        before) counts them as they are listed."""
        self._kernels.queue_union(
            (_GRID,), (_BLOCK,), (bitmaps, np.int32(ranks), np.int64(words), queue, np.int64(capacity), total)
        )
        self._kernels.queue_count((1,), (1,), (size, total, np.int64(capacity)))

    def barrier(self, rank: int) -> None:
        # An all-gather waited for by a read: an NCCL collective, so it holds
        # across processes too, and no rank passes before every rank enqueued it.
        self._use_device(rank)  # it may come before anything else of the rank's: its timer
        self._all_gather(rank, self._cupy.zeros(1, np.int32)).get()

    def _pair_scratch(self, rank: int, length: int, bits: np.dtype) -> tuple[Any, Any, Any]:
        """Rank `rank`'s room for the changed elements of a `length`-element
        vector of `bits` (indices, values) and their count, kept between
        exchanges (on the rank's device)."""
        key = (rank, length, bits)
        kept = self._pairs.get(key)
        if kept is None:
            cupy = self._cupy
            kept = self._pairs[key] = (
                cupy.empty(length, np.int32), cupy.empty(length, bits), cupy.empty(1, np.int32)
            )
        return kept

    def _claims_scratch(self, rank: int, role: str, dtype: np.dtype, length: int) -> Any:
        """Rank `rank`'s room for `length` elements of `dtype` of a union with
        claims (`role`: its padded queue, or the values at it), kept between
        levels and grown to twice what a level asks for when it is too small
        (the buffers of the same size share one: the launches using it are
        ordered on the rank's stream)."""
        key = (rank, role, dtype)
        kept = self._claims.get(key)
        if kept is None or kept.size < length:
            kept = self._claims[key] = self._cupy.empty(2 * length, dtype)
        return kept[:length]

    def _scratch(self, rank: int, words: int) -> tuple[Any, Any]:
        """Rank `rank`'s bitmap of `words` words and a counter, kept between
        levels (on the rank's device)."""
        kept = self._bitmaps.get(rank)
        if kept is None or kept[0].size != words:
            kept = self._bitmaps[rank] = (self._cupy.empty(words, np.uint32), self._cupy.empty(1, np.int32))
        return kept

    def abort(self) -> None:
        for comm in self._comms:
            try:
                comm.abort()
            except Exception:  # the communicator may be broken already
                pass
