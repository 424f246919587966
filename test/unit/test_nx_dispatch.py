"""NetworkX finds gir through the entry points pyproject.toml declares
(`networkx.backends`, `networkx.backend_info`): `backend="gir"` runs gir's
algorithm on a graph converted once and cached on it, and what gir does not
support raises NetworkX's NotImplementedError, or falls back to NetworkX when gir
is only preferred (`nx.config.backend_priority`). Shown in a fresh interpreter
whose path holds a distribution declaring only those entry points, as
`pip install gir` would."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[2]

SCRIPT = textwrap.dedent(
    """
    import warnings
    import networkx as nx, pytest

    warnings.simplefilter("ignore")
    nx.config.backends.gir.target = "opencl"
    info = nx.utils.backends.backend_info["gir"]
    assert {"pagerank", "connected_components", "single_source_shortest_path_length",
            "single_source_dijkstra_path_length", "betweenness_centrality", "bfs_edges",
            "bfs_tree", "bfs_predecessors", "bfs_successors"} <= set(info["functions"])
    assert nx.config.backends.gir.schedule == "auto"

    from gir.tune import stats
    probes = []  # the auto model's graph statistics (a BFS probe), counted
    measure = stats.graph_stats
    stats.graph_stats = lambda graph: probes.append(1) or measure(graph)

    G = nx.barabasi_albert_graph(50, 1, seed=3)
    assert nx.pagerank(G, backend="gir") == pytest.approx(nx.pagerank(G), abs=1e-8)
    assert nx.single_source_shortest_path_length(G, 7, backend="gir") == nx.single_source_shortest_path_length(G, 7)
    assert list(nx.connected_components(G, backend="gir")) == list(nx.connected_components(G))
    assert list(nx.bfs_edges(G, 7, depth_limit=3, backend="gir")) == list(nx.bfs_edges(G, 7, depth_limit=3))
    assert list(nx.bfs_tree(G, 7, backend="gir").edges) == list(nx.bfs_tree(G, 7).edges)
    cached = G.__networkx_cache__["backends"]["gir"]
    (converted,) = cached.values()  # converted once (with 'weight'), reused by the others
    assert converted.__networkx_backend__ == "gir" and converted._loaded
    nx.pagerank(G, backend="gir")
    assert list(G.__networkx_cache__["backends"]["gir"].values()) == [converted]
    assert probes == [1]  # five calls on G: its statistics once, for the auto schedules

    W = nx.DiGraph()
    W.add_weighted_edges_from([(0, 1, 4), (1, 2, 1), (0, 2, 7), (2, 3, 2)])
    assert nx.single_source_dijkstra_path_length(W, 0, backend="gir") == {0: 0, 1: 4, 2: 5, 3: 7}

    with pytest.raises(NotImplementedError, match="not implemented by 'gir'"):
        nx.pagerank(G, personalization={0: 1}, backend="gir")
    assert nx.betweenness_centrality(G, k=5, seed=1, backend="gir") == pytest.approx(
        nx.betweenness_centrality(G, k=5, seed=1), rel=1e-9)
    with pytest.raises(NotImplementedError):
        nx.betweenness_centrality(G, weight="weight", backend="gir")
    with pytest.raises(NotImplementedError, match="not implemented by 'gir'"):
        nx.bfs_edges(G, 7, sort_neighbors=sorted, backend="gir")

    K = nx.karate_club_graph()  # weighted: gir's weighted PageRank
    assert nx.pagerank(K, backend="gir") == pytest.approx(nx.pagerank(K), rel=1e-12)

    from gir.nx_backend import interface
    runs = []
    bfs = interface.BackendInterface.single_source_shortest_path_length
    interface.BackendInterface.single_source_shortest_path_length = lambda *a, **k: runs.append(1) or bfs(*a, **k)
    nx.config.backend_priority.algos = ["gir"]
    nx.single_source_shortest_path_length(K, 0)
    assert runs == []  # karate is below the measured threshold: NetworkX runs it
    nx.config.backends.gir.min_edges = 0
    nx.single_source_shortest_path_length(K, 0)
    assert runs == [1]
    assert nx.closeness_centrality(K) == nx.closeness_centrality(K, backend="networkx")
    assert runs == [1]  # closeness's BFS per node stays in NetworkX
    assert nx.pagerank(G, personalization={0: 1}) == nx.pagerank(G, personalization={0: 1}, backend="networkx")
    W[0][1]["weight"] = 0.5
    W.__networkx_cache__.clear()
    assert nx.single_source_dijkstra_path_length(W, 0) == {0: 0, 1: 0.5, 2: 1.5, 3: 3.5}
    assert list(nx.bfs_edges(G, 3, sort_neighbors=sorted)) == list(
        nx.bfs_edges(G, 3, sort_neighbors=sorted, backend="networkx"))
    print("dispatched")
    """
)


NX_SNIPPETS = ("docs/python.md", "docs/getting-started.md")
"""Pages whose Python blocks that use the backend are run here (installed)."""


def _declared(group: str) -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project["entry-points"][group]


def test_pyproject_declares_the_backend() -> None:
    assert _declared("networkx.backends") == {"gir": "gir.nx_backend.interface:BackendInterface"}
    assert _declared("networkx.backend_info") == {"gir": "gir.nx_backend:get_info"}


def _installed(tmp_path: Path) -> dict[str, str]:
    """An environment whose path holds a distribution declaring only gir's
    NetworkX entry points (gir itself is importable from the checkout), then the
    PYTHONPATH it was given (where gir's dependencies may come from)."""
    info = tmp_path / "gir_nx_backend_test-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gir-nx-backend-test\nVersion: 0\n")
    sections = [
        f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in _declared(group).items())
        for group in ("networkx.backends", "networkx.backend_info")
    ]
    (info / "entry_points.txt").write_text("\n".join(sections))
    inherited = [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT), *inherited])}


def test_installed_keeps_the_inherited_pythonpath(tmp_path: Path, monkeypatch) -> None:
    """Where gir's dependencies come from PYTHONPATH, the subprocess still finds
    them: the test's own entries come first, the inherited ones after."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(["/deps/a", "", "/deps/b"]))
    assert _installed(first)["PYTHONPATH"].split(os.pathsep) == [str(first), str(ROOT), "/deps/a", "/deps/b"]
    monkeypatch.delenv("PYTHONPATH")
    assert _installed(second)["PYTHONPATH"].split(os.pathsep) == [str(second), str(ROOT)]


def test_networkx_dispatches_to_gir(tmp_path: Path) -> None:
    env = _installed(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "dispatched"


def test_docs_networkx_snippets_run(tmp_path: Path) -> None:
    blocks = [
        block
        for page in NX_SNIPPETS
        for block in re.findall(r"```python\n(.*?)```", (ROOT / page).read_text(), re.DOTALL)
        if 'backend="gir"' in block
    ]
    assert len(blocks) == len(NX_SNIPPETS) + 1  # python.md has two: dispatching, and reusing a tuned schedule
    script = "import warnings\nwarnings.simplefilter('ignore')\n" + "\n".join(blocks)
    done = subprocess.run(
        [sys.executable, "-c", script], env=_installed(tmp_path), cwd=ROOT,
        capture_output=True, text=True, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stderr
