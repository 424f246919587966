"""An OpenCL device without an extension the kernels enable is one located error
before the kernels are built (not a build failure): the statement that needs it,
the device and the extension. PoCL has every extension gir uses, so the tests
take one away from an opened device."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from gir.api import lower_for_run
from gir.diagnostics import UserError
from gir.executor import compile_program, open_device
from gir.tools.run import parse_program

PROGRAMS = Path(__file__).parents[1] / "programs"


@pytest.fixture(scope="module")
def device():
    try:
        return open_device("opencl")
    except UserError as error:
        pytest.skip(str(error))


def test_kernels_record_where_each_extension_is_needed():
    """uint_64 `min=` (line 40 of lang_unsigned.gt) needs the extended 64-bit atomics."""
    program = compile_program(lower_for_run(parse_program(str(PROGRAMS / "lang_unsigned.gt"))), "opencl")
    sites = dict(program.extensions)
    assert sites["cl_khr_int64_extended_atomics"].endswith("lang_unsigned.gt:40:5")
    assert "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable" in program.kernel_source
    cuda = compile_program(lower_for_run(parse_program(str(PROGRAMS / "lang_unsigned.gt"))), "cuda")
    assert cuda.extensions == ()


def test_missing_extension_is_a_located_error(device, monkeypatch):
    program = compile_program(lower_for_run(parse_program(str(PROGRAMS / "lang_unsigned.gt"))), "opencl")
    monkeypatch.setattr(device, "extensions", device.extensions - {"cl_khr_int64_extended_atomics"})
    with pytest.raises(UserError) as error:
        program.run(device, ["lang_unsigned.gt", "road:3:3"], io.StringIO())
    assert str(error.value) == (
        f"{PROGRAMS / 'lang_unsigned.gt'}:40:5: error: {device.name} lacks the OpenCL extension "
        "cl_khr_int64_extended_atomics, which this statement needs (64-bit atomic min, max "
        "or or: min= / max= on int64 or uint_64)"
    )


def test_program_without_64_bit_atomics_runs_without_them(device, monkeypatch):
    """A program whose kernels need no extension runs on a device that has none."""
    program = compile_program(lower_for_run(parse_program(str(PROGRAMS / "lang_hostonly.gt"))), "opencl")
    assert program.extensions == ()
    monkeypatch.setattr(device, "extensions", frozenset())
    out = io.StringIO()
    program.run(device, ["lang_hostonly.gt", "10"], out)
    assert out.getvalue().split()[:3] == ["4", "17", "7"]
