"""End to end: extern functions called from host code (`test/programs/lang_host_extern.gt`),
implemented by a Python module (`lang_host_extern.py`) through `gir-run --host-extern`
and `gir.compile(..., host_externs=...)`, against numpy: strings in and out, vertex
vectors given to the host and copied back to the device, results checked at the call."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gir
from gir.diagnostics import UserError
from gir.runtime.graph import Graph, load_graph
from test_programs import TARGETS

PROGRAMS = Path(__file__).parents[1] / "programs"
PROGRAM = PROGRAMS / "lang_host_extern.gt"
IMPLEMENTATION = PROGRAMS / "lang_host_extern.py"


def out_degrees(graph: Graph) -> np.ndarray:
    return np.bincount(graph.src.astype(np.int64), minlength=graph.num_vertices)


def expected_output(spec: str, graph: Graph) -> list[str]:
    """What `lang_host_extern.gt` prints on `spec`: its length, the largest
    out-degree, the sum of out-degree * 3 / 2 (written by the host, halved on
    the device), the host's string, and that string's length through a helper."""
    degrees = out_degrees(graph)
    most = int(degrees.max())
    return [str(len(spec)), str(most), str(float(degrees.sum() * 1.5)), f"max degree {most}", "12"]


def _printed(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[0], lines[1], str(float(lines[2])), *lines[3:5]]


@pytest.mark.parametrize("target", TARGETS)
def test_gir_run_host_extern(target, devices):
    """`gir-run --host-extern FILE.py`: the module's functions run from main."""
    name, index = target
    devices(name, index)  # skips where the target is missing
    command = [sys.executable, "-m", "gir.tools.run", str(PROGRAM), "rmat:7", "--target", name]
    if index is not None:
        command += ["--device", str(index)]
    run = subprocess.run([*command, "--host-extern", str(IMPLEMENTATION)],
                         capture_output=True, text=True, check=False)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert _printed(run.stdout) == expected_output("rmat:7", load_graph("rmat:7", cache=False))
    missing = subprocess.run(command, capture_output=True, text=True, check=False)
    assert missing.returncode == 1 and missing.stdout == ""
    assert missing.stderr.strip().splitlines() == [
        f"{PROGRAM}:12:1: error: extern functions 'label_length', 'spread', 'describe' called "
        "from the host but not implemented: give a Python module defining them with "
        "--host-extern FILE.py (gir.compile(..., host_externs=...))"
    ]


@pytest.mark.parametrize("target", TARGETS)
def test_api_host_externs_copy_vectors_back(target, devices):
    """`gir.compile(..., host_externs=path)`: the vector the host function wrote
    reaches the device (the apply halves it there), on every test graph."""
    name, index = target
    devices(name, index)
    program = gir.compile(PROGRAM, host_externs=IMPLEMENTATION)
    for spec in ["rmat:6", "road:9:7"]:
        graph = load_graph(spec, cache=False)
        result = program.run(spec, target=name, device=index)
        assert _printed(result.stdout) == expected_output(spec, graph)
        np.testing.assert_allclose(result["weight"], out_degrees(graph) * 1.5)


@pytest.mark.parametrize("target", TARGETS)
def test_host_extern_result_checked_at_the_call(target, devices):
    """A returned value of the wrong type, or an exception in the user's code,
    is one located error at the call, not a traceback."""
    name, index = target
    devices(name, index)
    import importlib.util

    spec = importlib.util.spec_from_file_location("lang_host_extern_impl", IMPLEMENTATION)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    functions = {**vars(module), "spread": lambda counts, out, n, factor: "many"}
    program = gir.compile(PROGRAM, host_externs=functions)
    with pytest.raises(UserError) as wrong_type:
        program.run("rmat:5", target=name, device=index)
    assert str(wrong_type.value) == (
        f"{PROGRAM}:26:5: error: extern function 'spread' returned str 'many', but its "
        "declaration gives an int"
    )
    functions["spread"] = lambda counts, out, n, factor: counts[n]
    program = gir.compile(PROGRAM, host_externs=functions)
    with pytest.raises(UserError) as raised:
        program.run("rmat:5", target=name, device=index)
    assert str(raised.value).startswith(
        f"{PROGRAM}:26:5: error: extern function 'spread' raised IndexError: index 32"
    )


def test_host_extern_arity_checked_before_running():
    """A function of the wrong arity, or a missing one, is a located error at
    the declaration when the program is compiled for a target."""
    def describe(n, extra):
        return ""

    functions = {"label_length": len, "spread": lambda *a: 0, "describe": describe}
    with pytest.raises(UserError) as arity:
        gir.compile(PROGRAM, host_externs=functions).compiled("opencl")
    assert str(arity.value) == (
        f"{PROGRAM}:14:1: error: the host implementation of extern function 'describe' must "
        "take 1 argument(s), as declared: it is describe(n, extra)"
    )
    with pytest.raises(UserError) as missing:
        gir.compile(PROGRAM, host_externs={"label_length": len}).compiled("opencl")
    assert str(missing.value) == (
        f"{PROGRAM}:13:1: error: extern functions 'spread', 'describe' called from the host "
        "but not implemented: the host extern code does not define them"
    )


@pytest.mark.parametrize("target", TARGETS)
def test_extern_called_on_both_sides(target, devices):
    """`lang_extern_both.gt` calls `distance_hint` from an edge function (the
    `--extern` device code) and from main (the `--host-extern` Python)."""
    name, index = target
    devices(name, index)
    program = PROGRAMS / "lang_extern_both.gt"
    device_code = program.with_suffix(".cl" if name == "opencl" else ".cuh")
    compiled = gir.compile(program, extern=device_code, host_externs=program.with_suffix(".py"))
    for spec, goal in [("rmat:6", 5), ("road:9:7", 40)]:
        graph = load_graph(spec, cache=False)
        result = compiled.run(spec, goal, target=name, device=index)
        hints = np.abs(graph.src.astype(np.int64) - goal).sum()
        assert result.stdout.split() == [str(graph.num_vertices + len(spec)), str(hints), str(goal)]


@pytest.mark.parametrize("target", TARGETS)
def test_astar_shaped_search(target, devices):
    """`lang_astar.gt` (GraphIt's apps/astar.gt's shape: a host extern over
    argv[1]'s text, a heuristic extern on both sides, writeMin and max) finds
    the goal's shortest distance."""
    from gir.runtime import reference

    name, index = target
    devices(name, index)
    program = PROGRAMS / "lang_astar.gt"
    device_code = program.with_suffix(".cl" if name == "opencl" else ".cuh")
    compiled = gir.compile(program, extern=device_code, host_externs=program.with_suffix(".py"))
    for spec, start, goal in [("road:16:16,w", 0, 200), ("rmat:8,w", 3, 100)]:
        distances = reference.sssp_distances(load_graph(spec, cache=False), start)
        result = compiled.run(spec, start, goal, target=name, device=index)
        expected = distances[goal] if np.isfinite(distances[goal]) else 2147483647
        assert int(result.stdout.split()[-1]) == int(expected), spec
