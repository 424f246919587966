"""End to end: every benchmark algorithm under every registered graph reordering
(`program->configReorder(NAME)`), on PoCL, checked against the CPU reference on
the user's graph: the reordered program's vertex arguments and returned vectors
are mapped between the user's ids and the reordered graph's, so its results are
those of the graph as given."""

from __future__ import annotations

import pytest

from gir.benchmarks import PROGRAMS
from gir.reorder import ORDERINGS
from gir.tools.bench import (
    ALGORITHMS,
    Cell,
    _compile,
    _reference_graph,
    find_program,
    graph_class,
    reordered_source,
    run_cell,
)

GRAPHS = ("rmat:9,w", "road:12:10,w")
"""A small social graph and a small road grid, weighted for SSSP."""


@pytest.mark.parametrize("ordering", list(ORDERINGS))
@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_reordered_benchmark_programs_validate(algorithm, ordering, devices):
    """gir-bench's `best+ORDERING` cells: the class's best program (G2's where
    there is no best) with `program->configReorder(ORDERING)`."""
    device = devices("opencl", None)
    spec_results = []
    for spec in GRAPHS:
        klass = graph_class(spec)
        path = find_program(PROGRAMS, algorithm, "best", klass) or find_program(
            PROGRAMS, algorithm, "g2", klass
        )
        assert path is not None
        compiled = _compile(path, "opencl", device, ordering)
        assert compiled.program is not None, compiled.error
        g = _reference_graph(spec, True, lambda message: None)
        cell = Cell(algorithm, spec, "best")
        run_cell(cell, compiled, ALGORITHMS[algorithm], g, spec, device, trials=1, warmup=0)
        spec_results.append((spec, cell.status, cell.detail))
    assert all(status == "ok" and detail == "validated" for _, status, detail in spec_results), spec_results
    assert all((spec, ordering) in device.reorder_seconds for spec in GRAPHS)


def test_reordered_program_through_the_python_api(tmp_path, capfd):
    """`gir.compile(...).run` on a graph object and on a spec: the returned
    parents are a BFS tree of the user's graph from the user's start vertex."""
    import gir
    from gir.runtime import reference
    from gir.runtime.graph import load_graph

    program = tmp_path / "bfs_relabelled.gt"
    program.write_bytes(reordered_source(find_program(PROGRAMS, "bfs", "best", "social"), "HUB_CLUSTER"))
    compiled = gir.compile(str(program))
    graph = load_graph("rmat:9")
    for source in (graph, "rmat:9"):
        result = compiled.run(source, 5, 0.05, target="opencl")
        assert reference.check_bfs_parent(graph, 5, result["parent"]) is None
    assert "reordered by HUB_CLUSTER" in capfd.readouterr().err


def test_graphit_relabel_validates(devices, tmp_path):
    """GraphIt's `edges.relabel()` in the algorithm: PageRank gathers over the
    relabelled edgeset and its ranks come back in the user's order."""
    device = devices("opencl", None)
    source = (PROGRAMS / "pr_pull.gt").read_text()
    assert "#gather# links.apply(receive);" in source
    path = tmp_path / "pr_relabel.gt"
    path.write_text(source.replace("#gather# links.apply(receive);", "#gather# links.relabel().apply(receive);"))
    compiled = _compile(path, "opencl", device)
    assert compiled.program is not None, compiled.error
    spec = "rmat:9"
    cell = Cell("pr", spec, "relabel")
    run_cell(cell, compiled, ALGORITHMS["pr"], _reference_graph(spec, False, lambda _: None), spec, device, 1, 0)
    assert (cell.status, cell.detail) == ("ok", "validated")
    assert (spec, "DEGREE") in device.reorder_seconds
