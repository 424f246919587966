"""`gir_gpu.exclusive_scan`, expanded by `gpu-expand-scan`, is numpy's shifted
cumulative sum on every device: i32 (wrapping on overflow) and i64 (sums beyond 32
bits), out of place and in place, on counts 0, 1, around one block and beyond
block-size squared (so the one-work-group scan of the block sums loops over
chunks), leaving the elements past the count alone. Runs on every OpenCL device
found (PoCL in CI); CUDA where pycuda sees a GPU, skipped elsewhere with the
reason."""

from __future__ import annotations

import io
import subprocess

import numpy as np
import pytest
from gpu_testing import opencl_device_count, opened_devices, parse
from xdsl.context import Context

from gir.dialects import register_dialects
from gir.passes.registry import parse_pipeline
from gir.runtime.device import DeviceUnavailable, default_opencl_device, find_nvcc
from gir.executor import CompiledProgram, compile_program, cuda_unavailable_reason


CUDA_REASON = cuda_unavailable_reason()
DEVICES = [
    *(pytest.param(("opencl", index), id=f"opencl{index}") for index in range(opencl_device_count())),
    pytest.param(
        ("cuda", None),
        id="cuda",
        marks=pytest.mark.skipif(CUDA_REASON is not None, reason=f"no CUDA: {CUDA_REASON}"),
    ),
]

COUNTS = [0, 1, 255, 256, 257, 70001]
"""Empty, one element, one block short, exactly and just past one block of 256,
and more than 256 * 256 elements (274 blocks: two chunks of block sums)."""

TAIL = 3
"""Elements past the count that the scan must leave alone."""

SENTINEL = 7

SCALE = {"i32": 1, "i64": 4096}
"""i32 inputs are up to about 1e9 so their sums wrap; i64 inputs are 4096 times
larger so the sums need more than 32 bits without wrapping."""

CONVERT = {
    "i32": ("", "%x"),
    "i64": (
        "      %wide = arith.extsi %x : i32 to i64\n"
        "      %scale = arith.constant 4096 : i64\n"
        "      %value = arith.muli %wide, %scale : i64\n",
        "%value",
    ),
}
"""Kernel lines making the stored value of the element type from the i32 `%x`
(times SCALE), and the stored value."""

PROGRAM = """
builtin.module {{
  gir_gpu.kernel @fill(%values: memref<?x{t}>, %size: i32, %seed: i32) {{
    %gid = gir_gpu.id global
    %inside = arith.cmpi slt, %gid, %size : i32
    scf.if %inside {{
      %k7919 = arith.constant 7919 : i32
      %prime = arith.constant 1000003 : i32
      %k2047 = arith.constant 2047 : i32
      %middle = arith.constant 1023003069 : i32
      %scaled = arith.muli %gid, %k7919 : i32
      %seeded = arith.addi %scaled, %seed : i32
      %hash = arith.remsi %seeded, %prime : i32
      %spread = arith.muli %hash, %k2047 : i32
      %x = arith.subi %spread, %middle : i32
{convert}      %g = arith.index_cast %gid : i32 to index
      memref.store {stored}, %values[%g] : memref<?x{t}>
    }}
    gir_gpu.return
  }}
  func.func @main() {{
    %count = host.argv_int argv[1] : i32
    %seed = host.argv_int argv[2] : i32
    %tail = arith.constant {tail} : i32
    %size = arith.addi %count, %tail : i32
    %input = host.alloc %size : i32 -> memref<?x{t}>
    %output = host.alloc %size : i32 -> memref<?x{t}>
    %inplace = host.alloc %size : i32 -> memref<?x{t}>
    host.bind_global %input as "input" : memref<?x{t}>
    host.bind_global %output as "output" : memref<?x{t}>
    host.bind_global %inplace as "inplace" : memref<?x{t}>
    %sentinel = arith.constant {sentinel} : {t}
    host.fill %output, %sentinel, %size : memref<?x{t}>, {t}, i32
    %block = arith.constant 64 : i32
    %grid = arith.ceildivsi %size, %block : i32
    host.launch @fill grid %grid block %block (%input, %size, %seed) : memref<?x{t}>, i32, i32
    host.copy %input, %inplace, %size : memref<?x{t}>, i32
    gir_gpu.exclusive_scan %input, %output, %count : memref<?x{t}>, memref<?x{t}>, i32
    gir_gpu.exclusive_scan %inplace, %inplace, %count : memref<?x{t}>, memref<?x{t}>, i32
    func.return
  }}
}}
"""
"""Fills `input` with hashed values of the seed, scans it into `output` (first
set to SENTINEL) and a copy of it in place."""


def expected_input(count: int, seed: int, element: str) -> np.ndarray:
    """The values `@fill` writes, as numpy computes them."""
    gid = np.arange(count + TAIL, dtype=np.int64)
    x = ((gid * 7919 + seed) % 1000003) * 2047 - 1023003069
    return (x * SCALE[element]).astype(np.dtype("int32" if element == "i32" else "int64"))


def exclusive_scan(values: np.ndarray) -> np.ndarray:
    """numpy's cumulative sum shifted by one, wrapping at the element's width."""
    sums = np.cumsum(values, dtype=np.int64)
    return np.concatenate([[0], sums[:-1]]).astype(values.dtype) if len(values) else values.copy()


@pytest.fixture(scope="module")
def devices():
    """One device per (target, index) for the whole module."""
    with opened_devices() as get:
        yield get


_PROGRAMS: dict[tuple[str, str, int], CompiledProgram] = {}


def program(target: str, element: str, block_size: int) -> CompiledProgram:
    """PROGRAM for `element`s, expanded with `block_size`, compiled once."""
    key = (target, element, block_size)
    if key not in _PROGRAMS:
        text = PROGRAM.format(
            t=element, convert=CONVERT[element][0], stored=CONVERT[element][1], tail=TAIL, sentinel=SENTINEL
        )
        module = parse(text)
        ctx = Context()
        register_dialects(ctx)
        parse_pipeline(f"gpu-expand-scan{{block-size={block_size}}}").apply(ctx, module)
        module.verify()
        _PROGRAMS[key] = compile_program(module, target, "scan")
    return _PROGRAMS[key]


def check_scan(key, devices, element: str, count: int, block_size: int, seed: int) -> None:
    target, index = key
    run = program(target, element, block_size).run(
        devices(target, index), ["scan", str(count), str(seed)], io.StringIO()
    )
    values = expected_input(count, seed, element)
    expected = exclusive_scan(values[:count])
    assert np.array_equal(run.globals["input"], values)
    assert np.array_equal(run.globals["output"][:count], expected)
    assert np.all(run.globals["output"][count:] == SENTINEL)
    assert np.array_equal(run.globals["inplace"][:count], expected)
    assert np.array_equal(run.globals["inplace"][count:], values[count:])


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("element", ["i32", "i64"])
@pytest.mark.parametrize("key", DEVICES)
def test_scan_matches_numpy(key, element, count, devices):
    check_scan(key, devices, element, count, 256, seed=count + 11)


@pytest.mark.parametrize("count", [31, 32, 33, 1025, 70001])
@pytest.mark.parametrize("key", DEVICES)
def test_small_blocks_loop_over_many_chunks(key, count, devices):
    """Blocks of 32: 70,001 elements make 2,188 block sums, 69 chunks."""
    check_scan(key, devices, "i32", count, 32, seed=5)


@pytest.mark.parametrize("block_size", [32, 256, 1024])
@pytest.mark.parametrize("element", ["i32", "i64"])
def test_opencl_scan_kernels_build_without_warnings(element, block_size):
    import pyopencl as cl

    try:
        context = cl.Context([default_opencl_device()])
    except DeviceUnavailable as reason:
        pytest.skip(f"no OpenCL device: {reason}")
    source = program("opencl", element, block_size).kernel_source
    assert cl.Program(context, source).build(options=["-Werror"]).all_kernels()


@pytest.mark.skipif(find_nvcc() is None, reason="nvcc is not installed")
@pytest.mark.parametrize("element", ["i32", "i64"])
def test_cuda_scan_kernels_compile_without_warnings(element, tmp_path):
    source = tmp_path / "scan.cu"
    source.write_text(program("cuda", element, 256).kernel_source)
    command = [find_nvcc(), "-arch=sm_90", "-std=c++17", "-c", str(source), "-o", str(tmp_path / "scan.o")]
    completed = subprocess.run(command, capture_output=True, text=True)
    assert completed.returncode == 0 and "warning" not in completed.stderr, completed.stderr


def test_wrapping_reference():
    """The reference wraps i32 sums as the kernels' adds do."""
    values = np.array([2**31 - 1, 1, 5], dtype=np.int32)
    assert exclusive_scan(values).tolist() == [0, 2**31 - 1, -(2**31)]
