"""gir as an xDSL plugin: the `xdsl.universe` entry point that pyproject.toml
declares names `GIR_UNIVERSE`, which offers gir's dialects, passes and targets
without clashing with xDSL's; `xdsl-opt` discovers it through importlib's
entry points (shown with a distribution that declares only that entry point, so
no install is needed) and `-t cuda` / `-t opencl` work in xdsl-opt and gir-opt."""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from xdsl.universe import Universe

from gir.dialects import DIALECT_FACTORIES
from gir.passes.registry import available_passes
from gir.universe import GIR_DIALECTS, GIR_UNIVERSE, TARGETS

ROOT = Path(__file__).parents[2]
BFS = ROOT / "test" / "programs" / "bfs.gt"
ENTRY_POINT = "gir.universe:GIR_UNIVERSE"


def _declared_entry_points() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project["entry-points"]["xdsl.universe"]


def test_pyproject_declares_the_universe() -> None:
    assert _declared_entry_points() == {"gir": ENTRY_POINT}
    module, attribute = ENTRY_POINT.split(":")
    assert getattr(__import__(module, fromlist=[attribute]), attribute) is GIR_UNIVERSE


def test_universe_has_girs_dialects_passes_and_targets() -> None:
    assert sorted(GIR_UNIVERSE.all_dialects) == sorted(GIR_DIALECTS)
    for name, factory in GIR_UNIVERSE.all_dialects.items():
        assert factory().name == name and DIALECT_FACTORIES[name]().name == name
    assert GIR_UNIVERSE.all_passes.keys() == available_passes().keys()
    assert {"graph-to-frontier", "lower-to-gpu", "frontier-lower-load-balance"} <= GIR_UNIVERSE.all_passes.keys()
    assert sorted(GIR_UNIVERSE.all_targets) == ["cuda", "host-python", "opencl"] == sorted(TARGETS)
    xdsl = Universe.get_multiverse()
    for kind in ("all_dialects", "all_passes", "all_targets"):
        ours = getattr(GIR_UNIVERSE, kind).keys()
        assert not ours & (getattr(xdsl, kind).keys() - ours), kind


def _with_entry_point(tmp_path: Path) -> dict[str, str]:
    """An environment whose path holds a distribution declaring only gir's entry
    point, as `pip install gir` would (gir itself is importable already)."""
    info = tmp_path / "gir_xdsl_plugin_test-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gir-xdsl-plugin-test\nVersion: 0\n")
    (info / "entry_points.txt").write_text(f"[xdsl.universe]\ngir = {ENTRY_POINT}\n")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}


def _xdsl_opt(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    code = "import sys; from xdsl.tools.xdsl_opt import main; sys.argv[0] = 'xdsl-opt'; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=300
    )


def _gir_installed_with_entry_point() -> bool:
    try:
        points = importlib.metadata.distribution("gir").entry_points
    except importlib.metadata.PackageNotFoundError:
        return False
    return any(point.group == "xdsl.universe" for point in points)


def test_xdsl_opt_discovers_gir(tmp_path: Path) -> None:
    env = None if _gir_installed_with_entry_point() else _with_entry_point(tmp_path)
    listed = _xdsl_opt(["--help"], env)
    assert listed.returncode == 0, listed.stderr
    help_text = " ".join(listed.stdout.split())
    assert "cuda,opencl,host-python" in help_text.replace(", ", ",")
    gpu_ir = subprocess.run(
        [sys.executable, "-m", "gir.tools.opt", str(BFS), "-p", "lower-to-gpu"],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout  # fmt: skip
    source = tmp_path / "bfs_gpu.mlir"
    source.write_text(gpu_ir)
    cuda = _xdsl_opt([str(source), "-t", "cuda"], env)
    assert cuda.returncode == 0, cuda.stderr
    assert 'extern "C" __global__ void map_search_expand(' in cuda.stdout
    lowered = _xdsl_opt([str(source), "-p", "gpu-check-bounds"], env)
    assert lowered.returncode == 0 and "gir_gpu.kernel" in lowered.stdout, lowered.stderr


@pytest.mark.skipif(
    not _gir_installed_with_entry_point(),
    reason="gir is not pip-installed with its xdsl.universe entry point (the editable "
    "install predates it); CI's fresh `pip install` runs this",
)
def test_installed_gir_is_in_xdsl_multiverse() -> None:
    multiverse = Universe.get_multiverse()
    assert {"graph", "frontier", "gir_gpu", "host"} <= multiverse.all_dialects.keys()
    assert "lower-to-gpu" in multiverse.all_passes and "cuda" in multiverse.all_targets


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not on PATH")
def test_gir_opt_target_cuda_compiles_with_nvcc(tmp_path: Path) -> None:
    cuda = subprocess.run(
        [sys.executable, "-m", "gir.tools.opt", str(BFS), "-t", "cuda"],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout  # fmt: skip
    (tmp_path / "bfs.cu").write_text(cuda)
    subprocess.run(
        # -cuda: nvcc's front end and device compiler, not the host compiler's object
        ["nvcc", "-arch=sm_90", "-std=c++17", "-cuda", "bfs.cu", "-o", "bfs.ii"],
        cwd=tmp_path, check=True, timeout=300,
    )  # fmt: skip
    opencl = subprocess.run(
        [sys.executable, "-m", "gir.tools.opt", str(BFS), "-t", "opencl"],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout  # fmt: skip
    assert "__kernel void map_search_expand(" in opencl
