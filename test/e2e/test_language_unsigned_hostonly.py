"""End to end: programs that load no graph (`test/programs/lang_hostonly.gt`, run
without a GRAPH argument) and unsigned reductions and printing
(`test/programs/lang_unsigned.gt`), run on OpenCL (PoCL in CI) and CUDA where
present, compared with values computed on the CPU."""

from __future__ import annotations

import pytest

from test_language import run_program  # noqa: F401  (run_program: fixture)
from test_programs import TARGETS


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
