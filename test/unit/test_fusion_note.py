"""The note that OpenCL runs fused loops on the host is printed once per process,
not once per compiled program (the NetworkX backend compiles several that fuse)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gir.targets import c_printer
from gir.tools.translate import main as translate

PROGRAMS = Path(__file__).parents[1] / "programs"
NOTE = "note: OpenCL has no grid-wide synchronization: kernel fusion falls back to a host loop"


def test_the_fusion_fallback_note_is_printed_once_per_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(c_printer, "HOST_FALLBACK_NOTED", set())
    for program in ("bfs_fused.gt", "sssp_delta_bucket_fused.gt", "bfs_fused.gt"):
        output = tmp_path / f"{program}.cl"
        assert translate(["--to-opencl", str(PROGRAMS / program), "-o", str(output)]) == 0
        assert "__kernel" in output.read_text()
    assert capsys.readouterr().err.count(NOTE) == 1
