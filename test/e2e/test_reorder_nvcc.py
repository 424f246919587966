"""The complete CUDA program's graph reordering, built with nvcc and run host-only
(no GPU needed: loading, relabelling and mapping call no CUDA API; skipped
without nvcc). A harness over the C++ runtime loads a graph file reordered, and
prints the relabelled edges, the order, a vertex argument as the program reads
it and a vertex vector of ids mapped back to the user's: the edges equal the
Python host's relabelled graph (the same stable orderings; RCM's own order
relabels the same graph), and the mapping undoes the relabelling. A reordered
benchmark program builds."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from gir.lowering import lower_to_gpu
from gir.reorder import ORDERINGS, relabelling_of
from gir.runtime.graph import from_edges, load_graph
from gir.runtime.graph.reorder import relabelled
from gir.targets.cuda_host import print_cuda_program
from gir.targets.cuda_host_runtime import runtime_source
from gir.tools.bench import reordered_source
from gir.benchmarks import PROGRAMS
from gir.frontend import parse_graphit_source
from test_cuda_host_nvcc import _build, _graph_file, needs_nvcc

_HARNESS = r"""
int main(int argc, char** argv) {
  gir_rt::args().count = argc;
  gir_rt::args().values = argv;
  gir_rt::Graph* graph = gir_rt::load_graph(argv[1], true, argv[2]);
  const gir_rt::Relabelling& map = gir_rt::relabelling();
  for (int32_t s : graph->edges.src) std::printf("%d ", s);
  std::printf("\n");
  for (int32_t d : graph->edges.dst) std::printf("%d ", d);
  std::printf("\n");
  for (int32_t v : map.old_of_new) std::printf("%d ", v);
  std::printf("\n%lld\n", gir_rt::argv_vertex(3));
  // parent[new] = new, with -1 at the program's vertex 0: back as the user's ids
  std::vector<int> parent(map.old_of_new.size());
  for (size_t v = 0; v < parent.size(); ++v) parent[v] = (int)v;
  parent[0] = -1;
  gir_rt::to_user<int>(parent.data(), (long long)parent.size(), true, true);
  for (int p : parent) std::printf("%d ", p);
  std::printf("\n");
  return 0;
}
"""


@pytest.fixture(scope="module")
def harness(tmp_path_factory) -> Path:
    return _build(runtime_source() + _HARNESS, tmp_path_factory.mktemp("reorder"), "reorder")


@needs_nvcc
@pytest.mark.parametrize("name", list(ORDERINGS))
@pytest.mark.parametrize("spec", ["rmat:8,w", "road:7:5,w"])
def test_complete_program_relabels_as_the_python_host(name, spec, harness, tmp_path) -> None:
    path = _graph_file(spec, ".wel", tmp_path)
    graph = load_graph(spec, weighted=True, cache=False)
    user_vertex = graph.num_vertices - 2
    printed = subprocess.run(
        [str(harness), str(path), name, str(user_vertex)], capture_output=True, text=True, check=True
    )
    assert f"reordered by {name}" in printed.stderr
    src, dst, order, vertex, parent = (np.array(line.split(), dtype=np.int64) for line in printed.stdout.splitlines())
    relabelling = relabelling_of(name, order, graph.num_vertices)
    if name == "RCM":
        new_of_old = relabelling.new_of_old
        expected = from_edges(graph.num_vertices, new_of_old[graph.src], new_of_old[graph.dst], graph.weights)
    else:
        python = relabelled(graph, name)
        assert (python.relabelling.old_of_new == order).all()
        expected = python.graph
    assert (src == expected.src).all() and (dst == expected.dst).all()
    assert vertex.tolist() == [relabelling.new_of_old[user_vertex]]
    user_of_zero = int(order[0])
    expected_parent = np.arange(graph.num_vertices)
    expected_parent[user_of_zero] = -1
    assert parent.tolist() == expected_parent.tolist()


@needs_nvcc
def test_reordered_benchmark_program_builds(tmp_path) -> None:
    source = reordered_source(PROGRAMS / "pr_pull.gt", "DEGREE")
    module = parse_graphit_source(source, "pr_pull.gt")
    program = print_cuda_program(lower_to_gpu(module))
    assert 'gir_rt::load_graph(gir_rt::argv_str(1), false, "DEGREE")' in program
    _build(program, tmp_path, "pr_pull_degree")
