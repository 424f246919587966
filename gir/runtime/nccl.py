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
| or, claim          | `ncclAllGather`, then or / first changed copy     |
| queue union        | all-gather of sizes and padded queues, `unique`; or of bitmaps, or-ed |

An all-reduce with a base first finds the elements the rank changed
(`changed_indices`) and all-gathers their number; where the format
(`ExchangeFormat`, `GIR_EXCHANGE_FORMAT`) picks pairs or a bitmap, it
all-gathers the ranks' changed values (padded to the longest) and their
indices or bitmaps, and combines them into the base on every rank
(`apply_changes`) instead of the table's exchange of the whole vector.

Each rank counts its collectives' payload as the host-staged exchanges do
(`ExchangeCount`).

The buffers are pycuda's allocations in each GPU's primary context, the one
the CUDA runtime (and so cupy) uses: cupy views them without copying.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gir.dialects.host import Combine, ExchangeFormat
from gir.protocol import DType
from gir.runtime.device import DTYPES
from gir.runtime.multi_device import (
    Communicator,
    apply_changes_into,
    bitmap_bytes,
    changed_indices,
    choose_format,
    exchange_bytes,
    from_bitmap,
    from_bitmaps,
    queue_as_bitmap,
    to_bitmap,
)


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

    def _view(self, rank: int, buffer: int, count: int, dtype: np.dtype) -> Any:
        """The device buffer as a cupy array (no copy)."""
        cupy = self._cupy
        cupy.cuda.Device(self._device_ids[rank]).use()
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
        result = gathered[self.size - 1].copy()
        for row in range(self.size - 2, -1, -1):
            if combine == Combine.OR:
                result |= gathered[row]
            else:  # CLAIM: the first rank whose copy changed, else the last one's
                assert before is not None
                result = self._cupy.where(gathered[row] != before, gathered[row], result)
        values[...] = result

    def _exchange_changed(self, rank: int, values: Any, before: Any, combine: Combine, wanted: ExchangeFormat) -> bool:
        """The all-reduce of `values` as the ranks' changed elements, if the
        format picks pairs or a bitmap for the ranks' counts (else False:
        nothing done)."""
        cupy = self._cupy
        changed = changed_indices(cupy, values, before)
        counts = [int(c) for c in self._all_gather(rank, cupy.full(1, changed.size, np.int32)).get().ravel()]
        format = choose_format(wanted, counts, values.size, values.itemsize)
        if format == ExchangeFormat.DENSE:
            return False
        bits = np.dtype(f"uint{values.itemsize * 8}")
        widest = max(max(counts), 1)
        changed_values = cupy.zeros(widest, bits)
        changed_values[: changed.size] = values.view(bits)[changed]
        all_values = self._all_gather(rank, changed_values).view(values.dtype)
        if format == ExchangeFormat.PAIRS:
            indices = cupy.zeros(widest, np.int32)
            indices[: changed.size] = changed
            all_indices = self._all_gather(rank, indices)
            rows = [all_indices[r, : counts[r]] for r in range(self.size)]
        else:
            rows = from_bitmaps(cupy, self._all_gather(rank, to_bitmap(cupy, changed, values.size)), counts)
        changes = [(rows[r], all_values[r, : counts[r]]) for r in range(self.size)]
        apply_changes_into(cupy, values, before, changes, combine)
        sent = [exchange_bytes(format, count, values.size, values.itemsize) for count in counts]
        self._count(rank, sent[rank], sum(sent))
        return True

    def allgather_queue(self, rank: int, device: Any, items: Any, capacity: int, count: Any) -> None:
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

    def abort(self) -> None:
        for comm in self._comms:
            try:
                comm.abort()
            except Exception:  # the communicator may be broken already
                pass
