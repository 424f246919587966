"""End to end: `extern func` declarations of `test/programs/lang_extern.gt`, called
from a vertex and an edge function and implemented by the user's device code
(`lang_extern.cl` for OpenCL, `lang_extern.cuh` for CUDA), against numpy."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gir.api import lower_for_run
from gir.dialects.schedule import DirectionAttr, LoadBalanceAttr
from gir.passes.load_balance import LOAD_BALANCES
from gir.runtime.graph import Graph, load_graph
from gir.tools.run import parse_program
from test_language import graphs
from test_programs import TARGETS, with_schedule

PROGRAMS = Path(__file__).parents[1] / "programs"
PROGRAM = PROGRAMS / "lang_extern.gt"
IMPLEMENTATIONS = {"opencl": PROGRAMS / "lang_extern.cl", "cuda": PROGRAMS / "lang_extern.cuh"}
"""The device code of the extern functions, by target."""

SCHEDULES = [
    pytest.param({"load_balance": LoadBalanceAttr(lb)}, id=lb.lower())
    for lb in LOAD_BALANCES
] + [pytest.param({"direction": DirectionAttr("PULL")}, id="pull")]


def expected_output(graph: Graph) -> list[float]:
    """What `lang_extern.gt` prints: the sum over edges of
    `clamp_add(src, 1, 3) - src`, then the sum over vertices of `scale(v, 0.5)`."""
    src = graph.src.astype(np.int64)
    per_edge = np.minimum(src + 1, 3) - src
    return [float(per_edge.sum()), float(np.arange(graph.num_vertices).sum() * 0.5)]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("options", SCHEDULES)
def test_extern_functions_in_vertex_and_edge_functions(target, options, devices, tmp_path):
    """The user's functions run on the device, under every load balance and pull."""
    from gir.executor import compile_program

    name, index = target
    device = devices(name, index)
    module = with_schedule(parse_program(str(PROGRAM)), **options)
    extern = IMPLEMENTATIONS[name].read_text()
    executable = compile_program(
        lower_for_run(module, check_bounds=True), name, str(PROGRAM), extern
    )
    failures = []
    for graph_name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        out = io.StringIO()
        executable.run(device, [PROGRAM.name, spec], out)
        printed = [float(text) for text in out.getvalue().split()]
        expected = expected_output(graph)
        if not np.allclose(printed, expected, rtol=1e-5):
            failures.append(f"{graph_name}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_gir_run_extern_flag(target, devices):
    """`gir-run --extern FILE` runs the program; without the flag, one located
    error naming it and nothing on stdout."""
    name, index = target
    devices(name, index)  # skips where the target is missing
    command = [sys.executable, "-m", "gir.tools.run", str(PROGRAM), "rmat:7", "--target", name]
    if index is not None:
        command += ["--device", str(index)]
    run = subprocess.run([*command, "--extern", str(IMPLEMENTATIONS[name])],
                         capture_output=True, text=True, check=False)  # fmt: skip
    expected = expected_output(load_graph("rmat:7", cache=False))
    assert run.returncode == 0, run.stderr
    assert np.allclose([float(text) for text in run.stdout.split()], expected, rtol=1e-5)
    missing = subprocess.run(command, capture_output=True, text=True, check=False)
    assert missing.returncode == 1 and missing.stdout == ""
    assert missing.stderr.strip().splitlines() == [
        f"{PROGRAM}:10:1: error: extern functions 'scale', 'clamp_add' called but not "
        "implemented: give the device code with --extern FILE (a CUDA .cuh or OpenCL .cl file)"
    ]


@pytest.mark.parametrize("target", TARGETS)
def test_extern_printf_in_program_order(target, devices):
    """An extern function that printfs on the device (`lang_extern_print.gt`): its
    line comes between the host's prints around the apply, through gir-run."""
    name, index = target
    devices(name, index)  # skips where the target is missing
    program = PROGRAMS / "lang_extern_print.gt"
    implementation = program.with_suffix(".cl" if name == "opencl" else ".cuh")
    graph = load_graph("rmat:6", cache=False)
    chosen = graph.num_vertices - 1
    command = [sys.executable, "-m", "gir.tools.run", str(program), "rmat:6", str(chosen)]
    command += ["--target", name, "--extern", str(implementation)]
    if index is not None:
        command += ["--device", str(index)]
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    total = graph.num_vertices * (graph.num_vertices + 1) // 2  # each vertex's id + 1
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["before", "extern", str(chosen), "after", str(total)]
