#!/usr/bin/env bash
# Sets up what the tests need (Python packages; PoCL for OpenCL on the CPU when no
# OpenCL platform is present) and runs every test: lit (FileCheck) and pytest.
#
# lit and pytest run at the same time, each on every core (lit's workers and
# pytest-xdist's `-n auto`), so neither leaves a core idle while the other's
# slowest tests finish. pytest-xdist hands out whole test modules
# (`--dist loadfile`), so a module's fixtures (programs compiled once, nvcc
# batches, a built wheel) are made by one worker, not by each; the longest
# modules first (test/conftest.py orders them; `--no-loadscope-reorder` keeps
# that order instead of xdist's most-tests-first), so both workers end together.
# lit's output comes first, with its time; pytest's follows
# as it runs (its ten slowest tests listed), ending with its summary line. Exits non-zero if either fails, or if pytest
# collects no tests (its exit status 5).
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/setup.sh
# gir's bytecode, compiled once: where PYTHONDONTWRITEBYTECODE is set (this
# project's development machines set it), every process a test starts would
# compile gir's modules from source again, about 0.4 s each.
python3 -m compileall -q -j 0 gir
# The same for the tests: pytest caches each test module's assertion-rewritten
# bytecode only where bytecode may be written, else each worker and child
# process parses and rewrites every module again (seconds a process).
unset PYTHONDONTWRITEBYTECODE
# PoCL compiles each OpenCL program (clang) and, at its first launch, each kernel
# (LLVM, then a link): where its kernel cache is cold, as on a fresh CI machine,
# that was a third of pytest's CPU time (552 CPU-s cold against 374 warm). Its
# CBS work-group method compiles kernels faster than the default (loopvec) and
# runs the tests' kernels as fast: 485 CPU-s cold, with the smaller SSSP deltas
# of the multi-device tests. (-cl-opt-disable builds faster still, but ran
# blocked PageRank six times slower: more than it saved.) A caller's choice is kept.
export POCL_WORK_GROUP_METHOD="${POCL_WORK_GROUP_METHOD-cbs}"
# The tests never touch the user's graph cache (~/.cache/gir): lit's RUN lines
# share a scratch one, and pytest gives every test its own (test/conftest.py).
scratch=$(mktemp -d)
export GIR_CACHE_DIR="$scratch/cache"
trap 'rm -rf "$scratch"' EXIT

python3 -m pytest -q -n auto --dist loadfile --no-loadscope-reorder --durations=10 test/unit test/e2e >"$scratch/pytest.log" 2>&1 &
pytest_pid=$!

echo "== lit: test/lit"
lit_status=0
lit_start=$SECONDS
lit -q test/lit || lit_status=$?
echo "lit took $((SECONDS - lit_start)) s"

echo "== pytest: test/unit test/e2e"
tail -n +1 --pid="$pytest_pid" -f "$scratch/pytest.log"
pytest_status=0
wait "$pytest_pid" || pytest_status=$?

if [ "$lit_status" -ne 0 ]; then
  echo "lit failed (exit status $lit_status)" >&2
fi
if [ "$pytest_status" -ne 0 ]; then
  echo "pytest failed (exit status $pytest_status$([ "$pytest_status" -eq 5 ] && echo ": no tests collected"))" >&2
fi
[ "$lit_status" -eq 0 ] && [ "$pytest_status" -eq 0 ]
