"""End to end: programs that load no graph (`test/programs/lang_hostonly.gt`, run
without a GRAPH argument) and unsigned reductions and printing
(`test/programs/lang_unsigned.gt`), run on OpenCL (PoCL in CI) and CUDA where
present, compared with values computed on the CPU."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from gir.api import lower_for_run
from gir.executor import compile_program
from gir.runtime.graph import load_graph
from gir.tools.run import parse_program
from test_language import graphs
from test_programs import TARGETS

PROGRAMS = Path(__file__).parents[1] / "programs"


def hostonly_expected(limit: int) -> tuple[list[str], float]:
    """What `lang_hostonly.gt LIMIT` prints, from trial division in Python: the
    integer lines, and the mean gap between primes (the float line). The max is
    over the whole 1000-element vector, whose unused elements are 0."""
    primes = [n for n in range(2, limit) if all(n % d for d in range(2, int(n**0.5) + 1))]
    beyond = next((p for p in primes if p * p > limit), 0)
    largest = max(primes, default=0)
    mean = largest / len(primes) if primes else 0.0
    return [str(len(primes)), str(sum(primes)), str(largest), str(beyond)], mean


@pytest.mark.parametrize("target", TARGETS)
def test_program_without_graph(target, run_program):
    """A program of scalars and fixed-size vectors runs with argv[1] its first
    argument (no graph), its vector reductions as device kernels."""
    failures = []
    for limit in (0, 2, 3, 30, 100, 1000):
        printed = run_program("lang_hostonly.gt", target, [str(limit)])
        expected, mean = hostonly_expected(limit)
        if printed[:4] != expected or abs(float(printed[4]) - mean) > 1e-4 * max(1.0, mean):
            failures.append(f"LIMIT {limit}: printed {printed}, expected {expected} and {mean}")
    assert not failures, "\n".join(failures)


def unsigned_expected(graph) -> dict[str, np.ndarray]:
    """The vectors `lang_unsigned.gt` computes, with numpy's unsigned compares:
    each vertex keeps the smallest and largest value its in-neighbours offer."""
    n = graph.num_vertices
    src = np.asarray(graph.src, dtype=np.int64)
    dst = np.asarray(graph.dst, dtype=np.int64)
    odd = src % 2 == 1
    small = np.where(odd, src + 3_000_000_000, src).astype(np.uint32)
    wide = np.where(odd, src.astype(np.uint64) * np.uint64(3) + np.uint64(1 << 63), src.astype(np.uint64))
    low = np.full(n, np.iinfo(np.uint32).max, np.uint32)
    high = np.zeros(n, np.uint32)
    low64 = np.full(n, np.iinfo(np.uint64).max, np.uint64)
    high64 = np.zeros(n, np.uint64)
    np.minimum.at(low, dst, small)
    np.maximum.at(high, dst, small)
    np.minimum.at(low64, dst, wide)
    np.maximum.at(high64, dst, wide)
    return {"low": low, "high": high, "low64": low64, "high64": high64}


@pytest.mark.parametrize("target", TARGETS)
def test_unsigned_min_max_and_printing(target, devices, tmp_path):
    """`min=`/`max=` of uint values above 2^31 and uint_64 values above 2^63
    compare as unsigned on the device, and so does the old value that tells
    whether `low` changed (the size of applyModified's frontier); the vectors
    come back as uint32/uint64 and uint_64 values above 2^63 print as unsigned."""
    name, index = target
    module = lower_for_run(parse_program(str(PROGRAMS / "lang_unsigned.gt")), check_bounds=True)
    executable = compile_program(module, name)
    failures = []
    for graph_name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        out = io.StringIO()
        result = executable.run(devices(name, index), ["lang_unsigned.gt", spec], out)
        expected = unsigned_expected(graph)
        for vector, values in expected.items():
            got = result.globals[vector]
            if got.dtype != values.dtype or not np.array_equal(got, values):
                failures.append(f"{graph_name}: {vector} is {got} ({got.dtype}), expected {values}")
        lines = [
            expected["high"].max(initial=0), expected["low"].min(initial=2**32 - 1),
            expected["high64"].max(initial=0), expected["low64"].min(initial=2**64 - 1),
            2**64 - 1, 2**63, np.count_nonzero(np.bincount(graph.dst, minlength=graph.num_vertices)),
        ]
        if out.getvalue().split() != [str(int(line)) for line in lines]:
            failures.append(f"{graph_name}: printed {out.getvalue().split()}, expected {lines}")
    assert not failures, "\n".join(failures)
