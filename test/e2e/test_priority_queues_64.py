"""End to end: priority queues of 64-bit priorities (`test/programs/lang_pq_int64.gt`,
`lang_pq_uint64.gt`), compiled through the whole pipeline, run on OpenCL (PoCL in
CI) and CUDA where present, and their printed output compared with the CPU's
shortest paths. The distances start at 2^40 + 3 (int64) or just below 2^63
(uint_64, so that they cross it), where 32-bit or signed priorities give other
answers; deltas go up to 2^33, wider than any 32-bit bucket."""

from __future__ import annotations

import io

import numpy as np
import pytest
from xdsl.dialects.builtin import IntegerAttr, i64

from gir.api import lower_for_run
from gir.dialects.schedule import FrontierCreationAttr, Toggle, ToggleAttr
from gir.runtime import reference
from gir.runtime.device import find_nvcc
from gir.runtime.graph import Graph, load_graph
from gir.tools.run import parse_program
from test_language import PROGRAMS, graphs
from test_programs import TARGETS, with_schedule

QUEUES = {
    "lang_pq_int64.gt": (2**40 + 3, 2**63 - 1),
    "lang_pq_uint64.gt": (2**63 - 8, 2**64 - 1),
}
"""Each program's distance at the source and its "no priority" (the largest value
of the priority type, which unreached vertices keep)."""

DELTAS = (1, 7, 1000, 2**33)

SCHEDULES = [
    pytest.param(
        {
            "bucket_fusion": ToggleAttr(Toggle.ENABLED),
            "bucket_fusion_threshold": IntegerAttr(64, i64),
        },
        id="bucket_fusion",
    ),
    pytest.param(
        {"frontier_creation": FrontierCreationAttr("UNFUSED_BOOLMAP")},
        id="boolmap_buckets",
    ),
]
"""Schedules the programs' own (fused bucket creation, no bucket fusion) does not
cover: bucket fusion reruns small rounds of a bucket inside the traversal, and an
unfused boolmap creation fills each round's bucket through a map."""


def expected(program: str, graph: Graph, source: int) -> list[str]:
    """What `program GRAPH SOURCE DELTA` prints, from the CPU's shortest paths:
    the vertices reached, the sum of their distances, the same weighted by vertex
    id + 1, the smallest priority (the source's) and the largest."""
    base, none = QUEUES[program]
    dist = reference.sssp_distances(graph, source)
    found = np.flatnonzero(dist != reference.UNREACHABLE_DISTANCE)
    lengths = [int(length) for length in dist[found]]
    largest = none if found.size < graph.num_vertices else base + max(lengths)
    return [
        str(found.size),
        str(sum(lengths)),
        str(sum(length * (int(vertex) + 1) for length, vertex in zip(lengths, found))),
        str(base),
        str(largest),
    ]


def _mismatches(run, program: str, tmp_path) -> list[str]:
    """The runs of `program` (by `run(spec, source, delta) -> printed`) over the
    weighted test graphs, both end vertices as sources and every delta, whose
    output is not the expected one."""
    failures = []
    for name, spec in graphs(tmp_path, weighted=True).items():
        graph = load_graph(spec, cache=False)
        for source in {0, graph.num_vertices - 1}:
            wanted = expected(program, graph, source)
            for delta in DELTAS:
                printed = run(spec, source, delta)
                if printed != wanted:
                    failures.append(
                        f"{name} {source} {delta}: printed {printed}, expected {wanted}"
                    )
    return failures


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("program", list(QUEUES))
def test_64bit_priority_queue(program, target, run_program, tmp_path):
    """Delta-stepping over int64 and uint_64 priorities far above 2^32, with the
    type's largest value as "no priority": the buckets, the bucket search and
    the atomic updates keep all 64 bits (uint_64 comparing unsigned)."""

    def run(spec: str, source: int, delta: int) -> list[str]:
        return run_program(program, target, [spec, str(source), str(delta)])

    failures = _mismatches(run, program, tmp_path)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("options", SCHEDULES)
@pytest.mark.parametrize("program", list(QUEUES))
def test_64bit_priority_queue_schedules(program, options, target, devices, tmp_path):
    """The same under bucket fusion and under unfused (boolmap) bucket creation."""
    from gir.executor import compile_program

    name, index = target
    module = with_schedule(parse_program(str(PROGRAMS / program)), **options)
    executable = compile_program(lower_for_run(module, check_bounds=True), name)
    device = devices(name, index)

    def run(spec: str, source: int, delta: int) -> list[str]:
        out = io.StringIO()
        executable.run(device, [program, spec, str(source), str(delta)], out)
        return out.getvalue().split()

    failures = _mismatches(run, program, tmp_path)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_64bit_priority_sum(target, run_program, tmp_path):
    """k-core peeling with `updatePrioritySum` on int64 priorities that start at
    2^40 + the degree (`lang_kcore_int64.gt`): the decrement and the threshold
    are widened to the queue's type, and the core numbers match the CPU's."""
    failures = []
    for name, spec in graphs(tmp_path).items():
        cores = reference.core_numbers(load_graph(spec, cache=False))
        wanted = [str(int(cores.max(initial=0))), str(int(cores.sum()))]
        printed = run_program("lang_kcore_int64.gt", target, [spec])
        if printed != wanted:
            failures.append(f"{name}: printed {printed}, expected {wanted}")
    assert not failures, "\n".join(failures)


@pytest.mark.skipif(find_nvcc() is None, reason="nvcc is not installed")
@pytest.mark.parametrize("program", list(QUEUES))
def test_complete_cuda_program_builds(program, complete_cuda):
    """The complete `.cu` of a 64-bit priority queue builds and links with nvcc
    (no GPU needed), its atomic mins on the 64-bit priorities included."""
    source, problem = complete_cuda(program)
    atomic = "atomicMin((unsigned long long*)&dist[dst]" if "uint64" in program else "atomicMin(&dist[dst]"
    assert atomic in source
    assert problem is None, problem[-4000:]
