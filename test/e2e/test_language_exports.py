"""End to end: exports written as GraphIt's own (`test/programs/lang_export_graphit_style.gt`):
a file of exports only, globals set inside the export from its edgeset parameter,
`new vector{Vertex}(T)()`, and outputs that are numbers, called through
`gir.compile(...)` on OpenCL (PoCL in CI) and compared with BFS on the CPU."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import gir
from gir.runtime import reference
from gir.runtime.graph import load_graph
from test_language import graphs

PROGRAMS = Path(__file__).parents[1] / "programs"


@pytest.fixture(scope="module")
def program() -> gir.Program:
    return gir.compile(str(PROGRAMS / "lang_export_graphit_style.gt"))


def test_signature_lists_scalar_and_vector_outputs(program: gir.Program) -> None:
    assert str(program.levels.signature) == "levels(input_edges, root : int) -> (level, reached, deepest)"
    assert program.levels.signature.scalar_outputs == (False, True, True)


def test_graphit_style_export_gives_vectors_and_numbers(program: gir.Program, tmp_path: Path) -> None:
    failures = []
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        for root in (0, graph.num_vertices - 1):
            level, reached, deepest = program.levels(spec, root, target="opencl")
            expected = reference.bfs_levels(graph, root)
            if not np.array_equal(level, expected):
                failures.append(f"{name} {root}: levels differ")
            if (reached, deepest) != (int((expected >= 0).sum()), int(expected.max())):
                failures.append(f"{name} {root}: reached {reached}, deepest {deepest}")
            if not (isinstance(reached, int) and isinstance(deepest, int)):
                failures.append(f"{name} {root}: outputs are {type(reached)}, {type(deepest)}")
    assert not failures, "\n".join(failures)


def test_program_of_exports_only_has_no_run(program: gir.Program) -> None:
    with pytest.raises(gir.UserError, match="has no 'main' function: call its exports"):
        program.run("rmat:4")
