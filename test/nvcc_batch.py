"""Compiles several generated `.cu` files with one nvcc call (lit's `%nvcc-batch`).

    python test/nvcc_batch.py [--link] [--keep FILE] [NVCC_FLAG...] -- A.cu B.cu ...

An nvcc call costs seconds whatever the program: the C++ and CUDA headers and,
in a complete program, gir's C++ runtime (`runtime_source()`, the same text in
every file) go through three compilers (cudafe++, cicc and the host compiler).
One nvcc call with several inputs compiles them one after another, no faster. So
the files are joined into one translation unit that holds the headers and the
runtime once:

- a complete program's runtime is dropped after the first (it must be
  `runtime_source()` verbatim, which the split checks);
- the `#include`s of the rest are hoisted to the top;
- each file's own part (extern device code, kernels, `main`) goes into a
  namespace of its own, its `extern "C"` kernels renamed by macros (C linkage
  ignores namespaces), behind a `#line` directive, so that nvcc's messages
  name the file and line they come from; its file-scope variables named with
  the global scope (`::marked`, a host extern's global that a local of `main`
  shadows) are named with that namespace instead.

Without `--link` nothing is kept, so the unit goes through `nvcc -cuda`: nvcc's
C++ front end (cudafe++) checks the host code and the device code is compiled
to SASS (cicc, ptxas) without optimisation (`UNOPTIMISED_DEVICE_CODE`), but the
host compiler makes no object, which halves the call (10 s to 5 s of a core for
a complete program). `--link` links the joined
unit (with an empty `main`, the programs' own being in namespaces), which checks
every called function is defined (alone, only the complete programs are
linked). Should the
joined unit fail, each file is compiled alone, so that the error reported is
that of a file as gir printed it; the batch passes only if every file does.

lit's `%nvcc-batch` runs this file; pytest's tests that only build programs call
`build` (the test directory is on pytest's path, for `test/conftest.py`).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from gir.targets.cuda_host_runtime import runtime_source

UNOPTIMISED_DEVICE_CODE = ["-Xcicc", "-O0", "-Xptxas", "-O0"]
"""Added to every batch, and to the tests' builds whose kernels never run (host
harnesses, programs only built): their device code compiled without optimising
it, which is what those checks need (the front ends' errors and warnings, PTX
that ptxas accepts) at about 10% less of nvcc's time. A batch never runs (a
linked one has an empty `main`); what runs on a GPU is built with the flags
gir's runtime uses."""
KERNEL = re.compile(r'^extern "C" __global__ void (?:__launch_bounds__\([\d, ]+\) )?(\w+)\(', re.MULTILINE)
"""A kernel's definition and its name (after CUDA's launch bounds, where it has them)."""
INCLUDE = re.compile(r"^#include [<\"].*[>\"][ \t]*$", re.MULTILINE)
TOP_LEVEL_VARIABLE = re.compile(r"^(?:extern )?[\w:<>]+[ *&]+(\w+)(?: = [^;]*)?;$", re.MULTILINE)
"""A variable defined or declared at file scope (`int* marked = nullptr;`)."""
GLOBAL_SCOPE = re.compile(r"(?<![\w:>)])::(\w+)")
"""A name qualified by the global scope (`::marked`, where a local shadows it)."""


@dataclass(frozen=True)
class Source:
    """A generated file split for the joined unit: whether it carries the
    runtime, and its own part with the line that part starts on."""

    path: Path
    has_runtime: bool
    own: str
    first_line: int


def split(path: Path, runtime: str) -> Source:
    """`path` as its runtime (if it has the verbatim one) and its own part."""
    text = path.read_text()
    at = text.find(runtime)
    if at < 0:
        return Source(path, False, text, 1)
    start = at + len(runtime)
    return Source(path, True, text[start:], text.count("\n", 0, start) + 1)


def joined_unit(sources: list[Source], runtime: str, link: bool) -> str:
    """One translation unit compiling every source's own part (see the module docstring)."""
    includes: list[str] = []
    parts: list[str] = []
    for index, source in enumerate(sources):
        for include in INCLUDE.findall(source.own):
            if include not in includes:
                includes.append(include)
        own = INCLUDE.sub("", source.own)  # the line count is kept: a hoisted include leaves its line empty
        kernels = KERNEL.findall(own)
        namespace = f"gir_batch_{index}"
        variables = set(TOP_LEVEL_VARIABLE.findall(own))
        own = GLOBAL_SCOPE.sub(
            lambda match: f"{namespace}::{match[1]}" if match[1] in variables else match[0], own
        )
        parts += [f"#define {name} {namespace}_{name}" for name in kernels]
        parts.append(f"namespace {namespace} {{")
        parts.append(f'#line {source.first_line} "{source.path}"')
        parts.append(own)
        parts.append(f"}}  // namespace {namespace}")
        parts += [f"#undef {name}" for name in kernels]
    head = [runtime] if any(source.has_runtime for source in sources) else []
    tail = ["int main() { return 0; }"] if link else []
    return "\n".join(head + includes + parts + tail) + "\n"


def nvcc(flags: list[str], source: Path, output: Path, link: bool) -> subprocess.CompletedProcess[str]:
    """nvcc on one file: with `link` an executable, else checked and its device
    code compiled (`-cuda`, see the module docstring)."""
    checked_only = [] if link else ["-cuda"]
    nvcc_path = shutil.which("nvcc") or "nvcc"
    command = [nvcc_path, *flags, *UNOPTIMISED_DEVICE_CODE, *checked_only, str(source), "-o", str(output)]
    return subprocess.run(command, capture_output=True, text=True)


@dataclass(frozen=True)
class Built:
    """How a batch went: nvcc's messages on the joined unit, and each file that
    failed alone (only compiled alone when the joined unit failed) with its messages."""

    joined_stderr: str
    joined_ok: bool
    failed: dict[Path, str]

    @property
    def ok(self) -> bool:
        """Whether every file compiled (joined, or each alone)."""
        return not self.failed

    def problem(self, path: Path, warnings: bool = False) -> str | None:
        """Why `path` did not build (with `warnings`, also nvcc's warnings on the
        unit it was built in), or None."""
        if path in self.failed:
            return self.failed[path]
        if warnings and "warning #" in self.joined_stderr:
            return self.joined_stderr
        return None


def build(files: list[Path], flags: list[str], link: bool = False, keep: Path | None = None) -> Built:
    """`files` compiled (with `link`, linked) in one nvcc call with `flags`;
    should that fail, each compiled alone (see the module docstring)."""
    runtime = runtime_source()
    sources = [split(path, runtime) for path in files]
    unit = joined_unit(sources, runtime, link)
    with tempfile.TemporaryDirectory(prefix="gir-nvcc-batch-") as scratch:
        joined = Path(scratch) / "joined.cu"
        joined.write_text(unit)
        if keep is not None:
            keep.write_text(unit)
        together = nvcc(flags, joined, Path(scratch) / "joined.out", link)
        if together.returncode == 0:
            return Built(together.stderr, True, {})
        failed: dict[Path, str] = {}
        for index, source in enumerate(sources):
            linked = link and source.has_runtime  # kernels alone have no main
            alone = nvcc(flags, source.path, Path(scratch) / f"alone_{index}.out", linked)
            if alone.returncode != 0:
                failed[source.path] = alone.stderr
        return Built(together.stderr, False, failed)


def build_programs(programs: list[Path], directory: Path, flags: list[str]) -> dict[Path, tuple[str, str | None]]:
    """Each GraphIt program translated as `gir-translate --to-cuda PROGRAM` does
    (in this process) into `directory`, then all built and linked by `build`:
    by program, its `.cu` text and why it did not build (None: it did)."""
    from gir.tools.translate import main as gir_translate

    files: dict[Path, Path] = {}
    for index, program in enumerate(programs):
        files[program] = directory / f"{index}_{program.stem}.cu"
        status = gir_translate(["--to-cuda", str(program), "-o", str(files[program])])
        assert status == 0, f"gir-translate --to-cuda {program} exited with {status}"
    built = build(list(files.values()), flags, link=True)
    return {program: (cu.read_text(), built.problem(cu)) for program, cu in files.items()}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], usage="%(prog)s [--link] [--keep FILE] [NVCC_FLAG...] -- A.cu ..."
    )
    parser.add_argument("--link", action="store_true", help="link the joined object (checks definitions)")
    parser.add_argument("--keep", type=Path, help="also write the joined unit here")
    if "--" not in sys.argv:
        parser.error("expected NVCC_FLAG... -- A.cu B.cu ...")
    cut = sys.argv.index("--")
    arguments, flags = parser.parse_known_args(sys.argv[1:cut])
    files = [Path(name) for name in sys.argv[cut + 1 :]]
    built = build(files, flags, arguments.link, arguments.keep)
    sys.stderr.write(built.joined_stderr)
    if built.joined_ok:
        return 0
    print(f"nvcc-batch: the joined unit of {len(files)} files failed; compiling each alone", file=sys.stderr)
    for path, stderr in built.failed.items():
        sys.stderr.write(f"nvcc-batch: {path} fails alone:\n{stderr}")
    return 1 if built.failed else 0


if __name__ == "__main__":
    sys.exit(main())
