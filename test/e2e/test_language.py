"""End to end: the GraphIt language features of `test/programs/lang_*.gt`, each
compiled through the whole pipeline, run on OpenCL (PoCL in CI) and CUDA where
present, and its printed output compared with values computed on the CPU."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gir.api import lower_for_run
from gir.dialects.schedule import (
    DedupStrategy,
    DedupStrategyAttr,
    DirectionAttr,
    FrontierCreationAttr,
    LoadBalanceAttr,
    Toggle,
    ToggleAttr,
)
from gir.passes.load_balance import LOAD_BALANCES
from gir.runtime import reference
from gir.runtime.device import find_nvcc
from gir.runtime.graph import Graph, load_graph
from gir.tools.run import parse_program
from test_programs import (
    TARGETS,
    hand_made_graphs,
    with_schedule,
)

PROGRAMS = Path(__file__).parents[1] / "programs"


def graphs(tmp_path: Path, weighted: bool = False) -> dict[str, str]:
    """The hand-made corner-case graphs and two generated ones, by name."""
    suffix = ",w" if weighted else ""
    specs = {name: spec for name, (spec, _) in hand_made_graphs(tmp_path, weighted).items()}
    return {**specs, "rmat8": f"rmat:8{suffix}", "road": f"road:9:7{suffix}"}


def break_expected(graph: Graph, root: int, target: int) -> list[str]:
    """What `lang_break.gt` prints: the search stops once `target` is reached."""
    levels = reference.bfs_levels(graph, root)
    if levels[target] >= 0:
        depth, reached = int(levels[target]), 1
        claimed = (levels >= 0) & (levels <= depth)
    else:
        depth, reached = int(levels.max()) + 1, 0
        claimed = levels >= 0
    unclaimed = np.flatnonzero(~claimed)
    first = int(unclaimed[0]) if unclaimed.size else -1
    return [str(depth), str(reached), str(first), str(int(claimed.sum()))]


@pytest.mark.parametrize("target", TARGETS)
def test_break_in_while_and_for(target, run_program, tmp_path):
    failures = []
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        last = graph.num_vertices - 1
        for root, goal in ((0, last), (last, 0), (0, 0)):
            printed = run_program("lang_break.gt", target, [spec, str(root), str(goal)])
            expected = break_expected(graph, root, goal)
            if printed != expected:
                failures.append(f"{name} {root}->{goal}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_cpu_schedule_is_ignored(target, run_program, tmp_path):
    """GraphIt CPU scheduling calls and `//` schedule comments: the program runs
    with its G2 schedule and reaches what BFS reaches."""
    failures = []
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        root = graph.largest_degree_vertex()
        printed = run_program("lang_cpu_schedule.gt", target, [spec, str(root)])
        expected = [str(int((reference.bfs_levels(graph, root) >= 0).sum()))]
        if printed != expected:
            failures.append(f"{name}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_vertex_count_and_argv_int(target, run_program, tmp_path):
    """`edges.getVertices()` as a count and `argv[N]` as an int."""
    failures = []
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        count = graph.num_vertices
        degrees = np.bincount(graph.src, minlength=count)
        for least in (0, 2):
            printed = run_program("lang_count.gt", target, [spec, str(least)])
            expected = [count, 2 * count + least, int((degrees >= least).sum()), count // 2]
            if printed != [str(value) for value in expected]:
                failures.append(f"{name} {least}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_vertexset_declared_without_value(target, run_program, tmp_path):
    """`var wave : vertexset{Vertex};` starts empty."""
    failures = []
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        levels = reference.bfs_levels(graph, 0)
        deepest = int(levels.max())
        expected = [str(deepest + 1), str(int((levels == deepest).sum()))]
        printed = run_program("lang_vertexset_decl.gt", target, [spec, "0"])
        if printed != expected:
            failures.append(f"{name}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)


def reduce_expected(graph: Graph, offset: int) -> list[float]:
    """What `lang_reduce.gt` prints, computed with numpy (an empty vector's max
    and min are the identities: the smallest and largest int, -inf and inf)."""
    degrees = np.bincount(graph.src, minlength=graph.num_vertices).astype(np.int64)
    score = degrees / 2.0 - offset
    share = 1.0 / (degrees + 1)
    empty = degrees.size == 0
    return [
        int(degrees.sum()),
        -(2**31) if empty else int(degrees.max()),
        2**31 - 1 if empty else int(degrees.min()),
        0,
        -np.inf if empty else float(score.max()),
        np.inf if empty else float(score.min()),
        float(score.sum()),
        float(share.sum()),
        float(share.sum() / graph.num_vertices) if not empty else np.nan,
        22,
        13,
    ]


@pytest.mark.parametrize("target", TARGETS)
def test_vector_reductions_and_copy(target, run_program, tmp_path):
    """`v.sum()`, `v.max()`, `v.min()` of int, float and double vectors, and
    `a = b`, against numpy; on graphs large enough for several blocks too."""
    failures = []
    specs = {**graphs(tmp_path), "rmat12": "rmat:12"}
    for name, spec in specs.items():
        graph = load_graph(spec, cache=False)
        printed = run_program("lang_reduce.gt", target, [spec, "3"])
        expected = reduce_expected(graph, 3)
        values = [float(text) for text in printed]
        if len(values) != len(expected) or not np.allclose(
            values, expected, rtol=1e-5, equal_nan=True
        ):
            failures.append(f"{name}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_print_in_vertex_function(target, devices, tmp_path):
    """Device printf from one thread of a vertex apply, in order with the host's
    prints around it; run through gir-run, whose stdout holds both."""
    name, index = target
    devices(name, index)  # skips where the target is missing
    failures = []
    chosen_graphs = {k: v for k, v in graphs(tmp_path).items() if k in ("path", "one_vertex", "rmat8")}
    for graph_name, spec in chosen_graphs.items():
        graph = load_graph(spec, cache=False)
        chosen = graph.num_vertices - 1
        half = np.bincount(graph.src, minlength=graph.num_vertices)[chosen] / 2.0
        command = [sys.executable, "-m", "gir.tools.run", str(PROGRAMS / "lang_device_print.gt")]
        command += [spec, str(chosen), "--target", name]
        if index is not None:
            command += ["--device", str(index)]
        run = subprocess.run(command, capture_output=True, text=True, check=False)
        expected = ["before", "vertex", str(chosen), f"{half:g}", "after", str(graph.num_vertices)]
        if run.returncode != 0 or run.stdout.split() != expected:
            failures.append(f"{graph_name}: printed {run.stdout.split()}, expected {expected}: {run.stderr}")
    assert not failures, "\n".join(failures)


BOOL_APPLY_SCHEDULES = [
    pytest.param({"load_balance": LoadBalanceAttr(lb)}, id=lb.lower())
    for lb in LOAD_BALANCES
] + [
    pytest.param({"frontier_creation": FrontierCreationAttr(creation)}, id=creation.lower())
    for creation in ("UNFUSED_BITMAP", "UNFUSED_BOOLMAP")
] + [
    pytest.param(
        {
            "deduplication": ToggleAttr(Toggle.ENABLED),
            "dedup_strategy": DedupStrategyAttr(DedupStrategy.UNFUSED),
        },
        id="dedup_unfused",
    ),
    pytest.param({"direction": DirectionAttr("PULL")}, id="pull"),
]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("options", BOOL_APPLY_SCHEDULES)
def test_bool_edge_functions(target, options, devices, tmp_path):
    """`apply` of a bool edge function: the output holds each destination it
    returned true for once (the second search returns true on every edge into an
    unseen vertex), under every load balance and frontier creation; the parent
    tree of the first search is a BFS tree."""
    from gir.executor import compile_program

    name, index = target
    module = with_schedule(parse_program(str(PROGRAMS / "lang_bool_apply.gt")), **options)
    executable = compile_program(lower_for_run(module, check_bounds=True), name)
    device = devices(name, index)
    failures = []
    for graph_name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        root = graph.largest_degree_vertex()
        out = io.StringIO()
        result = executable.run(device, ["lang_bool_apply.gt", spec, str(root)], out)
        levels = reference.bfs_levels(graph, root)
        reached = levels >= 0
        expected = [str(int(reached.sum())), str(int(levels[reached].sum()))] * 2
        if out.getvalue().split() != expected:
            failures.append(f"{graph_name}: printed {out.getvalue().split()}, expected {expected}")
        problem = reference.check_bfs_parent(graph, root, result.globals["parent"])
        if problem is not None:
            failures.append(f"{graph_name}: {problem}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_list_append_pop_insert_retrieve(target, run_program, tmp_path):
    """A list pushed with `append` and `insert` in turn gives the BFS levels back
    deepest first through `pop()` and `retrieve` in turn."""
    failures = []
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        levels = reference.bfs_levels(graph, 0)
        sizes = np.bincount(levels[levels >= 0])[::-1]
        expected = [str(len(sizes)), *(str(int(size)) for size in sizes)]
        printed = run_program("lang_list.gt", target, [spec, "0"])
        if printed != expected:
            failures.append(f"{name}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_pagerank_delta_validates(target, check_runs, tmp_path):
    """GraphIt's PageRank-delta app, recognised by `--validate` as itself and
    checked against its CPU reference (GraphIt's epsilon semantics)."""
    from gir.executor import compile_program
    from gir.validate import find_validator

    module = parse_program(str(PROGRAMS / "lang_pagerank_delta.gt"))
    validator = find_validator(module)
    assert validator is not None and validator.algorithm.startswith("PageRank-delta")
    executable = compile_program(lower_for_run(module, check_bounds=True), target[0])
    without_start = {name: (spec, None) for name, spec in graphs(tmp_path).items()}
    check_runs("lang_pagerank_delta.gt", executable, validator, target, without_start)


@pytest.mark.parametrize("target", TARGETS)
def test_uint_and_64_bit_types(target, run_program, tmp_path):
    """`uint` degrees and priorities (k-core), `int64` weights summed past 32
    bits, unsigned division, comparison, wrap-around and conversion to double."""
    failures = []
    for name, spec in graphs(tmp_path, weighted=True).items():
        graph = load_graph(spec, cache=False)
        total = 3_000_000_000 * int(np.asarray(graph.weights, dtype=np.int64).sum())
        expected = [str(int(reference.core_numbers(graph).max())), str(total)]
        expected += ["1333333333", "1", "4294967295"]
        printed = run_program("lang_types.gt", target, [spec])
        if printed[:5] != expected or float(printed[5]) != 4e9:
            failures.append(f"{name}: printed {printed}, expected {expected} and 4e9")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_implicit_float_to_int(target, run_program, tmp_path):
    """Floats stored as ints truncate toward zero, as GraphIt's C++ does."""
    failures = []
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        degrees = np.bincount(graph.src, minlength=graph.num_vertices)
        scaled = (degrees.astype(np.float32) * np.float32(1.5)).astype(np.int64).sum()
        expected = [str(2 * graph.num_vertices), str(int(scaled)), "-2"]
        printed = run_program("lang_conversions.gt", target, [spec])
        if printed != expected:
            failures.append(f"{name}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_functors(target, run_program, tmp_path):
    """`f[values]` in vertex and edge applies: each apply sees its own values."""
    failures = []
    for name, spec in graphs(tmp_path, weighted=True).items():
        graph = load_graph(spec, cache=False)
        degrees = np.bincount(graph.src, minlength=graph.num_vertices)
        weights = np.asarray(graph.weights, dtype=np.int64)
        levels = reference.bfs_levels(graph, 0)
        for least in (1, 3):
            expected = [
                str(int((degrees >= least).sum())),
                str(int(2 * weights.sum() + 30 * weights.size)),
                str(int(((levels >= 0) & (levels <= 2)).sum())),
            ]
            printed = run_program("lang_functors.gt", target, [spec, str(least)])
            if printed != expected:
                failures.append(f"{name} {least}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)


def local_vector_expected(graph: Graph, root: int) -> list[str]:
    """What `lang_local_vector.gt ROOT` prints, from the CPU's BFS levels: per
    iteration (levels 1 to the deepest + 1) a 1 and (d + 1) times the vertices
    at level d; then root·|V|, twice the levels' sum + 1000 + 7·|V| (unreached
    vertices count -1), and 111."""
    levels = reference.bfs_levels(graph, root)
    count = graph.num_vertices
    printed: list[int] = []
    for depth in range(1, int(levels.max()) + 2):
        printed += [1, (depth + 1) * int((levels == depth).sum())]
    spread = int(levels.sum()) + 1000 + 7 * count
    return [str(value) for value in [*printed, root * count, spread, spread, 111]]


@pytest.mark.parametrize("target", TARGETS)
def test_local_vectors(target, run_program, tmp_path):
    """Local `var` vectors in main, in a loop body (initialized afresh every
    iteration, with and without a value), in a function main calls (twice),
    hiding a global of the same name, and a fixed-size local with a literal."""
    failures = []
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        for root in {0, graph.num_vertices - 1}:
            printed = run_program("lang_local_vector.gt", target, [spec, str(root)])
            expected = local_vector_expected(graph, root)
            if printed != expected:
                failures.append(f"{name} {root}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)


def unsigned_pq_expected(graph: Graph, source: int) -> list[str]:
    """What `lang_unsigned_pq.gt SOURCE DELTA` prints, from the CPU's shortest
    paths: the distances start at 2^31 - 8 at the source."""
    dist = reference.sssp_distances(graph, source)
    found = np.flatnonzero(dist != reference.UNREACHABLE_DISTANCE)
    lengths = dist[found]
    base = 2**31 - 8
    largest = 2**32 - 1 if found.size < graph.num_vertices else base + int(lengths.max())
    return [
        str(found.size),
        str(int(lengths.sum())),
        str(int((lengths * (found + 1)).sum())),
        str(base),
        str(largest),
    ]


@pytest.mark.parametrize("target", TARGETS)
def test_unsigned_priority_queue(target, run_program, tmp_path):
    """Delta-stepping over uint priorities that cross 2^31, with the queue's
    "no priority" 4294967295: bucket search, atomic updates and bucket tests all
    compare unsigned (signed ones give other distances)."""
    failures = []
    for name, spec in graphs(tmp_path, weighted=True).items():
        graph = load_graph(spec, cache=False)
        for source in {0, graph.num_vertices - 1}:
            expected = unsigned_pq_expected(graph, source)
            for delta in (1, 7, 1000):
                printed = run_program("lang_unsigned_pq.gt", target, [spec, str(source), str(delta)])
                if printed != expected:
                    failures.append(f"{name} {source} {delta}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_uint64_literals(target, run_program, tmp_path):
    """Literals above 2^63-1 as uint_64 values, in host and device code."""
    failures = []
    for name, spec in graphs(tmp_path).items():
        count = load_graph(spec, cache=False).num_vertices
        expected = [2**64 - 1, 2**64 - count, 2**63, count, 2**63, 2**63 - 1]
        printed = run_program("lang_uint64_literals.gt", target, [spec])
        if printed != [str(value) for value in expected]:
            failures.append(f"{name}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)


@pytest.mark.skipif(find_nvcc() is None, reason="nvcc is not installed")
@pytest.mark.parametrize("program", ["lang_local_vector.gt", "lang_uint64_literals.gt", "lang_unsigned_pq.gt"])
def test_complete_cuda_program_builds(program, complete_cuda):
    """The complete `.cu` of local vectors, uint_64 literals and a uint priority
    queue builds and links with nvcc (no GPU needed)."""
    source, problem = complete_cuda(program)
    assert "18446744073709551615ULL" in source or program != "lang_uint64_literals.gt"
    assert problem is None, problem[-4000:]


@pytest.mark.parametrize("target", TARGETS)
def test_vertex_count_inside_functions(target, run_program, tmp_path):
    """lang_vertex_count_udf.gt: 1/|V| per vertex sums to 1, and every vertex
    with an in-edge records |V|."""
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        with_in_edges = int(np.count_nonzero(np.bincount(graph.dst, minlength=graph.num_vertices)))
        share, seen = run_program("lang_vertex_count_udf.gt", target, [spec])
        assert float(share) == pytest.approx(1.0, rel=1e-9), name
        assert int(seen) == with_in_edges * graph.num_vertices, name


@pytest.mark.parametrize("target", TARGETS)
def test_integer_conditions(target, run_program, tmp_path):
    """lang_while_one.gt: `while (1)` with a `break` and an integer `if`
    condition compute BFS levels and the search's depth."""
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        levels = reference.bfs_levels(graph, 0)
        assert run_program("lang_while_one.gt", target, [spec, "0"]) == [str(int(levels.max()))], name


@pytest.mark.parametrize("target", TARGETS)
def test_atomic_add(target, run_program, tmp_path):
    """lang_atomic_add.gt: atomicAdd in a functor under nested par_for loops and
    in an edge function."""
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        expected = [str(6 * graph.num_vertices), str(int(graph.src.astype(np.int64).sum()))]
        assert run_program("lang_atomic_add.gt", target, [spec]) == expected, name


@pytest.mark.parametrize("target", TARGETS)
def test_int_to_bool(target, run_program, tmp_path):
    """An integer stored in a bool output, vector element or variable is true
    when it is not zero (GraphIt's `output = 0;`)."""
    failures = []
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        degrees = np.bincount(graph.src, minlength=graph.num_vertices)
        odd = int((degrees % 2 == 1).sum())
        expected = [str(int((degrees > 0).sum())), str(odd), str(int(odd > 0))]
        printed = run_program("lang_int_to_bool.gt", target, [spec])
        if printed != expected:
            failures.append(f"{name}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_bool_visited(target, run_program, tmp_path):
    """A guarded store to a tracked bool vector (`visited[dst] = true` under
    `to(visited[v] == false)`) enqueues each newly reached vertex once."""
    failures = []
    for name, spec in graphs(tmp_path).items():
        graph = load_graph(spec, cache=False)
        levels = reference.bfs_levels(graph, 0)
        expected = [str(int((levels > 0).sum())), str(int(levels.max()) + 1)]
        printed = run_program("lang_bool_visited.gt", target, [spec, "0"])
        if printed != expected:
            failures.append(f"{name}: printed {printed}, expected {expected}")
    assert not failures, "\n".join(failures)
