"""The host-staged communicator counts each collective's payload per rank
(`ExchangeCount`): an all-reduce sends and receives its whole vector, or, with
a base and few changed elements, the ranks' (index, value) pairs; an
all-gather sends the rank's own queue and receives the union. Two ranks in two
threads, on a device that keeps its buffers in host memory. The pairs combine
to what the whole vectors do, for every combine."""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np
import pytest

from gir.diagnostics import UserError
from gir.dialects.host import Combine
from gir.protocol import DType
from gir.runtime.device import DTYPES
from gir.runtime.multi_device import (
    EXCHANGE_FORMAT_VARIABLE,
    ClaimedBuffer,
    RANK_SWITCH_INTERVAL,
    SWITCH_INTERVAL_VARIABLE,
    ExchangeCount,
    ExchangeFormat,
    HostStagedCommunicator,
    apply_changes,
    changed_indices,
    choose_format,
    combine_arrays,
    from_bitmap,
    from_bitmaps,
    rank_switch_interval,
    to_bitmap,
)


class HostDevice:
    """The part of a `Device` the communicators use; buffers are numpy arrays
    (test_nccl_exchanges uses it too)."""

    def to_host(self, buffer: np.ndarray, count: int, dtype: DType) -> np.ndarray:
        assert buffer.dtype == DTYPES[dtype]
        return buffer[:count].copy()

    def from_host(self, buffer: np.ndarray, values: np.ndarray) -> None:
        buffer[: values.size] = values

    def read_element(self, buffer: np.ndarray, index: int, dtype: DType) -> int:
        return int(buffer[index])

    def write_element(self, buffer: np.ndarray, index: int, value: int, dtype: DType) -> None:
        buffer[index] = value

    load_seconds = 0.0
    """A `Run` reads it (the device's time spent loading graphs)."""

    def synchronize(self) -> None:
        """Nothing is queued: host arrays."""


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
        device = HostDevice()
        values = np.full(10, rank + 1.0, np.float64)
        base = np.zeros(10, np.float64)
        communicator.allreduce_buffer(rank, device, values, 10, DType.FLOAT64, Combine.SUM, base)
        distances = np.array([rank, 5, 7], np.int32)
        communicator.allreduce_buffer(rank, device, distances, 3, DType.INT32, Combine.MIN, None)
        assert values[0] == 3.0

    exchanged = _on_two_ranks(body).exchanged()
    assert exchanged == ExchangeCount(2, (10 * 8 + 3 * 4,) * 2, (10 * 8 + 3 * 4,) * 2)
    assert exchanged.bytes == 2 * (10 * 8 + 3 * 4)


def _gather_queues(queues: dict[int, list[int]]) -> HostStagedCommunicator:
    """The union of two ranks' queues, checked on each rank."""
    union = sorted(set(queues[0]) | set(queues[1]))

    def body(rank: int, communicator: HostStagedCommunicator) -> None:
        device = HostDevice()
        items = np.zeros(16, np.int32)
        items[: len(queues[rank])] = queues[rank]
        count = np.array([len(queues[rank])], np.int32)
        communicator.allgather_queue(rank, device, items, 16, count)
        assert list(items[: count[0]]) == union

    return _on_two_ranks(body)


def test_an_allgather_counts_the_own_queue_sent_and_the_union_received() -> None:
    exchanged = _gather_queues({0: [4000, 1, 9], 1: [9, 2]}).exchanged()
    assert exchanged == ExchangeCount(1, (3 * 4, 2 * 4), (4 * 4, 4 * 4))


def test_a_queue_of_vertices_close_together_goes_as_a_bitmap() -> None:
    # 7 vertices below 40: two words of bitmap (8 bytes) a rank, not 28 bytes of list
    exchanged = _gather_queues({0: [4, 1, 9, 39], 1: [9, 2, 30]}).exchanged()
    assert exchanged == ExchangeCount(1, (8, 8), (16, 16))


def test_the_dense_format_gathers_queues_as_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, "dense")
    exchanged = _gather_queues({0: [4, 1, 9, 39], 1: [9, 2, 30]}).exchanged()
    assert exchanged == ExchangeCount(1, (4 * 4, 3 * 4), (6 * 4, 6 * 4))


def _queued_claims(
    queues: dict[int, list[int]], claimed: dict[int, list[int]], ranks: int = 2
) -> tuple[list[np.ndarray], list[list[int]], HostStagedCommunicator]:
    """Each rank's `pred` (100 elements, -1 but at its queued vertices, where
    it holds `claimed`) and queue after the union with the claims, by rank."""
    preds = [np.full(100, -1, np.int32) for _ in range(ranks)]
    unions: list[list[int]] = [[] for _ in range(ranks)]
    communicator = HostStagedCommunicator(ranks)

    def body(rank: int) -> None:
        preds[rank][queues[rank]] = claimed[rank]
        items = np.zeros(16, np.int32)
        items[: len(queues[rank])] = queues[rank]
        count = np.array([len(queues[rank])], np.int32)
        claims = [ClaimedBuffer(preds[rank], 100, DType.INT32)]
        communicator.allgather_queue(rank, HostDevice(), items, 16, count, claims)
        unions[rank] = list(items[: count[0]])

    threads = [threading.Thread(target=body, args=(rank,)) for rank in range(ranks)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return preds, unions, communicator


def test_claims_go_with_the_queue_and_the_lowest_rank_wins() -> None:
    """Both ranks claimed vertex 7, with different values: rank 0's is kept,
    as the claim all-reduce keeps the first rank that changed an element."""
    queues, claimed = {0: [7, 3], 1: [9, 7]}, {0: [11, 10], 1: [21, 20]}
    preds, unions, communicator = _queued_claims(queues, claimed)
    expected = np.full(100, -1, np.int32)
    expected[[3, 7, 9]] = [10, 11, 21]
    copies = [np.full(100, -1, np.int32) for _ in range(2)]
    for rank, copy in enumerate(copies):
        copy[queues[rank]] = claimed[rank]
    np.testing.assert_array_equal(combine_arrays(copies, Combine.CLAIM, np.full(100, -1, np.int32)), expected)
    for pred, union in zip(preds, unions, strict=True):
        np.testing.assert_array_equal(pred, expected)
        assert union == [3, 7, 9]
    # each entry a vertex and its int32 value, 8 bytes; every rank receives all four entries
    assert communicator.exchanged() == ExchangeCount(1, (16, 16), (32, 32))


@pytest.mark.parametrize("queues", [{0: [], 1: []}, {0: [], 1: [5]}, {0: [5], 1: [], 2: []}])
def test_claims_of_empty_queues(queues: dict[int, list[int]]) -> None:
    claimed = {rank: [30 + rank] * len(queue) for rank, queue in queues.items()}
    preds, unions, communicator = _queued_claims(queues, claimed, len(queues))
    expected = np.full(100, -1, np.int32)
    for rank, queue in queues.items():
        expected[queue] = claimed[rank]
    for pred, union in zip(preds, unions, strict=True):
        np.testing.assert_array_equal(pred, expected)
        assert union == sorted(set().union(*queues.values()))
    entries = sum(len(queue) for queue in queues.values())
    assert communicator.exchanged().received == (8 * entries,) * len(queues)


def test_a_queue_that_overflowed_cannot_carry_its_claims() -> None:
    communicator = HostStagedCommunicator(1)
    items, count, pred = np.zeros(4, np.int32), np.array([5], np.int32), np.zeros(8, np.int32)
    with pytest.raises(UserError, match="a queue of 4 entries got 5 in a partitioned launch"):
        communicator.allgather_queue(0, HostDevice(), items, 4, count, [ClaimedBuffer(pred, 8, DType.INT32)])


def _claims(rank: int) -> np.ndarray:
    """A vector of 100 elements, -1 but where `rank` claimed one (3 on rank 0, 3 and 7 on rank 1)."""
    values = np.full(100, -1, np.int32)
    values[[3, 7][: rank + 1]] = [10 + rank, 20 + rank][: rank + 1]
    return values


def _claim_on_two_ranks(exchange: ExchangeFormat = ExchangeFormat.AUTO) -> HostStagedCommunicator:
    def body(rank: int, communicator: HostStagedCommunicator) -> None:
        values = _claims(rank)
        base = np.full(100, -1, np.int32)
        communicator.allreduce_buffer(rank, HostDevice(), values, 100, DType.INT32, Combine.CLAIM, base, exchange)
        assert values[3] == 10 and values[7] == 21 and (np.delete(values, [3, 7]) == -1).all()

    return _on_two_ranks(body)


def test_an_allreduce_of_few_changes_counts_the_pairs() -> None:
    exchanged = _claim_on_two_ranks().exchanged()
    assert exchanged == ExchangeCount(1, (1 * 8, 2 * 8), (3 * 8, 3 * 8))


def test_the_dense_format_sends_the_whole_vector(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _claim_on_two_ranks(ExchangeFormat.DENSE).exchanged() == ExchangeCount(1, (400, 400), (400, 400))
    monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, "dense")  # overrides the op's auto
    assert _claim_on_two_ranks().exchanged() == ExchangeCount(1, (400, 400), (400, 400))


def test_the_environment_overrides_a_dense_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, "pairs")
    assert _claim_on_two_ranks(ExchangeFormat.DENSE).exchanged() == ExchangeCount(1, (8, 16), (24, 24))


def test_the_bitmap_format_sends_a_bitmap_and_the_changed_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, "bitmap")
    # a bitmap of 100 elements is 4 words (16 bytes); then 4 bytes a changed value
    assert _claim_on_two_ranks().exchanged() == ExchangeCount(1, (16 + 4, 16 + 8), (44, 44))


def test_auto_picks_the_fewest_bytes() -> None:
    auto = ExchangeFormat.AUTO
    # sent by both ranks: dense 8000 bytes; pairs 8 a change; bitmap 2 * 128 + 4 a change
    assert choose_format(auto, [3, 5], 1000, 4) == ExchangeFormat.PAIRS
    assert choose_format(auto, [300, 200], 1000, 4) == ExchangeFormat.BITMAP
    assert choose_format(auto, [990, 980], 1000, 4) == ExchangeFormat.DENSE
    assert choose_format(ExchangeFormat.PAIRS, [900, 800], 1000, 4) == ExchangeFormat.PAIRS


def test_a_bitmap_holds_its_indices() -> None:
    indices = np.array([0, 5, 31, 32, 99], np.int32)
    bitmap = to_bitmap(np, indices, 100)
    assert bitmap.nbytes == 16
    np.testing.assert_array_equal(from_bitmap(np, bitmap, 100), indices)


def test_the_ranks_bitmaps_unpack_together() -> None:
    rows = [np.array(r, np.int32) for r in ([0, 5, 99], [], [31, 32])]
    bitmaps = np.stack([to_bitmap(np, r, 100) for r in rows])
    unpacked = from_bitmaps(np, bitmaps, [r.size for r in rows])
    assert [list(r) for r in unpacked] == [list(r) for r in rows]
    assert all(r.dtype == np.int32 for r in unpacked)


def test_an_allreduce_of_many_changes_sends_the_whole_vector() -> None:
    def body(rank: int, communicator: HostStagedCommunicator) -> None:
        values = np.arange(100, dtype=np.int32) - rank
        base = np.full(100, 99, np.int32)
        communicator.allreduce_buffer(rank, HostDevice(), values, 100, DType.INT32, Combine.MIN, base, ExchangeFormat.AUTO)
        assert (values == np.arange(100) - 1).all()

    assert _on_two_ranks(body).exchanged() == ExchangeCount(1, (400, 400), (400, 400))


def test_an_unknown_format_is_a_user_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, "sparse")
    with pytest.raises(UserError, match="GIR_EXCHANGE_FORMAT must be one of dense, pairs, bitmap, auto, not 'sparse'"):
        HostStagedCommunicator(2)


@pytest.mark.parametrize("combine", list(Combine))
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.uint8])
def test_the_changed_elements_combine_as_the_whole_copies(combine: Combine, dtype: type) -> None:
    if combine in (Combine.OR, Combine.UMIN, Combine.UMAX) and np.dtype(dtype).kind == "f":
        return  # integers only (the verifier's rule)
    random = np.random.default_rng(7)
    base = random.integers(0, 100, 500).astype(dtype)
    copies = []
    for _ in range(3):
        copy = base.copy()
        at = random.choice(500, 60, replace=False)
        update = random.integers(0, 120, 60).astype(dtype)
        if combine in (Combine.MIN, Combine.UMIN):
            update = np.minimum(copy[at], update)
        elif combine in (Combine.MAX, Combine.UMAX):
            update = np.maximum(copy[at], update)
        elif combine == Combine.OR:
            update = copy[at] | update
        elif combine == Combine.SUM:
            update = copy[at] + update
        copy[at] = update
        copies.append(copy)
    changes = [(changed_indices(np, copy, base), copy[changed_indices(np, copy, base)]) for copy in copies]
    np.testing.assert_allclose(apply_changes(np, base, changes, combine), combine_arrays(copies, combine, base), rtol=1e-6)


def test_the_switch_interval_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert rank_switch_interval() == RANK_SWITCH_INTERVAL
    monkeypatch.setenv(SWITCH_INTERVAL_VARIABLE, "0.005")
    assert rank_switch_interval() == 0.005
    monkeypatch.setenv(SWITCH_INTERVAL_VARIABLE, "-1")
    with pytest.raises(UserError, match="GIR_SWITCH_INTERVAL must be a positive number of seconds, not '-1'"):
        rank_switch_interval()


def test_counts_of_two_runs_add_up() -> None:
    first = ExchangeCount(3, (12, 8), (16, 16))
    assert first + first == ExchangeCount(6, (24, 16), (32, 32))


def test_the_environment_gives_a_min_allreduce_its_base(monkeypatch: pytest.MonkeyPatch) -> None:
    """A `min` all-reduce needs no base dense, so the pass inserts none; with
    `GIR_EXCHANGE_FORMAT=pairs` the lowering asks `host-partition` for pairs,
    so the clone the changed elements are told by is there (SSSP on a road
    once sent every distance each round: 1.4 TB a run on 2 GPUs)."""
    from pathlib import Path

    from gir.api import compile as compile_program_file
    from gir.api import lower_for_run

    program = compile_program_file(str(Path(__file__).parents[1] / "programs" / "sssp_delta.gt"))

    def allreduces() -> str:
        text = str(lower_for_run(program._main().clone(), devices=2))
        return "\n".join(line for line in text.splitlines() if "host.allreduce" in line)

    assert "min" in allreduces() and "pairs" not in allreduces()
    monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, "pairs")
    assert "pairs" in allreduces()
