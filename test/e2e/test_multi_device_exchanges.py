"""End to end: what a partitioned run exchanges is counted, and the count is
what the program's exchanges imply. PageRank on rmat:8 over two OpenCL devices
(PoCL CPU devices in CI): in the dense exchange format the partitioned IR's
`host.allreduce`s each exchange a vertex vector, as many times as their loops
run; `Program.run`'s `Result.exchanged` and gir-run's stderr line must say
exactly that. The format `auto` sends fewer bytes where a device changed only
part of the vector, and never more, for the same result. Where the
process sees fewer than two OpenCL devices (PoCL started earlier by another
test module), the module's cases run in one pytest process of their own that
asks PoCL for two, and each case reports its outcome there."""

from __future__ import annotations

import os
import re
from pathlib import Path

os.environ.setdefault("POCL_DEVICES", "pthread pthread")

import numpy as np
import pytest
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue

from gir.api import compile as compile_program_file
from gir.api import lower_for_run
from gir.dialects.host import AllGatherOp, AllocOp, AllReduceOp, GraphSize, GraphSizeOp
from gir.runtime.graph import load_graph
from gir.runtime.multi_device import EXCHANGE_FORMAT_VARIABLE
from gir.tools.run import main as gir_run
from own_process import check_in_own_process

PAGERANK = Path(__file__).parents[1] / "programs" / "pagerank.gt"
GRAPH = "rmat:8"
DEVICES = 2
_CHILD = "GIR_TEST_EXCHANGES_CHILD"


def _opencl_device_count() -> int:
    try:
        import pyopencl as cl
    except ImportError:
        return 0
    return sum(len(platform.get_devices()) for platform in cl.get_platforms())


def _needs_two_devices(request: pytest.FixtureRequest) -> bool:
    """True when this process can run the case; else asserts the case passed in
    the child process that ran this module with two PoCL devices
    (`own_process`; or skips), and returns False."""
    if _opencl_device_count() >= DEVICES:
        return True
    if os.environ.get(_CHILD) or _opencl_device_count() == 0:
        pytest.skip(f"fewer than {DEVICES} OpenCL devices")
    check_in_own_process(request, {"POCL_DEVICES": " ".join(["pthread"] * DEVICES), _CHILD: "1"})
    return False


def _constant(value: SSAValue) -> int:
    assert isinstance(value.owner, arith.ConstantOp), f"a loop bound that is not a constant: {value}"
    attribute = value.owner.value
    assert isinstance(attribute, IntegerAttr)
    return attribute.value.data


def _trips(op: Operation) -> int:
    """How many times `op` runs in one run of `main`: the product of the trip
    counts of the constant-bounded `scf.for`s around it."""
    trips = 1
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ForOp):
            lower, upper, step = (_constant(v) for v in (parent.lb, parent.ub, parent.step))
            trips *= max(0, -(-(upper - lower) // step))
        parent = parent.parent_op()
    return trips


def _expected_exchanges(module: ModuleOp, vertices: int) -> tuple[int, int]:
    """(collectives, payload bytes) one rank exchanges in one run: each
    all-reduce of a vertex vector (`host.alloc` of the vertex count) sends its
    `vertices` elements, as many times as its loops run."""
    collectives = payload = 0
    for op in module.walk():
        assert not isinstance(op, AllGatherOp), "a queue's exchange depends on the traversal, not only the program"
        if not isinstance(op, AllReduceOp):
            continue
        alloc = op.buffer.owner
        assert isinstance(alloc, AllocOp) and isinstance(alloc.count.owner, GraphSizeOp)
        assert alloc.count.owner.what.data == GraphSize.VERTICES
        element_bytes = op.buffer.type.get_element_type().bitwidth // 8
        collectives += _trips(op)
        payload += _trips(op) * vertices * element_bytes
    return collectives, payload


@pytest.fixture(scope="module")
def expected() -> tuple[int, int]:
    """PageRank's exchanges per rank and run on GRAPH, from its partitioned IR."""
    program = compile_program_file(str(PAGERANK))
    module = lower_for_run(program._main().clone(), devices=DEVICES)
    collectives, payload = _expected_exchanges(module, load_graph(GRAPH).num_vertices)
    assert collectives > 0 and payload > 0
    return collectives, payload


@pytest.fixture
def dense(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every all-reduce sends its whole vector (also in a child process)."""
    monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, "dense")


def test_program_run_counts_the_exchanges_the_program_implies(
    expected: tuple[int, int], dense: None, request: pytest.FixtureRequest
) -> None:
    if not _needs_two_devices(request):
        return
    collectives, payload = expected
    result = compile_program_file(str(PAGERANK)).run(GRAPH, target="opencl", devices=DEVICES, trials=2)
    assert result.exchanged is not None
    assert result.exchanged.collectives == collectives
    assert result.exchanged.sent == (payload,) * DEVICES
    assert result.exchanged.received == (payload,) * DEVICES  # an all-reduce returns its vector
    assert result.exchanged.bytes == DEVICES * payload


def test_gir_run_prints_the_exchanges_once(
    expected: tuple[int, int], dense: None, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    if not _needs_two_devices(request):
        return
    collectives, payload = expected
    trials = 2
    argv = [str(PAGERANK), GRAPH, "--target", "opencl", "--devices", str(DEVICES), "--trials", str(trials)]
    assert gir_run(argv) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if "exchanged" in line]
    assert len(lines) == 1, lines
    match = re.fullmatch(
        r"gir-run: exchanged (\d+) bytes \(payload sent, all ranks\) in (\d+) collectives per rank "
        r"over (\d+) trial\(s\): (\d+) bytes per trial",
        lines[0],
    )
    assert match is not None, lines[0]
    total, counted, over, per_trial = (int(group) for group in match.groups())
    assert (total, counted, over, per_trial) == (
        trials * DEVICES * payload, trials * collectives, trials, DEVICES * payload
    )  # fmt: skip


def test_the_auto_format_sends_no_more_for_the_same_result(
    expected: tuple[int, int], request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not _needs_two_devices(request):
        return
    collectives, payload = expected
    program = compile_program_file(str(PAGERANK))
    results = {}
    for format in ("dense", "auto"):
        monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, format)
        results[format] = program.run(GRAPH, target="opencl", devices=DEVICES)
    dense_exchange, auto_exchange = results["dense"].exchanged, results["auto"].exchanged
    assert dense_exchange is not None and auto_exchange is not None
    assert dense_exchange.bytes == DEVICES * payload
    assert auto_exchange.collectives == collectives
    assert auto_exchange.bytes <= dense_exchange.bytes
    np.testing.assert_allclose(results["auto"]["rank"], results["dense"]["rank"], rtol=1e-5)


# SSSP with a delta of 32: about 40 buckets to the farthest vertex (a delta of 2
# made 600, and 5960 exchanges a run), each format as sparse against dense. (BFS's claims go with its queue in every
# format: test_bfs_claims_go_with_the_queue_in_every_format.)
@pytest.mark.parametrize(("program", "graph", "args"), [("sssp_delta.gt", "rmat:10,w", [0, 32])])
def test_frontier_exchanges_send_fewer_bytes_in_every_format(
    program: str, graph: str, args: list[int], request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A traversal over a frontier sends its changed elements: in each format
    the run validates, and pairs, bitmap and auto send fewer bytes than dense."""
    if not _needs_two_devices(request):
        return
    loaded = compile_program_file(str(PAGERANK.parent / program))
    sent = {}
    for format in ("dense", "pairs", "bitmap", "auto"):
        monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, format)
        result = loaded.run(graph, *args, target="opencl", devices=DEVICES, validate=True)
        assert result.exchanged is not None
        sent[format] = result.exchanged.bytes
    assert max(sent["pairs"], sent["bitmap"], sent["auto"]) < sent["dense"], sent
    assert sent["auto"] <= min(sent["pairs"], sent["bitmap"]), sent


def test_bfs_claims_go_with_the_queue_in_every_format(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BFS's `pred` claims travel with its queue (`host.allgather ... claims`):
    one collective a level, with no all-reduce of `pred` in any format, the
    same bytes in each (a queued vertex and its `pred`, 8 bytes an entry),
    fewer than the whole `pred` vector a level alone would be, and the run
    validates."""
    if not _needs_two_devices(request):
        return
    program = compile_program_file(str(PAGERANK.parent / "bfs.gt"))
    module = lower_for_run(program._main().clone(), devices=DEVICES)
    assert not any(isinstance(op, AllReduceOp) for op in module.walk())
    assert any(isinstance(op, AllGatherOp) and op.claims for op in module.walk())
    vertices = load_graph("rmat:10").num_vertices
    counts = set()
    for format in ("dense", "pairs", "bitmap", "auto"):
        monkeypatch.setenv(EXCHANGE_FORMAT_VARIABLE, format)
        result = program.run("rmat:10", 3, target="opencl", devices=DEVICES, validate=True)
        assert result.exchanged is not None
        counts.add(result.exchanged)
    (exchanged,) = counts
    assert exchanged.bytes % 8 == 0 and 0 < exchanged.bytes < exchanged.collectives * DEVICES * 4 * vertices


def test_one_device_exchanges_nothing() -> None:
    result = compile_program_file(str(PAGERANK)).run(GRAPH, target="opencl")
    assert result.exchanged is None


@pytest.mark.parametrize("format", ["AUTO"])
def test_the_schedule_sets_the_exchange_format(
    format: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`program->configExchange(FORMAT)`: SSSP's `min` all-reduces get their base,
    the run validates and sends fewer bytes than the same program dense."""
    if not _needs_two_devices(request):
        return
    monkeypatch.delenv(EXCHANGE_FORMAT_VARIABLE, raising=False)
    text = (PAGERANK.parent / "sssp_delta.gt").read_text()
    section = "" if "\nschedule:" in text else "\nschedule:\n"
    scheduled = tmp_path / "sssp_scheduled.gt"
    scheduled.write_text(f"{text}{section}    program->configExchange({format});\n")
    sent = {}
    for path in (PAGERANK.parent / "sssp_delta.gt", scheduled):
        result = compile_program_file(str(path)).run("rmat:10,w", 0, 32, target="opencl", devices=DEVICES, validate=True)
        assert result.exchanged is not None
        sent[path.name] = result.exchanged.bytes
    assert sent["sssp_scheduled.gt"] < sent["sssp_delta.gt"], sent
