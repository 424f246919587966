"""The GPU level's parallel primitives run and mean the same on every device:
work-group shared arrays with barriers, and each sub-group op (ballot, exclusive
sum, broadcast, lane and sub-group ids) on blocks whose size is and is not a
multiple of the sub-group, checked against numpy. Hand-written GPU-level IR runs
through the executor on every OpenCL device found (PoCL in CI), once as printed
and once with the local-memory emulation of sub-groups forced; CUDA runs where
pycuda sees a GPU and is skipped elsewhere with the reason."""

from __future__ import annotations

import dataclasses
import io

import numpy as np
import pytest
from gpu_testing import opencl_device_count, opened_devices, parse

from gir.dialects.gir_gpu import SUBGROUP_SIZE
from gir.executor import CompiledProgram, compile_program, cuda_unavailable_reason
from gir.targets.c_printer import KernelPrinter
from gir.targets.opencl import OpenCLFlavour


CUDA_REASON = cuda_unavailable_reason()
DEVICES = [
    *(
        pytest.param(("opencl", index, variant), id=f"opencl{index}-{variant}")
        for index in range(opencl_device_count())
        for variant in ("printed", "emulated")
    ),
    pytest.param(
        ("cuda", None, "printed"),
        id="cuda",
        marks=pytest.mark.skipif(CUDA_REASON is not None, reason=f"no CUDA: {CUDA_REASON}"),
    ),
]
"""(target, device index, variant): "emulated" prints OpenCL's sub-group ops with
the local-memory emulation only, whatever the device has."""

BLOCKS = [64, 80, 256]
"""Block sizes: multiples of the sub-group, and one with a 16-lane last sub-group."""


@pytest.fixture(scope="module")
def devices():
    """One device per (target, index) for the whole module."""
    with opened_devices() as get:
        yield get


def run(text: str, key: tuple[str, int | None, str], devices, argv: list[str]) -> dict[str, np.ndarray]:
    """Runs the program `text` on the device of `key` and returns its bound globals."""
    target, index, variant = key
    module = parse(text)
    program: CompiledProgram = compile_program(module, target, "primitives")
    if variant == "emulated":
        emulated = KernelPrinter(OpenCLFlavour(native_subgroups=False)).print_module(module)
        assert "sub_group_ballot" not in emulated
        program = dataclasses.replace(program, kernel_source=emulated)
    return program.run(devices(target, index), ["primitives", *argv], io.StringIO()).globals


def inputs(count: int) -> np.ndarray:
    """The values the kernels below compute from the global id: odd and even,
    negative and positive."""
    gid = np.arange(count, dtype=np.int64)
    return ((gid * 7919 + 13) % 101 - 50).astype(np.int32)


INPUT_IR = """
    %gid = gir_gpu.id global
    %g = arith.index_cast %gid : i32 to index
    %k7919 = arith.constant 7919 : i32
    %k13 = arith.constant 13 : i32
    %k101 = arith.constant 101 : i32
    %k50 = arith.constant 50 : i32
    %scaled = arith.muli %gid, %k7919 : i32
    %shifted = arith.addi %scaled, %k13 : i32
    %mod = arith.remsi %shifted, %k101 : i32
    %x = arith.subi %mod, %k50 : i32
"""
"""Kernel lines defining `%gid`, `%g` (its index) and `%x` as `inputs` does."""

MAIN_IR = """
  func.func @main() {{
    %blocks = host.argv_int argv[1] : i32
    %block = host.argv_int argv[2] : i32
    %n = arith.muli %blocks, %block : i32
{allocs}
    host.launch @{kernel} grid %blocks block %block ({args}) : {types}
    func.return
  }}
"""


def host_main(kernel: str, buffers: dict[str, str]) -> str:
    """`@main`: allocates and binds one buffer of `n = blocks * block` elements per
    name (name -> element type) and launches `kernel` on them."""
    allocs = "\n".join(
        f'    %{name} = host.alloc %n : i32 -> memref<?x{element}>\n'
        f'    host.bind_global %{name} as "{name}" : memref<?x{element}>'
        for name, element in buffers.items()
    )
    args = ", ".join(f"%{name}" for name in buffers)
    types = ", ".join(f"memref<?x{element}>" for element in buffers.values())
    return MAIN_IR.format(allocs=allocs, kernel=kernel, args=args, types=types)


SHARED = (
    """
builtin.module {
  gir_gpu.kernel @reverse_tiles(%reversed: memref<?xi32>, %rotated: memref<?xi32>) {
    %tile = gir_gpu.shared_alloc : memref<256xi32, #gir_gpu.workgroup>
    %counts = gir_gpu.shared_alloc : memref<1xi32, #gir_gpu.workgroup>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant 0 : index
    %thread = gir_gpu.id thread
    %size = gir_gpu.id block_dim
    %t = arith.index_cast %thread : i32 to index
"""
    + INPUT_IR
    + """
    memref.store %x, %tile[%t] : memref<256xi32, #gir_gpu.workgroup>
    %first = arith.cmpi eq, %thread, %c0 : i32
    scf.if %first {
      memref.store %c0, %counts[%z] : memref<1xi32, #gir_gpu.workgroup>
    }
    gir_gpu.barrier
    %last = arith.subi %size, %c1 : i32
    %mirror = arith.subi %last, %thread : i32
    %m = arith.index_cast %mirror : i32 to index
    %y = memref.load %tile[%m] : memref<256xi32, #gir_gpu.workgroup>
    memref.store %y, %reversed[%g] : memref<?xi32>
    %odd = arith.andi %x, %c1 : i32
    %is_odd = arith.cmpi ne, %odd, %c0 : i32
    scf.if %is_odd {
      %old = gir_gpu.atomic_rmw add %c1, %counts[%z] : i32, memref<1xi32, #gir_gpu.workgroup>, index
    }
    gir_gpu.barrier
    %odds = memref.load %counts[%z] : memref<1xi32, #gir_gpu.workgroup>
    %rounds = arith.constant 3 : i32
    %value = scf.for %round = %c0 to %rounds step %c1 iter_args(%current = %y) -> (i32) : i32 {
      memref.store %current, %tile[%t] : memref<256xi32, #gir_gpu.workgroup>
      gir_gpu.barrier
      %next_thread = arith.addi %thread, %c1 : i32
      %wrapped = arith.remsi %next_thread, %size : i32
      %w = arith.index_cast %wrapped : i32 to index
      %next = memref.load %tile[%w] : memref<256xi32, #gir_gpu.workgroup>
      gir_gpu.barrier
      scf.yield %next : i32
    }
    %result = arith.addi %value, %odds : i32
    memref.store %result, %rotated[%g] : memref<?xi32>
    gir_gpu.return
  }
"""
    + host_main("reverse_tiles", {"reversed": "i32", "rotated": "i32"})
    + "}"
)
"""Each block reverses its values through a shared array, counts its odd values
with a shared atomic, then rotates the reversed values by three threads in a
uniform loop with two barriers per round."""


@pytest.mark.parametrize("block", BLOCKS)
@pytest.mark.parametrize("key", DEVICES)
def test_shared_arrays_and_barriers(key, block, devices):
    blocks = 3
    result = run(SHARED, key, devices, [str(blocks), str(block)])
    x = inputs(blocks * block).reshape(blocks, block)
    reversed_ = x[:, ::-1]
    odds = (x % 2 != 0).sum(axis=1, keepdims=True)
    rotated = np.roll(reversed_, -3, axis=1) + odds
    assert np.array_equal(result["reversed"], reversed_.ravel())
    assert np.array_equal(result["rotated"], rotated.ravel())


SUBGROUPS = (
    """
builtin.module {
  gir_gpu.kernel @subgroups(%ballots: memref<?xi32>, %sums: memref<?xi32>, %wide_sums: memref<?xi64>, %real_sums: memref<?xf32>, %broadcasts: memref<?xi32>, %wide_broadcasts: memref<?xi64>, %ids: memref<?xi32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c1000 = arith.constant 1000 : i32
    %c3 = arith.constant 3 : i32
"""
    + INPUT_IR
    + """
    %bit = arith.andi %x, %c1 : i32
    %odd = arith.cmpi ne, %bit, %c0 : i32
    %mask = gir_gpu.subgroup_ballot %odd
    memref.store %mask, %ballots[%g] : memref<?xi32>
    %sum = gir_gpu.subgroup_exclusive_sum %x : i32
    memref.store %sum, %sums[%g] : memref<?xi32>
    %x64 = arith.extsi %x : i32 to i64
    %big = arith.constant 4294967296 : i64
    %wide = arith.muli %x64, %big : i64
    %wide_sum = gir_gpu.subgroup_exclusive_sum %wide : i64
    memref.store %wide_sum, %wide_sums[%g] : memref<?xi64>
    %xf = arith.sitofp %x : i32 to f32
    %real_sum = gir_gpu.subgroup_exclusive_sum %xf : f32
    memref.store %real_sum, %real_sums[%g] : memref<?xf32>
    %lane = gir_gpu.id lane
    %subgroup = gir_gpu.id subgroup
    %width = gir_gpu.id subgroup_size
    %source = arith.remsi %subgroup, %c3 : i32
    %from = gir_gpu.subgroup_broadcast %x, %source : i32
    memref.store %from, %broadcasts[%g] : memref<?xi32>
    %wide_from = gir_gpu.subgroup_broadcast %wide_sum, %c1 : i64
    memref.store %wide_from, %wide_broadcasts[%g] : memref<?xi64>
    %high = arith.muli %subgroup, %c1000 : i32
    %id = arith.addi %high, %lane : i32
    %id2 = arith.muli %id, %c1000 : i32
    %all_ids = arith.addi %id2, %width : i32
    memref.store %all_ids, %ids[%g] : memref<?xi32>
    gir_gpu.return
  }
"""
    + host_main(
        "subgroups",
        {
            "ballots": "i32", "sums": "i32", "wide_sums": "i64", "real_sums": "f32",
            "broadcasts": "i32", "wide_broadcasts": "i64", "ids": "i32",
        },
    )  # fmt: skip
    + "}"
)
"""Every sub-group op on every element type, with the lane and sub-group ids."""


def subgroups_of(count: int, block: int):
    """(thread's sub-group start, thread's lane) for `count` threads in blocks of
    `block`: sub-groups are 32 consecutive threads of a block."""
    gid = np.arange(count)
    thread = gid % block
    lane = thread % SUBGROUP_SIZE
    return gid - lane, lane


@pytest.mark.parametrize("block", BLOCKS)
@pytest.mark.parametrize("key", DEVICES)
def test_subgroup_ops(key, block, devices):
    blocks = 3
    count = blocks * block
    result = run(SUBGROUPS, key, devices, [str(blocks), str(block)])
    x = inputs(count)
    start, lane = subgroups_of(count, block)
    odd = (x % 2 != 0).astype(np.int64)
    expected_ballot = np.array(
        [sum(int(odd[s + k]) << k for k in range(SUBGROUP_SIZE) if s + k < count and (s + k) // block == s // block)
         for s in start]
    ).astype(np.uint32).view(np.int32)  # fmt: skip
    exclusive = np.array([x[s : s + k].sum() for s, k in zip(start, lane)], dtype=np.int64)
    wide = x.astype(np.int64) << 32
    wide_exclusive = np.array([wide[s : s + k].sum() for s, k in zip(start, lane)], dtype=np.int64)
    subgroup = (np.arange(count) % block) // SUBGROUP_SIZE
    assert np.array_equal(result["ballots"], expected_ballot)
    assert np.array_equal(result["sums"], exclusive.astype(np.int32))
    assert np.array_equal(result["wide_sums"], wide_exclusive)
    assert np.array_equal(result["real_sums"], exclusive.astype(np.float32))
    assert np.array_equal(result["broadcasts"], x[start + subgroup % 3])
    assert np.array_equal(result["wide_broadcasts"], wide_exclusive[start + 1])
    expected_ids = (subgroup * 1000 + lane) * 1000 + SUBGROUP_SIZE
    assert np.array_equal(result["ids"], expected_ids.astype(np.int32))
