#!/usr/bin/env bash
# BFS benchmark in G2's setting (../shared/BENCHMARKS.md): rmat:SCALE from the vertex
# of largest degree, and a road grid from vertex 0; the traversal is timed by the
# program's own timer (PROGRAM, default test/programs/bfs_timed.gt; e.g.
# test/programs/bfs_timed_edge_only.gt for EDGE_ONLY), median of TRIALS runs, graph
# load and host-to-device copy excluded. Also reports each gir-run's wall time.
# Usage: tools/bench_bfs.sh [TARGET] [RMAT_SCALE] [ROAD_SIDE] [TRIALS] [PROGRAM]
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-auto}; scale=${2:-22}; side=${3:-2048}; trials=${4:-10}
program=${5:-test/programs/bfs_timed.gt}
run() { if command -v gir-run >/dev/null; then gir-run "$@"; else python3 -m gir.tools.run "$@"; fi; }
for graph in "rmat:$scale" "road:$side:$side"; do
  start=0
  [[ $graph == rmat:* ]] && start=$(python3 -c "from gir.runtime.graph import load_graph; print(load_graph('$graph').largest_degree_vertex())")
  echo "== BFS $graph from $start ($program, $target, $trials trials)"
  begin=$(date +%s.%N)
  run "$program" "$graph" "$start" --target "$target" --trials "$trials" --validate >/dev/null
  end=$(date +%s.%N)
  echo "whole gir-run process: $(python3 -c "print(f'{$end - $begin:.2f}')") s (graph cached before)"
done
