"""End to end: GraphIt's point-to-point shortest path (`lang_ppsp.gt`, as
GraphIt's apps/ppsp_delta_stepping.gt writes it), whose loop ends on
`pq.finishedNode(end_vertex)`, checked against scipy's Dijkstra on every target."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from gir.api import lower_for_run
from gir.runtime import reference
from gir.runtime.graph import Graph, load_graph
from gir.tools.run import parse_program
from test_language import PROGRAMS, graphs
from test_programs import TARGETS

DELTAS = (1, 3, 1000)


def targets(graph: Graph, dist: np.ndarray) -> set[int]:
    """The end vertices to ask for: the last, a middle and, where there is one,
    an unreachable vertex (the loop then ends when the queue is finished)."""
    chosen = {graph.num_vertices - 1, graph.num_vertices // 2}
    unreachable = np.flatnonzero(dist == reference.UNREACHABLE_DISTANCE)
    if unreachable.size:
        chosen.add(int(unreachable[0]))
    return chosen


def check_printed(printed: list[str], dist: np.ndarray, end: int, delta: int) -> str | None:
    """None when `printed` (dist[end], vertices reached) is right: dist[end] is the
    true distance, and the vertices reached are at least those of every bucket up
    to end's (all of them when end is unreachable) and at most every reachable one."""
    reachable = int((dist != reference.UNREACHABLE_DISTANCE).sum())
    target = int(dist[end])
    if target == reference.UNREACHABLE_DISTANCE:
        fewest = reachable
    else:
        fewest = int((dist < (target // delta + 1) * delta).sum())
    if len(printed) != 2 or printed[0] != str(target):
        return f"printed {printed}, expected dist {target}"
    if not fewest <= int(printed[1]) <= reachable:
        return f"reached {printed[1]}, expected between {fewest} and {reachable}"
    return None


@pytest.mark.parametrize("target", TARGETS)
def test_ppsp_matches_dijkstra(target, run_program, tmp_path):
    """dist[end] is the shortest distance for several graphs, sources, ends
    (including unreachable ones, which must still end the loop) and deltas."""
    failures = []
    for name, spec in graphs(tmp_path, weighted=True).items():
        graph = load_graph(spec, cache=False)
        for source in {0, graph.num_vertices - 1}:
            dist = reference.sssp_distances(graph, source)
            for end in targets(graph, dist):
                for delta in DELTAS:
                    argv = [spec, str(source), str(end), str(delta)]
                    printed = run_program("lang_ppsp.gt", target, argv)
                    problem = check_printed(printed, dist, end, delta)
                    if problem is not None:
                        failures.append(f"{name} {source}->{end} delta {delta}: {problem}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_ppsp_stops_before_the_queue_is_empty(target, run_program):
    """A near end vertex stops the search early: on a road grid from a corner,
    with delta 1, far fewer vertices are reached than are reachable."""
    spec = "road:20:20,w"
    dist = reference.sssp_distances(load_graph(spec, cache=False), 0)
    printed = run_program("lang_ppsp.gt", target, [spec, "0", "1", "1"])
    assert check_printed(printed, dist, 1, 1) is None
    assert int(printed[1]) < int((dist != reference.UNREACHABLE_DISTANCE).sum()) // 2


def fused_ppsp(tmp_path: Path) -> Path:
    """`lang_ppsp.gt` with its loop fused into one kernel (`configKernelFusion`),
    where the host's read of the end vertex's priority becomes a device load."""
    text = (PROGRAMS / "lang_ppsp.gt").read_text()
    text = text.replace("    while (pq.finishedNode", "    #steps# while (pq.finishedNode")
    text = text.replace('applyGPUSchedule("s1"', 'applyGPUSchedule("steps:s1"')
    text += (
        "    SimpleGPUSchedule fused;\n"
        "    fused.configKernelFusion(ENABLED);\n"
        '    program->applyGPUSchedule("steps", fused);\n'
    )
    path = tmp_path / "lang_ppsp_fused.gt"
    path.write_text(text)
    return path


@pytest.mark.parametrize("target", TARGETS)
def test_ppsp_in_a_fused_loop(target, devices, tmp_path):
    """The same answers when the whole loop, finishedNode included, is one kernel."""
    from gir.executor import compile_program

    name, index = target
    device = devices(name, index)
    module = lower_for_run(parse_program(str(fused_ppsp(tmp_path))), check_bounds=True)
    executable = compile_program(module, name)
    failures = []
    for graph_name, spec in graphs(tmp_path, weighted=True).items():
        graph = load_graph(spec, cache=False)
        dist = reference.sssp_distances(graph, 0)
        for end in targets(graph, dist):
            for delta in (1, 1000):
                out = io.StringIO()
                executable.run(device, ["lang_ppsp.gt", spec, "0", str(end), str(delta)], out)
                problem = check_printed(out.getvalue().split(), dist, end, delta)
                if problem is not None:
                    failures.append(f"{graph_name} 0->{end} delta {delta}: {problem}")
    assert not failures, "\n".join(failures)
