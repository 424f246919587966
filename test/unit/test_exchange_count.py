"""The host-staged communicator counts each collective's payload per rank
(`ExchangeCount`): an all-reduce sends and receives its whole vector, an
all-gather sends the rank's own queue and receives the union. Two ranks in two
threads, on a device that keeps its buffers in host memory."""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

from gir.dialects.host import Combine
from gir.protocol import DType
from gir.runtime.device import DTYPES
from gir.runtime.multi_device import ExchangeCount, HostStagedCommunicator


class _HostDevice:
    """The part of a `Device` the communicator uses; buffers are numpy arrays."""

    def to_host(self, buffer: np.ndarray, count: int, dtype: DType) -> np.ndarray:
        assert buffer.dtype == DTYPES[dtype]
        return buffer[:count].copy()

    def from_host(self, buffer: np.ndarray, values: np.ndarray) -> None:
        buffer[: values.size] = values

    def read_element(self, buffer: np.ndarray, index: int, dtype: DType) -> int:
        return int(buffer[index])

    def write_element(self, buffer: np.ndarray, index: int, value: int, dtype: DType) -> None:
        buffer[index] = value


def _on_two_ranks(body: Callable[[int, HostStagedCommunicator], None]) -> HostStagedCommunicator:
    """Runs `body(rank, communicator)` on ranks 0 and 1 at once."""
    communicator = HostStagedCommunicator(2)
    threads = [threading.Thread(target=body, args=(rank, communicator)) for rank in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return communicator


def test_an_allreduce_counts_its_vector_on_every_rank() -> None:
    def body(rank: int, communicator: HostStagedCommunicator) -> None:
        device = _HostDevice()
        values = np.full(10, rank + 1.0, np.float64)
        base = np.zeros(10, np.float64)
        communicator.allreduce_buffer(rank, device, values, 10, DType.FLOAT64, Combine.SUM, base)
        distances = np.array([rank, 5, 7], np.int32)
        communicator.allreduce_buffer(rank, device, distances, 3, DType.INT32, Combine.MIN, None)
        assert values[0] == 3.0

    exchanged = _on_two_ranks(body).exchanged()
    assert exchanged == ExchangeCount(2, (10 * 8 + 3 * 4,) * 2, (10 * 8 + 3 * 4,) * 2)
    assert exchanged.bytes == 2 * (10 * 8 + 3 * 4)


def test_an_allgather_counts_the_own_queue_sent_and_the_union_received() -> None:
    queues = {0: [4, 1, 9], 1: [9, 2]}

    def body(rank: int, communicator: HostStagedCommunicator) -> None:
        device = _HostDevice()
        items = np.zeros(16, np.int32)
        items[: len(queues[rank])] = queues[rank]
        count = np.array([len(queues[rank])], np.int32)
        communicator.allgather_queue(rank, device, items, 16, count)
        assert count[0] == 4  # 1, 2, 4, 9

    exchanged = _on_two_ranks(body).exchanged()
    assert exchanged == ExchangeCount(1, (3 * 4, 2 * 4), (4 * 4, 4 * 4))


def test_counts_of_two_runs_add_up() -> None:
    first = ExchangeCount(3, (12, 8), (16, 16))
    assert first + first == ExchangeCount(6, (24, 16), (32, 32))
