"""`--validate` recognition of programs written in more of GraphIt's language:
which algorithm, which vector, which start vertex and iteration count."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gir.runtime import reference
from gir.runtime.graph import load_graph
from gir.tools.run import parse_program
from gir.validate import find_validator

PROGRAMS = Path(__file__).parents[1] / "programs"


def test_bfs_with_a_bool_edge_function_checks_the_claimed_parents() -> None:
    validator = find_validator(parse_program(str(PROGRAMS / "lang_bool_apply.gt")))
    assert validator is not None
    assert validator.algorithm == "BFS (parent tree in 'parent')"
    graph = load_graph("road:5:4", cache=False)
    levels = reference.bfs_levels(graph, 3)
    wrong = np.full(graph.num_vertices, -1, np.int32)
    problem = validator.check(graph, ["p", "road:5:4", "3"], {"parent": wrong})
    assert problem is not None and (levels >= 0).sum() > 1


def test_pagerank_delta_is_its_own_algorithm() -> None:
    """PageRank-delta's ranks pass its own check and not exact PageRank's, and
    the other way round: the reference keeps GraphIt's epsilon semantics."""
    validator = find_validator(parse_program(str(PROGRAMS / "lang_pagerank_delta.gt")))
    assert validator is not None
    assert validator.algorithm.startswith(
        "PageRank-delta (ranks in 'cur_rank', damping 0.85, epsilon 0.1"
    )
    graph = load_graph("rmat:8", cache=False)
    argv = ["p", "rmat:8"]
    assert validator.check(graph, argv, {"cur_rank": reference.pagerank_delta(graph, 10)}) is None
    exact = reference.pagerank(graph, 10)
    assert validator.check(graph, argv, {"cur_rank": exact}) is not None
    assert reference.check_pagerank_delta(graph, reference.pagerank_delta(graph, 2), 10) is not None


def _variant(tmp_path: Path, program: str, old: str, new: str) -> Path:
    source = (PROGRAMS / program).read_text()
    assert old in source
    path = tmp_path / program
    path.write_text(source.replace(old, new))
    return path


def test_a_literal_source_vertex_is_accepted(tmp_path: Path) -> None:
    path = _variant(tmp_path, "bfs.gt", "atoi(argv[2])", "5")
    validator = find_validator(parse_program(str(path)))
    assert validator is not None and validator.algorithm.startswith("BFS")
    graph = load_graph("road:5:4", cache=False)
    levels = reference.bfs_levels(graph, 5)
    parents = np.where(levels == 0, 5, -1).astype(np.int32)
    assert validator.check(graph, ["p", "road:5:4"], {"pred": parents}) is not None
    assert reference.check_bfs_parent(graph, 5, parents) is not None


def test_iterations_come_from_the_loop_around_the_traversal(tmp_path: Path) -> None:
    """An argv trip count is read per run; a `while` around the traversal (with a
    `for` of trials outside it) gives no count, so no PageRank check."""
    path = _variant(tmp_path, "pagerank.gt", "for iter in 0:20", "for iter in 0:argv[2]")
    validator = find_validator(parse_program(str(path)))
    assert validator is not None
    graph = load_graph("rmat:7", cache=False)
    ranks = reference.pagerank(graph, 3)
    assert validator.check(graph, ["p", "rmat:7", "3"], {"rank": ranks}) is None
    assert validator.check(graph, ["p", "rmat:7", "4"], {"rank": ranks}) is not None
    looped = _variant(
        tmp_path,
        "pagerank.gt",
        "for iter in 0:20\n",
        "var iter : int = 0;\n        while (iter < 20)\n            iter = iter + 1;\n",
    )
    assert find_validator(parse_program(str(looped))) is None
