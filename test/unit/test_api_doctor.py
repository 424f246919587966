"""`python -m gir`: the set-up report names the versions, targets and the OpenCL
devices pyopencl finds, and says why CUDA cannot run where it cannot."""

from __future__ import annotations

import subprocess
import sys

from importlib.metadata import version

from gir.__main__ import doctor
from gir.runtime.device import opencl_devices
from gir.executor import cuda_unavailable_reason


def test_doctor_names_versions_targets_and_devices() -> None:
    lines: list[str] = []
    status = doctor(lines.append)
    text = "\n".join(lines)
    assert f"xdsl {version('xdsl')}" in lines[0] and "python 3." in lines[0]
    assert "targets: cuda, opencl" in text
    devices = opencl_devices()
    for index, device in enumerate(devices):
        assert f"  [{index}] {device.platform.name.strip()}: {device.name.strip()}" in text
    reason = cuda_unavailable_reason()
    if reason is not None:
        assert f"CUDA: unavailable: {reason}" in text
    assert status == (0 if devices or reason is None else 1)


def test_python_dash_m_gir_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gir"], capture_output=True, text=True, timeout=120
    )
    assert done.stdout.startswith("gir ") and "OpenCL" in done.stdout
    assert done.stderr == ""
