"""The executor and devices end to end on the hand-written GPU-level programs of
test/lit/targets/Inputs: their kernels compile, BFS on small graphs with its corner
cases, every host op, every atomic's meaning, and the device's element transfers,
through the bindings' fast paths and their documented calls. OpenCL runs
everywhere (PoCL in CI); CUDA runs where pycuda sees a GPU and is skipped
elsewhere with the reason."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.parser import Parser

from gir.diagnostics import UserError
from gir.dialects import register_dialects
from gir.runtime.device import (
    DTYPES,
    CudaDevice,
    Device,
    DeviceUnavailable,
    OpenCLDevice,
    default_opencl_device,
    find_nvcc,
)
from gir.executor import compile_program, cuda_unavailable_reason, open_device
from gir.runtime.graph import load_graph
from gir.runtime.reference import check_bfs_parent
from gir.runtime.run import Run
from gir.targets import print_kernels
from gir.tools.translate import read_module

import nvcc_batch

INPUTS = Path(__file__).parents[1] / "lit" / "targets" / "Inputs"

CUDA_REASON = cuda_unavailable_reason()
_NEEDS_CUDA = pytest.mark.skipif(CUDA_REASON is not None, reason=f"no CUDA: {CUDA_REASON}")
TARGETS = ["opencl", pytest.param("cuda", marks=_NEEDS_CUDA)]
"""Devices by key: a target, and "-documented" for a device that keeps to the
bindings' documented calls (`fast_paths = False`)."""
TARGETS_BOTH_PATHS = [
    "opencl",
    "opencl-documented",
    pytest.param("cuda", marks=_NEEDS_CUDA),
    pytest.param("cuda-documented", marks=_NEEDS_CUDA),
]


def parse(text: str):
    """A verified module from IR text."""
    ctx = Context()
    register_dialects(ctx)
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


def _open(key: str) -> Device:
    target, _, mode = key.partition("-")
    if mode != "documented":
        return open_device(target)
    device_class = {"opencl": OpenCLDevice, "cuda": CudaDevice}[target]
    return type(f"Documented{device_class.__name__}", (device_class,), {"fast_paths": False})()


@pytest.fixture(scope="module")
def devices():
    """One device per key for the whole module (graphs stay resident)."""
    opened: dict[str, Device] = {}

    def get(key: str) -> Device:
        if key not in opened:
            opened[key] = _open(key)
        return opened[key]

    yield get
    for device in opened.values():
        device.close()


def _target(key: str) -> str:
    return key.partition("-")[0]


@pytest.fixture(scope="module")
def bfs_programs():
    module = parse((INPUTS / "bfs_gpu.mlir").read_text())
    return {target: compile_program(module, target, "bfs_gpu.mlir") for target in ("opencl", "cuda")}


CONSTRUCTS = sorted(INPUTS.glob("*.mlir"))
"""One GPU-level input per construct (the lit tests' inputs)."""


@pytest.fixture(scope="module")
def opencl_context():
    import pyopencl as cl

    try:
        return cl.Context([default_opencl_device()])
    except DeviceUnavailable as reason:
        pytest.skip(f"no OpenCL device: {reason}")


@pytest.mark.parametrize("path", CONSTRUCTS, ids=lambda path: path.stem)
def test_opencl_kernels_build_without_warnings(path, opencl_context):
    import pyopencl as cl

    source = print_kernels(read_module(str(path)), "opencl")
    assert cl.Program(opencl_context, source).build(options=["-Werror"]).all_kernels()


@pytest.fixture(scope="module")
def cuda_kernel_builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, nvcc_batch.Built]:
    """Every construct's CUDA kernels, compiled together in one nvcc call
    (`test/nvcc_batch.py`: a call costs seconds whatever it compiles)."""
    directory = tmp_path_factory.mktemp("constructs")
    files = []
    for path in CONSTRUCTS:
        files.append(directory / f"{path.stem}.cu")
        files[-1].write_text(print_kernels(read_module(str(path)), "cuda"))
    return directory, nvcc_batch.build(files, ["-arch=sm_90", "-std=c++17"])


@pytest.mark.skipif(find_nvcc() is None, reason="nvcc is not installed")
@pytest.mark.parametrize("path", CONSTRUCTS, ids=lambda path: path.stem)
def test_cuda_kernels_compile_with_nvcc_without_warnings(
    path: Path, cuda_kernel_builds: tuple[Path, nvcc_batch.Built]
) -> None:
    directory, built = cuda_kernel_builds
    problem = built.problem(directory / f"{path.stem}.cu")
    assert problem is None, problem
    assert "warning" not in built.joined_stderr, built.joined_stderr


def _write_el(path: Path, edges: list[tuple[int, int]]) -> str:
    path.write_text("".join(f"{u} {v}\n" for u, v in edges))
    return str(path)


def bfs_graphs(tmp: Path) -> dict[str, tuple[str, int]]:
    """Graphs for BFS as (spec, start): files, generators and corner cases."""
    one_vertex = tmp / "one.mtx"
    one_vertex.write_text("%%MatrixMarket matrix coordinate pattern general\n1 1 0\n")
    return {
        "path": (_write_el(tmp / "path.el", [(0, 1), (1, 2), (2, 3), (3, 4)]), 0),
        "diamond": (_write_el(tmp / "diamond.el", [(0, 1), (0, 2), (1, 3), (2, 3), (3, 0), (3, 5)]), 0),
        "isolated_start": (_write_el(tmp / "iso.el", [(1, 2), (2, 3), (3, 1)]), 0),
        "unreachable_part": (_write_el(tmp / "split.el", [(0, 1), (2, 3), (3, 2)]), 1),
        "one_vertex": (str(one_vertex), 0),
        "uniform": ("uniform:300:1500", 7),
        "rmat8": ("rmat:8", 0),
        "rmat10": ("rmat:10", 3),
    }


@pytest.mark.parametrize("key", TARGETS_BOTH_PATHS)
@pytest.mark.parametrize(
    "graph", ["path", "diamond", "isolated_start", "unreachable_part", "one_vertex", "uniform", "rmat8", "rmat10"]
)
def test_bfs_parents_are_a_valid_bfs_tree(key, graph, tmp_path, devices, bfs_programs):
    spec, start = bfs_graphs(tmp_path)[graph]
    output = io.StringIO()
    result = bfs_programs[_target(key)].run(devices(key), ["bfs", spec, str(start)], output)
    parent = result.globals["parent"]
    host_graph = load_graph(spec, weighted=False)
    assert parent.dtype == np.int32 and parent.shape == (host_graph.num_vertices,)
    assert check_bfs_parent(host_graph, start, parent) is None
    assert result.elapsed is not None and 0 <= result.elapsed <= result.wall
    assert float(output.getvalue()) >= 0  # the program prints its timer


@pytest.mark.parametrize("target", TARGETS)
def test_repeated_runs_reuse_the_resident_graph_and_program(target, devices, bfs_programs):
    device = devices(target)
    program = bfs_programs[target]
    first = program.run(device, ["bfs", "rmat:9", "0"], io.StringIO())
    assert device.load_program(program.kernel_source, program.signatures) is device.load_program(
        program.kernel_source, program.signatures
    )
    loaded = device.load_seconds
    second = program.run(device, ["bfs", "rmat:9", "0"], io.StringIO())
    assert device.load_seconds == loaded  # nothing loaded or copied the second time
    assert np.array_equal(first.globals["parent"] >= 0, second.globals["parent"] >= 0)
    assert check_bfs_parent(load_graph("rmat:9", weighted=False), 0, second.globals["parent"]) is None


@pytest.mark.parametrize("key", TARGETS_BOTH_PATHS)
def test_every_host_op(key, devices):
    program = compile_program(parse((INPUTS / "host_ops.mlir").read_text()), _target(key))
    output = io.StringIO()
    result = program.run(devices(key), ["host_ops", "100"], output)
    # values = 2 * index after the loop's last launch; C division; host scf results.
    assert output.getvalue().split("\n") == ["198", "-3", "-1", "1", "4950", "2475", "done", ""]
    assert result.elapsed is None
    # `values` was bound, then filled with 0 and freed: its contents at the free.
    assert np.array_equal(result.globals["values"], np.zeros(100, np.int32))
    expected_copy = 2 * np.arange(100, dtype=np.int32)
    expected_copy[0] = 3
    assert np.array_equal(result.globals["copy"], expected_copy)


ATOMICS = """
builtin.module {
  gir_gpu.kernel @atomics(%ints: memref<?xi32>, %longs: memref<?xi64>, %floats: memref<?xf32>, %doubles: memref<?xf64>, %n: i32) {
    %gid = gir_gpu.id global
    %inside = arith.cmpi slt, %gid, %n : i32
    scf.if %inside {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %one = arith.constant 1 : i32
      %m1 = arith.constant -1 : i32
      %c31 = arith.constant 31 : i32
      %a0 = gir_gpu.atomic_rmw add %one, %ints[%c0] : i32, memref<?xi32>, index
      %a1 = gir_gpu.atomic_rmw min %gid, %ints[%c1] : i32, memref<?xi32>, index
      %a2 = gir_gpu.atomic_rmw max %gid, %ints[%c2] : i32, memref<?xi32>, index
      %bit = arith.andi %gid, %c31 : i32
      %mask = arith.shli %one, %bit : i32
      %a3 = gir_gpu.atomic_rmw or %mask, %ints[%c3] : i32, memref<?xi32>, index
      %a4 = gir_gpu.atomic_rmw exch %gid, %ints[%c4] : i32, memref<?xi32>, index
      %old = gir_gpu.atomic_cas %ints[%c5], %m1, %gid : memref<?xi32>, index, i32
      %won = arith.cmpi eq, %old, %m1 : i32
      scf.if %won {
        %w = gir_gpu.atomic_rmw add %one, %ints[%c6] : i32, memref<?xi32>, index
      }
      %g64 = arith.extsi %gid : i32 to i64
      %big = arith.constant 8589934592 : i64
      %m1l = arith.constant -1 : i64
      %l0 = gir_gpu.atomic_rmw add %big, %longs[%c0] : i64, memref<?xi64>, index
      %l1 = gir_gpu.atomic_rmw min %g64, %longs[%c1] : i64, memref<?xi64>, index
      %l2 = gir_gpu.atomic_rmw max %g64, %longs[%c2] : i64, memref<?xi64>, index
      %l3 = gir_gpu.atomic_rmw exch %g64, %longs[%c3] : i64, memref<?xi64>, index
      %l4 = gir_gpu.atomic_cas %longs[%c4], %m1l, %g64 : memref<?xi64>, index, i64
      %l5 = gir_gpu.atomic_rmw or %big, %longs[%c5] : i64, memref<?xi64>, index
      %half = arith.constant 0.5 : f32
      %m1f = arith.constant -1.0 : f32
      %gf = arith.sitofp %gid : i32 to f32
      %f0 = gir_gpu.atomic_rmw add %half, %floats[%c0] : f32, memref<?xf32>, index
      %f1 = gir_gpu.atomic_rmw min %gf, %floats[%c1] : f32, memref<?xf32>, index
      %f2 = gir_gpu.atomic_rmw max %gf, %floats[%c2] : f32, memref<?xf32>, index
      %f3 = gir_gpu.atomic_rmw exch %gf, %floats[%c3] : f32, memref<?xf32>, index
      %f4 = gir_gpu.atomic_cas %floats[%c4], %m1f, %gf : memref<?xf32>, index, f32
      %quarter = arith.constant 0.25 : f64
      %m1d = arith.constant -1.0 : f64
      %gd = arith.sitofp %gid : i32 to f64
      %d0 = gir_gpu.atomic_rmw add %quarter, %doubles[%c0] : f64, memref<?xf64>, index
      %d1 = gir_gpu.atomic_rmw min %gd, %doubles[%c1] : f64, memref<?xf64>, index
      %d2 = gir_gpu.atomic_rmw max %gd, %doubles[%c2] : f64, memref<?xf64>, index
      %d3 = gir_gpu.atomic_rmw exch %gd, %doubles[%c3] : f64, memref<?xf64>, index
      %d4 = gir_gpu.atomic_cas %doubles[%c4], %m1d, %gd : memref<?xf64>, index, f64
    }
    gir_gpu.return
  }
  func.func @main() {
    %n = host.argv_int argv[1] : i32
    %c8 = arith.constant 8 : i32
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i4 = arith.constant 4 : i32
    %i5 = arith.constant 5 : i32
    %int_max = arith.constant 2147483647 : i32
    %m1 = arith.constant -1 : i32
    %ints = host.alloc %c8 : i32 -> memref<?xi32>
    host.fill %ints, %i0, %c8 : memref<?xi32>, i32, i32
    host.write %int_max, %ints[%i1] : i32, memref<?xi32>, i32
    host.write %m1, %ints[%i2] : i32, memref<?xi32>, i32
    host.write %m1, %ints[%i5] : i32, memref<?xi32>, i32
    %l0 = arith.constant 0 : i64
    %lbig = arith.constant 1099511627776 : i64
    %lm1 = arith.constant -1 : i64
    %longs = host.alloc %c8 : i32 -> memref<?xi64>
    host.fill %longs, %l0, %c8 : memref<?xi64>, i64, i32
    host.write %lbig, %longs[%i1] : i64, memref<?xi64>, i32
    host.write %lm1, %longs[%i2] : i64, memref<?xi64>, i32
    host.write %lm1, %longs[%i4] : i64, memref<?xi64>, i32
    %f0 = arith.constant 0.0 : f32
    %fbig = arith.constant 1.0e30 : f32
    %fm1 = arith.constant -1.0 : f32
    %floats = host.alloc %c8 : i32 -> memref<?xf32>
    host.fill %floats, %f0, %c8 : memref<?xf32>, f32, i32
    host.write %fbig, %floats[%i1] : f32, memref<?xf32>, i32
    host.write %fm1, %floats[%i2] : f32, memref<?xf32>, i32
    host.write %fm1, %floats[%i4] : f32, memref<?xf32>, i32
    %d0 = arith.constant 0.0 : f64
    %dbig = arith.constant 1.0e300 : f64
    %dm1 = arith.constant -1.0 : f64
    %doubles = host.alloc %c8 : i32 -> memref<?xf64>
    host.fill %doubles, %d0, %c8 : memref<?xf64>, f64, i32
    host.write %dbig, %doubles[%i1] : f64, memref<?xf64>, i32
    host.write %dm1, %doubles[%i2] : f64, memref<?xf64>, i32
    host.write %dm1, %doubles[%i4] : f64, memref<?xf64>, i32
    host.bind_global %ints as "ints" : memref<?xi32>
    host.bind_global %longs as "longs" : memref<?xi64>
    host.bind_global %floats as "floats" : memref<?xf32>
    host.bind_global %doubles as "doubles" : memref<?xf64>
    %block = arith.constant 64 : i32
    %grid = arith.ceildivsi %n, %block : i32
    host.launch @atomics grid %grid block %block (%ints, %longs, %floats, %doubles, %n) : memref<?xi32>, memref<?xi64>, memref<?xf32>, memref<?xf64>, i32
    func.return
  }
}
"""


@pytest.mark.parametrize("key", TARGETS_BOTH_PATHS)
def test_atomics_mean_the_same_on_every_target(key, devices):
    n = 1000
    program = compile_program(parse(ATOMICS), _target(key))
    result = program.run(devices(key), ["atomics", str(n)], io.StringIO())
    ints, longs = result.globals["ints"], result.globals["longs"]
    floats, doubles = result.globals["floats"], result.globals["doubles"]
    assert list(ints[[0, 1, 2, 3, 6, 7]]) == [n, 0, n - 1, -1, 1, 0]
    assert 0 <= ints[4] < n and 0 <= ints[5] < n  # exch and CAS: some thread's id
    assert list(longs[[0, 1, 2, 5]]) == [n << 33, 0, n - 1, 1 << 33]
    assert 0 <= longs[3] < n and 0 <= longs[4] < n
    assert list(floats[[0, 1, 2]]) == [n * 0.5, 0.0, n - 1.0]
    assert 0 <= floats[3] < n and 0 <= floats[4] < n
    assert list(doubles[[0, 1, 2]]) == [n * 0.25, 0.0, n - 1.0]
    assert 0 <= doubles[3] < n and 0 <= doubles[4] < n


@pytest.mark.parametrize("key", TARGETS_BOTH_PATHS)
@pytest.mark.parametrize("dtype", sorted(DTYPES))
def test_fill_write_read_copy_every_element_type(key, dtype, devices):
    run = Run(devices(key), None, ["test"], io.StringIO())
    values = {"bool": (True, False), "float32": (2.5, -0.75), "float64": (1e300, -3.25)}
    first, second = values.get(dtype, (-3, 7))
    if dtype == "int64":
        first, second = -(1 << 40), (1 << 62) + 5
    source = run.alloc(10, dtype)
    target_buffer = run.alloc(10, dtype)
    run.fill(source, first, 10, dtype)
    run.write(source, 9, second, dtype)
    run.copy(source, target_buffer, 10, dtype)
    run.write(source, 0, second, dtype)
    assert run.read(source, 0, dtype) == second
    assert run.read(target_buffer, 0, dtype) == first
    assert run.read(target_buffer, 9, dtype) == second
    run.bind_global("copied", target_buffer, dtype, None)
    copied = run.finish().globals["copied"]
    expected = np.full(10, first, DTYPES[dtype])
    expected[9] = second
    assert np.array_equal(copied, expected)


def test_a_module_above_the_gpu_level_must_be_lowered_first():
    module = parse(
        "builtin.module {\n  graph.global @parent : !graph.vector<i32>\n"
        "  func.func @main() {\n    func.return\n  }\n}"
    )
    with pytest.raises(UserError, match="not at the GPU level: 'graph.global'.*lower-to-gpu"):
        compile_program(module, "opencl")


def test_a_missing_program_argument_is_a_user_error(devices, bfs_programs):
    with pytest.raises(UserError, match=r"reads argv\[2\], but only 1 argument"):
        bfs_programs["opencl"].run(devices("opencl"), ["bfs", "rmat:4"], io.StringIO())


def test_a_missing_graph_is_a_user_error(devices, bfs_programs, tmp_path):
    with pytest.raises(UserError, match="missing.el"):
        bfs_programs["opencl"].run(devices("opencl"), ["bfs", str(tmp_path / "missing.el"), "0"], io.StringIO())


def test_a_device_of_another_target_is_refused(devices, bfs_programs):
    with pytest.raises(UserError, match="compiled for cuda"):
        bfs_programs["cuda"].run(devices("opencl"), ["bfs", "rmat:4", "0"], io.StringIO())


@pytest.mark.skipif(CUDA_REASON is None, reason="CUDA is available here")
def test_cuda_unavailable_is_one_clear_line():
    with pytest.raises(UserError) as error:
        open_device("cuda")
    message = str(error.value)
    assert message.startswith("error: CUDA is not available: ")
    assert message.endswith("; use --target opencl") and "\n" not in message


def test_opencl_device_index_out_of_range_is_a_user_error():
    with pytest.raises(UserError, match="OpenCL is not available: no OpenCL device 99"):
        open_device("opencl", 99)


# ---------------------------------------------------------------------------
# Generated host code is data, never code
# ---------------------------------------------------------------------------

INJECTION = '''x", v, "int32", n); open(r"{marker}", "w").write("ran"); ("'''


def _named_globals_module(names: list[str], text: str) -> str:
    """A GPU-level module binding one buffer per name (buffer i filled with i)
    and printing `text`."""
    lines = []
    for index, name in enumerate(names):
        escaped = name.replace("\\", "\\\\").replace('"', '\\"')
        lines += [
            f"    %v{index} = host.alloc %n : i32 -> memref<?xi32>",
            f"    %c{index} = arith.constant {index} : i32",
            f"    host.fill %v{index}, %c{index}, %n : memref<?xi32>, i32, i32",
            f'    host.bind_global %v{index} as "{escaped}" : memref<?xi32>',
        ]
    printed = text.replace("\\", "\\\\").replace('"', '\\"')
    return (
        "builtin.module {\n  func.func @main() {\n    %n = host.argv_int argv[1] : i32\n"
        + "\n".join(lines)
        + f'\n    host.print "{printed}"\n    func.return\n  }}\n}}'
    )


def test_names_and_text_from_the_ir_never_become_code(devices, tmp_path):
    marker = tmp_path / "injected"
    payload = INJECTION.format(marker=marker)
    text = '"); import os; os.system("touch ' + str(marker) + '"); print("'
    program = compile_program(parse(_named_globals_module([payload], text)), "opencl")
    assert payload not in program.host_source and text not in program.host_source
    output = io.StringIO()
    result = program.run(devices("opencl"), ["inject", "4"], output)
    assert not marker.exists()
    assert list(result.globals) == [payload]
    assert output.getvalue() == text + "\n"


def test_nfkc_equal_names_stay_distinct(devices):
    names = ["afi", "a\ufb01"]  # Python identifiers would fold both to `afi`
    program = compile_program(parse(_named_globals_module(names, "done")), "opencl")
    result = program.run(devices("opencl"), ["nfkc", "3"], io.StringIO())
    assert set(result.globals) == set(names)
    assert list(result.globals["afi"]) == [0, 0, 0]
    assert list(result.globals["a\ufb01"]) == [1, 1, 1]


def test_non_ascii_name_hints_are_not_python_identifiers():
    from gir.targets.host_python import PYTHON_RESERVED, HostNames

    names = HostNames(PYTHON_RESERVED)
    assert names.fresh("afi") == "afi"
    assert names.fresh("a\ufb01") == "v"
    assert names.fresh("d\u00b2") == "v_1"
    assert names.fresh("print") == "print_"


def test_an_allocation_the_device_cannot_hold_is_one_user_error(devices):
    module = parse(
        "builtin.module {\n  func.func @main() {\n"
        "    %n = arith.constant 2000000000 : i32\n"
        "    %b = host.alloc %n : i32 -> memref<?xf64>\n"
        "    func.return\n  }\n}"
    )
    device = devices("opencl")
    if min(device.device.max_mem_alloc_size, device.device.global_mem_size) >= 16e9:
        pytest.skip(f"{device.name} can allocate 16 GB at once")
    program = compile_program(module, "opencl")
    with pytest.raises(UserError, match=r"allocates a buffer of 14\.9 GB, more than .* allows"):
        program.run(device, ["big"], io.StringIO())


@pytest.mark.parametrize(
    ("index", "message"),
    [(-1, r"reads argv\[-1\]: argv indices are non-negative"), (3, r"but only 2 argument")],
)
def test_argv_indices_are_checked_against_the_command_line(index: int, message: str) -> None:
    """IR the verifier accepts never reads outside argv; the run checks again, so a
    wrapped index cannot read Python's argv[-1] (the last argument)."""
    from types import SimpleNamespace

    run = Run(SimpleNamespace(load_seconds=0.0), None, ["prog", "5", "7"], io.StringIO())  # type: ignore[arg-type]
    assert run.argv_int(2) == 7
    with pytest.raises(UserError, match=message):
        run.argv_int(index)


def test_the_collector_stays_out_of_the_timed_region() -> None:
    """A collection of the compiler's objects between two launches cost a timed run
    milliseconds; the timer pauses the collector and every way out resumes it."""
    import gc
    from types import SimpleNamespace

    device = SimpleNamespace(load_seconds=0.0, synchronize=lambda: None, release=lambda buffer: None)
    assert gc.isenabled()
    for leave in ("stop_timer", "finish", "abort"):
        run = Run(device, None, ["prog"], io.StringIO())  # type: ignore[arg-type]
        run.start_timer()
        assert not gc.isenabled()
        getattr(run, leave)()
        assert gc.isenabled(), leave
