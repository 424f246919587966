#!/usr/bin/env bash
# The main job: set up gir, generate an RMAT graph, compile BFS and run it from the
# vertex of largest degree, on the NVIDIA GPU when CUDA is usable, else with OpenCL
# (PoCL on the CPU), and check the result against the CPU reference.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/setup.sh
graph=${GIR_QUICKSTART_GRAPH:-rmat:16}
start=$(python3 -c "from gir.runtime.graph import load_graph; print(load_graph('$graph').largest_degree_vertex())")
echo "== gir-run test/programs/bfs.gt $graph $start --validate --trials 3"
gir-run test/programs/bfs.gt "$graph" "$start" --validate --trials 3
