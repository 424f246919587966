"""The Python API (`gir.compile`, `Program.run`, `gir.load_graph`) on OpenCL:
every kind of program input and graph input, graphs kept on the device across
runs, schedules given from Python, located errors, and the snippets of
docs/python.md, executed as written."""

from __future__ import annotations

import re
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from xdsl.printer import Printer

import gir
from gir.frontend import parse_graphit_source
from gir.runtime.reference import check_bfs_parent
from gir.runtime.graph import from_networkx
from gir.tools.run import parse_program
from gpu_testing import opencl_device_count

pytestmark = pytest.mark.skipif(opencl_device_count() == 0, reason="no OpenCL device")

ROOT = Path(__file__).parents[2]
PROGRAMS = ROOT / "test" / "programs"
BFS = PROGRAMS / "bfs.gt"
SSSP = PROGRAMS / "sssp_bf.gt"
TWCE = """schedule:
    SimpleGPUSchedule s1;
    s1.configLoadBalance(TWCE);
    program->applyGPUSchedule("search:expand", s1);
"""


@pytest.fixture(scope="module")
def bfs() -> gir.Program:
    return gir.compile(BFS)


def _random_graph(seed: int, n: int = 60, m: int = 240) -> nx.DiGraph:
    return nx.gnm_random_graph(n, m, seed=seed, directed=True)


def _assert_bfs(graph: nx.DiGraph, root: int, parent: np.ndarray) -> None:
    problem = check_bfs_parent(from_networkx(graph), root, parent)
    assert problem is None, problem


# -- program inputs ----------------------------------------------------------


def test_compile_path_string_and_source_text_agree(bfs: gir.Program) -> None:
    G = _random_graph(1)
    from_text = gir.compile(BFS.read_text())
    from_str = gir.compile(str(BFS))
    expected = bfs.run(G, 3)["pred"]
    assert np.array_equal(from_text.run(G, 3)["pred"], expected)
    assert np.array_equal(from_str.run(G, 3)["pred"], expected)
    _assert_bfs(G, 3, expected)
    assert bfs.name == "bfs" and from_text.name == "<program>"


def _ir_text(path: Path) -> str:
    import io

    stream = io.StringIO()
    Printer(stream).print_op(parse_graphit_source(path.read_bytes(), str(path)))
    return stream.getvalue()


def test_compile_ir_text_and_module() -> None:
    G = _random_graph(2)
    from_ir = gir.compile(_ir_text(BFS))
    from_module = gir.compile(parse_program(str(BFS)))
    _assert_bfs(G, 0, from_ir.run(G, 0)["pred"])
    _assert_bfs(G, 0, from_module.run(G, 0)["pred"])
    assert from_ir.validator is not None and from_ir.validator.algorithm.startswith("BFS")


def test_schedule_replaces_the_programs() -> None:
    twce = gir.compile(BFS, schedule=TWCE)
    plain = gir.compile(BFS)
    assert "__local" in twce.source("opencl") and "__local" not in plain.source("opencl")
    hub = nx.star_graph(300).to_directed()
    _assert_bfs(hub, 0, twce.run(hub, 0)["pred"])


def test_schedule_errors_are_located_in_the_schedule() -> None:
    with pytest.raises(gir.UserError, match=r"^<schedule>:2:24: error: unknown load balance 'FOO'"):
        gir.compile(BFS, schedule="SimpleGPUSchedule s1;\n  s1.configLoadBalance(FOO);")
    with pytest.raises(gir.UserError, match=r"not to an IR module"):
        gir.compile(parse_program(str(BFS)), schedule=TWCE)


def test_program_errors_are_located() -> None:
    with pytest.raises(gir.UserError, match=r"^<string>:3:5: error: undefined name 'x'"):
        gir.compile("element Vertex end\nfunc main()\n    x = 1;\nend\n")
    with pytest.raises(gir.UserError, match=r"^<string>:1:\d+: error: "):
        gir.compile('builtin.module { "nope.op"() : () -> () }')
    with pytest.raises(gir.UserError, match=r"cannot read program 'missing\.gt'"):
        gir.compile("missing.gt")


# -- graph inputs ------------------------------------------------------------


def test_every_graph_form_gives_the_same_tree(bfs: gir.Program, tmp_path: Path) -> None:
    G = _random_graph(3, n=80, m=400)
    matrix = nx.to_scipy_sparse_array(G, nodelist=range(80), format="csr")
    src, dst = matrix.nonzero()
    el = tmp_path / "g.el"
    el.write_text("".join(f"{u} {v}\n" for u, v in zip(src, dst)))
    reference = bfs.run(G, 5)["pred"]
    _assert_bfs(G, 5, reference)
    for graph in (matrix, sp.coo_matrix(matrix), (src, dst), from_networkx(G), el, str(el)):
        parent = bfs.run(graph, 5)["pred"]
        _assert_bfs(G, 5, parent)
        assert np.array_equal(parent, reference), type(graph)


def test_generator_spec_and_trials(bfs: gir.Program) -> None:
    out = bfs.run("rmat:8", 0, trials=3)
    assert len(out.times) == 3 and all(t > 0 for t in out.times) and not out.timer
    assert out.median == sorted(out.times)[1]
    reached, depth = (int(line) for line in out.stdout.split())
    assert reached == int((out["pred"] != -1).sum()) and depth >= 1
    assert list(out) == ["pred"] and len(out) == 1 and out.device
    bfs.validate("rmat:8", out, 0)


def test_weighted_graphs() -> None:
    sssp = gir.compile(SSSP)
    G = _random_graph(4)
    for u, v in G.edges:
        G[u][v]["weight"] = 1 + (u * 7 + v) % 13
    out = sssp.run(G, 0)
    expected = nx.single_source_dijkstra_path_length(G, 0)
    dist = out["est"]
    assert {v: int(dist[v]) for v in expected} == expected
    sssp.validate(G, out, 0)
    src, dst = np.array([0, 1, 0]), np.array([1, 2, 2])
    assert sssp.run((src, dst, np.array([1, 1, 5])), 0)["est"].tolist() == [0, 1, 2]
    with pytest.raises(gir.UserError, match="reads edge weights, but <edge array graph> has none"):
        sssp.run((src, dst), 0)


def test_loaded_graph_is_copied_once(bfs: gir.Program) -> None:
    G = _random_graph(5)
    g = bfs.load_graph(G)
    bfs.run(g, 0)
    loaded = g.device.load_seconds
    for root in range(1, 5):
        out = bfs.run(g, root)
        _assert_bfs(G, root, out["pred"])
        bfs.validate(g, out, root)
    assert g.device.load_seconds == loaded
    assert gir.load_graph(g) is g
    other = gir.compile(BFS, schedule=TWCE)
    _assert_bfs(G, 2, other.run(g, 2)["pred"])
    g.release()
    _assert_bfs(G, 1, bfs.run(g, 1)["pred"])


def test_graph_by_keyword(bfs: gir.Program) -> None:
    G = _random_graph(11)
    assert np.array_equal(bfs.run(4, graph=G)["pred"], bfs.run(G, 4)["pred"])
    with pytest.raises(gir.UserError, match=r"'lang_hostonly' loads no graph: .* argv\[1\] is a graph"):
        gir.compile(HOSTONLY).run(100, graph=G)


def test_networkx_node_labels_are_numbered_in_order(bfs: gir.Program) -> None:
    G = nx.relabel_nodes(nx.path_graph(5, create_using=nx.DiGraph), {i: f"v{i}" for i in range(5)})
    assert bfs.run(G, 0)["pred"].tolist() == [0, 0, 1, 2, 3]


# -- programs without a graph -----------------------------------------------

HOSTONLY = PROGRAMS / "lang_hostonly.gt"


def _primes_below(limit: int) -> list[int]:
    return [n for n in range(2, limit) if all(n % d for d in range(2, int(n**0.5) + 1))]


def test_program_without_graph_takes_argv_from_its_arguments() -> None:
    sieve = gir.compile(HOSTONLY)
    assert not sieve.loads_graph and gir.compile(BFS).loads_graph
    for limit, argument in ((100, 100), (30, "30"), (2, np.int64(2))):
        out = sieve.run(argument, trials=2)
        primes = _primes_below(limit)
        count, total, largest, beyond, mean = out.stdout.split()
        assert [int(count), int(total), int(largest)] == [len(primes), sum(primes), max(primes, default=0)]
        assert int(beyond) == next((p for p in primes if p * p > limit), 0)
        assert float(mean) == pytest.approx(max(primes, default=0) / len(primes) if primes else 0.0, abs=1e-4)
        assert out["primes"][: len(primes)].tolist() == primes and not out["primes"][len(primes) :].any()
        assert len(out.times) == 2 and out.device


def test_program_without_graph_refuses_graphs(bfs: gir.Program) -> None:
    sieve = gir.compile(HOSTONLY)
    G = _random_graph(7)
    with pytest.raises(gir.UserError, match=r"'lang_hostonly' loads no graph: .* argv\[1\] is a graph \(networkx.DiGraph\)"):
        sieve.run(G, 100)
    with pytest.raises(gir.UserError, match=r"loads no graph: .* argv\[2\] is a graph \(edge array\)"):
        sieve.run(100, (np.array([0]), np.array([1])))
    with pytest.raises(gir.UserError, match=r"argv\[1\] is a graph \(scipy.csr_array\)"):
        sieve.run(nx.to_scipy_sparse_array(G, format="csr"))
    with pytest.raises(gir.UserError, match=r"argv\[1\] is a graph \(path\)"):
        sieve.run(HOSTONLY)
    with pytest.raises(gir.UserError, match=r"argv\[1\] is a graph \(gir.LoadedGraph\)"):
        sieve.run(bfs.load_graph(G))
    with pytest.raises(gir.UserError, match=r"reads argv\[1\], but only 0 argument\(s\) were given"):
        sieve.run()
    with pytest.raises(gir.UserError, match=r"^error: 'bfs' loads a graph: give it as the first argument"):
        bfs.run()


# -- errors at run time ------------------------------------------------------


def test_run_errors(bfs: gir.Program) -> None:
    G = _random_graph(6)
    with pytest.raises(gir.UserError, match=r"element 60 of vector 'pred', which has 60"):
        bfs.run(G, 60)
    with pytest.raises(gir.UserError, match=r"argv\[2\] is 4294967296, which does not fit"):
        bfs.run(G, 1 << 32)
    with pytest.raises(gir.UserError, match=r"only 1 argument\(s\) were given"):
        bfs.run(G)
    with pytest.raises(gir.UserError, match="trials must be an integer of at least 1, not 0"):
        bfs.run(G, 0, trials=0)
    with pytest.raises(gir.UserError, match="unknown target 'metal'"):
        bfs.run(G, 0, target="metal")
    with pytest.raises(gir.UserError, match="cannot use a list as a graph"):
        bfs.run([1, 2], 0)
    with pytest.raises(gir.UserError, match="graph file not found"):
        bfs.run("nope.el", 0)
    with pytest.raises(KeyError, match="no global vector 'parent' .it has: pred."):
        bfs.run(G, 0)["parent"]
    with pytest.raises(gir.UserError, match="validation of BFS .* failed"):
        bfs.validate(G, {"pred": np.zeros(60, np.int32)}, 0)


# -- docs/python.md ----------------------------------------------------------


def _python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(), re.DOTALL)


def test_docs_python_snippets_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    blocks = _python_blocks(ROOT / "docs" / "python.md")
    assert len(blocks) == 11
    blocks = [block for block in blocks if 'backend="gir"' not in block]  # test_nx_dispatch runs it
    (tmp_path / "test").symlink_to(ROOT / "test")
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block, "docs/python.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "<string>:3:5: error: undefined name 'x'" in printed
    assert "['25', '1060']" in printed  # the program that loads no graph
    assert (tmp_path / "g.npz").is_file()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: gir.compile(BFS.read_bytes()), "not bytes"),  # type: ignore[arg-type]
        (lambda: gir.compile(None), "not NoneType"),  # type: ignore[arg-type]
        (lambda: gir.compile(str(BFS), schedule=123), "schedule= is the text"),  # type: ignore[arg-type]
    ],
)
def test_compile_refuses_what_it_cannot_read(call, message: str) -> None:
    with pytest.raises(gir.UserError, match=message):
        call()


@pytest.mark.parametrize(
    ("graph", "trials", "message"),
    [
        ((np.array([0, 2**64 - 1], np.uint64), np.array([1, 2], np.uint64)), 1, "invalid vertex count"),
        ((np.array([0, "a"], dtype=object), np.array([1, 2])), 1, "src must be an array of integer"),
        ((np.array([0]), np.array([1])), 1.5, "trials must be an integer"),
        ((np.array([0]), np.array([1])), "3", "trials must be an integer"),
        ((np.array([0]), np.array([1])), True, "trials must be an integer"),
    ],
)
def test_run_refuses_bad_arguments_with_user_errors(graph, trials, message: str) -> None:
    """Checked before any device is opened: no raw TypeError or OverflowError."""
    program = gir.compile(BFS)
    with pytest.raises(gir.UserError, match=message):
        program.run(graph, 0, trials=trials)
