#!/usr/bin/env bash
# A graph of more than 2^31 edges that does not fit one GPU, run partitioned
# over 4 GPUs and validated against the CPU reference (issue 26), every stage
# timed, within one call of the GPU machine (10 minutes, a fresh machine):
#
#   source .dev/device/setup.sh && export NCCL_NVLS_ENABLE=0 && bash tools/big_graph.sh
#
# GIR_BIG_GRAPH (default uniform:268435456:4200000000: 2^28 vertices, about 8.4
# billion directed edges, four parts of about 2.1 billion, each below 2^31; more
# than an 80 GB H100 holds; on H200s, uniform:268435456:9000000000) and
# GIR_BIG_DEVICES (4) change the run, GIR_BIG_TARGET (cuda) and GIR_BIG_WARMUP
# (uniform:4194304:33554432) its target and warm-up graph: on PoCL,
#   POCL_DEVICES="pthread pthread pthread pthread" GIR_BIG_TARGET=opencl \
#   GIR_BIG_WARMUP=uniform:65536:262144 GIR_BIG_GRAPH=uniform:1048576:8388608 bash tools/big_graph.sh
# Copies its log to $OUT when that is set.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export NCCL_NVLS_ENABLE=0
export GIR_CACHE_DIR=${GIR_CACHE_DIR:-/tmp/gir-big-cache}
BIG=${GIR_BIG_GRAPH:-uniform:268435456:4200000000}
DEVICES=${GIR_BIG_DEVICES:-4}
TARGET=${GIR_BIG_TARGET:-cuda}
WARMUP=${GIR_BIG_WARMUP:-uniform:4194304:33554432}
PROGRAM=test/programs/bfs_hybrid.gt
LOG=${OUT:-/tmp}/big_graph.log
SECONDS=0
{
  echo "== machine"
  nvidia-smi --query-gpu=index,name,memory.total,memory.free --format=csv,noheader 2>/dev/null || echo "no nvidia-smi"
  echo "$(nproc) cores; $(free -g | awk '/Mem:/ {print $2 " GB host memory, " $7 " GB available"}')"

  # Warm-up through gir-run on a small graph (67M edges) on all the devices:
  # checks the CLI's partitioned path and builds the kernels (nvcc) the big run
  # reuses (without bounds checks, as the big run compiles them).
  echo "== warm-up: gir-run $PROGRAM $WARMUP on $DEVICES device(s) (t=${SECONDS}s)"
  timeout 100 python3 -m gir.tools.run "$PROGRAM" "$WARMUP" 0 0.05 \
    --target "$TARGET" --devices "$DEVICES" --validate --no-check-bounds 2>&1 | grep -v '^[0-9.e+-]*$'

  echo "== $BIG on $DEVICES devices (t=${SECONDS}s)"
  timeout 360 python3 tools/big_graph.py --target "$TARGET" --devices "$DEVICES" --program "$PROGRAM" "$BIG"
  echo "== exit status $? after ${SECONDS}s"
} 2>&1 | tee "$LOG"
