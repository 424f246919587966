"""The NCCL communicator's exchanges of changed elements and of queues
(`gir.runtime.nccl`), run without a GPU: numpy stands in for cupy and an
in-process all-gather between threads for NCCL's, so that the logic (counts,
formats, padding, bitmaps, the combine into the base) is checked where CI
runs. Each case runs the host-staged communicator alike and compares: the same
results and the same counts."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from gir.dialects.host import Combine, ExchangeFormat
from gir.protocol import DType
from gir.runtime.multi_device import EXCHANGE_FORMAT_VARIABLE, Communicator, HostStagedCommunicator
from gir.runtime.nccl import NcclCommunicator
from test_exchange_count import HostDevice


class _Gathered(np.ndarray):
    """An all-gather's result; `get()` copies it to the host, as cupy's does."""

    def get(self) -> np.ndarray:
        return np.asarray(self).copy()


class _NumpyNccl(NcclCommunicator):
    """NcclCommunicator on numpy buffers: its all-gathers meet at a barrier."""

    def __init__(self, size: int):
        Communicator.__init__(self, size)
        self._cupy = np
        self._barrier = threading.Barrier(size)
        self._slots: list[Any] = [None] * size

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
    monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, format)
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
    for name, communicator in (("nccl", _NumpyNccl(ranks)), ("host", HostStagedCommunicator(ranks))):
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


@pytest.mark.parametrize("format", ["dense", "bitmap", "auto"])
@pytest.mark.parametrize("queues", [[[4, 1, 9, 39], [9, 2, 30]], [[4000, 1], [9, 2], []]])
def test_queue_unions_as_on_the_host(format: str, queues: list[list[int]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, format)
    union = sorted(set().union(*queues))
    counts = {}
    for name, communicator in (("nccl", _NumpyNccl(len(queues))), ("host", HostStagedCommunicator(len(queues)))):

        def body(rank: int, communicator: Communicator) -> None:
            items = np.full(16, -7, np.int32)
            items[: len(queues[rank])] = queues[rank]
            count = np.array([len(queues[rank])], np.int32)
            communicator.allgather_queue(rank, HostDevice(), items, 16, count)
            assert list(items[: count[0]]) == union

        _on_ranks(communicator, body)
        counts[name] = communicator.exchanged()
    assert counts["nccl"] == counts["host"]
