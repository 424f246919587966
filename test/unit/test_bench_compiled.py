"""`gir-bench --host compiled` (`gir.tools.compiled`) without nvcc or a GPU: the
build command and its cache with a fake nvcc, the `.gbin` export, and cells run
by fake executables (Python scripts) that print a time and dump vectors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from gir.diagnostics import UserError
from gir.runtime.graph import load_graph
from gir.runtime.graph import BINARY_GRAPH_MAGIC, write_binary_graph
from gir.tools import bench
from gir.tools.bench import ALGORITHMS, Cell, CompiledCell
from gir.tools.compiled import CompiledHost, build_command, graph_file_name
from gir.tools.run import parse_program
from gir.validate import find_validator

CC_PROGRAM = bench.PROGRAMS / "cc_g2.gt"


class FakeNvcc:
    """Stands in for `subprocess.run` on nvcc: records each command and writes
    the `-o` file (or fails with `error`)."""

    def __init__(self, error: str | None = None) -> None:
        self.commands: list[list[str]] = []
        self.error = error

    def __call__(self, command: list[str], **_: object) -> subprocess.CompletedProcess:
        self.commands.append(command)
        if self.error is not None:
            return subprocess.CompletedProcess(command, 2, "", f"warning\n{self.error}\n")
        Path(command[command.index("-o") + 1]).write_text("binary")
        return subprocess.CompletedProcess(command, 0, "", "")


def test_build_command() -> None:
    command = build_command("/cuda/nvcc", "sm_90", Path("x.cu"), Path("x"))
    assert command == ["/cuda/nvcc", "-O3", "-std=c++17", "-arch=sm_90", "x.cu", "-o", "x"]


def test_build_is_cached_by_source_and_arch(tmp_path: Path) -> None:
    nvcc = FakeNvcc()
    host = CompiledHost("nvcc", "sm_90", tmp_path, nvcc)
    first = host.build("bfs", "int main() {}")
    assert first.read_text() == "binary" and first.with_suffix(".cu").read_text() == "int main() {}"
    assert host.build("bfs", "int main() {}") == first
    assert len(nvcc.commands) == 1
    other_source = host.build("bfs", "int main() { return 0; }")
    other_arch = CompiledHost("nvcc", "sm_80", tmp_path, nvcc).build("bfs", "int main() {}")
    assert len({first, other_source, other_arch}) == 3 and len(nvcc.commands) == 3
    assert "-arch=sm_80" in nvcc.commands[-1]


def test_failed_build_is_one_line_and_leaves_no_binary(tmp_path: Path) -> None:
    host = CompiledHost("nvcc", "sm_90", tmp_path, FakeNvcc("x.cu(3): error: bad"))
    with pytest.raises(UserError, match=r"^error: nvcc failed on .*: x.cu\(3\): error: bad$"):
        host.build("bfs", "int main() {}")
    assert not [p for p in tmp_path.iterdir() if p.suffix != ".cu"]


def test_binary_graph_layout(tmp_path: Path) -> None:
    graph = load_graph("rmat:6,w")
    path = tmp_path / "g.gbin"
    write_binary_graph(graph, path)
    data = path.read_bytes()
    assert data[:8] == BINARY_GRAPH_MAGIC
    vertices, edges, flags = np.frombuffer(data[8:32], "<i8")
    assert (vertices, edges, flags) == (graph.num_vertices, graph.num_edges, 1)
    columns = np.frombuffer(data[32:], "<i4").reshape(3, edges)
    for column, expected in zip(columns, (graph.src, graph.dst, graph.weights), strict=True):
        np.testing.assert_array_equal(column, expected)
    assert graph_file_name("rmat:6,w", graph) == f"rmat_6_w-{vertices}v{edges}ew.gbin"


def _fake_binary(path: Path, log: Path, dump_text: str, stdout: str = "0.00125", status: int = 0) -> Path:
    """An executable that logs its arguments and whether GIR_DUMP is set, writes
    `dump_text` to GIR_DUMP, prints `stdout` and exits with `status`."""
    path.write_text(
        f"#!{sys.executable}\n"
        "import json, os, sys\n"
        f"with open({str(log)!r}, 'a') as log:\n"
        "    log.write(json.dumps([sys.argv[1:], 'GIR_DUMP' in os.environ]) + '\\n')\n"
        "if 'GIR_DUMP' in os.environ:\n"
        f"    open(os.environ['GIR_DUMP'], 'w').write({dump_text!r})\n"
        f"print({stdout!r})\n"
        f"if {status}:\n"
        f"    sys.exit('error: the fake failed')\n"
    )
    path.chmod(0o755)
    return path


def _components_dump(labels: np.ndarray) -> str:
    return f"gir-dump comp int32 {labels.size}\n" + "".join(f"{label}\n" for label in labels)


@pytest.fixture
def cc_cell(tmp_path: Path):
    """A CC cell on rmat:6 and its true labels."""
    graph = load_graph("rmat:6")
    matrix = coo_matrix((np.ones(graph.num_edges), (graph.src, graph.dst)), shape=(graph.num_vertices,) * 2)
    labels = connected_components(matrix, directed=True, connection="weak")[1].astype(np.int32)
    validator = find_validator(parse_program(str(CC_PROGRAM)))
    return graph, labels, validator, CompiledHost("nvcc", "sm_90", tmp_path / "cache")


def test_cell_times_by_the_programs_timer_and_validates(cc_cell, tmp_path: Path) -> None:
    graph, labels, validator, host = cc_cell
    log = tmp_path / "log"
    binary = _fake_binary(tmp_path / "cc", log, _components_dump(labels))
    cell = Cell("cc", "rmat:6", "g2", program=CC_PROGRAM.name)
    host.run_cell(cell, CompiledCell(None, validator, 0.0, binary=binary), ALGORITHMS["cc"], graph, "rmat:6", 3, 1)
    assert (cell.status, cell.detail) == ("ok", "validated")
    assert cell.times_ms == pytest.approx([1.25] * 3)
    runs = [json.loads(line) for line in log.read_text().splitlines()]
    gbin = host.graphs / graph_file_name("rmat:6", graph)
    assert runs == [[[str(gbin)], False]] * 3 + [[[str(gbin)], True]]
    assert gbin.read_bytes()[:8] == BINARY_GRAPH_MAGIC
    assert not list(host.cache.glob("*.dump"))


def test_wrong_vectors_make_the_cell_invalid(cc_cell, tmp_path: Path) -> None:
    graph, labels, validator, host = cc_cell
    binary = _fake_binary(tmp_path / "cc", tmp_path / "log", _components_dump(np.arange(labels.size)))
    cell = Cell("cc", "rmat:6", "g2", program=CC_PROGRAM.name)
    host.run_cell(cell, CompiledCell(None, validator, 0.0, binary=binary), ALGORITHMS["cc"], graph, "rmat:6", 1, 0)
    assert cell.status == "invalid" and cell.detail


def test_failing_program_fails_the_cell_with_its_error(cc_cell, tmp_path: Path) -> None:
    graph, labels, validator, host = cc_cell
    binary = _fake_binary(tmp_path / "cc", tmp_path / "log", _components_dump(labels), status=1)
    cell = Cell("cc", "rmat:6", "g2", program=CC_PROGRAM.name)
    host.run_cell(cell, CompiledCell(None, validator, 0.0, binary=binary), ALGORITHMS["cc"], graph, "rmat:6", 2, 0)
    assert (cell.status, cell.detail, cell.times_ms) == ("failed", "cc failed: error: the fake failed", [])


def test_compiled_host_needs_cuda(capsys) -> None:
    code = bench.main(["--host", "compiled", "--target", "opencl", "--algorithms", "cc", "--graphs", "rmat:4"])
    assert code == 1
    assert capsys.readouterr().err.strip() == (
        "error: --host compiled runs complete CUDA programs: it needs --target cuda"
    )


def test_cell_past_its_limit_is_a_timeout(cc_cell, tmp_path: Path) -> None:
    """`--cell-limit` bounds the executable's runs: one that sleeps past it is
    killed, and the cell says so instead of failing."""
    graph, _, validator, host = cc_cell
    binary = tmp_path / "cc"
    binary.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(60)\n")
    binary.chmod(0o755)
    cell = Cell("cc", "rmat:6", "g2", program=CC_PROGRAM.name)
    compiled = CompiledCell(None, validator, 0.0, binary=binary)
    host.run_cell(cell, compiled, ALGORITHMS["cc"], graph, "rmat:6", 3, 0, 0.5)
    assert (cell.status, cell.times_ms) == ("timeout", [])
    assert cell.detail == "stopped after 0.5 s (--cell-limit), 0 timed trial(s) done"
