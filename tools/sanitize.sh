#!/usr/bin/env bash
# Runs NVIDIA's compute-sanitizer (memcheck, racecheck, synccheck) over the e2e
# programs (BFS, SSSP-BF, CC, PageRank) compiled with every registered load-balance
# strategy (gir.passes.load_balance.LOAD_BALANCES), on a small generated graph with
# --target cuda, and prints a table: program x strategy x tool -> clean / N errors.
# The programs run without gpu-check-bounds, so memcheck sees the real accesses.
# Needs a CUDA GPU, pycuda (pip install -e '.[cuda]') and compute-sanitizer (CUDA
# toolkit); --dry-run only compiles the programs and prints the commands.
#
# Usage: tools/sanitize.sh [--graph SPEC] [--tools LIST] [--out DIR] [--dry-run]
#   --graph SPEC   the graph, a generator spec [rmat:8]; SSSP gets SPEC,w
#   --tools LIST   comma-separated sanitizer tools [memcheck,racecheck,synccheck]
#   --out DIR      where the lowered programs and the sanitizer logs go [a new temp dir]
set -euo pipefail
cd "$(dirname "$0")/.."

graph="rmat:8"; tools="memcheck,racecheck,synccheck"; out=""; dry_run=0
usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --graph) graph=${2:?--graph needs a spec}; shift 2 ;;
    --tools) tools=${2:?--tools needs a list}; shift 2 ;;
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --dry-run) dry_run=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "sanitize.sh: error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for tool in ${tools//,/ }; do
  case "$tool" in memcheck|racecheck|synccheck|initcheck) ;;
    *) echo "sanitize.sh: error: unknown sanitizer tool '$tool'" >&2; exit 2 ;;
  esac
done

[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"
[ -z "${VIRTUAL_ENV:-}" ] && [ -f .venv/bin/activate ] && source .venv/bin/activate
if ! python3 -c "import gir" 2>/dev/null; then
  echo "sanitize.sh: error: gir is not importable; run tools/test.sh once (it creates .venv)" >&2
  exit 1
fi

# gir-run as installed, or through python where only PYTHONPATH is set (the GPU machine).
gir_run=(gir-run)
command -v gir-run >/dev/null || gir_run=(python3 -m gir.tools.run)

problems=()
command -v compute-sanitizer >/dev/null || problems+=("compute-sanitizer is not on PATH (it comes with the CUDA toolkit, e.g. /usr/local/cuda/bin)")
cuda_reason=$(python3 -c "from gir.executor import cuda_unavailable_reason as r; print(r() or '')")
[ -n "$cuda_reason" ] && problems+=("CUDA cannot run here: $cuda_reason")
if [ ${#problems[@]} -gt 0 ] && [ $dry_run -eq 0 ]; then
  for problem in "${problems[@]}"; do echo "sanitize.sh: error: $problem" >&2; done
  exit 1
fi

[ -z "$out" ] && out=$(mktemp -d "${TMPDIR:-/tmp}/gir-sanitize.XXXXXX")
mkdir -p "$out"

# One GPU-level .mlir per program and strategy; prints "program strategy file graph start".
plan=$(python3 - "$out" "$graph" <<'PY'
import sys
from pathlib import Path

from xdsl.printer import Printer

from gir.dialects import graph as graph_dialect
from gir.dialects.schedule import LoadBalanceAttr, SimpleScheduleAttr
from gir.passes.load_balance import LOAD_BALANCES
from gir.runtime.graph import load_graph
from gir.api import lower_for_run
from gir.tools.run import parse_program

out, spec = Path(sys.argv[1]), sys.argv[2]
programs = {"bfs": ("bfs.gt", False), "sssp_bf": ("sssp_bf.gt", True),
            "cc": ("cc_default.gt", False), "pagerank": ("pagerank_default.gt", False)}
for name, (source, weighted) in programs.items():
    graph = f"{spec},w" if weighted and ",w" not in spec else spec
    start = load_graph(graph).largest_degree_vertex()
    for strategy in LOAD_BALANCES:
        module = parse_program(f"test/programs/{source}")
        for op in module.walk():
            if isinstance(op, graph_dialect.EdgeSetApplyOp):
                schedule = op.schedule or SimpleScheduleAttr.default()
                op.properties["schedule"] = schedule.with_options(load_balance=LoadBalanceAttr(strategy))
        path = out / f"{name}.{strategy.lower()}.mlir"
        with open(path, "w") as stream:
            Printer(stream).print_op(lower_for_run(module))
        print(name, strategy.lower(), path, graph, start)
PY
)

declare -A result
programs=(); strategies=()
while read -r program strategy file spec start; do
  [[ " ${programs[*]} " == *" $program "* ]] || programs+=("$program")
  [[ " ${strategies[*]} " == *" $strategy "* ]] || strategies+=("$strategy")
  for tool in ${tools//,/ }; do
    log="$out/$program.$strategy.$tool.log"
    command=(compute-sanitizer --tool "$tool" --print-limit 20 "${gir_run[@]}" "$file" "$spec" "$start" --target cuda --no-check-bounds)
    if [ $dry_run -eq 1 ]; then
      echo "${command[*]} > $log"
      result["$program,$strategy,$tool"]="(dry run)"
      continue
    fi
    echo "== $program / $strategy / $tool" >&2
    status=0
    timeout 900 "${command[@]}" >"$log" 2>&1 || status=$?
    errors=$(sed -n -E 's/.*ERROR SUMMARY: ([0-9]+) error.*/\1/p' "$log" | tail -1)
    hazards=$(sed -n -E 's/.*RACECHECK SUMMARY: ([0-9]+) hazard.*/\1/p' "$log" | tail -1)
    count=${hazards:-${errors:-}}
    if [ -z "$count" ]; then
      result["$program,$strategy,$tool"]="no summary (exit $status)"
    elif [ "$count" -eq 0 ] && [ $status -eq 0 ]; then
      result["$program,$strategy,$tool"]="clean"
    elif [ "$count" -eq 0 ]; then
      result["$program,$strategy,$tool"]="run failed (exit $status)"
    else
      result["$program,$strategy,$tool"]="$count errors"
    fi
  done
done <<< "$plan"

for problem in "${problems[@]}"; do echo "sanitize.sh: note: $problem" >&2; done
echo "graph $graph; lowered programs and logs in $out"
printf '%-10s %-14s' program strategy
for tool in ${tools//,/ }; do printf ' %-26s' "$tool"; done
echo
failed=0
for program in "${programs[@]}"; do
  for strategy in "${strategies[@]}"; do
    printf '%-10s %-14s' "$program" "$strategy"
    for tool in ${tools//,/ }; do
      cell=${result["$program,$strategy,$tool"]}
      printf ' %-26s' "$cell"
      [[ "$cell" == clean || "$cell" == "(dry run)" ]] || failed=1
    done
    echo
  done
done
exit $failed
