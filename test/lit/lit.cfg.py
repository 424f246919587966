"""lit configuration: every .mlir and .gt file under test/lit is a FileCheck test.

`gir-opt`, `gir-translate` and `gir-run` run through the current Python, so the
tests work both with an installed gir and with the project on PYTHONPATH. Each
is a process forked from `tool_server.py`, which imported gir once for the whole
run (importing it was most of each RUN line's time);
`GIR_LIT_TOOL_SERVER=0 lit test/lit` starts every tool as `python -m` instead.
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


def scratch_cache_dir() -> str:
    """A graph cache for this lit run, removed when lit exits: RUN lines that
    load graph files would otherwise write `.npz` entries into the user's
    `~/.cache/gir` (tools/test.sh and CI set `GIR_CACHE_DIR` themselves)."""
    import atexit
    import tempfile

    directory = tempfile.mkdtemp(prefix="gir-lit-cache-")
    lit_process = os.getpid()
    atexit.register(lambda: os.getpid() == lit_process and shutil.rmtree(directory, ignore_errors=True))
    return directory


if "GIR_CACHE_DIR" not in config.environment:
    config.environment["GIR_CACHE_DIR"] = scratch_cache_dir()

python = sys.executable
TOOLS = (
    ("gir-opt", "opt", f"{python} -m gir.tools.opt"),
    ("gir-translate", "translate", f"{python} -m gir.tools.translate"),
    ("gir-run", "run", f"{python} -m gir.tools.run"),
    ("filecheck", "filecheck", None),
)
"""The commands `tool_server.py` serves: as RUN lines name them, as the server
knows them, and what runs without the server (None: the installed command). A
RUN line names each as a word of its own (not part of a path or a
`--check-prefix`): the substitutions below match only that."""


def start_tool_server() -> str | None:
    """Starts `tool_server.py` (gir's tools imported once, a forked process per
    RUN line's tool) for this lit run, stopped when lit exits; the socket it
    listens on, or None where it could not start (the tools then start as
    `python -m`, each importing gir again)."""
    import atexit
    import subprocess
    import tempfile

    directory = tempfile.mkdtemp(prefix="gir-lit-")
    path = os.path.join(directory, "tools.sock")
    environment = {**os.environ, **config.environment}
    server = subprocess.Popen(
        [python, os.path.join(config.test_source_root, "tool_server.py"), path],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        env=environment,
        text=True,
    )
    lit_process = os.getpid()

    def stop() -> None:
        if os.getpid() == lit_process:  # not in lit's forked workers
            server.kill()
            server.wait()
            shutil.rmtree(directory, ignore_errors=True)

    atexit.register(stop)
    if server.stdout.readline().strip() != "ready":
        lit_config.warning("gir's tool server did not start; RUN lines import gir each time")
        return None
    return path


socket_path = None if os.environ.get("GIR_LIT_TOOL_SERVER") == "0" else start_tool_server()
client = os.path.join(config.test_source_root, "tool_client.py")
for tool, name, unserved in TOOLS:
    # lit's substitutions are regular expressions: the tool's name as a word of its own
    word = rf"(?<![\w./%-]){tool}(?![\w./-])"
    command = unserved if socket_path is None else f"{python} -I -S {client} {socket_path} {name}"
    if command is not None:
        config.substitutions.append((word, command))
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
    # Several generated files compiled with one nvcc call: nvcc_batch.py says how.
    config.substitutions.append(
        ("%nvcc-batch", f"{python} {os.path.join(project_root, 'test', 'nvcc_batch.py')}")
    )
    config.environment["PATH"] = os.pathsep.join(
        [os.path.dirname(nvcc), config.environment.get("PATH", os.environ.get("PATH", ""))]
    )
