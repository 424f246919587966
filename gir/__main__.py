"""`python -m gir`: what this set-up has ("doctor"), and `python -m gir cache`.

`python -m gir` (or `python -m gir doctor`) prints the versions of gir, xDSL, Python and the packages gir runs with, the
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

`python -m gir cache size` prints where gir's caches are and how big
(`gir.cache`); `python -m gir cache clear` empties `$GIR_CACHE_DIR`, and with
`--native` the C++ graph library's directory too (rebuilt on next use). A
malformed command line exits with status 2.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import platform
import sys
from collections.abc import Callable, Sequence
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


def cache_command(action: str, native: bool, write: Callable[[str], None] = print) -> int:
    """`python -m gir cache size|clear [--native]`."""
    from gir.cache import (
        cache_dir,
        clear,
        format_bytes,
        graph_cache_file,
        native_cache_dir,
        native_cache_file,
        size_report,
    )

    if action == "size":
        for line in size_report():
            write(line)
        return 0
    cleared = [(cache_dir(), graph_cache_file)]
    if native:
        cleared.append((native_cache_dir(), native_cache_file))
    for directory, owned in cleared:
        count, size = clear(directory, owned)
        write(f"removed {count} file(s) ({format_bytes(size)}) from {directory}")
    return 0


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m gir",
        description="What this set-up has (doctor, the default), or gir's caches.",
    )
    commands = parser.add_subparsers(dest="command", metavar="{doctor,cache}")
    commands.add_parser("doctor", help="versions, targets and devices (the default)")
    cache = commands.add_parser(
        "cache",
        help="size or clear gir's caches",
        description="$GIR_CACHE_DIR (graphs and compiled programs, default ~/.cache/gir, "
        "capped by $GIR_CACHE_MAX_BYTES, default 16G, least recently used first) and "
        "the C++ graph library's $GIR_NATIVE_CACHE_DIR (default ~/.cache/gir-native).",
    )
    cache.add_argument("action", choices=("size", "clear"))
    cache.add_argument(
        "--native",
        action="store_true",
        help="clear: the C++ graph library's directory too (rebuilt on next use)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m gir`: the report or the cache command, ending quietly when its
    reader goes away (`python -m gir | head -1`); one line and status 1 for a user
    error (a bad `$GIR_CACHE_MAX_BYTES`)."""
    from gir.diagnostics import UserError
    from gir.output import stdout_closed_quietly

    options = _build_parser().parse_args(argv)
    try:
        if options.command == "cache":
            status = cache_command(options.action, options.native)
        else:
            status = doctor()
        sys.stdout.flush()
    except BrokenPipeError:
        return stdout_closed_quietly()
    except UserError as error:
        print(str(error), file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
