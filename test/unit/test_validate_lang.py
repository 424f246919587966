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
