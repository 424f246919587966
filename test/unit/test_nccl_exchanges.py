"""The NCCL communicator's exchanges of changed elements and of queues
(`gir.runtime.nccl`), run without a GPU: numpy stands in for cupy, an
in-process all-gather between threads for NCCL's, and numpy functions for the
exchange kernels (`ExchangeKernels`: what each kernel computes, not its CUDA),
so that the logic (counts, formats, padding, bitmaps, the combine into the
base, the arguments the kernels get) is checked where CI runs. Each case runs
the host-staged communicator alike and compares: the same results and, but for
the queue unions as bitmaps of every vertex, the same counts."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from gir.dialects.host import Combine, ExchangeFormat
from gir.protocol import DType
from gir.runtime.graph import load_graph
from gir.runtime.multi_device import (
    EXCHANGE_FORMAT_VARIABLE,
    ClaimedBuffer,
    Communicator,
    HostStagedCommunicator,
    bitmap_bytes,
    choose_format,
    combine_arrays,
)
from gir.runtime.nccl import DEVICE_FORMATS, ExchangeKernels, NcclCommunicator
from gir.runtime.run import Run
from test_exchange_count import HostDevice


class _Gathered(np.ndarray):
    """An all-gather's result; `get()` copies it to the host, as cupy's does."""

    def get(self) -> np.ndarray:
        return np.asarray(self).copy()


def _queue_bitmap(grid: tuple[int], block: tuple[int], args: tuple[Any, ...]) -> None:
    items, count, capacity, words, bound = args
    for vertex in items[: min(max(int(count[0]), 0), int(capacity))]:
        if 0 <= vertex < bound:
            words[vertex >> 5] |= np.uint32(1 << (int(vertex) & 31))


def _queue_union(grid: tuple[int], block: tuple[int], args: tuple[Any, ...]) -> None:
    bitmaps, ranks, words, items, capacity, total = args
    merged = np.bitwise_or.reduce(bitmaps.reshape(int(ranks), int(words)), axis=0)
    vertices = np.flatnonzero(np.unpackbits(merged.view(np.uint8), bitorder="little"))
    listed = vertices[: int(capacity)][::-1]  # the kernel's order is any
    items[: listed.size] = listed
    total[0] = vertices.size


def _queue_count(grid: tuple[int], block: tuple[int], args: tuple[Any, ...]) -> None:
    count, total, capacity = args
    count[0] = min(int(total[0]), int(capacity))


def _queue_pad(grid: tuple[int], block: tuple[int], args: tuple[Any, ...]) -> None:
    items, count, widest, padded, words, bound = args
    size = min(max(int(count[0]), 0), int(widest))
    padded[:] = -1
    padded[:size] = items[:size]
    _queue_bitmap(grid, block, (padded, np.array([size], np.int32), widest, words, bound))


def _gather_claims(grid: tuple[int], block: tuple[int], args: tuple[Any, ...]) -> None:
    values, padded, widest, out = args
    out[:] = np.where(padded >= 0, values[np.maximum(padded, 0)], 0)


def _apply_claims(grid: tuple[int], block: tuple[int], args: tuple[Any, ...]) -> None:
    queues, claimed, ranks, widest, bitmaps, words, rank, values = args
    ranks, widest, words, rank = int(ranks), int(widest), int(words), int(rank)
    queues, claimed = queues.reshape(ranks, widest), claimed.reshape(ranks, widest)
    bitmaps = bitmaps.reshape(ranks, words)
    written: set[int] = set()
    for row in (r for r in range(ranks) if r != rank):
        for vertex, value in zip(queues[row], claimed[row]):
            bit = np.uint32(1 << (int(vertex) & 31))
            if vertex >= 0 and not any(bitmaps[r, vertex >> 5] & bit for r in range(row)):
                assert int(vertex) not in written  # no two threads meet
                written.add(int(vertex))
                values[vertex] = value


def _combine_rows(rows: Any, base: Any, ranks: Any, n: Any, bitwise_or: Any, out: Any) -> None:
    rows = rows.reshape(int(ranks), int(n))
    if bitwise_or:
        out[...] = np.bitwise_or.reduce(rows, axis=0)
        return
    result = base.copy()
    for row in rows[::-1]:  # the first rank that changed an element wins
        result = np.where(row != base, row, result)
    out[...] = result


def _changed_pairs(value: Any, base: Any, indices: Any, changed: Any, count: Any) -> None:
    at = np.flatnonzero(value != base)[::-1]  # the kernel's order is any
    start = int(count[0])
    indices[start : start + at.size] = at
    changed[start : start + at.size] = value[at]
    count[0] = start + at.size


def _apply(combine: Combine) -> Callable[[Any, Any, Any, Any], None]:
    def apply(index: Any, value: Any, base: Any, result: Any) -> None:
        assert np.unique(index).size == index.size  # no two threads meet
        if combine == Combine.CLAIM:
            result[index] = value
        elif combine == Combine.SUM:
            result[index] = result[index] + (value - base[index])
        elif combine in (Combine.MIN, Combine.UMIN):
            result[index] = np.minimum(result[index], value)
        elif combine in (Combine.MAX, Combine.UMAX):
            result[index] = np.maximum(result[index], value)
        else:
            result[index] = result[index] | value

    return apply


class _NumpyNccl(NcclCommunicator):
    """NcclCommunicator on numpy buffers: its all-gathers meet at a barrier."""

    def __init__(self, size: int):
        Communicator.__init__(self, size)
        self._cupy = np
        self._barrier = threading.Barrier(size)
        self._slots: list[Any] = [None] * size
        self._bitmaps = {}
        self._pairs = {}
        self._claims = {}
        self._kernels = ExchangeKernels(
            _queue_bitmap, _queue_union, _queue_count, _queue_pad, {size: _gather_claims for size in (1, 2, 4, 8)},
            {size: _apply_claims for size in (1, 2, 4, 8)}, _combine_rows, _changed_pairs, {c: _apply(c) for c in Combine}
        )
        self._ops = {}  # no ncclAllReduce here: dense claims and ors only (they gather)

    def _use_device(self, rank: int) -> None:
        """One host: nothing to choose."""

    def _view(self, rank: int, buffer: np.ndarray, count: int, dtype: np.dtype) -> np.ndarray:
        return buffer[:count].view(dtype)

    def _all_gather(self, rank: int, values: np.ndarray) -> np.ndarray:
        self._slots[rank] = np.array(values, copy=True)
        self._barrier.wait()
        rows = np.stack(self._slots).view(_Gathered)
        self._barrier.wait()
        return rows


def _on_ranks(communicator: Communicator, body: Callable[[int, Communicator], None]) -> None:
    errors: list[BaseException] = []

    def run(rank: int) -> None:
        try:
            body(rank, communicator)
        except BaseException as error:
            errors.append(error)
            communicator._barrier.abort()  # type: ignore[attr-defined]

    threads = [threading.Thread(target=run, args=(rank,)) for rank in range(communicator.size)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


CASES = [
    (Combine.CLAIM, np.int32, DType.INT32),
    (Combine.MIN, np.int32, DType.INT32),
    (Combine.SUM, np.float32, DType.FLOAT32),
    (Combine.OR, np.int8, DType.INT8),
]


@pytest.mark.parametrize("format", ["pairs", "bitmap", "auto"])
@pytest.mark.parametrize(("combine", "numpy_type", "dtype"), CASES, ids=lambda v: str(v))
@pytest.mark.parametrize("ranks", [2, 3])
def test_changed_elements_combine_as_on_the_host(
    format: str, combine: Combine, numpy_type: type, dtype: DType, ranks: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = np.random.default_rng(1).integers(0, 50, 300).astype(numpy_type)
    copies = []
    for rank in range(ranks):
        copy = base.copy()
        at = np.random.default_rng(10 + rank).choice(300, 20 * (rank + 1), replace=False)
        if combine == Combine.MIN:
            copy[at] = np.minimum(copy[at], rank)
        elif combine == Combine.OR:
            copy[at] |= 64
        else:
            copy[at] += rank + 1
        copies.append(copy)
    results: dict[str, list[np.ndarray]] = {}
    counts = {}
    # `auto` on the NCCL host picks dense or pairs (pairs here: few changes),
    # the host-staged exchanges the fewest bytes of the three formats
    for name, made, chosen in (
        ("nccl", _NumpyNccl, format),
        ("host", HostStagedCommunicator, "pairs" if format == "auto" else format),
    ):
        monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, chosen)  # read as the communicator is made
        communicator = made(ranks)
        buffers = [copy.copy() for copy in copies]

        def body(rank: int, communicator: Communicator, buffers: list[np.ndarray] = buffers) -> None:
            communicator.allreduce_buffer(
                rank, HostDevice(), buffers[rank], 300, dtype, combine, base.copy(), ExchangeFormat.AUTO
            )

        _on_ranks(communicator, body)
        results[name] = buffers
        counts[name] = communicator.exchanged()
    for buffer in results["nccl"]:
        np.testing.assert_array_equal(buffer, results["host"][0])
    assert counts["nccl"] == counts["host"]
    assert counts["nccl"].bytes < ranks * base.nbytes  # fewer than the dense vectors


def test_auto_sends_pairs_until_the_whole_vector_is_fewer_bytes() -> None:
    """Pairs are 8 bytes a changed int32 element, the vector 4 bytes an element."""
    auto, pairs, dense = ExchangeFormat.AUTO, ExchangeFormat.PAIRS, ExchangeFormat.DENSE
    assert choose_format(auto, [10, 40], 1000, 4, DEVICE_FORMATS) == pairs
    assert choose_format(auto, [600, 500], 1000, 4, DEVICE_FORMATS) == dense  # 8,800 bytes of pairs, 8,000 of vectors
    assert choose_format(ExchangeFormat.BITMAP, [600, 500], 1000, 4, DEVICE_FORMATS) == ExchangeFormat.BITMAP


@pytest.mark.parametrize("ranks", [2, 3])
def test_a_claim_of_most_elements_goes_dense_under_auto(ranks: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where pairs would be more bytes, the listed pairs are dropped and the
    copies are gathered whole, with the same result as on the host."""
    monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, "auto")
    base = np.full(64, -1, np.int32)
    copies = [np.where(np.arange(64) % (rank + 2) != 0, rank, -1).astype(np.int32) for rank in range(ranks)]
    results, counts = {}, {}
    for name, communicator in (("nccl", _NumpyNccl(ranks)), ("host", HostStagedCommunicator(ranks))):
        buffers = [copy.copy() for copy in copies]

        def body(rank: int, communicator: Communicator, buffers: list[np.ndarray] = buffers) -> None:
            communicator.allreduce_buffer(
                rank, HostDevice(), buffers[rank], 64, DType.INT32, Combine.CLAIM, base.copy(), ExchangeFormat.AUTO
            )

        _on_ranks(communicator, body)
        results[name], counts[name] = buffers, communicator.exchanged()
    for buffer in results["nccl"] + results["host"]:
        np.testing.assert_array_equal(buffer, combine_arrays(copies, Combine.CLAIM, base))
    assert counts["nccl"].sent == (64 * 4,) * ranks  # dense


def _union_queues(communicator: Communicator, queues: list[list[int]]) -> list[list[int]]:
    """Each rank's queue after the union of `queues` (one a rank, in 16-entry
    buffers), as the ranks list it."""
    unions: list[list[int]] = [[] for _ in queues]

    def body(rank: int, communicator: Communicator) -> None:
        items = np.full(16, -7, np.int32)
        items[: len(queues[rank])] = queues[rank]
        count = np.array([len(queues[rank])], np.int32)
        communicator.allgather_queue(rank, HostDevice(), items, 16, count)
        unions[rank] = [int(vertex) for vertex in items[: count[0]]]

    _on_ranks(communicator, body)
    return unions


@pytest.mark.parametrize("format", ["dense", "bitmap", "auto"])
@pytest.mark.parametrize("queues", [[[4, 1, 9, 39], [9, 2, 30]], [[4000, 1], [9, 2], []]])
def test_queue_unions_as_on_the_host(format: str, queues: list[list[int]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, format)
    union = sorted(set().union(*queues))
    counts = {}
    for name, communicator in (("nccl", _NumpyNccl(len(queues))), ("host", HostStagedCommunicator(len(queues)))):
        unions = _union_queues(communicator, queues)
        assert all(got == union for got in unions), unions  # ascending
        counts[name] = communicator.exchanged()
    assert counts["nccl"] == counts["host"]


@pytest.mark.parametrize("format", ["bitmap", "auto"])
@pytest.mark.parametrize("queues", [[[4, 1, 9, 39], [9, 2, 30]], [[60, 1], [9, 2], []]])
def test_queue_unions_as_bitmaps_of_every_vertex(
    format: str, queues: list[list[int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once a graph is split, a union in `auto` or `bitmap` sends each rank's
    bitmap of every vertex of the graph (no size read, no choice by sizes), and
    lists the same vertices (in any order) with their number."""
    monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, format)
    graph = load_graph("rmat:6", cache=False)
    union = sorted(set().union(*queues))
    communicator = _NumpyNccl(len(queues))
    communicator.graph_parts("rmat:6", False, lambda: graph)
    assert communicator.vertex_bound() == graph.num_vertices == 64

    assert all(sorted(got) == union for got in _union_queues(communicator, queues))
    sent = bitmap_bytes(64)
    assert communicator.exchanged().sent == (sent,) * len(queues)
    assert communicator.exchanged().received == (len(queues) * sent,) * len(queues)


def _union_with_claims(
    communicator: Communicator, queues: list[list[int]]
) -> list[tuple[list[int], np.ndarray, np.ndarray]]:
    """Each rank's queue, `pred` (int32) and `flags` (int8) after the union of
    `queues` with the claims of both: rank r's claimed values are 10 * r plus
    the vertex, and r + 1."""
    done: list[Any] = [None] * len(queues)

    def body(rank: int, communicator: Communicator) -> None:
        pred, flags = np.full(64, -1, np.int32), np.zeros(64, np.int8)
        pred[queues[rank]] = [10 * rank + vertex for vertex in queues[rank]]
        flags[queues[rank]] = rank + 1
        items = np.full(64, -7, np.int32)
        items[: len(queues[rank])] = queues[rank]
        count = np.array([len(queues[rank])], np.int32)
        claims = [ClaimedBuffer(pred, 64, DType.INT32), ClaimedBuffer(flags, 64, DType.INT8)]
        communicator.allgather_queue(rank, HostDevice(), items, 64, count, claims)
        done[rank] = ([int(vertex) for vertex in items[: count[0]]], pred, flags)

    _on_ranks(communicator, body)
    return done


@pytest.mark.parametrize("split", [False, True], ids=["unsplit", "split"])
@pytest.mark.parametrize("queues", [[[4, 1, 9, 39], [9, 2, 30, 4]], [[60, 1], [], [1, 2, 60]], [[], []]])
def test_claims_with_the_queue_as_on_the_host(queues: list[list[int]], split: bool) -> None:
    """The lowest rank that queued a vertex gives its claimed values, as the
    host-staged exchange and the claim all-reduce do; the union is the same
    (ascending, or in any order through the bitmap of every vertex once a
    graph is split), and so are the counts."""
    nccl = _NumpyNccl(len(queues))
    if split:
        graph = load_graph("rmat:6", cache=False)
        nccl.graph_parts("rmat:6", False, lambda: graph)
    host = HostStagedCommunicator(len(queues))
    results = {"nccl": _union_with_claims(nccl, queues), "host": _union_with_claims(host, queues)}
    union = sorted(set().union(*queues))
    pred, flags = np.full(64, -1, np.int32), np.zeros(64, np.int8)
    for rank in reversed(range(len(queues))):
        pred[queues[rank]] = [10 * rank + vertex for vertex in queues[rank]]
        flags[queues[rank]] = rank + 1
    for name, ranks in results.items():
        for items, got_pred, got_flags in ranks:
            assert (sorted(items) if name == "nccl" and split else items) == union
            np.testing.assert_array_equal(got_pred, pred)
            np.testing.assert_array_equal(got_flags, flags)
    entries = sum(len(queue) for queue in queues)
    assert host.exchanged().received == (entries * (4 + 4 + 1),) * len(queues)
    # Once the graph is split, NCCL also sends each rank's bitmap of its queue.
    bitmap = bitmap_bytes(64) if split else 0
    assert nccl.exchanged().sent == tuple(sent + bitmap for sent in host.exchanged().sent)
    assert nccl.exchanged().received == tuple(received + len(queues) * bitmap for received in host.exchanged().received)


@pytest.mark.parametrize("combine", [Combine.CLAIM, Combine.OR])
@pytest.mark.parametrize("ranks", [2, 3])
def test_dense_claims_and_ors_combine_as_on_the_host(
    combine: Combine, ranks: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dense claim or or is one gather and one combine of the rows: the first
    rank's change wins a claim, as on the host."""
    monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, "dense")
    base = np.full(100, -1, np.int32) if combine == Combine.CLAIM else np.zeros(100, np.int32)
    copies = []
    for rank in range(ranks):
        copy = base.copy()
        at = np.random.default_rng(20 + rank).choice(100, 30, replace=False)
        copy[at] = rank + 1 if combine == Combine.CLAIM else 1 << rank
        copies.append(copy)
    results = {}
    for name, communicator in (("nccl", _NumpyNccl(ranks)), ("host", HostStagedCommunicator(ranks))):
        buffers = [copy.copy() for copy in copies]

        def body(rank: int, communicator: Communicator, buffers: list[np.ndarray] = buffers) -> None:
            communicator.allreduce_buffer(rank, HostDevice(), buffers[rank], 100, DType.INT32, combine, base.copy())

        _on_ranks(communicator, body)
        results[name] = buffers
    for buffer in results["nccl"] + results["host"]:
        np.testing.assert_array_equal(buffer, results["host"][0])


@pytest.mark.parametrize("communicator", [HostStagedCommunicator, _NumpyNccl], ids=["host-staged", "nccl"])
def test_a_ranks_timer_starts_when_every_rank_is_ready(communicator: Callable[[int], Communicator]) -> None:
    """Rank 1 comes to its timer 0.3 s late (a slower upload); rank 0's timed
    region, one exchange, must not count the wait for it."""
    elapsed: dict[int, float] = {}

    def body(rank: int, communicator: Communicator) -> None:
        run = Run(HostDevice(), None, ["program"], io.StringIO(), rank=rank, communicator=communicator)  # type: ignore[arg-type]
        if rank == 1:
            time.sleep(0.3)
        run.start_timer()
        communicator.barrier(rank)  # the timed region's one exchange
        elapsed[rank] = run.stop_timer()

    _on_ranks(communicator(2), body)
    assert max(elapsed.values()) < 0.15, elapsed
