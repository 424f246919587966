"""End to end: vertex vectors of fixed-size vectors (`vector{Vertex}(vector[K](T))`)
and fixed-size vector literals, run on OpenCL (PoCL in CI) and CUDA where present:
GraphIt's collaborative filtering validated against its CPU reference under every
load balance and both directions, and `lang_fixed_vectors.gt`'s printed values
compared with numpy."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from gir.api import lower_for_run
from gir.dialects.schedule import DirectionAttr, LoadBalanceAttr
from gir.passes.load_balance import LOAD_BALANCES
from gir.runtime.graph import Graph, load_graph
from gir.tools.run import parse_program
from gir.validate import find_validator
from test_language import graphs
from test_programs import TARGETS, with_schedule

PROGRAMS = Path(__file__).parents[1] / "programs"


def ratings_graph(tmp: Path) -> str:
    """A bipartite user-item graph with ratings 1 to 5 in both directions (as
    GraphIt's CF reads Netflix): 40 users, 25 items, every user rating 6 items."""
    rng = np.random.default_rng(12)
    lines = []
    for user in range(40):
        for item in rng.choice(25, size=6, replace=False):
            rating = int(rng.integers(1, 6))
            lines += [f"{user} {40 + item} {rating}", f"{40 + item} {user} {rating}"]
    path = tmp / "ratings.wel"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def cf_graphs(tmp: Path) -> dict[str, str]:
    return {**graphs(tmp, weighted=True), "ratings": ratings_graph(tmp)}


SCHEDULES = [
    pytest.param({"load_balance": LoadBalanceAttr(lb)}, id=lb) for lb in LOAD_BALANCES
] + [pytest.param({"direction": DirectionAttr("PULL")}, id="PULL")]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("options", SCHEDULES)
def test_collaborative_filtering_validates(target, options, devices, tmp_path):
    """`collaborative_filtering.gt` (GraphIt's CF: K = 20 latent factors per
    vertex) is recognised by `--validate` and matches the CPU reference, with the
    error vector's lanes updated atomically (PUSH) or privately (PULL)."""
    from gir.executor import compile_program

    name, index = target
    module = parse_program(str(PROGRAMS / "collaborative_filtering.gt"))
    validator = find_validator(module)
    assert validator is not None and validator.algorithm.startswith("collaborative filtering")
    module = with_schedule(module, **options)
    executable = compile_program(lower_for_run(module, check_bounds=True), name)
    device = devices(name, index)
    failures = []
    for graph_name, spec in cf_graphs(tmp_path).items():
        argv = ["collaborative_filtering.gt", spec]
        result = executable.run(device, argv, io.StringIO())
        latent = result.globals["latent_vec"]
        graph = load_graph(spec, cache=False)
        if latent.shape != (graph.num_vertices * 20,):
            failures.append(f"{graph_name}: latent_vec has shape {latent.shape}")
            continue
        problem = validator.check(graph, argv, result.globals)
        if problem is not None:
            failures.append(f"{graph_name}: {problem}")
    assert not failures, "\n".join(failures)


def test_reference_declines_diverged_factors(tmp_path):
    """The checker is not fooled by infinities that the reference shares: where
    the reference itself diverges no result is right, and the check declines
    (`NotChecked`, "not checked" in gir-run) instead of passing or failing it."""
    from gir.runtime import reference

    graph = load_graph("rmat:10,w", cache=False)
    diverged = reference.collaborative_filtering(graph, 30, 20, 0.00003, -0.001, 0.5)
    assert not np.isfinite(diverged).all()
    with pytest.raises(reference.NotChecked, match="latent factors overflow"):
        reference.check_collaborative_filtering(graph, diverged.ravel(), 30, 20, 0.00003, -0.001, 0.5)


def fixed_vectors_expected(graph: Graph) -> tuple[list[int], float]:
    """What `lang_fixed_vectors.gt` prints: its ints, and the sum of `mix`."""
    n = graph.num_vertices
    totals = 7 + np.bincount(graph.dst, weights=graph.weights, minlength=n).astype(np.int64)
    smallest = np.full(n, 7, dtype=np.int64)
    np.minimum.at(smallest, graph.dst, graph.src.astype(np.int64))
    coeffs = np.array([0.5, 2.0, -1.25])
    mix = coeffs[None, :] * totals[:, None] + smallest[:, None]
    smallest[0] = -5
    return [10, int(totals[0] + smallest[0]), int(max(totals.max(), smallest.max()))], float(
        mix.sum()
    )


@pytest.mark.parametrize("target", TARGETS)
def test_fixed_size_vectors(target, run_program, tmp_path):
    """Literals, a const-named size, int lanes updated with `+=` and `min=` by an
    edge function, double lanes written by a vertex function, main's lane reads
    and writes, and whole-vector reductions over every lane."""
    failures = []
    for name, spec in graphs(tmp_path, weighted=True).items():
        ints, mix_sum = fixed_vectors_expected(load_graph(spec, cache=False))
        printed = run_program("lang_fixed_vectors.gt", target, [spec])
        got = [int(printed[0]), int(printed[1]), int(printed[3])]
        if got != ints or not np.isclose(float(printed[2]), mix_sum, rtol=1e-5):  # printed to 6 digits
            failures.append(f"{name}: printed {printed}, expected {ints} and {mix_sum}")
    assert not failures, "\n".join(failures)
