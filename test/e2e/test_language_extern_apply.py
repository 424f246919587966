"""End to end: extern functions applied as edge and vertex functions
(`test/programs/lang_extern_apply.gt`, GraphIt's extern_simple_edgeset_apply.gt
shape): the Python host code runs once per edge and per vertex, writing the
program's vectors through the names gir binds in its module, against numpy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import gir
from gir.diagnostics import UserError
from gir.runtime.graph import load_graph
from test_programs import TARGETS

PROGRAMS = Path(__file__).parents[1] / "programs"
PROGRAM = PROGRAMS / "lang_extern_apply.gt"


@pytest.mark.parametrize("target", TARGETS)
def test_applied_externs_write_the_programs_vectors(target, devices):
    name, index = target
    devices(name, index)
    program = gir.compile(PROGRAM, host_externs=PROGRAM.with_suffix(".py"))
    for spec in ["road:5:5,w", "rmat:7,w"]:
        graph = load_graph(spec, cache=False)
        heaviest = np.zeros(graph.num_vertices, np.int64)
        np.maximum.at(heaviest, graph.src.astype(np.int64), graph.weights.astype(np.int64))
        result = program.run(spec, target=name, device=index)
        assert result.stdout.split() == [str(heaviest.sum()), str(len(range(0, graph.num_vertices, 3)))]
        np.testing.assert_array_equal(result["heaviest"], heaviest)


@pytest.mark.parametrize("target", TARGETS)
def test_an_applied_extern_that_fails_is_one_error_at_the_apply(target, devices):
    name, index = target
    devices(name, index)

    def mark(v):
        raise ValueError(f"no mark for {v}")

    implementations = {"keep_heaviest": lambda src, dst, weight: None, "mark": mark}
    program = gir.compile(PROGRAM, host_externs=implementations)
    with pytest.raises(UserError, match=rf"^{PROGRAM}:19:5: error: extern function 'mark' raised ValueError: no mark for 0$"):
        program.run("road:3:3,w", target=name, device=index)
