"""End to end, on OpenCL: programs that load a fixed file (`load("graphs/fixed.el")`,
as GraphIt's own test programs do) run without a GRAPH argument and validate
against the graph they loaded, with or without a GRAPH argument given anyway;
a wrong result still fails (issue 30). Run from test/programs, where the paths
resolve."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import gir
from gir.program_inputs import GraphSource
from gir.runtime.device import DeviceUnavailable, opencl_devices
from gir.tools.run import main, parse_program
from gir.validate import find_validator

PROGRAMS = Path(__file__).parents[1] / "programs"


def _has_opencl() -> bool:
    try:
        return bool(opencl_devices())
    except (DeviceUnavailable, ImportError):
        return False


needs_opencl = pytest.mark.skipif(not _has_opencl(), reason="no OpenCL device")

FIXED = {
    "fixed_bfs.gt": ("graphs/fixed.el", "BFS (parent tree in 'parent')"),
    "fixed_cc.gt": ("graphs/fixed.el", "connected components (labels in 'IDs')"),
    "fixed_sssp.gt": ("graphs/fixed.wel", "SSSP (distances in 'SP')"),
    "fixed_pagerank.gt": ("graphs/fixed.el", "PageRank (ranks in 'old_rank', iterations of its loop)"),
}
"""Each fixed-path program: the file it loads and what `--validate` checks."""


def _wrong_parent(vectors: dict[str, np.ndarray]) -> None:
    vectors["parent"][8] = 1  # 1 and 8 are not adjacent


def _wrong_label(vectors: dict[str, np.ndarray]) -> None:
    vectors["IDs"][12] = vectors["IDs"][0]  # 12 is in another component than 0


def _wrong_distance(vectors: dict[str, np.ndarray]) -> None:
    vectors["SP"][8] += 1


def _wrong_rank(vectors: dict[str, np.ndarray]) -> None:
    vectors["old_rank"][3] *= 1.5


CORRUPTIONS: dict[str, tuple[Callable[[dict[str, np.ndarray]], None], str]] = {
    "fixed_bfs.gt": (_wrong_parent, "vertex 8"),
    "fixed_cc.gt": (_wrong_label, "vertex 12"),
    "fixed_sssp.gt": (_wrong_distance, "vertex 8"),
    "fixed_pagerank.gt": (_wrong_rank, "vertex 3"),
}
"""A wrong result of each program and the vertex its validation names."""


@pytest.fixture(autouse=True)
def in_programs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs each test in test/programs (where the fixed paths resolve) with a
    cache of its own."""
    monkeypatch.setenv("GIR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(PROGRAMS)


@needs_opencl
@pytest.mark.parametrize("graph_argument", [[], ["rmat:10"]], ids=["no-graph", "unused-graph"])
@pytest.mark.parametrize("program", sorted(FIXED))
def test_gir_run_validates_against_the_fixed_file(
    program: str, graph_argument: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, algorithm = FIXED[program]
    assert main([program, *graph_argument, "--target", "opencl", "--validate"]) == 0
    err = capsys.readouterr().err
    assert f"validated {algorithm} on {path} against the CPU reference: OK" in err, err
    note = f"note: the program loads its graph from '{path}': the GRAPH argument 'rmat:10' is unused"
    assert (note in err) == bool(graph_argument), err


@needs_opencl
@pytest.mark.parametrize("program", sorted(FIXED))
def test_the_api_validates_a_fixed_path_program_and_catches_a_wrong_result(program: str) -> None:
    compiled = gir.compile(program)
    assert compiled.loads_graph and not compiled.takes_graph
    out = compiled.run(target="opencl", validate=True)
    compiled.validate(None, out)
    compiled.run("rmat:10", target="opencl", validate=True)  # argv[1], which it never reads
    corrupt, vertex = CORRUPTIONS[program]
    wrong = {name: np.array(array) for name, array in out.items()}
    corrupt(wrong)
    algorithm = FIXED[program][1]
    with pytest.raises(gir.UserError, match=rf"^error: validation of {re.escape(algorithm)} failed: .*{vertex}"):
        compiled.validate(None, wrong)


@needs_opencl
def test_a_graph_given_to_a_fixed_path_program_is_an_error_naming_its_file() -> None:
    compiled = gir.compile("fixed_bfs.gt")
    with pytest.raises(gir.UserError, match=r"'fixed_bfs' loads its graph from 'graphs/fixed.el': .* argv\[1\] is a graph"):
        compiled.run((np.array([0]), np.array([1])), target="opencl")


TWO_GRAPHS = """\
element Vertex end
element Edge end
const sizes : edgeset{Edge}(Vertex,Vertex) = load (argv[1]);
const edges : edgeset{Edge}(Vertex,Vertex) = load ("graphs/fixed.el");
const parent : vector{Vertex}(int) = -1;
func toFilter(v : Vertex) -> output : bool
    output = parent[v] == -1;
end
func updateEdge(src : Vertex, dst : Vertex)
    parent[dst] = src;
end
func main()
    print sizes.getVertices();
    var frontier : vertexset{Vertex} = new vertexset{Vertex}(0);
    frontier.addVertex(0);
    parent[0] = 0;
    while (frontier.getVertexSetSize() != 0)
        var output : vertexset{Vertex} = edges.from(frontier).to(toFilter).applyModified(updateEdge, parent, true);
        delete frontier;
        frontier = output;
    end
    delete frontier;
end
"""


def test_a_program_loading_two_graphs_is_checked_on_the_one_its_traversal_reads() -> None:
    # gir's lowering refuses a second graph; the check already picks the right one.
    from gir.frontend import parse_graphit_source

    validator = find_validator(parse_graphit_source(TWO_GRAPHS, "two_graphs.gt"))
    assert validator is not None and validator.algorithm == "BFS (parent tree in 'parent')"
    assert validator.graph == GraphSource(path="graphs/fixed.el")
    assert validator.graph.spec(["two_graphs", "rmat:10"]) == "graphs/fixed.el"
    swapped = TWO_GRAPHS.replace("edges.from(frontier)", "sizes.from(frontier)")
    validator = find_validator(parse_graphit_source(swapped, "two_graphs.gt"))
    assert validator is not None and validator.graph == GraphSource(argv=1)
    assert validator.graph.spec(["two_graphs", "rmat:10"]) == "rmat:10"


@needs_opencl
def test_a_program_loading_argv_is_checked_on_its_argv_graph() -> None:
    validator = find_validator(parse_program("bfs.gt"))
    assert validator is not None
    assert validator.graph == GraphSource(argv=1)
    compiled = gir.compile("bfs.gt")
    assert compiled.takes_graph
    out = compiled.run("road:4:4", 0, target="opencl", validate=True)
    wrong = {name: np.array(array) for name, array in out.items()}
    wrong["pred"][5] = 15
    with pytest.raises(gir.UserError, match=r"^error: validation of BFS \(parent tree in 'pred'\) failed"):
        compiled.validate("road:4:4", wrong, 0)
