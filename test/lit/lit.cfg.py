"""lit configuration: every .mlir and .gt file under test/lit is a FileCheck test.

`gir-opt`, `gir-translate` and `gir-run` run through the current Python, so the
tests work both with an installed gir and with the project on PYTHONPATH.
"""

import os
import shutil
import sys

import lit.formats

config.name = "gir"
config.test_format = lit.formats.ShTest()
config.suffixes = [".mlir", ".gt"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py", "Inputs"]

project_root = os.path.dirname(os.path.dirname(config.test_source_root))
config.environment["PYTHONPATH"] = os.pathsep.join(
    [project_root, os.environ.get("PYTHONPATH", "")]
)
for name in ("PATH", "HOME", "GIR_CACHE_DIR", "PYOPENCL_CTX", "OCL_ICD_VENDORS"):
    if name in os.environ:
        config.environment[name] = os.environ[name]

python = sys.executable
for tool, module in (
    ("gir-opt", "gir.tools.opt"),
    ("gir-translate", "gir.tools.translate"),
    ("gir-run", "gir.tools.run"),
):
    config.substitutions.append((tool, f"{python} -m {module}"))
config.substitutions.append(("%programs", os.path.join(project_root, "test", "programs")))
# gir-bench's programs ship with gir (package data: gir/benchmarks/__init__.py).
config.substitutions.append(
    ("%bench_programs", os.path.join(project_root, "gir", "benchmarks", "programs"))
)

# `REQUIRES: nvcc` tests compile printed CUDA (no GPU needed); nvcc's directory goes
# on the tests' PATH so that RUN lines can call `nvcc`.
nvcc = shutil.which("nvcc") or next(
    (path for path in ("/usr/local/cuda/bin/nvcc",) if os.path.exists(path)), None
)
if nvcc is not None:
    config.available_features.add("nvcc")
    config.environment["PATH"] = os.pathsep.join(
        [os.path.dirname(nvcc), config.environment.get("PATH", os.environ.get("PATH", ""))]
    )
