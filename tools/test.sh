#!/usr/bin/env bash
# Sets up what the tests need (Python packages; PoCL for OpenCL on the CPU when no
# OpenCL platform is present) and runs every test: lit (FileCheck) and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/setup.sh
# The tests never touch the user's graph cache (~/.cache/gir): lit's RUN lines
# share a scratch one, and pytest gives every test its own (test/conftest.py).
GIR_CACHE_DIR=$(mktemp -d)
export GIR_CACHE_DIR
trap 'rm -rf "$GIR_CACHE_DIR"' EXIT
echo "== lit: test/lit"
lit -q test/lit
echo "== pytest: test/unit test/e2e"
python3 -m pytest -q test/unit test/e2e
