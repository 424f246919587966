"""gir as `pip install` gives it: a wheel carries every file gir needs at run time
(gir-bench's programs and reference, the NetworkX backend's programs, C++
sources), works from outside the checkout, and compiling needs no GPU runtime
(pyopencl and pycuda are extras)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ROOT / "test" / "programs"


def _tracked_package_files() -> set[str]:
    """Every file git tracks under gir/ (Python modules and data), as wheel paths."""
    listed = subprocess.run(
        ["git", "ls-files", "gir"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(listed.stdout.split())


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """gir's wheel, built (`pip wheel . --no-deps`) from a copy of what it packages,
    so that the build leaves nothing in the checkout."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("the checkout is not a git repository")
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for path in _tracked_package_files():
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / path, source / path)
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if built.returncode != 0 and "No matching distribution found for setuptools" in built.stderr:
        pytest.skip("pip cannot fetch setuptools to build the wheel (no package index)")
    assert built.returncode == 0, built.stderr
    (wheel,) = out.glob("gir-*.whl")
    return wheel


def test_the_wheel_holds_every_file_gir_tracks(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(_tracked_package_files() - names)
    assert not missing, f"files under gir/ missing from the wheel: {missing}"
    assert "gir/benchmarks/g2_h200.csv" in names
    assert {"gir/benchmarks/programs/bfs_g2_road.gt", "gir/nx_backend/programs/sssp.gt"} <= names
    metadata = zipfile.ZipFile(wheel).read(f"{wheel.name.split('-')[0]}-"
                                           f"{wheel.name.split('-')[1]}.dist-info/METADATA")
    requirements = [
        line.split(":", 1)[1].strip() for line in metadata.decode().splitlines()
        if line.startswith("Requires-Dist:")
    ]  # fmt: skip
    assert "networkx>=3" in requirements  # the backend's entry point is always registered
    assert any(r.startswith("pyopencl") and 'extra == "opencl"' in r for r in requirements)
    assert not any(r.startswith("pyopencl") and "extra ==" not in r for r in requirements)


def test_gir_bench_runs_from_the_installed_wheel(wheel: Path, tmp_path: Path) -> None:
    """The wheel installed beside this environment's packages (for xDSL, numpy,
    pyopencl), run from outside the checkout: gir-bench finds its shipped
    programs and reference."""
    environment_dir = tmp_path / "venv"
    venv.create(environment_dir, with_pip=False)
    python = environment_dir / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    # This environment's packages, after the venv's own (so the wheel's gir comes first).
    dependencies = {sysconfig.get_paths()[kind] for kind in ("purelib", "platlib")}
    (Path(site) / "dependencies.pth").write_text("\n".join(sorted(dependencies)) + "\n")
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
         str(wheel)],
        env=clean, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert install.returncode == 0, install.stderr
    where = subprocess.run(
        [str(python), "-c", "import gir.benchmarks as b; print(b.PROGRAMS)"],
        cwd=tmp_path, env=clean, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(environment_dir)
    run = subprocess.run(
        [str(environment_dir / "bin" / "gir-bench"), "--target", "opencl", "--graphs",
         "road:4:4", "--algorithms", "bfs", "--schedules", "default", "--trials", "1"],
        cwd=tmp_path, env=clean, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    if "OpenCL is not available" in run.stderr:
        pytest.skip("no OpenCL device")
    assert run.returncode == 0, run.stderr
    assert "ok: validated" in run.stdout
    assert "g2_h200.csv" in run.stdout  # the shipped reference, read from the wheel
    snippet = subprocess.run(
        [str(python), "-c", GETTING_STARTED_SNIPPET, str(PROGRAMS / "bfs.gt")],
        cwd=tmp_path, env=clean, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert snippet.returncode == 0, snippet.stderr
    assert snippet.stdout.strip() == str(environment_dir / "lib")


# docs/getting-started.md's Python snippet (the program given by its path here),
# checked against NetworkX; prints where gir was imported from.
GETTING_STARTED_SNIPPET = """
import sys, gir, networkx as nx

prog = gir.compile(sys.argv[1])
out = prog.run(nx.gnm_random_graph(100, 400, seed=1), 0)
assert out["pred"][0] == 0 and out.median > 0
graph = nx.barabasi_albert_graph(1000, 3, seed=1)
ranks, expected = nx.pagerank(graph, backend="gir"), nx.pagerank(graph)
assert max(abs(ranks[v] - expected[v]) for v in graph) < 1e-4
karate = nx.karate_club_graph()  # weighted: a newcomer's first try (docs/python.md)
ranks, expected = nx.pagerank(karate, backend="gir"), nx.pagerank(karate)
assert max(abs(ranks[v] - expected[v]) / expected[v] for v in karate) < 1e-9
print(gir.__file__.split("/python3")[0])
"""


# Compile-only use: pyopencl and pycuda cannot be imported.
WITHOUT_GPU_RUNTIMES = """
import importlib.abc, sys

class NoGpuRuntime(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in ("pyopencl", "pycuda"):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None

sys.meta_path.insert(0, NoGpuRuntime())
program = sys.argv[1]
import gir
from gir.tools import opt, translate
assert opt.main([program, "-p", "lower-to-gpu", "-o", sys.argv[2] + ".mlir"]) == 0
assert translate.main(["--to-opencl", program, "-o", sys.argv[2] + ".cl"]) == 0
assert translate.main(["--to-cuda", program, "-o", sys.argv[2] + ".cu"]) == 0
compiled = gir.compile(program)
import networkx as nx  # loads gir's backend_info entry point
from gir.nx_backend.interface import BackendInterface
assert sorted(nx.pagerank(nx.path_graph(4))) == [0, 1, 2, 3]  # NetworkX's own, unaffected
assert "pyopencl" not in sys.modules and "pycuda" not in sys.modules
print("compiled without a GPU runtime")
"""


def test_compiling_needs_neither_pyopencl_nor_pycuda(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_GPU_RUNTIMES, str(PROGRAMS / "bfs.gt"), str(tmp_path / "bfs")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "compiled without a GPU runtime" in done.stdout
    assert "__kernel" in (tmp_path / "bfs.cl").read_text()
