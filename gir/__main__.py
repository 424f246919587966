"""`python -m gir`: what this set-up has ("doctor").

Prints the versions of gir, xDSL, Python and the packages gir runs with, the
targets gir prints code for, the OpenCL platforms and devices pyopencl finds, and
whether CUDA can run (pycuda, its driver, the GPUs) and `nvcc` is on PATH. Every
line that shows a problem says why; the exit status is 0 when at least one
target can run programs, else 1.

```
$ python -m gir
gir 0.1.0 (/work/gir/gir), xdsl 0.74.0, python 3.11.7
numpy 2.4.6, scipy 1.17.1, networkx 3.6.1
targets: cuda, opencl (printed by gir-translate --to-cuda / --to-opencl)
OpenCL: pyopencl 2026.1.4
  [0] Portable Computing Language: pthread-haswell-AMD EPYC (ALL | CPU, OpenCL 3.0 PoCL ...)
CUDA: unavailable: pycuda is not installed (pip install 'gir[cuda]')
nvcc: /usr/local/bin/nvcc
```
"""

from __future__ import annotations

import importlib.metadata
import platform
import sys
from collections.abc import Callable
from pathlib import Path


def _version(package: str) -> str:
    """The installed version of `package`, or why there is none."""
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def versions() -> list[str]:
    """One line: gir (and where it is imported from), xDSL, Python; one line for
    the numeric packages."""
    import gir

    location = Path(gir.__file__).parent
    return [
        f"gir {gir.__version__} ({location}), xdsl {_version('xdsl')}, "
        f"python {platform.python_version()}",
        f"numpy {_version('numpy')}, scipy {_version('scipy')}, networkx {_version('networkx')}",
    ]


def targets() -> list[str]:
    """The targets gir prints code for."""
    from gir.targets import TARGETS

    return [f"targets: {', '.join(TARGETS)} (printed by gir-translate --to-cuda / --to-opencl)"]


def opencl_report() -> tuple[list[str], bool]:
    """The OpenCL devices, one line each (numbered as `--device` counts them),
    and whether there is one."""
    try:
        import pyopencl as cl
    except ImportError as error:
        return [
            f"OpenCL: unavailable: pyopencl cannot be imported ({error}; pip install 'gir[opencl]')"
        ], False
    from gir.runtime.device import DeviceUnavailable, opencl_devices

    lines = [f"OpenCL: pyopencl {_version('pyopencl')}"]
    try:
        devices = opencl_devices()
    except DeviceUnavailable as reason:
        return [*lines, f"  no devices: {reason} (install an ICD, e.g. pocl-opencl-icd)"], False
    for index, device in enumerate(devices):
        kind = cl.device_type.to_string(device.type)
        lines.append(
            f"  [{index}] {device.platform.name.strip()}: {device.name.strip()} "
            f"({kind}, {device.version.strip()})"
        )
    if not devices:
        lines.append("  no devices (install an ICD, e.g. pocl-opencl-icd)")
    return lines, bool(devices)


def cuda_report() -> tuple[list[str], bool]:
    """Whether CUDA can run, with its GPUs, and where nvcc is."""
    from gir.runtime.device import find_nvcc
    from gir.executor import cuda_unavailable_reason

    nvcc = find_nvcc()
    nvcc_line = f"nvcc: {nvcc}" if nvcc else "nvcc: not found on PATH (needed to build CUDA kernels)"
    reason = cuda_unavailable_reason()
    if reason is not None:
        hint = " (pip install 'gir[cuda]')" if "not installed" in reason else ""
        return [f"CUDA: unavailable: {reason}{hint}", nvcc_line], False
    import pycuda.driver as cuda

    lines = [f"CUDA: pycuda {_version('pycuda')}, driver {cuda.get_driver_version()}"]
    for index in range(cuda.Device.count()):
        gpu = cuda.Device(index)
        major, minor = gpu.compute_capability()
        lines.append(f"  [{index}] {gpu.name()} (sm_{major}{minor}, {gpu.total_memory() >> 20} MiB)")
    return [*lines, nvcc_line], nvcc is not None


def doctor(write: Callable[[str], None] = print) -> int:
    """Writes the report; 0 when some target can run programs here, else 1."""
    for line in versions() + targets():
        write(line)
    runnable = False
    for report in (opencl_report, cuda_report):
        lines, usable = report()
        runnable = runnable or usable
        for line in lines:
            write(line)
    if not runnable:
        write("no target can run programs here: gir can still compile and print code")
    return 0 if runnable else 1


def main() -> int:
    """`python -m gir`: the report, ending quietly when its reader goes away
    (`python -m gir | head -1`)."""
    from gir.output import stdout_closed_quietly

    try:
        status = doctor()
        sys.stdout.flush()
    except BrokenPipeError:
        return stdout_closed_quietly()
    return status


if __name__ == "__main__":
    sys.exit(main())
